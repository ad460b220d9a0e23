// im2col.h — the geometry of one conv2d call and the im2col / col2im transforms that turn it into
// matrix products (kernels::f32_gemm); shared by the forward conv2d (ops.cpp) and its backward
// (backward.cpp).
//
//   pt::ops::ConvGeometry g = pt::ops::conv2d_geometry(input.shape(), weight.shape(), stride, padding,
//                                                       dilation, groups);   // checks, as conv2d
//   const float* cols = columns(x + (n * g.C + grp * g.Cg) * g.H * g.W, g, scratch);   // K x P
//   col2im(cols, g, dx + ...);                                  // the adjoint: adds each column back
//
// K = Cg * KH * KW rows (one per weight element of an output channel), P = OH * OW columns (one per
// output position); a window position that falls in the padding reads 0 (im2col) / is dropped (col2im).
// For a stride-1 convolution whose output is as wide as its input (a "same" padding, same_width()), column row
// (c, kh, kw) is the plane shifted by (kh·dh − ph, kw·dw − pw): both move it as one run, the positions whose window
// column hangs over the left or right edge masked by edge_keep.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/tensor.h"
#include "ops/ops.h"

namespace pt::ops {

struct ConvGeometry {
  int64_t N, C, H, W;     // input [N, C, H, W]
  int64_t O, Cg, KH, KW;  // weight [O, Cg = C / groups, KH, KW]
  int64_t groups, OH, OW;
  int64_t sh, sw, ph, pw, dh, dw;
  int64_t K() const { return Cg * KH * KW; }
  int64_t P() const { return OH * OW; }
  int64_t Og() const { return O / groups; }
  // same_width() only: edge_keep[kw * P + p] is all ones where output position p's window column kw lies inside
  // the image, 0 where it hangs over an edge (conv2d_geometry fills it).
  std::vector<uint32_t> edge_keep;
  // A 1x1 window at stride 1 without padding: the image's channels already are its columns.
  bool pointwise() const { return KH == 1 && KW == 1 && sh == 1 && sw == 1 && ph == 0 && pw == 0; }
  bool same_width() const { return sh == 1 && sw == 1 && OW == W; }
  // A 3x3 window at stride 1, dilation 1 and padding 1 ("same"), with 8 or more channels a group on both sides: conv2d's
  // gradients go through Winograd's 16 matrix products (ops/backward.cpp), and the forward saves no columns.
  bool winograd_gradients() const {
    return KH == 3 && KW == 3 && sh == 1 && sw == 1 && dh == 1 && dw == 1 && ph == 1 && pw == 1 && Cg >= 8 && Og() >= 8;
  }
};

// Validates a conv2d call's shapes and hyper-parameters (RuntimeError naming the argument, the messages
// of ops::conv2d) and returns its geometry.
ConvGeometry conv2d_geometry(const Shape& input, const Shape& weight, const IntList& stride, const IntList& padding,
                             const IntList& dilation, int64_t groups);

// One image's group of Cg channels (x points at its first channel) as K x P columns, written to cols.
void im2col(const float* x, const ConvGeometry& g, float* cols);
// The same columns: x itself when g is pointwise(), else im2col into scratch (K x P floats) and scratch.
const float* columns(const float* x, const ConvGeometry& g, float* scratch);
// The adjoint of im2col: x[c, ih, iw] += cols[(c, kh, kw)][(oh, ow)] for every window position inside
// the image, in float, in the order of the loops (c, kh, kw, oh, ow).
void col2im(const float* cols, const ConvGeometry& g, float* x);

}  // namespace pt::ops
