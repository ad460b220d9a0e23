// A2. What convert_pt2e builds from that observer (DuplicateDQPass included).
const { prepared, qx } = state;
const converted = state.converted = pt.convert_pt2e(prepared);
const qX = converted.nodes.find((n) => kit.is_quantize(n) && n.args[0]?.node === 'x');
const dqs = qX.users.map((u) => converted.node(u));
show.table(['node', 'target', 'scale', 'zero point', t('users')], [qX, ...dqs].map((n) => [n.name, n.target, n.args[1], n.args[2], n.users.join(', ')]));
check(dqs.length === 2 && dqs.every((d) => kit.is_dequantize(d) && d.users.length === 1), t('once_two_dq'));
check(dqs.map((d) => d.users[0]).sort().join() === 'add,conv2d', t('one_each'));
check([qX, ...dqs].every((n) => n.args[1] === qx.s && n.args[2] === qx.z), t('baked'));
