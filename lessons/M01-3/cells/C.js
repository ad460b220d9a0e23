// C. is_dynamic: which nodes does the quantizer label, and what is left after convert?
const { gm, ex, ref, results } = state;
const qDyn = kit.get_xnnpack_quantizer({ is_per_channel: true, is_dynamic: true });
const annotated = gm.clone();                                    // annotate edits in place
qDyn.annotate(annotated);
const marked = annotated.nodes.filter((n) => n.meta.quantization_annotation).map((n) => n.name);
const prepared = kit.calibrate(pt.prepare_pt2e(gm, qDyn), [ex]);  // nothing to calibrate for activations
const converted = pt.convert_pt2e(prepared);
const short = (n) => String(n.target).split('.')[1];
const chain = converted.nodes.filter((n) => n.op === 'call_function').map(short);
show.text(t('labelled', { nodes: marked.join(', ') }));
show.text(chain.join(' → '));
kit.draw(converted, t('graph_title'), { stage: 'convert_pt2e', focus: ['linear'], hops: 4 });
const convs = converted.nodes.filter((n) => kit.is_op(n, 'conv2d'));
const inputsOf = (n) => n.args.flat().filter((a) => a?.node).map((a) => converted.node(a.node));
const linear = gm.node('linear');
check(marked.join() === [linear.args[1].node, linear.args[2].node, 'linear'].join(), t('only_linear'));
check(convs.length > 0 && convs.every((c) => inputsOf(c).every((i) => !kit.is_dequantize(i))), t('convs_fp32'));
const iq = chain.indexOf('choose_qparams');
check(iq >= 0 && iq < chain.indexOf('quantize_per_tensor') && chain.indexOf('dequantize_per_tensor') < chain.indexOf('linear'), t('dynamic_chain'));
check(Math.abs(pt.sqnr(ref, converted.forward(ex)) - results['per-channel + is_dynamic'].sqnr) < 1e-9, t('same_as_a'));
reveal(marked.some((n) => n.startsWith('conv')) ? 'all' : marked.includes('linear') ? 'linear' : 'none');   // the value your prediction is marked against
