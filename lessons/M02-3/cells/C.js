// C. Lowering: a backend replaces "dequantize -> op -> quantize" by one integer kernel that reads the int8
// tensor itself. The dequantize disappears into the kernel — so it must belong to that op alone.
const { x, p, graphs, reference } = state;
const QMIN = -128, QMAX = 127;
const f32 = Math.fround;
const users = (g, name) => Object.entries(g).filter(([, u]) => u.inputs.includes(name)).map(([k]) => k);
// The rule a pattern rewriter applies: every dequantize the pattern swallows may have no user outside it.
function canLower(g, op) {
  const dqs = g[op].inputs.filter((i) => g[i]?.op === 'dequantize');
  const outside = dqs.flatMap((d) => users(g, d).filter((u) => u !== op).map((u) => `${d} → ${u}`));
  return { ok: outside.length === 0, why: outside.join(', ') };
}
const rows = [];
const verdict = {};
for (const [label, g] of Object.entries(graphs)) for (const op of ['conv', 'add']) {
  const v = canLower(g, op);
  verdict[`${label}/${op}`] = v.ok;
  rows.push([ctx.tr(label === 'shared' ? { en: 'shared dq', 'zh-TW': '共用 dq' } : { en: 'after DuplicateDQPass', 'zh-TW': 'DuplicateDQPass 之後' }), op,
    v.ok ? ctx.tr({ en: 'yes', 'zh-TW': '可以' }) : ctx.tr({ en: `no: ${v.why} would lose its input`, 'zh-TW': `不行：${v.why} 會失去輸入` })]);
}
show.table([ctx.tr({ en: 'graph', 'zh-TW': '圖' }), 'op', ctx.tr({ en: 'lower to an int8 kernel?', 'zh-TW': '能換成 int8 kernel 嗎？' })], rows);

// The integer kernels, reading int8 q_x (and q_r) directly, with one float multiplier per input.
const rne = (v) => { const r = Math.round(v); return r - v === 0.5 && (r & 1) ? r - 1 : r; };
const clamp = (v) => Math.min(Math.max(v, QMIN), QMAX);
const qx = pt.quantize_per_tensor(x, p.x.s, p.x.z, QMIN, QMAX, 'int8').data();
const rT = (() => { pt.manual_seed(1); return pt.randn(x.shape).mul(0.5); })();   // B's r again (same seed)
const qr = pt.quantize_per_tensor(rT, p.r.s, p.r.z, QMIN, QMAX, 'int8').data();
const mA = f32(f32(p.x.s * p.w) / p.a.s);                  // conv: (q - z)·(s_x·w / s_out)
const mBx = f32(p.x.s / p.b.s), mBr = f32(p.r.s / p.b.s);  // add: each input rescaled to the output scale
let worstA = 0, worstB = 0, exact = 0;
for (let i = 0; i < qx.length; i++) {
  const a = clamp(rne((qx[i] - p.x.z) * mA) + p.a.z);
  const b = clamp(rne((qx[i] - p.x.z) * mBx + (qr[i] - p.r.z) * mBr) + p.b.z);
  worstA = Math.max(worstA, Math.abs(a - reference.a[i]));
  worstB = Math.max(worstB, Math.abs(b - reference.b[i]));
  if (a === reference.a[i] && b === reference.b[i]) exact++;
}
show.text(ctx.tr({ en: `integer kernels vs dq → op → q: largest difference ${worstA} (conv) and ${worstB} (add) steps; ${exact} of ${qx.length} elements identical in both`,
  'zh-TW': `整數 kernel 與 dq → op → q 相比：最大差異 ${worstA}（conv）與 ${worstB}（add）格；兩者都完全相同的元素 ${exact} / ${qx.length}` }));
check(!verdict['shared/conv'] && !verdict['shared/add'] && verdict['split/conv'] && verdict['split/add'],
  { en: 'with the shared dq neither op can be lowered; after duplication both can', 'zh-TW': '共用 dq 時兩個 op 都無法換掉；複製之後兩個都可以' });
check(worstA <= 1 && worstB <= 1, { en: 'the integer kernels reproduce dq → op → q to within one step', 'zh-TW': '整數 kernel 重現 dq → op → q，誤差在一格以內' });
check(exact > 0.99 * qx.length, { en: 'and exactly for more than 99 % of elements', 'zh-TW': '而且超過 99 % 的元素完全相同' });
