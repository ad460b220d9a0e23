// D. Observers around cat once prepare_pt2e has run (8 calibration batches).
const { gm2, q2 } = state;
const prepared2 = kit.calibrate(pt.prepare_pt2e(gm2, q2), Array.from({ length: 8 }, () => pt.randn([4, 3, 16, 16])));
kit.draw(prepared2, t('around_cat'), { stage: 'prepare_pt2e', focus: ['cat', 'max_pool2d'], hops: 2 });
const table = pt.observer_placement_table(prepared2);
const into = table.rows.filter((r) => ['relu', 'relu_1'].includes(r[2]));
show.table(table.headers, into);
const scale = (r) => prepared2.observer(r[0]).calculate_qparams().scale[0];
const cat = prepared2.node('cat');
check(into.length === 2 && into.every((r) => r[3] === 'cat'), t('own_observer'));
check(into.length === 2 && scale(into[0]) !== scale(into[1]), t('scales_differ'));
check(cat.users.length === 1 && cat.users[0] === 'max_pool2d', t('fp32_pair'));
