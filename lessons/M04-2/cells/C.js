// C. convert_pt2e folds each BN back into its conv (torchao's _fold_conv_bn_qat). Check conv1 against a fold computed
// here from the trained QAT graph's own parameters: w' = w · γ/√(σ²+ε), b' = β − μ · γ/√(σ²+ε), then w' quantized with
// the scale its fake quant learned: clamp(round(w' / scale), −127, 127).
const { qat, batches, chains } = state;
const converted = pt.convert_pt2e(qat);
kit.table(pt.diff_ops(qat, converted), 'prepare_qat_pt2e', 'convert_pt2e');
const s = kit.state_dict(qat), c = kit.state_dict(converted), eps = chains[0].bn.args[7];
const sf = s['bn1.weight'].map((g, ch) => g / Math.sqrt(s['bn1.running_var'][ch] + eps));   // γ/√(σ²+ε), per channel
const per = s['conv1.weight'].length / sf.length, wFold = s['conv1.weight'].map((w, i) => w * sf[Math.floor(i / per)]);
const bFold = s['bn1.bias'].map((b, ch) => b - s['bn1.running_mean'][ch] * sf[ch]);
const conv = converted.nodes.find((n) => kit.is_op(n, 'conv2d') && converted.node(n.args[2].node).target === 'conv1.weight_bias');
const dq = converted.node(conv.args[1].node), target = (i) => converted.node(dq.args[i].node).target;
const q = c[target(0)], scale = c[target(1)];
const qFold = wFold.map((w, i) => Math.min(127, Math.max(-127, Math.round(w / scale[Math.floor(i / per)]))));
const off = q.filter((v, i) => v !== qFold[i]).length, clipped = qFold.filter((v) => Math.abs(v) === 127).length;
show.text(t('compare', { n: q.length, off, clipped, b: kit.max_abs_diff(c['conv1.weight_bias'], bFold).toExponential(1) }));
const x = batches[3].x, snr = pt.sqnr(qat.forward(x), converted.forward(x));
show.text(t('sqnr', { snr: snr.toFixed(1) }));

check((pt.count_ops(converted).batch_norm ?? 0) === 0 && !pt.count_ops(converted).div && !pt.count_ops(converted).mul, t('pattern_gone'));
const int8 = converted.state_dict().find((e) => e.name === target(0)).tensor.dtype === 'int8';
check(dq.kind === 'dequantize' && int8 && kit.max_abs_diff(q, qFold) <= 1 && off <= 0.01 * q.length, t('weight_matches'));
check(kit.max_abs_diff(c['conv1.weight_bias'], bFold) <= 1e-5 * Math.max(1, ...bFold.map(Math.abs)), t('bias_matches'));
check(snr > 20, t('close_to_qat'));
