// Wrong: names graph nodes (conv2d, linear), not the model's layers (conv1 ... fc).
state.keep_float = ['conv2d', 'linear'];
const r = kit.grade(state, state.keep_float);
check(r.ok, r.message);
