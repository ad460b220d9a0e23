// A. The stem (conv → bn → relu) with batch-norm statistics of its own, folded into the conv by the engine and by hand.
pt.manual_seed(0);
const model = pt.get_model('stem');                              // Conv2d(3, 16, 3, padding=1, bias=False) → BN(16) → relu
const batches = pt.calibration_batches({ n: 64, batch_size: 16 });   // the course's image set, 4 batches
const gm = pt.export(model, [batches[0].x]);
kit.set_bn_statistics(gm);                                       // γ, β, running mean / var as a trained BN has them
const folded = gm.clone();
pt.fold_bn(folded);                                              // torchao's _fuse_conv_bn_, prepare_pt2e's first step
kit.table(pt.diff_ops(gm, folded), 'export', 'fold_bn');

// By hand: scale = γ / sqrt(σ² + eps) per output channel; w' = w · scale, b' = β − μ · scale.
const p = kit.state_dict(gm), f = kit.state_dict(folded), eps = gm.node('batch_norm').args[7];
const scale = p['bn.weight'].map((g, c) => g / Math.sqrt(p['bn.running_var'][c] + eps));
const shift = p['bn.bias'].map((b, c) => b - p['bn.running_mean'][c] * scale[c]);
const per = p['conv.weight'].length / scale.length;               // weights per output channel
const wErr = kit.max_abs_diff(f['conv.weight'], p['conv.weight'].map((w, i) => w * scale[Math.floor(i / per)]));
const bErr = f['conv.weight_bias'] ? kit.max_abs_diff(f['conv.weight_bias'], shift) : Infinity;   // no bias: β was lost
show.view('bar', { title: t('per_channel'), labels: [...scale.keys()].map(String), series: [{ name: 'scale = gamma / sqrt(var + eps)', values: Array.from(scale) }, { name: 'shift = beta - mean * scale', values: Array.from(shift) }] });
const x = batches[1].x, y = gm.forward(x).data(), yDiff = kit.max_abs_diff(y, folded.forward(x).data());
show.text(t('fold_errors', { w: wErr.toExponential(1), b: bErr.toExponential(1), y: yDiff.toExponential(1) }));
Object.assign(state, { gm, batches });

check(Math.max(...scale) > 1.5 * Math.min(...scale) && Math.max(...shift.map(Math.abs)) > 0.1, t('not_identity'));
check((pt.count_ops(gm).batch_norm ?? 0) === 1 && (pt.count_ops(folded).batch_norm ?? 0) === 0, t('bn_gone'));
check(wErr <= 1e-6 * Math.max(...f['conv.weight'].map(Math.abs)) && bErr <= 1e-6 * Math.max(1, ...shift.map(Math.abs)), t('formula_holds'));
check(yDiff <= 1e-5 * Math.max(...y.map(Math.abs)), t('same_output'));
const candidates = { beta: p['bn.bias'], shift, minus_mean: p['bn.running_mean'].map((m) => -m) };
reveal(f['conv.weight_bias'] ? Object.keys(candidates).find((k) => kit.max_abs_diff(f['conv.weight_bias'], candidates[k]) <= 1e-5) ?? 'other' : 'none');
