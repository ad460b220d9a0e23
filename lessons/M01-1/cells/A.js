// A. Export the stem and prepare it. Compare the prepared graph's conv weight with the exported one.
pt.manual_seed(0);
const tr = (en, zh) => ctx.tr({ en, 'zh-TW': zh });
const model = pt.get_model('stem');                              // Conv2d(3, 16, 3, padding=1, bias=False) → BN(16) → relu
const ex = pt.randn([4, ...model.input_shape]);
const gm = pt.export(model, [ex]);
const quantizer = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true }));
const prepared = pt.prepare_pt2e(gm, quantizer);
show.text(prepared.code);
show.table(['op', 'export', 'prepare', 'delta'], pt.diff_ops(gm, prepared).map((r) => [r.op, r.a, r.b, r.delta]));

// The fold by hand: w' = w · γ / sqrt(var + eps) per output channel, b' = β − mean · γ / sqrt(var + eps).
const sd = (g) => Object.fromEntries(g.state_dict().map((e) => [e.name, e.tensor.data()]));
const before = sd(gm), after = sd(prepared);
const eps = gm.node('batch_norm').args[7];
const C = before['bn.weight'].length, per = before['conv.weight'].length / C;
const factor = Array.from(before['bn.weight'], (g, c) => g / Math.sqrt(before['bn.running_var'][c] + eps));
let wErr = 0, bErr = 0;
for (let c = 0; c < C; c++) {
  for (let i = 0; i < per; i++) wErr = Math.max(wErr, Math.abs(after['conv.weight'][c * per + i] - before['conv.weight'][c * per + i] * factor[c]));
  bErr = Math.max(bErr, Math.abs(after['conv.weight_bias'][c] - (before['bn.bias'][c] - before['bn.running_mean'][c] * factor[c])));
}
const wMax = Math.max(...Array.from(before['conv.weight'], Math.abs));
show.table(['channel', 'γ', 'running_var', 'γ / sqrt(var + eps)'],
  [0, 1, C - 1].map((c) => [c, before['bn.weight'][c].toFixed(4), before['bn.running_var'][c].toFixed(4), factor[c].toFixed(7)]),
  tr(`BN parameters of a few channels (eps = ${eps})`, `幾個 channel 的 BN 參數（eps = ${eps}）`));
show.text(tr(`largest deviation from the fold formula: weight ${wErr.toExponential(2)}, bias ${bErr.toExponential(2)}`,
  `與折疊公式的最大差距：weight ${wErr.toExponential(2)}、bias ${bErr.toExponential(2)}`));

// The prepared graph, before calibration, still computes what the float graph does: observers only watch.
const y = gm.forward(ex).data(), yp = prepared.forward(ex).data();
let rel = 0;
for (let i = 0; i < y.length; i++) rel = Math.max(rel, Math.abs(y[i] - yp[i]) / Math.max(1e-3, Math.abs(y[i])));
Object.assign(state, { model, ex, gm, prepared });

const bnCount = (g) => pt.count_ops(g).batch_norm ?? 0;
check(bnCount(gm) === 1 && bnCount(prepared) === 0, tr('the batch_norm node is gone after prepare', 'prepare 之後 batch_norm node 不見了'));
check(wErr <= 1e-6 * wMax && bErr <= 1e-6, tr('the conv weight and its new bias are exactly BN folded in', 'conv 的 weight 和新的 bias 正是把 BN 折進去的結果'));
check(rel < 1e-4, tr('the prepared graph gives the float output (largest relative change < 1e-4)', 'prepare 後的圖輸出與浮點相同（最大相對變化 < 1e-4）'));
const conv = prepared.node('conv2d'), relu = prepared.node('relu');
check(conv.users.length === 1 && conv.users[0] === 'relu', tr('conv2d feeds relu directly: no observer in between', 'conv2d 直接接 relu：中間沒有 observer'));
check(relu.users.length === 1 && pt.observer_nodes(prepared).includes(relu.users[0]), tr('one observer after relu', 'relu 之後一個 observer'));
reveal(bnCount(prepared));   // the value your prediction is marked against
