// int8_ops.h — the integer ops a lowered graph runs (target::int8_conv2d ... in graph/targets.h): their
// argument layout, the one accessor that reads it back, weight packing, and the op functions the
// interpreter's table gets at start-up (over engine/kernels' integer kernels).
//
// Every int8 op takes int8 / uint8 codes and returns codes (the dtype of the q node it replaced):
//   int8.<op>(inputs: [Node], params: int32 [kInt8ParamCount] get_attr, weight?, bias?, scale?)
//     params  Int8Params below, as a small int32 tensor (the op's plain data, like a backend's packed
//             params blob), so a lowered graph is a plain GraphModule: clone, views and tables work on it;
//     weight  int16 [O, row]: conv / linear weights (int8, zero point 0) widened and laid out once at
//             lowering, a row per output channel of its K = Cg·kH·kW (or in_features) weights, in the
//             layout params.weight_layout names (WeightLayout below; WeightPacking maps a tap to its place);
//     bias    int32 [O]: bias_f32 quantized with scale s_in·s_w[c] (torchao reference_representation_rewrite.py);
//             float32 [O] under the float output stage (the float bias itself, added after the scale);
//     scale   float32 [O]: the requantization multipliers f32(f32(s_in·s_w[c]) / s_out) (conv / linear),
//             f32(s_in·s_w[c]) under the float output stage,
//             or [s_in, s_out] (mean, whose multiplier also divides by the pooled count at run time).
// The float output stage (requant f32_output, out_bits 32; the X86 path's conv / linear whose output feeds a
// float user, kernels.h RequantKind::f32_output) returns float32 instead of codes: f32(acc)·scale + bias [, relu].
// How an accumulator becomes a code is params.requant (kernels.h RequantKind: XNNPACK fp32, gemmlowp
// fixed point, pure shift), chosen per op: requantization() derives the kernel's parameters from the
// multiplier, so a graph holds the real multiplier a learner can read and the backend's way of applying it.
//
//   const Int8Args a = int8_args(*node);        // inputs, params, weight, bias, scale
//   pt::Tensor w16 = pack_weight(w_int8, layout);  // [O, C/g, kH, kW] or [O, K] int8 -> int16 [O, row]
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.h"
#include "graph/graph.h"
#include "graph/interpreter.h"
#include "kernels/kernels.h"

