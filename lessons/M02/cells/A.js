// A. The model and its exported graph: conv -> relu.
pt.manual_seed(0);
const model = pt.get_model('conv_relu');
const example = pt.randn([4, ...model.input_shape]);
const gm = pt.export(model, [example]);
show.text(gm.code);
show.table(['name', 'op', 'target', 'users'], gm.nodes.map((n) => [n.name, n.op, n.target, n.users.join(', ')]));
const weights = Object.fromEntries(gm.state_dict().map((e) => [e.name, e.tensor]));
show.table(['parameter', 'shape'], Object.entries(weights).map(([k, w]) => [k, `[${w.shape.join(', ')}]`]));
Object.assign(state, { gm, weight: weights['conv.weight'], bias: weights['conv.bias'] });
const conv = gm.nodes.find((n) => kit.is_op(n, 'conv2d')), relu = gm.nodes.find((n) => kit.is_op(n, 'relu'));
const y = gm.forward(example).data();
check(conv && relu && conv.users.length === 1 && conv.users[0] === relu.name, t('conv_only_relu'));
check(y.every((v) => v >= 0) && y.some((v) => v > 0), t('relu_output'));
