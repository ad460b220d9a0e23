// A. Affine int8 by hand, then the same numbers from torchao's MinMaxObserver, in A.py's order.
pt.manual_seed(0);
const x = pt.rand([2000]).mul(2).add(1);                     // values in [1, 3)
const qmin = -128, qmax = 127, f32 = Math.fround, d = x.data();
const lo = Math.min(0, ...d), hi = Math.max(0, ...d);        // the range, widened to include 0
const scale = f32(f32(hi - lo) / (qmax - qmin));             // 255 gaps between 256 levels
const zp = qmin - Math.round(lo / scale);

const obs = new pt.MinMaxObserver({ dtype: 'int8', qscheme: 'per_tensor_affine', quant_min: qmin, quant_max: qmax });
obs.forward(x);
const { scale: [s], zero_point: [z] } = obs.calculate_qparams();
const q = pt.quantize_per_tensor(x, s, z, qmin, qmax, 'int8');
const back = pt.dequantize_per_tensor(q, s, z, qmin, qmax, 'int8').data();

const codes = new Set(q.data()), worst = Math.max(...back.map((v, i) => Math.abs(v - d[i])));
show.table(['', 'min', 'max', 'scale', 'zero point'], [[t('by_hand'), lo, hi, scale, zp], ['MinMaxObserver', obs.min_val.item(), obs.max_val.item(), s, z]]);
show.view('histogram', { values: d, bins: 50, lo: -0.5, hi: 3.5, title: t('hist_title'),      // drag the range's ends
  range: { min: lo, max: hi, label: t('int8_range'), draggable: true }, quant: { quant_min: qmin, quant_max: qmax, dtype: 'int8' } });
show.text(t('codes_used', { used: codes.size, first: Math.min(...codes), last: Math.max(...codes), worst: (worst / s).toFixed(3) }));
check(Math.abs(s / scale - 1) < 1e-6 && z === zp, t('hand_is_observer'));
check(worst <= 0.5 * s * (1 + 1e-5), t('half_step'));
check(pt.dequantize_per_tensor(pt.quantize_per_tensor(pt.tensor([0], [1]), s, z, qmin, qmax, 'int8'), s, z, qmin, qmax, 'int8').item() === 0 && Math.min(...d) > 0, t('zero_exact'));
check(codes.size < 256 && codes.size <= Math.floor((Math.max(...d) - Math.min(...d)) / s) + 2, t('codes_cost'));
reveal(z);   // the value your prediction is marked against
