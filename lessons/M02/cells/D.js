// D. Check the hand work against the real thing: prepare_pt2e + the same calibration batches + convert_pt2e.
const { gm, calib, qp, weight, xt, handAll } = state;
const quantizer = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true }));
const prepared = pt.prepare_pt2e(gm, quantizer);            // gm itself is left as it was
for (const xb of calib) prepared.forward(xb);
const converted = pt.convert_pt2e(prepared);
const nodes = converted.nodes;
const byName = Object.fromEntries(nodes.map((n) => [n.name, n]));
const sd = Object.fromEntries(converted.state_dict().map((e) => [e.name, e.tensor]));
const attr = (arg) => sd[byName[arg.node].target];           // a get_attr argument's tensor
const qOf = (src) => nodes.find((n) => n.kind === 'quantize' && n.args[0]?.node === src);
const qIn = qOf('x'), qOut = qOf('relu');
const dqW = nodes.find((n) => n.kind === 'dequantize' && byName[n.args[0].node].kind === 'get_attr');   // the weight's
const wScale = attr(dqW.args[1]).data(), wInt = attr(dqW.args[0]).data();
const handWInt = pt.quantize_per_channel(weight, qp.w.scale, qp.w.zero_point, 0, -127, 127, 'int8').data();
const f = (s, z) => `${s.toPrecision(6)} / ${z}`;
show.table([ctx.tr({ en: 'edge', 'zh-TW': '邊' }), ctx.tr({ en: 'by hand (B)', 'zh-TW': '手動（B）' }), 'convert_pt2e'], [
  ['x → conv2d', f(qp.x.scale[0], qp.x.zero_point[0]), f(qIn.args[1], qIn.args[2])],
  ['conv_weight → conv2d', Array.from(qp.w.scale, (v) => v.toPrecision(4)).join(' '), Array.from(wScale, (v) => v.toPrecision(4)).join(' ')],
  ['relu → output', f(qp.out.scale[0], qp.out.zero_point[0]), f(qOut.args[1], qOut.args[2])],
]);
const y = converted.forward(xt).data();
const sOut = qOut.args[1];
let same = 0, worst = 0;
for (let i = 0; i < y.length; i++) { const d = Math.abs(y[i] - handAll[i]) / sOut; if (d === 0) same++; worst = Math.max(worst, d); }
show.text(ctx.tr({ en: `converted graph vs the hand-converted model on C's batch: ${same} of ${y.length} outputs identical, largest difference ${worst.toFixed(3)} steps`,
  'zh-TW': `convert 後的圖與 C 段親手 convert 的模型（同一批資料）：${y.length} 個輸出中 ${same} 個完全相同，最大差異 ${worst.toFixed(3)} 格` }));
check(qIn.args[1] === qp.x.scale[0] && qIn.args[2] === qp.x.zero_point[0] && qOut.args[1] === qp.out.scale[0] && qOut.args[2] === qp.out.zero_point[0],
  { en: 'the activation qparams convert_pt2e baked in are exactly the hand-built observers\'', 'zh-TW': 'convert_pt2e 寫進圖裡的 activation qparams，和手動建立的 observer 完全相同' });
check(wScale.every((v, c) => v === qp.w.scale[c]) && wInt.every((v, i) => v === handWInt[i]),
  { en: 'the weight: same per-channel scales, and the stored int8 weight equals quantize_per_channel by hand', 'zh-TW': 'weight：per-channel scale 相同，存下來的 int8 weight 也等於手動 quantize_per_channel 的結果' });
check(worst <= 1 + 1e-6 && same > 0.99 * y.length, { en: 'outputs agree to within one step, and exactly for more than 99 % (only the conv\'s summation order differs)', 'zh-TW': '輸出差距在一格以內，超過 99 % 完全相同（只有 conv 的加總順序不同）' });
