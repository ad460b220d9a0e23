// zh_tw_lint.test.js — the course's Traditional Chinese text, as a reader meets it: every page's prose, the zh-TW
// titles in lessons/index.json and lesson.json, the zh-TW strings of cells, kits and strings.json, and the page's
// own words (web/app/i18n.js). It fails on
//   - a Simplified character: opencc-js's cn → tw conversion must change nothing;
//   - a word the glossary (docs/glossary.zh-TW.md) lists under "not", outside code and math;
//   - a space between two CJK characters left in the source (the renderer joins line breaks, not spaces).
// The glossary is read from its table, so every term the test enforces is listed there.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import * as OpenCCModule from 'opencc-js';
import { writtenLessons } from '../../web/app/cell_runner.js';

const root = new URL('../../', import.meta.url);
const read = (rel) => readFileSync(new URL(rel, root), 'utf8');
const OpenCC = OpenCCModule.default ?? OpenCCModule;
const toTaiwan = OpenCC.Converter({ from: 'cn', to: 'tw' });
const CJK = '[\\u3400-\\u9fff\\uf900-\\ufaff\\u3000-\\u303f\\uff00-\\uffef]';

// The glossary's rows: | concept | word | not | — "not" holds `variants` in backticks; /…/ is a regular expression.
export function glossary() {
  const rows = read('docs/glossary.zh-TW.md').split('\n').filter((l) => /^\|/.test(l) && !/^\|\s*-/.test(l)).slice(1);
  return rows.map((l) => {
    const [concept, word, not] = l.split('|').slice(1, 4).map((c) => c.trim());
    const variants = [...(not ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    return { concept, word, variants: variants.map((v) => (v.startsWith('/') && v.endsWith('/') ? new RegExp(v.slice(1, -1), 'u')
      : new RegExp(/^[A-Za-z]/.test(v) ? `\\b${v}\\b` : v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'u'))) };
  });
}

// Text a reader sees: code spans and inline math as a placeholder 0, code blocks and display math removed, line breaks between CJK characters joined.
function readable(markdown) {
  return markdown.replace(/```[\s\S]*?```/g, '\n').replace(/`[^`\n]*`/g, '0').replace(/\$\$[\s\S]*?\$\$/g, '\n').replace(/\$[^$\n]+\$/g, '0')
    .replace(new RegExp(`(${CJK})\\n(?=${CJK})`, 'gu'), '$1').replace(/<!--[\s\S]*?-->/g, '\n');
}
// The zh-TW string literals of a JS file ('zh-TW': '…' or `…`), as text.
const zhLiterals = (js) => [...js.matchAll(/'zh-TW'\s*:\s*(['`])((?:\\.|(?!\1)[\s\S])*)\1/g)].map((m) => m[2].replace(/\$\{[^}]*\}/g, '0'));

function pages() {
  const out = [];
  const index = JSON.parse(read('lessons/index.json'));
  out.push(['lessons/index.json', index.flatMap((ch) => [ch.title?.['zh-TW'], ...ch.pages.map((p) => p.title?.['zh-TW'])]).filter(Boolean).join('\n')]);
  for (const id of writtenLessons(index)) {
    const dir = `lessons/${id}/`;
    out.push([`${dir}prose.zh-TW.md`, readable(read(`${dir}prose.zh-TW.md`))]);
    const meta = JSON.parse(read(`${dir}lesson.json`));
    out.push([`${dir}lesson.json`, [meta.title['zh-TW'], ...meta.cells.flatMap((c) => [c.title['zh-TW'], c.predict?.question?.['zh-TW'],
      ...(c.predict?.choices ?? []).map((ch) => ch.label?.['zh-TW'])])].filter(Boolean).join('\n')]);
    if (existsSync(new URL(`${dir}strings.json`, root))) {
      out.push([`${dir}strings.json`, Object.values(JSON.parse(read(`${dir}strings.json`))).map((s) => (s['zh-TW'] ?? '').replace(/\{\w+\}/g, '0')).join('\n')]);
    }
    for (const sub of ['cells', 'wrong']) {
      if (!existsSync(new URL(`${dir}${sub}`, root))) continue;
      for (const f of readdirSync(new URL(`${dir}${sub}`, root)).filter((f) => f.endsWith('.js'))) out.push([`${dir}${sub}/${f}`, zhLiterals(read(`${dir}${sub}/${f}`)).join('\n')]);
    }
    if (meta.kit) out.push([`${dir}kit.js`, zhLiterals(read(`${dir}kit.js`)).join('\n')]);
  }
  const i18n = read('web/app/i18n.js');
  out.push(['web/app/i18n.js', i18n.slice(i18n.indexOf("'zh-TW': {"))]);
  return out;
}

test('the glossary lists terms, each with one word and the variants it replaces', () => {
  const g = glossary();
  assert.ok(g.length >= 8, `${g.length} rows`);
  for (const row of g) assert.ok(row.word && row.variants.length, `row '${row.concept}' needs a word and at least one variant`);
});

// One test per rule, over every file: a failure lists each file and place.
const all = pages();
test('Traditional Chinese as used in Taiwan: opencc-js cn → tw changes nothing', () => {
  const changed = [];
  for (const [file, text] of all) {
    const converted = [...toTaiwan(text)], original = [...text];
    original.forEach((ch, i) => { if (ch !== converted[i]) changed.push(`${file}: ${ch} → ${converted[i]} in …${original.slice(Math.max(0, i - 8), i + 8).join('')}…`); });
  }
  assert.deepEqual(changed, []);
});
test('only the glossary\'s words (docs/glossary.zh-TW.md)', () => {
  const found = [];
  const g = glossary();
  for (const [file, text] of all) {
    for (const { concept, word, variants } of g) {
      for (const v of variants) {
        const m = text.match(v);
        if (m) found.push(`${file}: '${m[0]}' (${concept}: write ${word}) in …${text.slice(Math.max(0, m.index - 10), m.index + m[0].length + 10).replace(/\n/g, ' ')}…`);
      }
    }
  }
  assert.deepEqual(found, []);
});
test('no space between two CJK characters', () => {
  const gaps = all.flatMap(([file, text]) => [...text.matchAll(new RegExp(`(${CJK})[ \\t]+(${CJK})`, 'gu'))].map((m) => `${file}: '${m[0]}'`));
  assert.deepEqual(gaps, []);
});
