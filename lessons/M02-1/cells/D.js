// D. Per-channel: one scale per slice along ch_axis. Output channel 0 is made 5x larger (D.py's order).
const w0 = pt.randn([4, 3, 3, 3]).data();
const w = pt.tensor(w0.map((v, i) => (i < 27 ? Math.fround(v * 5) : v)), [4, 3, 3, 3]);   // conv_w[0] *= 5
const wv = w.data(), perAxis = {};
const rows = [0, 1].map((axis) => {
  const obs = new pt.PerChannelMinMaxObserver({ ch_axis: axis, dtype: 'int8', qscheme: 'per_channel_symmetric', quant_min: -127, quant_max: 127 });
  obs.forward(w);
  const { scale, zero_point } = obs.calculate_qparams();
  perAxis[axis] = pt.sqnr(w, pt.tensor(kit.qdqPerChannel(wv, w.shape, axis, scale, zero_point, -127, 127), w.shape));
  // formula (1) per channel: max |w| over the slice / ((127 - (-127)) / 2)
  const inner = w.shape.slice(axis + 1).reduce((a, b) => a * b, 1), amax = new Array(w.shape[axis]).fill(0);
  wv.forEach((v, i) => { const c = Math.floor(i / inner) % w.shape[axis]; amax[c] = Math.max(amax[c], Math.abs(v)); });
  return { axis, along: t(axis === 0 ? 'output_channel' : 'input_channel'), scale, formulaOk: amax.every((m, c) => scale[c] === Math.fround(m / 127)) };
});
show.table(['ch_axis', t('along'), t('scale_shape'), 'scale', 'SQNR (dB)'], rows.map((r) => [r.axis, r.along, `(${r.scale.length},)`, Array.from(r.scale, (s) => s.toFixed(4)).join(', '), perAxis[r.axis].toFixed(2)]));
check(rows.every((r) => r.formulaOk), t('per_slice'));
check(perAxis[0] > perAxis[1], t('axis0_wins'));
reveal(perAxis[0] > perAxis[1] ? '0' : '1');   // the value your prediction is marked against
