// kit.js — M02-3's integer add, next to its float reference, for cell C: both read x quantized with its qparams from
// the graph and a second input r quantized with its own MinMax qparams; the output qparams come from a MinMax
// observer on the float sum. The reference is dequantize -> add -> quantize with the engine's ops; the kernel works
// on the int8 codes: clamp(round((q_x - z_x)·s_x/s_o + (q_r - z_r)·s_r/s_o) + z_o).
const QMIN = -128, QMAX = 127, f32 = Math.fround;
const rne = (v) => { const k = Math.round(v); return k - v === 0.5 && (k & 1) ? k - 1 : k; };
const observe = (t) => { const o = new pt.MinMaxObserver({ dtype: 'int8', quant_min: QMIN, quant_max: QMAX }); o.forward(t);
  const { scale, zero_point } = o.calculate_qparams(); return { s: scale[0], z: zero_point[0] }; };
const q = (t, p) => pt.quantize_per_tensor(t, p.s, p.z, QMIN, QMAX, 'int8');
const dq = (t, p) => pt.dequantize_per_tensor(t, p.s, p.z, QMIN, QMAX, 'int8');
const sum = (a, b) => { const bv = b.data(); return pt.tensor(a.data().map((v, i) => v + bv[i]), a.shape); };   // float32 add
function int_add(x, qx, r) {
  const qr = observe(r), floatSum = sum(dq(q(x, qx), qx), dq(q(r, qr), qr)), qo = observe(floatSum);
  const reference = q(floatSum, qo).data(), ix = q(x, qx).data(), ir = q(r, qr).data();
  const mx = f32(qx.s / qo.s), mr = f32(qr.s / qo.s);
  let worst = 0, exact = 0;
  for (let i = 0; i < ix.length; i++) {
    const out = Math.min(Math.max(rne((ix[i] - qx.z) * mx + (ir[i] - qr.z) * mr) + qo.z, QMIN), QMAX);
    worst = Math.max(worst, Math.abs(out - reference[i]));
    if (out === reference[i]) exact++;
  }
  return { exact, total: ix.length, worst };
}
return { int_add };
