// url_state.test.js — the page's URL (web/app/url_state.js): lesson, language, the learner's cell and the
// controls of the views they moved survive the round trip; what does not parse is dropped, never thrown.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readUrlState, urlQuery } from '../../web/app/url_state.js';

const LANGS = ['en', 'zh-TW'];

test('a state written to the URL reads back the same', () => {
  const state = { lesson: 'M02-1', lang: 'zh-TW', cell: 'B', controls: { 'B.0': { range: [-0.5, 2.25] }, 'C.1': { range: [0.1, 3], x: [7] } } };
  const q = urlQuery(state);
  assert.equal(q, '?lesson=M02-1&lang=zh-TW&cell=B&v.B.0=range:-0.5,2.25&v.C.1=range:0.1,3;x:7');
  assert.deepEqual(readUrlState(q, LANGS), state);
});

test('a float32 control value survives the round trip', () => {
  const f = Math.fround(0.123456789123);
  const back = readUrlState(urlQuery({ lesson: 'M01', lang: 'en', cell: null, controls: { 'A.0': { range: [f, 2] } } }), LANGS);
  assert.equal(Math.fround(back.controls['A.0'].range[0]), f);
});

test('the home page in the first language is the bare path; cell and controls need a lesson', () => {
  assert.equal(urlQuery({ lesson: null, lang: 'en', cell: 'A', controls: { 'A.0': { range: [0, 1] } } }), '');
  assert.equal(urlQuery({ lesson: null, lang: 'zh-TW' }), '?lang=zh-TW');
});

test('what does not parse is dropped', () => {
  const s = readUrlState('?lesson=M01&lang=fr&cell=<b>&v.A.0=range:1,x&v.A.1=nonsense&v.A=range:1,2&v.B.0=range:0.5,1.5', LANGS);
  assert.deepEqual(s, { lesson: 'M01', lang: 'en', cell: null, controls: { 'B.0': { range: [0.5, 1.5] } } });
});

test('a crafted link carries no markup: every parameter is validated or kept as plain text', () => {
  const markup = '<img src=x onerror=alert(1)>';
  const q = new URLSearchParams({ lesson: markup, lang: markup, cell: markup, [`v.${markup}.0`]: 'range:0,1', 'v.A.0': `range:${markup}`, 'pr.A': markup, [`pr.${markup}`]: '1' });
  assert.deepEqual(readUrlState(`?${q}`, LANGS), { lesson: null, lang: 'en', cell: null, controls: {}, predictions: { A: markup } });
  // A prediction is text the page shows as text; control characters are refused, and so is a lesson id that is not M<nn>[-<n>].
  assert.deepEqual(readUrlState('?lesson=M01%0A&pr.A=1%0D2&pr.B=3', LANGS), { lesson: null, lang: 'en', cell: null, controls: {}, predictions: { B: '3' } });
  assert.equal(urlQuery({ lesson: markup, lang: 'en', cell: 'A' }), '');
  assert.equal(urlQuery({ lesson: 'M01', lang: 'en', cell: markup, predictions: { [markup]: '1', A: 'x\ny' } }), '?lesson=M01');
});
