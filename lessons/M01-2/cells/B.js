// B. Every observer prepare_pt2e inserted: the edge it sits on and the qparams calibration gave it.
const { gm, prepared } = state;
const tr = (en, zh) => ctx.tr({ en, 'zh-TW': zh });
const table = pt.observer_placement_table(prepared);
show.table(table.headers, table.rows);
const conv = prepared.node('conv2d');
show.text(tr(`users of conv2d after prepare: ${conv.users.join(', ')}`, `prepare 之後 conv2d 的 user：${conv.users.join('、')}`));

const row = (from) => table.rows.find((r) => r[2] === from);
check(conv.users.length === 1 && conv.users[0] === 'relu',
  tr('conv2d\'s only user is relu: no observer between conv and relu', 'conv2d 唯一的 user 是 relu：conv 與 relu 之間沒有 observer'));
check(row('x')?.[3] === gm.node('x').users.join(', '),
  tr('one observer on x serves both of x\'s users (conv2d and add)', 'x 上的一個 observer 同時供 x 的兩個 user（conv2d 與 add）使用'));
const zps = (r) => Array.from(prepared.observer(r[0]).calculate_qparams().zero_point);  // the observer itself, not its printed row
const qmin = pt.get_symmetric_quantization_config({ is_per_channel: true }).output_activation.quant_min;
check(['relu', 'relu_1'].every((n) => row(n) && zps(row(n))[0] === qmin),
  tr('after a relu (values ≥ 0) the int8 zero point sits at the bottom of the range, quant_min', 'relu 之後（數值 ≥ 0）int8 的 zero point 落在範圍最底端 quant_min'));
check(table.rows.filter((r) => r[1] === 'PerChannelMinMaxObserver').every((r) => /_weight$/.test(r[2]) && zps(r).every((z) => z === 0)),
  tr('the per-channel observers watch the conv weights, symmetric (zero point 0)', 'per-channel observer 看的是 conv weight，對稱（zero point 為 0）'));
