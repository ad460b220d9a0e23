// course_kit.js — the plumbing every lesson's cells share, so a cell reads like the PyTorch it teaches. A cell
// sees these as `kit.<name>` (with its lesson's own kit.js merged on top); each has the name of the helper the
// course's Python module (lessons/pt2e_course.py) gives the PyTorch twin, and does the same thing.
//
//   const quantizer = kit.get_xnnpack_quantizer({ is_per_channel: true });   // XNNPACKQuantizer().set_global(config)
//   const gm = kit.export_zoo('residual');                                     // export_module(get_model(name), randn batch of 2)
//   kit.calibrate(prepared, batches);                                          // prepared(x) for every batch
//   kit.draw_stages(t('title'), [[gm, 'export'], [prepared, 'prepare_pt2e']], { focus: ['x'] });
//   kit.table(pt.diff_ops(gm, prepared), 'export', 'prepare');                  // a report as an HTML table
//   kit.is_op(node, 'relu'); kit.is_quantize(node); kit.is_dequantize(node)
//   kit.set_bn_statistics(gm); kit.state_dict(gm)['conv.weight']; kit.max_abs_diff(a, b)   // M04's pages
//   kit.draw_partition(t('title'), converted, lowered.delegation_info, 'xnnpack');   // delegated nodes marked (M08, M09)
//   kit.integer_codes(converted.forward(x), converted)                          // the output's codes at its last quantize
//   kit.draw_integer_picture(t('title'), pictures, { references });            // pt.integer_picture results, stepped (M07)
//   kit.time_forward((x) => g.forward(x), x, 5)                                // median ms of a call, after a warm-up
// Node tests read `node.kind` ('op', 'quantize', 'dequantize', 'observer', ...), the engine's node kind, so no cell
// spells a quantized_decomposed target.
import { integerPictureView, partitionOf } from './view_data.js';

// A graph stage for the view, and `changed`: the names of its nodes the stage before it did not have (what prepare
// or convert added), so the view can mark the difference between stages instead of a cell printing it.
function stagesOf(stages) {
  const views = stages.map(([g, title]) => ({ title, ...g.graph_view() }));
  return views.map((v, k) => (k === 0 ? v : { ...v, changed: v.nodes.map((n) => n.name).filter((name) => !views[k - 1].nodes.some((m) => m.name === name)) }));
}

export function courseKit(pt, show) {
  return {
    get_xnnpack_quantizer: (opts = {}) => new pt.XNNPACKQuantizer().set_global(pt.get_symmetric_quantization_config(opts)),
    // A zoo model exported on a random batch of `batch` samples (draws from the generator, as torch.randn would).
    export_zoo(name, batch = 2) {
      const model = pt.get_model(name);
      return pt.export(model, [pt.randn([batch, ...model.input_shape])]);
    },
    calibrate(prepared, batches) {
      for (const b of batches) prepared.forward(b.x ?? b);
      return prepared;
    },
    draw_stages: (title, stages, opts = {}) => show.view('graph', { title, stages: stagesOf(stages), ...opts }),
    draw: (g, title, opts = {}) => show.view('graph', { title, stages: stagesOf([[g, opts.stage ?? '']]), ...opts }),
    // A report (pt.diff_ops rows, or { headers, rows } from pt.observer_placement_table / annotation_table) as a table.
    table(report, ...labels) {
      if (Array.isArray(report)) show.table(['op', ...labels, 'delta'], report.map((r) => [r.op, r.a, r.b, r.delta]));
      else show.table(report.headers, report.rows);
      return report;
    },
    // M04: batch norm. set_bn_statistics gives every batch norm of an exported graph statistics of its own, as a trained
    // network has them, so a fold is not an identity: per BN in graph order γ = 0.5 + 1.5·rand, β = 0.5·randn,
    // running mean = 0.5·randn, running var = 0.1 + 2·rand (drawn from the generator, as the Python helper does), loaded
    // with load_state_dict. state_dict(g): { name: Float32Array }. max_abs_diff(a, b): the largest |a[i] − b[i]| (Infinity when the lengths differ).
    set_bn_statistics(gm) {
      const shapes = Object.fromEntries(gm.state_dict().map((e) => [e.name, e.tensor.shape]));
      const sd = {};
      for (const bn of gm.nodes.filter((n) => n.kind === 'op' && n.target === 'aten.batch_norm.default')) {
        const [w, b, mean, v] = bn.args.slice(1, 5).map((a) => gm.node(a.node).target);
        sd[w] = pt.rand(shapes[w]).mul(1.5).add(0.5);
        sd[b] = pt.randn(shapes[b]).mul(0.5);
        sd[mean] = pt.randn(shapes[mean]).mul(0.5);
        sd[v] = pt.rand(shapes[v]).mul(2).add(0.1);
      }
      gm.load_state_dict(sd, false);
      return gm;
    },
    state_dict: (g) => Object.fromEntries(g.state_dict().map((e) => [e.name, e.tensor.data()])),
    max_abs_diff: (a, b) => (a.length !== b.length ? Infinity : a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0)),
    // The converted graph with the backend's partition drawn on it (web/views/graph_partition.h).
    draw_partition: (title, g, info, backend, opts = {}) =>
      show.view('graph', { title, stages: stagesOf([[g, opts.stage ?? '']]), partition: partitionOf(info, backend), ...opts }),
    // The int8 codes behind a graph's float output: its last quantize's scale and zero point (what the output's
    // dequantize reads), code = round(y / scale) + zero_point, as quantize_per_tensor computes it.
    integer_codes(y, g) {
      const q = g.nodes.filter((n) => n.kind === 'quantize').at(-1);
      const [scale, zp] = [q.args[1], q.args[2]];
      return Array.from(y.data(), (v) => Math.round(v / scale) + zp);
    },
    draw_integer_picture(title, pictures, opts = {}) {
      const { view: _, ...spec } = integerPictureView(pictures, { title, ...opts });
      return show.view('integer_picture', spec);
    },
    // The median wall-clock milliseconds of fn(x) over `repeats` calls, after one warm-up call (measured now, in
    // this browser or Node; the figure is the page's, not a benchmark).
    time_forward(fn, x, repeats = 5) {
      pt.scope(() => fn(x));
      const times = [];
      for (let i = 0; i < repeats; i++) {
        const t0 = performance.now();
        pt.scope(() => fn(x));
        times.push(performance.now() - t0);
      }
      return times.sort((a, b) => a - b)[Math.floor(repeats / 2)];
    },
    is_op: (n, op) => n.kind === 'op' && String(n.target).split('.')[1] === op,
    is_quantize: (n) => n.kind === 'quantize',
    is_dequantize: (n) => n.kind === 'dequantize',
  };
}
