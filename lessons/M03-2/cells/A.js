// A. The graph prepare_pt2e hands to annotate() is the BN-folded one, so fold first, then annotate, then read.
pt.manual_seed(0);
state.ex = (name) => { const m = pt.get_model(name); return pt.export(m, [pt.randn([2, ...m.input_shape])]); };
state.cfg = pt.get_symmetric_quantization_config({ is_per_channel: true });
const gm = state.ex('tiny');
pt.fold_bn(gm);
new pt.XNNPACKQuantizer().set_global(state.cfg).annotate(gm);
const tbl = pt.annotation_table(gm);
show.table(tbl.headers, tbl.rows);
show.view('graph', { title: ctx.tr({ en: 'TinyConvNet around the residual add, after XNNPACKQuantizer.annotate: labels under each node', 'zh-TW': 'XNNPACKQuantizer.annotate 之後，TinyConvNet 的 residual add 附近：標籤寫在每個 node 底下' }),
  stages: [{ title: 'annotate', ...gm.graph_view() }], show_params: false, focus: ['add'], hops: 1 });
state.tiny = gm;

const nodes = gm.nodes, by = Object.fromEntries(nodes.map((n) => [n.name, n]));
const ann = (n) => gm.annotation(n);
const fusedPairs = nodes.filter((n) => ['aten.conv2d.default', 'aten.add.Tensor'].includes(n.target)
  && n.users.length === 1 && by[n.users[0]].target === 'aten.relu.default');
check(fusedPairs.length >= 2 && fusedPairs.every((n) => ann(n).output_qspec === null && ann(by[n.users[0]]).output_qspec !== null),
  { en: `${fusedPairs.length} ops feed a relu alone (conv or add): each has no output label, its relu has one — fusion is written as "no label in between"`, 'zh-TW': `有 ${fusedPairs.length} 個 op（conv 或 add）單獨接到 relu：它們都沒有輸出標籤，後面的 relu 有——融合就寫成「中間不貼標籤」` });
const params = nodes.filter((n) => n.op === 'get_attr');
check(params.every((n) => ann(n)?._annotated && ann(n).input_qspec_map.length === 0 && ann(n).output_qspec === null),
  { en: 'weights and biases carry empty labels marked _annotated: claimed, so no other annotator quantizes them', 'zh-TW': 'weight 與 bias 帶著標了 _annotated 的空標籤：已被認領，其他 annotator 不會量化它們' });
const layers = nodes.filter((n) => ['aten.conv2d.default', 'aten.linear.default'].includes(n.target));
check(layers.every((n) => { const m = ann(n).input_qspec_map; return m.length === 3 && m[2][1] === null && m[1][1].qscheme === 'per_channel_symmetric'; }),
  { en: 'every conv and linear: input, weight (per-channel) and bias (None) edges', 'zh-TW': '每個 conv 與 linear：輸入、weight（per-channel）、bias（None）三條邊' });
