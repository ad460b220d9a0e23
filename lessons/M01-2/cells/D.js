// D. Observers around cat once prepare_pt2e has run (8 calibration batches).
const { gm2, q2 } = state;
const tr = (en, zh) => ctx.tr({ en, 'zh-TW': zh });
const prepared2 = pt.prepare_pt2e(gm2, q2);
for (let i = 0; i < 8; i++) prepared2.forward(pt.randn([4, 3, 16, 16]));
show.view('graph', { title: tr('after prepare_pt2e, around cat', 'prepare_pt2e 之後，cat 附近'),
  stages: [{ title: 'prepare_pt2e', ...prepared2.graph_view() }], focus: ['cat', 'max_pool2d'], hops: 2 });
const table = pt.observer_placement_table(prepared2);
const into = table.rows.filter((r) => ['relu', 'relu_1'].includes(r[2]));
show.table(table.headers, into);
const scale = (r) => prepared2.observer(r[0]).calculate_qparams().scale[0];
const cat = prepared2.node('cat');
check(into.length === 2 && into.every((r) => r[3] === 'cat'), tr('each input of cat has its own observer', 'cat 的每個輸入各有自己的 observer'));
check(into.length === 2 && scale(into[0]) !== scale(into[1]), tr('and the two scales differ: cat\'s inputs are not forced to share qparams', '兩個 scale 不同：cat 的輸入沒有被要求共用 qparams'));
check(cat.users.length === 1 && cat.users[0] === 'max_pool2d', tr('no observer between cat and max_pool2d: both stay fp32', 'cat 與 max_pool2d 之間沒有 observer：兩者都留在 fp32'));
