// progress.js — a learner's progress per lesson, kept in this browser (localStorage; nothing leaves it):
// how many of a lesson's checks passed the last time each of its cells ran. The navigator shows it.
//   recordProgress('M01', { A: { passed: 4, total: 4 }, B: { passed: 5, total: 5 } });
//   readProgress()  -> { M01: { passed: 9, total: 9 } , ... }
// A cell's answered prediction counts as one more item, stored as '<cell>#predict': { passed: 0 | 1, total: 1 }.
// The learner's answers themselves are kept too, so a reload shows them:
//   recordPrediction('M01', 'A', '-128');   readPredictions('M01') -> { A: '-128' }
// Storage that is unavailable or full (private windows, settings) leaves the page working without it.
const KEY = 'pt2e-progress';
const ANSWERS = 'pt2e-predictions';

export function readProgress() {
  try {
    const all = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '{}');
    const out = {};
    for (const [id, cells] of Object.entries(all && typeof all === 'object' ? all : {})) {
      let passed = 0, total = 0;
      for (const c of Object.values(cells ?? {})) {
        if (Number.isInteger(c?.passed) && Number.isInteger(c?.total) && c.passed >= 0 && c.passed <= c.total) {
          passed += c.passed;
          total += c.total;
        }
      }
      if (total > 0) out[id] = { passed, total };
    }
    return out;
  } catch {
    return {};
  }
}

// Stores the latest counts of the given cells of one lesson (other cells keep theirs).
export function recordProgress(lessonId, cells) {
  try {
    const all = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '{}') ?? {};
    all[lessonId] = { ...(all[lessonId] ?? {}), ...cells };
    globalThis.localStorage?.setItem(KEY, JSON.stringify(all));
  } catch { /* no storage: progress is not kept */ }
}

// The learner's prediction answers of one lesson, { cell: answer } (strings).
export function readPredictions(lessonId) {
  try {
    const all = JSON.parse(globalThis.localStorage?.getItem(ANSWERS) ?? '{}') ?? {};
    const mine = all[lessonId];
    return mine && typeof mine === 'object' ? Object.fromEntries(Object.entries(mine).filter(([, v]) => typeof v === 'string')) : {};
  } catch {
    return {};
  }
}

export function recordPrediction(lessonId, cellId, answer) {
  try {
    const all = JSON.parse(globalThis.localStorage?.getItem(ANSWERS) ?? '{}') ?? {};
    all[lessonId] = { ...(all[lessonId] ?? {}), [cellId]: String(answer) };
    globalThis.localStorage?.setItem(ANSWERS, JSON.stringify(all));
  } catch { /* no storage: the answer lives in the page's URL only */ }
}
