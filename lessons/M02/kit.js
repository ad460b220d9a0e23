// kit.js — M02's shared plumbing: F.conv2d for the page's one conv (3x3, stride 1, padding 1, float32 sums, as
// the graph computes it), so cell C can run conv + relu on quantized inputs and weights, and the per-tensor q / dq
// round trip with the engine's ops.
const f32 = Math.fround;
function conv2d(x, w, b) {                        // x: Tensor (N, C, H, W); w: Tensor (O, C, 3, 3); b: Tensor (O) -> Tensor
  const [N, C, H, W] = x.shape, [O] = w.shape, xv = x.data(), wv = w.data(), bv = b.data();
  const out = new Float32Array(N * O * H * W);
  for (let n = 0; n < N; n++) for (let o = 0; o < O; o++) for (let i = 0; i < H; i++) for (let j = 0; j < W; j++) {
    let acc = bv[o];
    for (let c = 0; c < C; c++) for (let ki = 0; ki < 3; ki++) {
      const ii = i + ki - 1;
      if (ii < 0 || ii >= H) continue;
      for (let kj = 0; kj < 3; kj++) {
        const jj = j + kj - 1;
        if (jj >= 0 && jj < W) acc = f32(acc + f32(xv[((n * C + c) * H + ii) * W + jj] * wv[((o * C + c) * 3 + ki) * 3 + kj]));
      }
    }
    out[((n * O + o) * H + i) * W + j] = acc;
  }
  return pt.tensor(out, [N, O, H, W]);
}
// quantize -> dequantize per tensor with an observer's { scale, zero_point } (int8, -128..127).
const qdq = (t, q) => pt.dequantize_per_tensor(pt.quantize_per_tensor(t, q.scale[0], q.zero_point[0], -128, 127, 'int8'), q.scale[0], q.zero_point[0], -128, 127, 'int8');
return { conv2d, qdq };
