// B. Every observer prepare_pt2e inserted: the edge it sits on and the qparams calibration gave it.
const { gm, prepared } = state;
const table = kit.table(pt.observer_placement_table(prepared));
const conv = prepared.node('conv2d');
show.text(t('conv_users', { users: conv.users.join(', ') }));
const row = (from) => table.rows.find((r) => r[2] === from);
const zps = (r) => Array.from(prepared.observer(r[0]).calculate_qparams().zero_point);   // the observer itself, not its printed row
const qmin = pt.get_symmetric_quantization_config({ is_per_channel: true }).output_activation.quant_min;
check(conv.users.length === 1 && conv.users[0] === 'relu', t('only_relu'));
check(row('x')?.[3] === gm.node('x').users.join(', '), t('x_one_observer'));
check(['relu', 'relu_1'].every((n) => row(n) && zps(row(n))[0] === qmin), t('zp_qmin'));
check(table.rows.filter((r) => r[1] === 'PerChannelMinMaxObserver').every((r) => /_weight$/.test(r[2]) && zps(r).every((z) => z === 0)), t('weights_symmetric'));
