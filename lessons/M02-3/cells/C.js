// C. Lowering: a backend replaces "dequantize -> op -> quantize" by one integer kernel that reads the int8 tensor
// itself, and may do so only if nothing outside the group reads a node it removes. The rule, applied to the graphs
// convert_pt2e built in B: XNNPACK's (after DuplicateDQPass) and the one whose dequantize of x stayed shared.
const { x, qx, converted, shared } = state;
const QMIN = -128, QMAX = 127;
const f32 = Math.fround;
const isDQ = (n) => n?.target.startsWith('quantized_decomposed.dequantize');
function canLower(g, opName) {                    // every dequantize feeding the op must belong to it alone
  const op = g.node(opName);
  const outside = op.args.flat().filter((a) => a?.node && isDQ(g.node(a.node)))
    .flatMap((a) => g.node(a.node).users.filter((u) => u !== opName).map((u) => `${a.node} → ${u}`));
  return { ok: outside.length === 0, why: outside.join(', ') };
}
const rows = [], verdict = {};
for (const [label, g] of [['after DuplicateDQPass', converted], ['shared dq', shared]]) for (const op of ['conv2d', 'add']) {
  const v = canLower(g, op);
  verdict[`${label}/${op}`] = v.ok;
  rows.push([ctx.tr(label === 'shared dq' ? { en: 'shared dq (B: x output only)', 'zh-TW': '共用 dq（B：只標 x 的輸出）' } : { en: 'XNNPACK, after DuplicateDQPass', 'zh-TW': 'XNNPACK，DuplicateDQPass 之後' }), op,
    v.ok ? ctx.tr({ en: 'yes', 'zh-TW': '可以' }) : ctx.tr({ en: `no: ${v.why} would lose its input`, 'zh-TW': `不行：${v.why} 會失去輸入` })]);
}
show.table([ctx.tr({ en: 'graph', 'zh-TW': '圖' }), 'op', ctx.tr({ en: 'lower to an int8 kernel?', 'zh-TW': '能換成 int8 kernel 嗎？' })], rows);

// An integer add kernel next to the float reference dq -> add -> q, both reading x quantized with its qparams
// from the graph and a second int8 input r (a stand-in for the block's other branch).
pt.manual_seed(1);
const r = pt.randn(x.shape).mul(0.5);
const observe = (t) => { const o = new pt.MinMaxObserver({ dtype: 'int8', quant_min: QMIN, quant_max: QMAX }); o.forward(t);
  const { scale, zero_point } = o.calculate_qparams(); return { s: scale[0], z: zero_point[0] }; };
const q = (t, p) => pt.quantize_per_tensor(t, p.s, p.z, QMIN, QMAX, 'int8');
const dq = (t, p) => pt.dequantize_per_tensor(t, p.s, p.z, QMIN, QMAX, 'int8');
const qr = observe(r);
const sumT = (a, b) => { const bv = b.data(); return pt.tensor(a.data().map((v, i) => v + bv[i]), a.shape); };   // float32 add
const qo = observe(sumT(dq(q(x, qx), qx), dq(q(r, qr), qr)));
const reference = q(sumT(dq(q(x, qx), qx), dq(q(r, qr), qr)), qo).data();              // dq -> add -> q with the engine's ops
const rne = (v) => { const k = Math.round(v); return k - v === 0.5 && (k & 1) ? k - 1 : k; };
const ix = q(x, qx).data(), ir = q(r, qr).data();
const mx = f32(qx.s / qo.s), mr = f32(qr.s / qo.s);                                      // one multiplier per input
let worst = 0, exact = 0;
for (let i = 0; i < ix.length; i++) {
  const out = Math.min(Math.max(rne((ix[i] - qx.z) * mx + (ir[i] - qr.z) * mr) + qo.z, QMIN), QMAX);
  worst = Math.max(worst, Math.abs(out - reference[i]));
  if (out === reference[i]) exact++;
}
show.text(ctx.tr({ en: `integer add vs dq → add → q: largest difference ${worst} steps; ${exact} of ${ix.length} elements identical`,
  'zh-TW': `整數 add 與 dq → add → q 相比：最大差異 ${worst} 格；${ix.length} 個元素中有 ${exact} 個完全相同` }));
check(verdict['after DuplicateDQPass/conv2d'] && verdict['after DuplicateDQPass/add'],
  { en: 'after DuplicateDQPass, the rewriter may take both conv2d and add: each has a dequantize of its own', 'zh-TW': 'DuplicateDQPass 之後，rewriter 可以換掉 conv2d 和 add：各有自己的 dequantize' });
check(!verdict['shared dq/conv2d'] && !verdict['shared dq/add'],
  { en: 'with the shared dequantize neither op can be lowered', 'zh-TW': '共用 dequantize 時，兩個 op 都無法換掉' });
check(exact === ix.length, { en: 'the integer add reproduces dq → add → q on every element here', 'zh-TW': '在這裡，整數 add 每個元素都重現了 dq → add → q' });
