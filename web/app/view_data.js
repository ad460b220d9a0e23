// view_data.js — builds view specs (plain data) from engine results. No DOM: the browser mounts
// a spec on a canvas (views.js); the headless runner keeps it as a cell output for checks.
//
//   histogramView(x.data(), { bins: 64, range: { min, max, label: 'MinMaxObserver' } })
//     -> { view: 'histogram', title, lo, hi, counts, range, clipped, log_y }
//
// Binning follows torch.histc(input, bins, min, max): equal bins over [min, max] (the data's
// min/max when both are 0), values outside ignored, a value equal to max in the last bin.

export function histc(values, bins = 100, min = 0, max = 0) {
  let lo = min, hi = max;
  if (lo === 0 && hi === 0) {
    lo = Infinity; hi = -Infinity;
    for (const v of values) { if (v < lo) lo = v; if (v > hi) hi = v; }
    if (!Number.isFinite(lo)) { lo = 0; hi = 0; }
  }
  if (lo === hi) { lo -= 1; hi += 1; }  // torch.histc widens an empty range the same way
  const counts = new Float64Array(bins);
  const scale = bins / (hi - lo);
  for (const v of values) {
    if (!(v >= lo && v <= hi)) continue;
    counts[Math.min(bins - 1, Math.floor((v - lo) * scale))] += 1;
  }
  return { lo, hi, counts };
}

// A histogram view spec. `range` ({ min, max, label }) and `clipped` (a fraction) are shown as
// given: they come from the engine (an observer's min_val / max_val, qparams), not from here.
export function histogramView(values, { bins = 64, lo = 0, hi = 0, title = '', range, clipped, log_y = false } = {}) {
  const h = histc(values, bins, lo, hi);
  const spec = { view: 'histogram', title, lo: h.lo, hi: h.hi, counts: Array.from(h.counts), log_y };
  if (range) spec.range = { min: range.min, max: range.max, label: range.label ?? '' };
  if (clipped !== undefined) spec.clipped = clipped;
  return spec;
}

// A graph view's partition field from a lowering's report (pt.lower(...).delegation_info, web/api/lower.js):
// the delegated nodes, and each float node with the report's reason. web/views/graph_partition.h draws it.
export function partitionOf(info, backend = '') {
  return {
    backend,
    delegated: info.nodes.filter((n) => n.delegated).map((n) => n.name),
    float: info.nodes.filter((n) => !n.delegated).map((n) => ({ name: n.name, reason: n.reason ?? '' })),
  };
}

// An integer-picture view spec (web/views/integer_picture_data.h) from pt.integer_picture results, one per
// output element of the same node, and optionally the q/dq graph's value at each (`references[i]`: a code, or for
// a float output — requantization 'f32_output', the X86 path's float output stage — a float).
export function integerPictureView(pictures, { references, title = '', element = 0 } = {}) {
  const p0 = pictures[0];
  const fields = ['inputs', 'weights', 'products', 'accumulator', 'bias', 'accumulator_with_bias', 'multiplier', 'fixed_multiplier', 'shift', 'scaled', 'output'];
  if (p0.float_output) fields.push('bias_f32', 'output_f32');
  return {
    view: 'integer_picture', title, node: p0.node, requantization: p0.requantization, relu: Boolean(p0.relu), element,
    input_zero_point: p0.input_zero_point, output_zero_point: p0.output_zero_point, qmin: p0.qmin, qmax: p0.qmax,
    elements: pictures.map((p, i) => ({
      coords: p.output_coords, ...Object.fromEntries(fields.map((f) => [f, p[f]])),
      ...(references ? { reference: references[i] } : {}),
    })),
  };
}
