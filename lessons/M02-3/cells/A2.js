// A2. What convert_pt2e builds from that observer (DuplicateDQPass included).
const { prepared, qx } = state;
const converted = pt.convert_pt2e(prepared);
const nodes = converted.nodes;
const byName = Object.fromEntries(nodes.map((n) => [n.name, n]));
const short = (t) => t.replace('quantized_decomposed.', '').replace('.default', '');
const qX = nodes.find((n) => n.kind === 'quantize' && n.args[0]?.node === 'x');
const rows = [[qX.name, short(qX.target), qX.args[1].toPrecision(6), qX.args[2], qX.users.join(', ')]];
for (const u of qX.users) { const d = byName[u]; rows.push([d.name, short(d.target), d.args[1].toPrecision(6), d.args[2], d.users.join(', ')]); }
show.table(['node', 'target', 'scale', 'zero point', 'users'], rows);
const dqs = qX.users.map((u) => byName[u]);
check(dqs.length === 2 && dqs.every((d) => d.kind === 'dequantize' && d.users.length === 1),
  { en: 'x is quantized once; the quantize feeds two dequantizes, each with exactly one user', 'zh-TW': 'x 只被 quantize 一次；這個 quantize 餵給兩個 dequantize，每個都只有一個 user' });
check(dqs.map((d) => d.users[0]).sort().join() === 'add,conv2d', { en: 'one dequantize goes to conv2d, the other to add', 'zh-TW': '一個 dequantize 給 conv2d，另一個給 add' });
check(qX.args[1] === qx.s && qX.args[2] === qx.z && dqs.every((d) => d.args[1] === qx.s && d.args[2] === qx.z),
  { en: 'the baked-in scale and zero point are exactly what the hand-built observer computed', 'zh-TW': '寫進圖裡的 scale 與 zero point，正是手動建立的 observer 算出來的值' });
