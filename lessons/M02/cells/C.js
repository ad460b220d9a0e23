// C. "Convert" by hand: quantize -> dequantize on the three observed edges, run conv + relu, compare with float.
const { gm, weight, bias, qp } = state;
const f32 = Math.fround;
// conv2d (3x3, stride 1, padding 1) + bias, float32 accumulation — enough to run the graph with other weights.
function conv3x3(x, xs, w, ws, b) {
  const [N, C, H, W] = xs, [O] = ws;
  const out = new Float32Array(N * O * H * W);
  for (let n = 0; n < N; n++) for (let o = 0; o < O; o++) for (let i = 0; i < H; i++) for (let j = 0; j < W; j++) {
    let acc = b[o];
    for (let c = 0; c < C; c++) for (let ki = 0; ki < 3; ki++) {
      const ii = i + ki - 1; if (ii < 0 || ii >= H) continue;
      for (let kj = 0; kj < 3; kj++) {
        const jj = j + kj - 1; if (jj < 0 || jj >= W) continue;
        acc = f32(acc + f32(x[((n * C + c) * H + ii) * W + jj] * w[((o * C + c) * 3 + ki) * 3 + kj]));
      }
    }
    out[((n * O + o) * H + i) * W + j] = acc;
  }
  return out;
}
const relu = (a) => a.map((v) => (v > 0 ? v : 0));
const qdqT = (t, q) => pt.dequantize_per_tensor(pt.quantize_per_tensor(t, q.scale[0], q.zero_point[0], -128, 127, 'int8'), q.scale[0], q.zero_point[0], -128, 127, 'int8');
const xt = pt.randn([8, 3, 16, 16]);                        // a batch calibration never saw
const ref = gm.forward(xt);                                 // the float graph
const wq = pt.dequantize_per_channel(pt.quantize_per_channel(weight, qp.w.scale, qp.w.zero_point, 0, -127, 127, 'int8'),
  qp.w.scale, qp.w.zero_point, 0, -127, 127, 'int8');
const b = bias.data();
const convs = {};                                            // each (input, weight) pair is computed once
const run = ({ x = false, w = false, out = false } = {}) => {
  const key = `${x}/${w}`;
  convs[key] ??= relu(conv3x3((x ? qdqT(xt, qp.x) : xt).data(), xt.shape, (w ? wq : weight).data(), weight.shape, b));
  const y = pt.tensor(convs[key], ref.shape);
  return out ? qdqT(y, qp.out) : y;
};
const float = run();
const refv = ref.data(), fv = float.data();
let maxDiff = 0; for (let i = 0; i < refv.length; i++) maxDiff = Math.max(maxDiff, Math.abs(refv[i] - fv[i]));

// a symmetric output observer, for comparison (same calibration idea, on this batch's float output)
const symObs = new pt.MinMaxObserver({ dtype: 'int8', qscheme: 'per_tensor_symmetric', quant_min: -128, quant_max: 127, eps: 2 ** -12 });
symObs.forward(ref);
const symOut = symObs.calculate_qparams();
const affObs = new pt.MinMaxObserver({ dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: -128, quant_max: 127, eps: 2 ** -12 });
affObs.forward(ref);
const affOut = affObs.calculate_qparams();

const variants = [
  [ctx.tr({ en: 'input only', 'zh-TW': '只量化輸入' }), { x: true }],
  [ctx.tr({ en: 'weight only', 'zh-TW': '只量化 weight' }), { w: true }],
  [ctx.tr({ en: 'output only', 'zh-TW': '只量化輸出' }), { out: true }],
  [ctx.tr({ en: 'all three (what convert builds)', 'zh-TW': '三者都量化（convert 做出來的）' }), { x: true, w: true, out: true }],
];
state.xt = xt;
state.handAll = run({ x: true, w: true, out: true }).data();   // kept for cell D
const db = {};
const rows = variants.map(([label, v], k) => { db[k] = pt.sqnr(ref, run(v)); return [label, db[k].toFixed(2)]; });
const dbSym = pt.sqnr(ref, qdqT(ref, symOut)), dbAff = pt.sqnr(ref, qdqT(ref, affOut));
rows.push([ctx.tr({ en: 'output only, MinMax symmetric on this batch', 'zh-TW': '只量化輸出，用這批資料的 MinMax symmetric' }), dbSym.toFixed(2)]);
rows.push([ctx.tr({ en: 'output only, MinMax affine on this batch', 'zh-TW': '只量化輸出，用這批資料的 MinMax affine' }), dbAff.toFixed(2)]);
show.table([ctx.tr({ en: 'quantized', 'zh-TW': '量化了什麼' }), 'SQNR (dB)'], rows);
show.view('bar', { title: ctx.tr({ en: 'SQNR against the float graph (higher is better)', 'zh-TW': '與浮點圖相比的 SQNR（越高越好）' }),
  labels: ['x', 'weight', 'output', ctx.tr({ en: 'all three', 'zh-TW': '三者' }), 'output sym', 'output aff'], series: [{ name: 'SQNR', values: rows.map((r) => Number(r[1])) }], y_label: 'dB' });
show.text(ctx.tr({ en: `hand-written conv vs the graph: largest difference ${maxDiff.toExponential(2)}`, 'zh-TW': `手寫 conv 與圖的結果：最大差異 ${maxDiff.toExponential(2)}` }));

check(maxDiff < 1e-4, { en: 'the hand-written conv + relu reproduces the float graph (float rounding only)', 'zh-TW': '手寫的 conv + relu 重現了浮點圖的結果（只差浮點捨入）' });
check(db[3] < Math.min(db[0], db[1], db[2]), { en: 'quantizing all three edges loses more than any single one: the errors add up', 'zh-TW': '三條邊都量化，損失比任何單獨一個都多：誤差會累加' });
check(db[3] > 25, { en: 'int8 on all three edges still keeps the output above 25 dB SQNR', 'zh-TW': '三條邊都用 int8，輸出的 SQNR 仍高於 25 dB' });
check(dbAff - dbSym > 5, { en: 'on relu output, affine beats symmetric by more than 5 dB (M02-1\'s lost bit)', 'zh-TW': '在 relu 輸出上，affine 比 symmetric 高超過 5 dB（M02-1 說的那 1 bit）' });
