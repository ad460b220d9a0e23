// B2. Look at where the ranges sit: histograms of the data with each observer's representable range.
const { resultB: R, data } = state;
const pick = [
  ['relu(gaussian)', 'MinMax symmetric'],
  ['heavy tail t(3)', 'MinMax affine'],
  ['heavy tail t(3)', 'Histogram affine'],
];
for (const [dname, oname] of pick) {
  const r = R[`${dname} / ${oname}`];
  const lo = Math.min(r.lo, r.dmin), hi = Math.max(r.hi, r.dmax);
  show.view('histogram', {
    values: data[dname].data(), bins: 96, lo, hi, log_y: dname.startsWith('heavy'),
    title: `${dname} — ${oname}`,
    range: { min: r.lo, max: r.hi, label: oname },
    clipped: r.clipped,
  });
}
// The int8 codes the relu data actually lands on, quantized by the engine with the symmetric observer's qparams.
const sym = R['relu(gaussian) / MinMax symmetric'];
const codes = pt.quantize_per_tensor(data['relu(gaussian)'], sym.s, sym.z, kit.QMIN, kit.QMAX, 'int8').data();
const used = new Set(codes);
show.text(t('codes_used', { used: used.size, first: Math.min(...used), last: Math.max(...used) }));
check(Math.min(...used) >= 0 && used.size <= 129, t('relu_gaussian_with_symmetric'));
const h = R['heavy tail t(3) / Histogram affine'];
check(h.clipped > 0 && h.hi < h.dmax, t('heavy_tail_histogram_gives'));
