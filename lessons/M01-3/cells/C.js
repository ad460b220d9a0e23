// C. is_dynamic: which nodes does the quantizer label, and what is left after convert?
const { gm, ex, ref, results } = state;
const tr = (en, zh) => ctx.tr({ en, 'zh-TW': zh });
const qDyn = new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config({ is_per_channel: true, is_dynamic: true }));
const annotated = gm.clone();                               // annotate edits in place
qDyn.annotate(annotated);
const marked = annotated.nodes.filter((n) => n.meta.quantization_annotation).map((n) => n.name);
show.text(tr(`labelled nodes: ${marked.join(', ')}`, `有標註的 node：${marked.join('、')}`));

const prepared = pt.prepare_pt2e(gm, qDyn);
prepared.forward(ex);                                        // nothing to calibrate for activations
const converted = pt.convert_pt2e(prepared);
const short = (t) => (t.includes('.') ? t.split('.')[1] : t);
const chain = converted.nodes.filter((n) => n.op === 'call_function').map((n) => short(n.target));
show.text(chain.join(' → '));
show.view('graph', { title: tr('convert with is_dynamic=True: around linear', 'is_dynamic=True 的 convert 圖：linear 附近'),
  stages: [{ title: 'convert_pt2e', ...converted.graph_view() }], focus: ['linear'], hops: 4 });
const convs = converted.nodes.filter((n) => n.target === 'aten.conv2d.default');
const inputsOf = (n) => n.args.flat().filter((a) => a?.node).map((a) => converted.node(a.node));
show.text(tr(`${convs.length} conv2d nodes; their inputs: ${[...new Set(convs.flatMap((c) => inputsOf(c).map((i) => (i.op === 'call_function' ? short(i.target) : i.op))))].join(', ')}`,
  `${convs.length} 個 conv2d；它們的輸入：${[...new Set(convs.flatMap((c) => inputsOf(c).map((i) => (i.op === 'call_function' ? short(i.target) : i.op))))].join('、')}`));

const linear = gm.node('linear');
const expected = [linear.args[1].node, linear.args[2].node, 'linear'];   // fc's weight, fc's bias, linear itself
check(marked.join() === expected.join(), tr('only linear and its weight and bias carry labels; no conv does', '只有 linear 和它的 weight、bias 有標註，conv 一個都沒有'));
check(convs.length > 0 && convs.every((c) => inputsOf(c).every((i) => i.kind !== 'quantize' && i.kind !== 'dequantize')),
  tr('no conv2d reads a dequantize: the convs run in fp32', '沒有任何 conv2d 的輸入是 dequantize：conv 用 fp32 計算'));
const iq = chain.indexOf('choose_qparams'), il = chain.indexOf('linear');
check(iq >= 0 && iq < chain.indexOf('quantize_per_tensor') && chain.indexOf('dequantize_per_tensor') < il,
  tr('before linear: choose_qparams → quantize → dequantize, computed from each input at run time', 'linear 之前是 choose_qparams → quantize → dequantize，每次執行時依輸入計算'));
check(Math.abs(pt.sqnr(ref, converted.forward(ex)) - results['per-channel + is_dynamic'].sqnr) < 1e-9,
  tr('this graph gives the same SQNR as the is_dynamic row in A', '這張圖的 SQNR 和 A 段 is_dynamic 那一列相同'));
