// A. A value with two users: the residual block's input x feeds conv2d and the skip-connection add.
pt.manual_seed(0);
const model = pt.get_model('residual', { ch: 8 });
const x = pt.randn([2, 8, 16, 16]);
const gm = pt.export(model, [x]);
const quantizer = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true }));
const prepared = pt.prepare_pt2e(gm, quantizer);
prepared.forward(x);                                        // calibrate on this one batch
const multi = (g) => g.nodes.filter((n) => n.users.length > 1).map((n) => [n.name, n.op, n.module_type ?? n.target, n.users.join(', ')]);
show.table([ctx.tr({ en: 'graph', 'zh-TW': '圖' }), 'node', 'op', 'target / class', 'users'],
  [...multi(gm).map((r) => [ctx.tr({ en: 'exported', 'zh-TW': 'export 後' }), ...r]),
   ...multi(prepared).map((r) => [ctx.tr({ en: 'prepared', 'zh-TW': 'prepare 後' }), ...r])]);
const obsX = prepared.nodes.find((n) => n.op === 'call_module' && n.args.some((a) => a?.node === 'x'));
const placement = pt.observer_placement_table(prepared);
show.table(placement.headers, placement.rows);

// The same observer by hand, on the same data: its qparams are what convert would bake into x's q / dq.
const spec = pt.get_symmetric_quantization_config({ is_per_channel: true }).input_activation;
const hand = new pt.HistogramObserver({ dtype: spec.dtype, qscheme: spec.qscheme, quant_min: spec.quant_min, quant_max: spec.quant_max, ...spec.observer_or_fake_quant_ctr.kwargs });
hand.forward(x);
const { scale, zero_point } = hand.calculate_qparams();
state.x = x; state.qx = { s: scale[0], z: zero_point[0] }; state.prepared = prepared; state.gm = gm;
show.text(ctx.tr({ en: `x's observer by hand: scale ${scale[0].toPrecision(6)}, zero point ${zero_point[0]}`, 'zh-TW': `手動建立的 x observer：scale ${scale[0].toPrecision(6)}，zero point ${zero_point[0]}` }));

const xNode = gm.nodes.find((n) => n.name === 'x');
check(xNode.users.length === 2 && xNode.users.includes('add'), { en: 'exported graph: x has two users, a conv and the residual add', 'zh-TW': 'export 後的圖：x 有兩個使用者，一個 conv 和殘差的 add' });
check(obsX && obsX.users.join() === xNode.users.join(), { en: 'prepared graph: ONE observer on x, and it feeds both users', 'zh-TW': 'prepare 後的圖：x 上只有一個 observer，同時餵給兩個使用者' });
