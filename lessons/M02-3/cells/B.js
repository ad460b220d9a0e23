// B. What convert makes of that observer: one quantize, one dequantize, two users. A toy copy of that
// corner of the graph, run with the engine's q / dq ops, before and after duplicating the dequantize.
const { x, qx } = state;
const QMIN = -128, QMAX = 127;
pt.manual_seed(1);
const r = pt.randn(x.shape).mul(0.5);                      // stand-in for the other input of add (bn2's output)
const w = 0.75;                                            // stand-in for conv2d: scale by a constant weight
const addT = (a, b) => { const bv = b.data(); return pt.tensor(a.data().map((t, i) => t + bv[i]), a.shape); };   // float32 add
const observe = (t) => { const o = new pt.MinMaxObserver({ dtype: 'int8', quant_min: QMIN, quant_max: QMAX }); o.forward(t);
  const { scale, zero_point } = o.calculate_qparams(); return { s: scale[0], z: zero_point[0] }; };
const q = (t, p) => pt.quantize_per_tensor(t, p.s, p.z, QMIN, QMAX, 'int8');
const dq = (t, p) => pt.dequantize_per_tensor(t, p.s, p.z, QMIN, QMAX, 'int8');
const qr = observe(r), qa = observe(x.mul(w)), qb = observe(addT(x, r));
state.p = { x: qx, r: qr, a: qa, b: qb, w };

// The graph as data: node -> { op, inputs }. `dq_x` is shared by the "conv" (mul) and the add.
const shared = {
  q_x: { op: 'quantize', inputs: ['x'] }, dq_x: { op: 'dequantize', inputs: ['q_x'] },
  q_r: { op: 'quantize', inputs: ['r'] }, dq_r: { op: 'dequantize', inputs: ['q_r'] },
  conv: { op: 'mul', inputs: ['dq_x'] }, q_a: { op: 'quantize', inputs: ['conv'] },
  add: { op: 'add', inputs: ['dq_x', 'dq_r'] }, q_b: { op: 'quantize', inputs: ['add'] },
};
// DuplicateDQPass, in miniature: every dequantize with several users gets one copy per user.
function duplicateDQ(g) {
  const out = structuredClone(g);
  for (const [name, n] of Object.entries(g)) {
    if (n.op !== 'dequantize') continue;
    const users = Object.entries(g).filter(([, u]) => u.inputs.includes(name)).map(([k]) => k);
    if (users.length < 2) continue;
    for (const u of users) { out[`${name}_${u}`] = { ...n }; out[u].inputs = out[u].inputs.map((i) => (i === name ? `${name}_${u}` : i)); }
    delete out[name];
  }
  return out;
}
const split = duplicateDQ(shared);
state.graphs = { shared, split };
const qparamsOf = { q_x: qx, dq_x: qx, q_r: qr, dq_r: qr, q_a: qa, q_b: qb };
function run(g) {                                          // a tiny interpreter over the engine's ops
  const v = { x, r };
  const p = (name) => qparamsOf[name] ?? qparamsOf[name.replace(/_(conv|add)$/, '')];
  for (const [name, n] of Object.entries(g).sort(([a], [b]) => order(a) - order(b))) {
    const a = n.inputs.map((i) => v[i]);
    if (n.op === 'quantize') v[name] = q(a[0], p(name));
    else if (n.op === 'dequantize') v[name] = dq(a[0], p(name));
    else if (n.op === 'mul') v[name] = a[0].mul(w);
    else if (n.op === 'add') v[name] = addT(a[0], a[1]);
  }
  return { a: v.q_a.data(), b: v.q_b.data() };
}
const order = (name) => ['q_x', 'q_r', 'dq_x', 'dq_r', 'conv', 'add', 'q_a', 'q_b'].findIndex((k) => name === k || name.startsWith(`${k}_`));
const users = (g, name) => Object.entries(g).filter(([, u]) => u.inputs.includes(name)).map(([k]) => k);
const rows = [];
for (const [label, g] of [[ctx.tr({ en: 'shared dq', 'zh-TW': '共用 dq' }), shared], [ctx.tr({ en: 'after DuplicateDQPass', 'zh-TW': 'DuplicateDQPass 之後' }), split]]) {
  for (const [name, n] of Object.entries(g)) if (n.op === 'dequantize' && name.startsWith('dq_x')) rows.push([label, name, users(g, name).join(', ')]);
}
show.table([ctx.tr({ en: 'graph', 'zh-TW': '圖' }), 'dequantize', 'users'], rows);
const before = run(shared), after = run(split);
state.reference = before;
check(Object.entries(split).every(([name, n]) => n.op !== 'dequantize' || users(split, name).length === 1),
  { en: 'after the pass every dequantize has exactly one user', 'zh-TW': 'pass 之後，每個 dequantize 都只有一個 user' });
check(before.a.every((v, i) => v === after.a[i]) && before.b.every((v, i) => v === after.b[i]),
  { en: 'duplicating the dequantize changes nothing: both int8 outputs are identical, element for element', 'zh-TW': '複製 dequantize 不會改變任何東西：兩個 int8 輸出逐元素相同' });
