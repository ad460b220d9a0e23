// A. Export the stem and prepare it (BN folds into the conv); then the fold by hand from the exported parameters.
pt.manual_seed(0);
const model = pt.get_model('stem');                              // Conv2d(3, 16, 3, padding=1, bias=False) → BN(16) → relu
const ex = pt.randn([4, ...model.input_shape]);
const gm = pt.export(model, [ex]);
const prepared = pt.prepare_pt2e(gm, kit.get_xnnpack_quantizer({ is_per_channel: true }));
show.text(prepared.code);
kit.table(pt.diff_ops(gm, prepared), 'export', 'prepare');

// The fold: w' = w · γ / sqrt(var + eps) per output channel, b' = β − mean · γ / sqrt(var + eps).
const sd = (g) => Object.fromEntries(g.state_dict().map((e) => [e.name, Array.from(e.tensor.data())]));
const before = sd(gm), after = sd(prepared), eps = gm.node('batch_norm').args[7];
const factor = before['bn.weight'].map((g, c) => g / Math.sqrt(before['bn.running_var'][c] + eps));
const per = before['conv.weight'].length / factor.length, byChannel = (i) => Math.floor(i / per);
const wErr = Math.max(...after['conv.weight'].map((w, i) => Math.abs(w - before['conv.weight'][i] * factor[byChannel(i)])));
const bErr = Math.max(...after['conv.weight_bias'].map((b, c) => Math.abs(b - (before['bn.bias'][c] - before['bn.running_mean'][c] * factor[c]))));
show.text(t('fold_error', { eps, w: wErr.toExponential(2), b: bErr.toExponential(2) }));
const y = gm.forward(ex).data(), yp = prepared.forward(ex).data();
Object.assign(state, { model, ex, gm, prepared });

const bnCount = (g) => pt.count_ops(g).batch_norm ?? 0, conv = prepared.node('conv2d'), relu = prepared.node('relu');
check(bnCount(gm) === 1 && bnCount(prepared) === 0, t('bn_gone'));
check(wErr <= 1e-6 * Math.max(...before['conv.weight'].map(Math.abs)) && bErr <= 1e-6, t('bn_folded'));
check(y.every((v, i) => Math.abs(v - yp[i]) <= 1e-4 * Math.max(1e-3, Math.abs(v))), t('float_output'));
check(conv.users.length === 1 && conv.users[0] === 'relu', t('conv_feeds_relu'));
check(relu.users.length === 1 && pt.observer_nodes(prepared).includes(relu.users[0]), t('one_after_relu'));
reveal(bnCount(prepared));   // the value your prediction is marked against
