// integer_picture.cpp — output elements of an int8 conv2d / linear, recomputed step by step
// (integer_picture.h) from the op's input codes, one run of the graph for all of them, and the parameters
// lowering packed.
#include "lower/integer_picture.h"

#include "graph/interpreter.h"
#include "graph/targets.h"
#include "lower/int8_ops.h"
#include "lower/lower.h"

namespace pt {

namespace {

int32_t code(const Tensor& t, int64_t i) {
  const uint8_t b = static_cast<uint8_t>(t.bytes()[i]);
  return t.dtype() == DType::Int8 ? static_cast<int8_t>(b) : b;
}

// The op's packed data, read once for every element pictured.
struct OpData {
  const Node& n;
  Int8Params p;
  const Tensor &w, &scale, &bias;
  const Tensor &x, &y;  // the op's input codes and its output, from one run of the graph
};

// The element `index` (flat, checked inside y) of the op, step by step.
IntegerPicture picture_at(const OpData& op, int64_t index) {
  const Int8Params& p = op.p;
  const Tensor &x = op.x, &y = op.y;
  IntegerPicture pic;
  pic.node = op.n.name;
  pic.target = op.n.target;
  pic.input_zero_point = p.in_zero_point;
  int64_t rest = index;
  pic.output_coords.assign(y.shape().size(), 0);
  for (size_t d = y.shape().size(); d-- > 0;) pic.output_coords[d] = rest % y.size(static_cast<int64_t>(d)), rest /= y.size(static_cast<int64_t>(d));
  WeightPacking pk;  // where the channel's weights lie in its packed row
  if (is_call(&op.n, target::int8_conv2d)) {
    const int64_t C = x.size(1), H = x.size(2), W = x.size(3), Cg = C / p.groups, O = y.size(1);
    const int64_t nb = pic.output_coords[0], oc = pic.output_coords[1], oh = pic.output_coords[2], ow = pic.output_coords[3];
    const int64_t group = oc / (O / p.groups);
    pic.channel = oc;
    pk = conv_packing(p, Cg);
    for (int64_t c = 0; c < Cg; ++c)
      for (int64_t i = 0; i < p.kernel_h; ++i)
        for (int64_t j = 0; j < p.kernel_w; ++j) {
          const int64_t ih = oh * p.stride_h - p.pad_h + i, iw = ow * p.stride_w - p.pad_w + j;
          const bool inside = ih >= 0 && ih < H && iw >= 0 && iw < W;
          pic.inputs.push_back(inside ? code(x, ((nb * C + group * Cg + c) * H + ih) * W + iw) : p.in_zero_point);
        }
  } else {
    const int64_t K = x.size(-1);
    pic.channel = pic.output_coords.back();
    const int64_t row = index / y.size(-1);
    for (int64_t k = 0; k < K; ++k) pic.inputs.push_back(code(x, row * K + k));
    pk = linear_packing(K);
  }
  const int64_t K = static_cast<int64_t>(pic.inputs.size());
  uint32_t acc = 0;
  for (int64_t k = 0; k < K; ++k) {
    pic.weights.push_back(op.w.data<int16_t>()[pic.channel * op.w.size(1) + pk.column(k)]);
    pic.products.push_back((pic.inputs[k] - p.in_zero_point) * pic.weights.back());
    acc += static_cast<uint32_t>(pic.products.back());
  }
  pic.accumulator = static_cast<int32_t>(acc);
  pic.multiplier = op.scale.data<float>()[pic.channel];
  const OutputStage st = output_stage(p, op.scale, op.bias, pic.channel);
  const kernels::Requantization& r = st.r;
  pic.requantization = requant_name(r.kind);
  if (r.kind == kernels::RequantKind::f32_output) {  // no int32 bias, no code: the float output stage
    pic.float_output = true;
    pic.accumulator_with_bias = pic.accumulator;
    pic.bias_f32 = r.bias_f32;
    pic.relu = p.relu != 0;
    pic.scaled = static_cast<double>(static_cast<float>(pic.accumulator) * pic.multiplier);
    pic.output_f32 = __builtin_bit_cast(float, r.apply(pic.accumulator));
    return pic;
  }
  pic.bias = st.bias;
  pic.accumulator_with_bias = static_cast<int32_t>(acc + static_cast<uint32_t>(pic.bias));
  pic.fixed_multiplier = r.multiplier;
  pic.shift = r.shift;
  pic.scaled = static_cast<double>(static_cast<float>(pic.accumulator_with_bias) * pic.multiplier);
  pic.output_zero_point = p.out_zero_point;
  pic.qmin = p.out_qmin;
  pic.qmax = p.out_qmax;
  pic.output = r.apply(pic.accumulator_with_bias);
  return pic;
}

}  // namespace

std::vector<IntegerPicture> integer_pictures(GraphModule& lowered, const std::string& name, const std::vector<Tensor>& inputs,
                                             const std::vector<int64_t>& indices) {
  const Node* n = lowered.graph.find(name);
  const auto a = n ? int8_args(*n) : std::nullopt;
  if (!a || !(is_call(n, target::int8_conv2d) || is_call(n, target::int8_linear)))
    throw ValueError("integer_picture: '" + name + "' is no int8.conv2d / int8.linear node of this graph");
  if (indices.size() > kMaxIntegerPictures)
    throw ValueError("integer_picture: " + std::to_string(indices.size()) + " indices; at most " + std::to_string(kMaxIntegerPictures) +
                     " elements are pictured in one call");
  if (indices.empty()) return {};
  Tensor x, y;
  run_graph(lowered, inputs, [&](const Node& at, const Value& v) {
    if (&at == a->inputs.at(0)) x = std::get<Tensor>(v.v);
    if (&at == n) y = std::get<Tensor>(v.v);
  });
  for (size_t i = 0; i < indices.size(); ++i)  // every index checked before any picture is made
    if (indices[i] < 0 || indices[i] >= y.numel())
      throw ValueError("integer_picture: index " + std::to_string(indices[i]) +
                       (indices.size() > 1 ? " (indices[" + std::to_string(i) + "])" : std::string()) + " is outside the output " +
                       shape_str(y.shape()));
  const OpData op{*n, Int8Params::from(lowered.get_tensor(a->params->target)), lowered.get_tensor(a->weight->target),
                  lowered.get_tensor(a->scale->target), lowered.get_tensor(a->bias->target), x, y};
  std::vector<IntegerPicture> pictures;
  pictures.reserve(indices.size());
  for (int64_t index : indices) pictures.push_back(picture_at(op, index));
  return pictures;
}

IntegerPicture integer_picture(GraphModule& lowered, const std::string& name, const std::vector<Tensor>& inputs, int64_t index) {
  return integer_pictures(lowered, name, inputs, {index}).front();
}

}  // namespace pt