namespace pt {

// An int8 op's integer parameters; each op reads the fields it needs. X-macro: field name, default.
#define PT_INT8_PARAMS(X)                                                                               \
  X(in_zero_point, 0)     /* the (first) input's zero point */                                          \
  X(in2_zero_point, 0)    /* add: the second input's */                                                 \
  X(in_signed, 1)         /* input codes are int8 (1) or uint8 (0) */                                   \
  X(out_zero_point, 0)                                                                                  \
  X(out_qmin, -128)       /* the output code's range; a fused relu raises out_qmin to out_zero_point */ \
  X(out_qmax, 127)                                                                                      \
  X(out_signed, 1)                                                                                      \
  X(requant, 0)           /* RequantKind of conv2d / linear / mean */                                   \
  X(relu, 0)              /* f32_output: a fused relu (a code output's relu is out_qmin instead) */    \
  X(stride_h, 1) X(stride_w, 1) X(pad_h, 0) X(pad_w, 0) X(groups, 1) X(kernel_h, 1) X(kernel_w, 1)      \
  X(add_bias, 0) X(add_a_multiplier, 0) X(add_b_multiplier, 0) X(add_shift, 0) /* q8_add's */           \
  X(dim, 0) X(end_dim, -1) /* cat's dim; flatten's start_dim / end_dim */                              \
  X(keepdim, 1)           /* mean: [N, C, 1, 1] (1) or [N, C] (0) */                                    \
  X(out_bits, 8)          /* output codes of 8 bits (out_signed says which), int16 (the VPU's Q3.12), or */ \
                          /* 32: float32, the f32_output stage's */                                     \
  X(weight_layout, 0)     /* conv2d / linear: the packed weight's WeightLayout */

struct Int8Params {
#define PT_FIELD(name, dflt) int32_t name = dflt;
  PT_INT8_PARAMS(PT_FIELD)
#undef PT_FIELD
  Tensor to_tensor() const;                  // int32 [kInt8ParamCount]
  static Int8Params from(const Tensor& t);   // ValueError for a tensor of another shape or dtype
  DType in_dtype() const { return in_signed ? DType::Int8 : DType::UInt8; }
  DType out_dtype() const {
    return out_bits == 32 ? DType::Float32 : out_bits == 16 ? DType::Int16 : out_signed ? DType::Int8 : DType::UInt8;
  }
};
inline constexpr size_t kInt8ParamCount = 0
#define PT_COUNT(name, dflt) +1
    PT_INT8_PARAMS(PT_COUNT)
#undef PT_COUNT
    ;

// A node's arguments, as int8_arg_list lays them out.
struct Int8Args {
  std::vector<Node*> inputs;
  Node* params = nullptr;
  Node* weight = nullptr;
  Node* bias = nullptr;
  Node* scale = nullptr;
};
std::vector<Arg> int8_arg_list(const Int8Args& a);
std::optional<Int8Args> int8_args(const Node& n);  // nullopt for a node that is no int8 op

// How a packed weight's row holds one output channel's K = Cg·T weights, taps k = c·T + t in the int8
// weight's order (c the input channel of the group, t = i·kW + j the kernel tap; linear: Cg = in_features, T = 1).
enum class WeightLayout : int32_t {
  taps = 0,           // k in order, then a 0 for an odd K: row K + K % 2 (im2col's order)
  channel_pairs = 1,  // pair q·T + t holds channels 2q and 2q + 1 at tap t (the second 0 for an odd Cg's last):
                      // row 2·⌈Cg/2⌉·T, the order conv2d's stride-1 path reads its input planes in
};

// The one reader of the layout: where a channel's tap k lies in its packed row, and which tap lies at a
// position. conv2d (both paths), integer pictures and the tests go through it.
struct WeightPacking {
  WeightLayout layout = WeightLayout::taps;
  int64_t Cg = 0, T = 1;  // channels and taps per channel
  int64_t K() const { return Cg * T; }
  int64_t row() const { return layout == WeightLayout::taps ? K() + (K() & 1) : 2 * ((Cg + 1) / 2) * T; }
  int64_t column(int64_t k) const {
    if (layout == WeightLayout::taps) return k;
    const int64_t c = k / T, t = k % T;
    return 2 * ((c / 2) * T + t) + c % 2;
  }
  int64_t tap_at(int64_t m) const {  // −1: a padding zero
    if (layout == WeightLayout::taps) return m < K() ? m : -1;
    const int64_t c = 2 * (m / 2 / T) + m % 2;
    return c < Cg ? c * T + m / 2 % T : -1;
  }
};
// A conv's packing (params' layout and kernel, Cg channels a group) and a linear's (K in_features).
WeightPacking conv_packing(const Int8Params& p, int64_t Cg);
WeightPacking linear_packing(int64_t K);
// The layout lowering packs a conv's weight in: channel pairs where conv2d reads its input as channel pairs
// (stride 1, and Cg even or ≥ 9: an odd Cg pairs its last channel with zeros, one pair in ten wasted from 9
// on, below that im2col packs the taps tighter); taps otherwise. From the weight and params only.
WeightLayout conv_weight_layout(const Int8Params& p, int64_t Cg);

// Whether int8.conv2d computes a conv with these params, Cg input channels a group and OH × OW outputs a plane through
// integer Winograd F(2×2, 3×3) (int8_ops.cpp says how and why it stays exact): a 3×3 kernel at stride 1, where it
// pays (16 channels a group or more, 256 outputs or more, Cg·OH·OW ≥ 6144), and a zero point for which
// Cg·9·128·max|code − zero point| < 2^29 (a packed weight outside int8's range, from an edited graph, sends the call
// to the GEMM paths too). Its accumulators, so its outputs, equal theirs bit for bit.
bool conv_takes_winograd(const Int8Params& p, int64_t Cg, int64_t OH, int64_t OW);

// int8 weights [O, Cg, kH, kW] (conv) or [O, K] (linear, taps only) -> int16 [O, row] in `layout`.
Tensor pack_weight(const Tensor& w, WeightLayout layout = WeightLayout::taps);

// The kernel's parameters for one multiplier under `kind` (kernels.h Requantization): fp32 keeps it;
// fixed_point is TFLite's QuantizeMultiplier (frexp, round(q·2^31), the 2^31 carry); shift needs a power
// of two 2^-s, s in [0, 31], shift_even one with s in [−31, 31]. ValueError naming the multiplier when it
// cannot be expressed.
kernels::Requantization requantization(kernels::RequantKind kind, float multiplier, int32_t zero_point, int32_t qmin,
                                       int32_t qmax);

// One output channel's last step in a conv2d / linear: the int32 bias i32_requantize adds and the
// Requantization from params.requant and the channel's multiplier (scale[channel]). Codes out: bias[channel]
// of the int32 bias; the float output stage: no int32 bias, the float bias[channel] and the fused relu inside.
struct OutputStage {
  int32_t bias = 0;
  kernels::Requantization r;
};
OutputStage output_stage(const Int8Params& p, const Tensor& scale, const Tensor& bias, int64_t channel);

// A shift_even add (the VPU's, engine/lower/vpu.h): inputs of one scale s_in add as codes, then 2^-add_shift
// = s_in / s_out requantizes the sum. ValueError when the input scales differ or the ratio is no power of two.
void set_shift_add_params(Int8Params& p, float a_scale, float b_scale, float out_scale);

// XNNPACK's qs8 / qu8 add parameters (microparams-init.c xnn_init_qs8_add_minmax_scalar_params, restated):
// multipliers of 21 bits for the scale ratios s_a / s_o and s_b / s_o, the shift that makes them so, the
// zero points and the rounding folded into the bias. NotImplementedError when a ratio is outside
// [2^-10, 2^8), which XNNPACK rejects.
void set_add_params(Int8Params& p, float a_scale, float b_scale, float out_scale);

// The int8 ops, for the interpreter's table (registered at start-up by int8_ops.cpp).
std::vector<std::pair<const char*, OpFn>> int8_ops();

}  // namespace pt
