// url_state.js — what a page's URL says, so a shared link reopens exactly what was shared:
//   ?lesson=M02-1&lang=zh-TW&cell=B&v.B.0=range:-0.5,2.25
// lesson and lang; the cell the learner was at (scrolled to, marked); and the controls of the views
// they moved, one parameter per view: v.<cell>.<view index in that cell>=<name>:<numbers>[;<name>:<numbers>].
// A view's controls are what its handle's controls() gives (web/app/views.js), e.g. { range: [min, max] }.
// Numbers keep 9 significant digits (a float32 survives the round trip). Values that do not parse are
// dropped, so a hand-edited link never breaks the page. The learner's predictions ride along too,
// one parameter per cell: pr.<cell>=<answer> (a choice's value or a number, at most 40 characters).
// Every value is validated here, so a crafted link cannot carry markup anywhere: a lesson id is M<2 digits>
// [-<digits>], a language one of the page's, a cell id letters, digits, '_' and '-', controls numbers; a
// prediction's answer is kept as text (the page shows it as text, never as HTML) without control characters.
//
//   const s = readUrlState(location.search, ['en', 'zh-TW']);   // { lesson, lang, cell, controls: { 'B.0': {...} }, predictions: { A: '3' } }
//   history.replaceState(null, '', `${location.pathname}${urlQuery(s)}`);
import { LESSON_ID } from './cell_runner.js';

const ID = /^[A-Za-z0-9_-]+$/;
const ANSWER = /^[^\u0000-\u001f\u007f]{1,40}$/;

export function readUrlState(search, langs) {
  const q = new URLSearchParams(search);
  const controls = {}, predictions = {};
  for (const [key, value] of q) {
    const pm = key.match(/^pr\.([A-Za-z0-9_-]+)$/);
    if (pm && ANSWER.test(value)) predictions[pm[1]] = value;
    const m = key.match(/^v\.([A-Za-z0-9_-]+)\.(\d+)$/);
    if (!m) continue;
    const parsed = parseControls(value);
    if (parsed) controls[`${m[1]}.${Number(m[2])}`] = parsed;
  }
  const cell = q.get('cell');
  const lesson = q.get('lesson');
  return {
    lesson: lesson && LESSON_ID.test(lesson) ? lesson : null,
    lang: langs.includes(q.get('lang')) ? q.get('lang') : langs[0],
    cell: cell && ID.test(cell) ? cell : null,
    controls,
    ...(Object.keys(predictions).length ? { predictions } : {}),   // present only when the link carries answers
  };
}

// The query string for a state ('' for the home page in the first language).
export function urlQuery({ lesson, lang, cell, controls = {}, predictions = {} }, defaultLang = 'en') {
  const q = new URLSearchParams();
  if (lesson && !LESSON_ID.test(lesson)) lesson = null;
  if (lesson) q.set('lesson', lesson);
  if (lang && lang !== defaultLang) q.set('lang', lang);
  if (lesson && cell && ID.test(cell)) q.set('cell', cell);
  if (lesson) {
    for (const [key, c] of Object.entries(controls)) {
      const text = formatControls(c);
      if (text) q.set(`v.${key}`, text);
    }
    for (const [c, answer] of Object.entries(predictions)) {
      if (ID.test(c) && answer !== null && answer !== undefined && ANSWER.test(String(answer))) q.set(`pr.${c}`, String(answer));
    }
  }
  const s = q.toString().replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%3B/g, ';');
  return s ? `?${s}` : '';
}

function parseControls(text) {
  const out = {};
  for (const part of text.split(';')) {
    const m = part.match(/^([A-Za-z_]\w*):(.+)$/);
    if (!m) return null;
    const nums = m[2].split(',').map(Number);
    if (!nums.length || nums.some((n) => !Number.isFinite(n))) return null;
    out[m[1]] = nums;
  }
  return Object.keys(out).length ? out : null;
}

function formatControls(c) {
  if (!c || typeof c !== 'object') return '';
  return Object.entries(c)
    .filter(([name, v]) => /^[A-Za-z_]\w*$/.test(name) && Array.isArray(v) && v.length && v.every(Number.isFinite))
    .map(([name, v]) => `${name}:${v.map((n) => Number(n.toPrecision(9))).join(',')}`)
    .join(';');
}
