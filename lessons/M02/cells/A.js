// A. The model and its exported graph: conv -> relu.
pt.manual_seed(0);
const model = pt.get_model('conv_relu');
const example = pt.randn([4, ...model.input_shape]);
const gm = pt.export(model, [example]);
state.gm = gm;
show.text(gm.code);
const nodes = gm.nodes;
show.table(['name', 'op', 'target', 'users'], nodes.map((n) => [n.name, n.op, n.target, n.users.join(', ')]));
const weights = Object.fromEntries(gm.state_dict().map((e) => [e.name, e.tensor]));
state.weight = weights['conv.weight'];
state.bias = weights['conv.bias'];
show.table(['parameter', 'shape'], Object.entries(weights).map(([k, t]) => [k, `[${t.shape.join(', ')}]`]));

const conv = nodes.find((n) => n.target === 'aten.conv2d.default');
const relu = nodes.find((n) => n.target === 'aten.relu.default');
check(conv && relu && conv.users.length === 1 && conv.users[0] === relu.name,
  { en: 'conv2d feeds only relu: conv → relu is one pattern, so no observer goes between them', 'zh-TW': 'conv2d 只接給 relu：conv → relu 是一個 pattern，中間不放 observer' });
const y = gm.forward(example).data();
check(y.every((v) => v >= 0) && y.some((v) => v > 0), { en: 'the graph\'s output is relu\'s: non-negative, not all zero', 'zh-TW': '圖的輸出是 relu 的輸出：非負、且不全為 0' });
