// A. Export a residual block, prepare it with XNNPACK's quantizer, calibrate on 8 random batches, convert.
pt.manual_seed(0);
const model = pt.get_model('residual', { ch: 8 });
const ex = pt.randn([4, 8, 16, 16]);
const gm = pt.export(model, [ex]);
const quantizer = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true }));
const prepared = pt.prepare_pt2e(gm, quantizer);        // gm itself is left as it was
for (let i = 0; i < 8; i++) prepared.forward(pt.randn([4, 8, 16, 16]));
const converted = pt.convert_pt2e(prepared);
Object.assign(state, { gm, prepared, converted });

const tr = (en, zh) => ctx.tr({ en, 'zh-TW': zh });
show.view('graph', {
  title: tr('the skip connection: x and add at each stage', 'skip connection：各階段 x 與 add 附近'),
  stages: [{ title: 'export', ...gm.graph_view() }, { title: 'prepare_pt2e', ...prepared.graph_view() }, { title: 'convert_pt2e', ...converted.graph_view() }],
  focus: ['x', 'add'], hops: 1 });
const diffTable = (a, b, la, lb) => show.table(['op', la, lb, 'delta'], pt.diff_ops(a, b).map((r) => [r.op, r.a, r.b, r.delta]));
diffTable(gm, prepared, 'export', 'prepare');
diffTable(prepared, converted, 'prepare', 'convert');

const count = (g, op) => pt.count_ops(g)[op] ?? 0;
const d1 = Object.fromEntries(pt.diff_ops(gm, prepared).map((r) => [r.op, r.delta]));
const weights = gm.nodes.filter((n) => n.users.some((u) => gm.node(u).target === 'aten.conv2d.default') && n.op === 'get_attr').length;   // conv1_weight, conv2_weight
const obs = pt.observer_nodes(prepared).length;
check(count(gm, 'batch_norm') === 2 && d1.batch_norm === -count(gm, 'batch_norm'),
  tr('prepare removes both batch_norm nodes (folded into the convs)', 'prepare 拿掉兩個 batch_norm（折進 conv）'));
check(d1['<module:PerChannelMinMaxObserver>'] === weights,
  tr('one per-channel weight observer per conv weight', '每個 conv weight 各一個 per-channel weight observer'));
check(pt.observer_nodes(converted).length === 0 && count(converted, 'quantize_per_tensor') + count(converted, 'dequantize_per_channel') === obs,
  tr('convert turns every observer into a quantize (activations) or a stored int8 weight with its dequantize_per_channel', 'convert 把每個 observer 換成 quantize（activation），或存成 int8 常數的 weight 加上 dequantize_per_channel'));
const qx = converted.nodes.find((n) => n.kind === 'quantize' && n.args[0]?.node === 'x');
check(qx && qx.users.length === 2 && qx.users.every((u) => converted.node(u).kind === 'dequantize'),
  tr('x\'s quantize feeds two dequantize nodes, one per user (DuplicateDQPass)', 'x 的 quantize 接兩個 dequantize，一個 user 一個（DuplicateDQPass）'));
check(count(converted, 'dequantize_per_tensor') === count(converted, 'quantize_per_tensor') + 1,
  tr('so there is one more dequantize_per_tensor than quantize_per_tensor', '所以 dequantize_per_tensor 比 quantize_per_tensor 多一個'));
