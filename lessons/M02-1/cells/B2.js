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
const sym = R['relu(gaussian) / MinMax symmetric'];
check(sym.lo < 0 && sym.dmin >= 0, { en: 'relu(gaussian) with symmetric: half of the range lies below 0, where no value is', 'zh-TW': 'relu(gaussian) 用 symmetric：一半的範圍在 0 以下，那裡沒有任何值' });
const h = R['heavy tail t(3) / Histogram affine'];
check(h.clipped > 0 && h.hi < h.dmax, { en: 'heavy tail: Histogram gives up the largest values (they are clipped)', 'zh-TW': 'heavy tail：Histogram 放棄了最大的那些值（被截斷）' });
