// A. The reference representation: convert_pt2e(prepared, use_reference_representation=true) writes each
// int8 pattern torchao knows as one integer op, next to the usual q / dq graph from the same prepared model.
pt.manual_seed(0);
const model = pt.get_model('mlp');                                   // Linear(16, 32) → relu → Linear(32, 4)
const gm = pt.export(model, [pt.randn([4, 16])]);
const prepared = pt.prepare_pt2e(gm, kit.get_xnnpack_quantizer());  // per-tensor weights: torchao's integer patterns
kit.calibrate(prepared, [0, 1, 2, 3].map(() => pt.randn([8, 16])));
const converted = pt.convert_pt2e(prepared);
const reference = pt.convert_pt2e(prepared, true);                  // use_reference_representation=True
show.text(reference.code);
kit.table(pt.diff_ops(converted, reference), 'convert', 'reference');

const x = pt.randn([4, 16]);
const outScale = converted.nodes.filter((n) => kit.is_dequantize(n)).at(-1).args[1];
const a = converted.forward(x).data(), b = reference.forward(x).data();
const worst = Math.max(...a.map((v, i) => Math.abs(v - b[i])));
show.text(t('gap', { worst: worst.toExponential(2), steps: (worst / outScale).toFixed(2) }));
Object.assign(state, { converted, x });

const linears = (g) => g.nodes.filter((n) => kit.is_op(n, 'linear')).map((n) => n.name);
const rewritten = linears(converted).map((name, i) => (linears(reference).includes(name) ? null : `fc${i + 1}`)).filter(Boolean);
check(pt.count_ops(reference).reference_quantized_linear === 1 && rewritten.join() === 'fc2', t('fc2_rewritten'));
check(!reference.nodes.some((n) => kit.is_quantize(n) || kit.is_dequantize(n)), t('no_qdq_left'));
check(worst <= 2 * outScale + 1e-6, t('within_two_steps'));
reveal(rewritten.length === 2 ? 'both' : rewritten[0] ?? 'none');
