// lower.cpp — the partitioner (lower.h): patterns in graph order, each checked and replaced by one int8
// op with its parameters packed once; then dead code goes and the report is written.
#include "lower/lower.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "graph/interpreter.h"
#include "graph/quantized_decomposed.h"
#include "graph/targets.h"
#include "lower/int8_ops.h"

namespace pt {

const char* backend_name(LowerBackend b) { return b == LowerBackend::x86 ? "x86" : "xnnpack"; }

LowerBackend backend_from_name(const std::string& name) {
  if (name == "xnnpack") return LowerBackend::xnnpack;
  if (name == "x86") return LowerBackend::x86;
  throw ValueError("lower: unknown backend '" + name + "' (expected 'xnnpack' or 'x86')");
}

namespace {
constexpr std::pair<kernels::RequantKind, const char*> kRequantNames[] = {
    {kernels::RequantKind::fp32, "fp32"},
    {kernels::RequantKind::fixed_point, "fixed_point"},
    {kernels::RequantKind::shift, "shift"},
    {kernels::RequantKind::shift_even, "shift_even"},
    {kernels::RequantKind::f32_output, "f32_output"},
};

}  // namespace

std::string quoted_requant_names() {
  std::string s;
  for (const auto& [_, name] : kRequantNames) s += (s.empty() ? "'" : ", '") + std::string(name) + "'";
  return s;
}

const std::vector<std::string>& requant_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& [_, name] : kRequantNames) v.emplace_back(name);
    return v;
  }();
  return names;
}

const char* requant_name(kernels::RequantKind kind) {
  for (const auto& [k, name] : kRequantNames)
    if (k == kind) return name;
  throw ValueError("requantization kind " + std::to_string(static_cast<int32_t>(kind)) + " is none of " + quoted_requant_names());
}

kernels::RequantKind requant_from_name(const std::string& name) {
  for (const auto& [kind, n] : kRequantNames)
    if (name == n) return kind;
  throw ValueError("unknown requantization '" + name + "' (expected one of " + quoted_requant_names() + ")");
}

namespace {

// A static per-tensor quantize / dequantize: literal scale and zero point.
struct Affine {
  float scale;
  int32_t zero_point, qmin, qmax;
  DType dtype;
  bool same_qparams(const Affine& o) const { return scale == o.scale && zero_point == o.zero_point && dtype == o.dtype; }
};

std::optional<Affine> static_per_tensor(const Node* n, NodeKind kind) {
  const auto a = n && node_kind(*n) == kind ? per_tensor_qparams(*n) : std::nullopt;
  if (!a) return std::nullopt;
  return Affine{static_cast<float>(a->scale), static_cast<int32_t>(a->zero_point), static_cast<int32_t>(a->quant_min),
                static_cast<int32_t>(a->quant_max), a->dtype};
}

std::vector<int64_t> ints_arg(const Node* n, size_t i, std::vector<int64_t> dflt) {
  if (i >= n->args().size() || n->args()[i].is_none()) return dflt;
  if (const auto* v = std::get_if<std::vector<int64_t>>(&n->args()[i].v)) return v->size() == 1 ? std::vector<int64_t>{(*v)[0], (*v)[0]} : *v;
  if (const auto* v = std::get_if<int64_t>(&n->args()[i].v)) return {*v, *v};
  throw TypeError("argument " + std::to_string(i) + " is not an int list");
}

int64_t int_arg(const Node* n, size_t i, int64_t dflt) {
  if (i >= n->args().size() || n->args()[i].is_none()) return dflt;
  if (const auto* v = std::get_if<int64_t>(&n->args()[i].v)) return *v;
  if (const auto* b = std::get_if<bool>(&n->args()[i].v)) return *b;
  throw TypeError("argument " + std::to_string(i) + " is not an int");
}

[[noreturn]] void fail(const Node* n, const Error& e) { rethrow_for_node(e, *n); }

// One match: the nodes it takes over and the int8 op that replaces them.
struct Match {
  Node* op = nullptr;
  Node* relu = nullptr;
  Node* q = nullptr;
  std::vector<Node*> input_dqs;
  std::vector<Node*> weight_dqs;  // taken with the op when it was their only user
  Affine out{};
  std::vector<Affine> in;
};

class Lowerer {
 public:
  Lowerer(GraphModule& gm, const LowerOptions& o) : gm_(gm), o_(o) {}

  void run() {
    if (o_.requantization == kernels::RequantKind::f32_output)
      throw ValueError("lower: f32_output is the float output stage lowering picks for an x86 conv / linear whose output "
                       "is not quantized, not a requantization (expected fp32, fixed_point, shift or shift_even)");
    check_converted();
    for (Node* n : gm_.graph.nodes()) {
      if (!gm_.graph.contains(n) || n->op != OpKind::call_function || node_kind(*n) != NodeKind::op) continue;
      try_lower(n);
    }
    gm_.graph.eliminate_dead_code();
    gm_.graph.lint();
  }

  std::map<std::string, std::string> lowered_as, reasons;

 private:
  bool shift_even() const { return o_.requantization == kernels::RequantKind::shift_even; }
  DType activation_dtype() const { return o_.backend == LowerBackend::x86 ? DType::UInt8 : DType::Int8; }

  void check_converted() const {
    bool qdq = false;
    for (const Node* n : gm_.graph.nodes()) {
      if (n->op == OpKind::call_module)
        throw ValueError("lower: node " + n->name + " is an observer (" + n->target +
                         "): calibrate, then run convert_pt2e before lowering");
      qdq |= node_kind(*n) == NodeKind::quantize || node_kind(*n) == NodeKind::dequantize;
    }
    if (!qdq)
      throw ValueError("lower: the graph has no quantize / dequantize nodes; lower a graph that convert_pt2e produced");
  }

  // The output side: op [→ relu] → q (static, per tensor). Empty reason when it fits.
  std::string find_output(Match& m, bool fuse_relu) const {
    Node* last = m.op;
    if (fuse_relu && last->users().size() == 1 && is_call(last->users()[0], group::relu)) m.relu = last = last->users()[0];
    if (last->users().size() != 1 || node_kind(*last->users()[0]) != NodeKind::quantize) return "its output is not quantized";
    m.q = last->users()[0];
    const auto out = static_per_tensor(m.q, NodeKind::quantize);
    if (!out) return "its output quantize is not static per tensor";
    m.out = *out;
    return "";
  }

  std::string add_input(Match& m, Node* dq) const {
    const auto a = static_per_tensor(dq, NodeKind::dequantize);
    if (!a) return "an input is not a static per-tensor dequantize";
    m.input_dqs.push_back(dq);
    m.in.push_back(*a);
    return "";
  }

  // Inputs and output hold the backend's activation codes; under shift_even requantization an op that
  // requantizes (int16_output) may also write int16 codes (the VPU's Q3.12 output, engine/lower/vpu.h). A
  // float output (no m.q) has inputs only.
  void check_dtypes(const Match& m, bool int16_output = false) const {
    const DType want = activation_dtype();
    for (size_t i = 0; i < m.in.size() + (m.q ? 1 : 0); ++i) {
      const Affine& a = i < m.in.size() ? m.in[i] : m.out;
      const Node* at = i < m.in.size() ? m.input_dqs[i] : m.q;
      if (i == m.in.size() && int16_output && a.dtype == DType::Int16 && shift_even()) continue;
      if (a.dtype != want)
        throw ValueError(std::string("lower(") + backend_name(o_.backend) + "): " + at->name + " holds " +
                         dtype_name(a.dtype) + " codes; the " + backend_name(o_.backend) + " backend runs " +
                         dtype_name(want) + " activations");
    }
  }

  void check_shared(const Match& m) const {
    for (size_t i = 0; i < m.in.size(); ++i)
      if (!m.in[i].same_qparams(m.out))
        throw ValueError("input " + m.input_dqs[i]->name + " (scale " + std::to_string(m.in[i].scale) + ", zero point " +
                         std::to_string(m.in[i].zero_point) + ") and output " + m.q->name + " (scale " +
                         std::to_string(m.out.scale) + ", zero point " + std::to_string(m.out.zero_point) +
                         ") must share qparams: the int8 op copies codes");
  }

  Int8Params base_params(const Match& m) const {
    Int8Params p;
    p.in_zero_point = m.in.at(0).zero_point;
    p.in_signed = m.in[0].dtype == DType::Int8;
    if (!m.q) {  // the float output stage: no output code, a fused relu clamps the float
      p.requant = static_cast<int32_t>(kernels::RequantKind::f32_output);
      p.out_bits = 32;
      p.relu = m.relu ? 1 : 0;
      return p;
    }
    p.out_zero_point = m.out.zero_point;
    p.out_qmin = m.relu ? std::max(m.out.qmin, m.out.zero_point) : m.out.qmin;
    p.out_qmax = m.out.qmax;
    p.out_signed = m.out.dtype != DType::UInt8;
    p.out_bits = m.out.dtype == DType::Int16 ? 16 : 8;
    p.requant = static_cast<int32_t>(o_.requantization);
    return p;
  }

  Node* attr(Node* anchor, const std::string& prefix, const Tensor& value) {
    std::string name;
    for (int k = 0;; ++k) {
      name = prefix + std::to_string(k);
      if (!gm_.has_tensor(name) && !gm_.graph.find(name)) break;
    }
    gm_.set_tensor(name, value, /*is_buffer=*/true);
    Node* a = gm_.graph.insert_before(anchor, OpKind::get_attr, name, {}, name);
    a->meta.val = TensorMeta{value.shape(), value.dtype()};
    return a;
  }

  // Replaces the match by `target`(inputs, params, weight, bias, scale), keeping the op's name. The match
  // ends at its quantize, or (a float output) at its relu or the op itself, whose users then read the int8 op.
  void replace(const Match& m, const char* target, const Int8Params& p, const Tensor* weight = nullptr,
               const Tensor* bias = nullptr, const Tensor* scale = nullptr) {
    Node* last = m.q ? m.q : m.relu ? m.relu : m.op;
    Int8Args a;
    for (Node* dq : m.input_dqs) a.inputs.push_back(arg_node(dq, 0));
    a.params = attr(last, "_int8_params_", p.to_tensor());
    if (weight) a.weight = attr(last, "_packed_weight_", *weight);
    if (bias) a.bias = attr(last, m.q ? "_bias_int32_" : "_bias_f32_", *bias);
    if (scale) a.scale = attr(last, "_requant_scale_", *scale);
    Node* op = gm_.graph.insert_before(last, OpKind::call_function, target, int8_arg_list(a), "");
    op->meta.val = last->meta.val;
    op->meta.nn_module_stack = m.op->meta.nn_module_stack;
    op->meta.custom = m.op->meta.custom;
    op->meta.custom["delegate"] = std::string(backend_name(o_.backend));
    const std::string name = m.op->name;
    std::vector<Node*> taken = {m.op};
    for (Node* n : {m.q, m.relu})
      if (n) taken.push_back(n);
    for (const auto* dqs : {&m.input_dqs, &m.weight_dqs})
      for (Node* dq : *dqs)
        if (dq->users().size() == 1) taken.push_back(dq);
    for (Node* t : taken) lowered_as[t->name] = name;
    gm_.graph.replace_all_uses_with(last, op);
    if (m.q) gm_.graph.erase_node(m.q);
    if (m.relu) gm_.graph.erase_node(m.relu);
    gm_.graph.erase_node(m.op);
    op->name = name;
  }

  void try_lower(Node* n) {
    Match m;
    m.op = n;
    std::string why;
    try {
      if (is_call(n, target::conv2d) || is_call(n, target::linear)) why = weighted(m);
      else if (is_call(n, target::add)) why = add(m);
      else if (is_call(n, target::max_pool2d)) why = max_pool2d(m);
      else if (is_call(n, target::adaptive_avg_pool2d) || is_call(n, target::mean_dim)) why = mean(m);
      else if (is_call(n, target::cat)) why = cat(m);
      else if (is_call(n, target::flatten)) why = flatten(m);
      else why = "no int8 kernel for " + n->target;
    } catch (const Error& e) {
      fail(n, e);
    }
    if (!why.empty()) reasons[n->name] = why;
  }

  // conv2d / linear: weight int8, zero point 0; bias quantized with s_in·s_w[c]; multipliers per channel.
  // On x86 an op whose output is not quantized takes the float output stage instead (int8_ops.h): torchao
  // v0.18.0 inductor_passes/x86.py turns every dq → conv / linear into onednn.qconv_pointwise /
  // qlinear_pointwise with output_dtype float32 (qconv_weight_prepack, qlinear_weight_prepack), fuses an
  // output quantize where one follows (_register_qconv_post_op_fusion_pass), and otherwise the relu of a
  // conv / linear with that one user into the float-output op (_register_qconv_unary_fusion,
  // _register_qlinear_unary_fusion, "Priority 2": QConv2d / QLinear Unary pattern with fp32 output).
  std::string weighted(Match& m) {
    const bool conv = is_call(m.op, target::conv2d);
    if (std::string why = add_input(m, arg_node(m.op, 0)); !why.empty()) return why;
    Node* w_dq = arg_node(m.op, 1);
    if (!w_dq || node_kind(*w_dq) != NodeKind::dequantize) return "its weight is not dequantized";
    if (std::string why = find_output(m, true); !why.empty()) {
      if (o_.backend != LowerBackend::x86) return why;
      m.q = nullptr;  // the float output stage; find_output fused the relu if it is the op's one user
    }
    check_dtypes(m, true);
    const auto wa = qdq_args(*w_dq);
    if (!wa || wa->dtype != DType::Int8)
      throw ValueError("weight " + w_dq->name + " must hold int8 codes (XNNPACK's qc8w / onednn's s8 weights)");
    const Tensor w = std::get<Tensor>(evaluate_constants(gm_, {wa->input})[0].v);
    const int64_t O = w.size(0);
    std::vector<float> s_w(static_cast<size_t>(O));
    bool zero_zp = true;
    if (wa->axis) {
      if (*wa->axis != 0) throw ValueError("weight " + w_dq->name + " is quantized along axis " + std::to_string(*wa->axis) + ", not the output channels");
      const auto v = evaluate_constants(gm_, {wa->scale.node(), wa->zero_point.node()});
      const Tensor sc = std::get<Tensor>(v[0].v).to(DType::Float32), zp = std::get<Tensor>(v[1].v).to(DType::Float32);
      for (int64_t c = 0; c < O; ++c) s_w[c] = sc.data<float>()[c], zero_zp &= zp.data<float>()[c] == 0.0f;
    } else {
      const auto* s = std::get_if<double>(&wa->scale.v);
      const auto* z = std::get_if<int64_t>(&wa->zero_point.v);
      if (!s || !z) throw ValueError("weight " + w_dq->name + " has no literal scale / zero point");
      std::fill(s_w.begin(), s_w.end(), static_cast<float>(*s));
      zero_zp = *z == 0;
    }
    if (!zero_zp) throw ValueError("weight " + w_dq->name + " has a non-zero zero point; int8 kernels take symmetric weights");
    m.weight_dqs.push_back(w_dq);
    Int8Params p = base_params(m);
    if (conv) {
      if (w.dim() != 4) throw ValueError("conv2d weight " + w_dq->name + " is not 4-D: " + shape_str(w.shape()));
      const auto stride = ints_arg(m.op, 3, {1, 1}), padding = ints_arg(m.op, 4, {0, 0}), dilation = ints_arg(m.op, 5, {1, 1});
      if (dilation != std::vector<int64_t>{1, 1})
        throw NotImplementedError("dilation " + std::to_string(dilation[0]) + "x" + std::to_string(dilation[1]) +
                                  ": the int8 conv2d kernel runs dilation 1 only");
      p.stride_h = static_cast<int32_t>(stride[0]), p.stride_w = static_cast<int32_t>(stride[1]);
      p.pad_h = static_cast<int32_t>(padding[0]), p.pad_w = static_cast<int32_t>(padding[1]);
      p.groups = static_cast<int32_t>(int_arg(m.op, 6, 1));
      p.kernel_h = static_cast<int32_t>(w.size(2)), p.kernel_w = static_cast<int32_t>(w.size(3));
    } else if (w.dim() != 2) {
      throw ValueError("linear weight " + w_dq->name + " is not 2-D: " + shape_str(w.shape()));
    }
    Tensor bias = Tensor::zeros({O}, DType::Int32), scale = Tensor::empty({O});
    const Node* b = arg_node(m.op, 2);
    const Tensor bias_f = b ? std::get<Tensor>(evaluate_constants(gm_, {b})[0].v) : Tensor::zeros({O});
    if (bias_f.dtype() != DType::Float32 || bias_f.numel() != O)
      throw ValueError("bias " + b->name + " must be float32 [" + std::to_string(O) + "], got " + dtype_name(bias_f.dtype()) + " " + shape_str(bias_f.shape()));
    const float s_in = m.in[0].scale;
    if (conv) p.weight_layout = static_cast<int32_t>(conv_weight_layout(p, w.size(1)));  // the layout conv2d reads fastest
    const Tensor packed = pack_weight(w, static_cast<WeightLayout>(p.weight_layout));
    const char* int8_target = conv ? target::int8_conv2d : target::int8_linear;
    if (!m.q) {  // onednn's float output: scale f32(s_in · s_w[c]) on the accumulator, the float bias as it is
      for (int64_t c = 0; c < O; ++c) {
        scale.data<float>()[c] = s_w[c] * s_in;
        requantization(kernels::RequantKind::f32_output, scale.data<float>()[c], 0, 0, 0);  // throws early
      }
      const Tensor bias_f32 = bias_f.clone().reshape({O});
      replace(m, int8_target, p, &packed, &bias_f32, &scale);
      return "";
    }
    const float s_out = m.out.scale;
    for (int64_t c = 0; c < O; ++c) {
      // rne(b · f32(1 / (s_w · s_in))), as quantize_per_channel(bias, s_w · s_in, 0, int32) computes it.
      const float bias_scale = s_w[c] * s_in;
      const double q = std::nearbyint(static_cast<double>(bias_f.data<float>()[c] * (1.0f / bias_scale)));
      bias.data<int32_t>()[c] = static_cast<int32_t>(std::clamp(q, -2147483648.0, 2147483647.0));
      scale.data<float>()[c] = bias_scale / s_out;  // XNNPACK: f32(f32(s_in · s_w[c]) / s_out)
      requantization(o_.requantization, scale.data<float>()[c], p.out_zero_point, p.out_qmin, p.out_qmax);  // throws early
    }
    replace(m, int8_target, p, &packed, &bias, &scale);
    return "";
  }

  std::string add(Match& m) {
    if (m.op->args().size() > 2 && int_arg(m.op, 2, 1) != 1) return "add with alpha != 1";
    for (size_t i = 0; i < 2; ++i)
      if (std::string why = add_input(m, arg_node(m.op, i)); !why.empty()) return why;
    const auto& va = m.input_dqs[0]->meta.val;
    const auto& vb = m.input_dqs[1]->meta.val;
    if (va && vb && va->shape != vb->shape) return "it broadcasts " + shape_str(va->shape) + " with " + shape_str(vb->shape);
    if (std::string why = find_output(m, true); !why.empty()) return why;
    check_dtypes(m, true);
    Int8Params p = base_params(m);
    p.in2_zero_point = m.in[1].zero_point;
    if (shift_even()) set_shift_add_params(p, m.in[0].scale, m.in[1].scale, m.out.scale);
    else set_add_params(p, m.in[0].scale, m.in[1].scale, m.out.scale);
    replace(m, target::int8_add, p);
    return "";
  }

  std::string single_input(Match& m) {
    if (std::string why = add_input(m, arg_node(m.op, 0)); !why.empty()) return why;
    if (std::string why = find_output(m, false); !why.empty()) return why;
    check_dtypes(m);
    return "";
  }

  std::string max_pool2d(Match& m) {
    if (std::string why = single_input(m); !why.empty()) return why;
    check_shared(m);
    const auto kernel = ints_arg(m.op, 1, {});
    const auto stride = ints_arg(m.op, 2, kernel), padding = ints_arg(m.op, 3, {0, 0}), dilation = ints_arg(m.op, 4, {1, 1});
    if (kernel.size() != 2) throw ValueError("max_pool2d needs a kernel_size");
    if (dilation != std::vector<int64_t>{1, 1} || int_arg(m.op, 5, 0) || padding.size() != 2 ||
        2 * padding[0] > kernel[0] || 2 * padding[1] > kernel[1])
      throw NotImplementedError(
          "the int8 max_pool2d kernel runs dilation 1, ceil_mode=False and padding at most half the window only");
    Int8Params p = base_params(m);
    p.kernel_h = static_cast<int32_t>(kernel[0]), p.kernel_w = static_cast<int32_t>(kernel[1]);
    p.stride_h = static_cast<int32_t>(stride.empty() ? kernel[0] : stride[0]);
    p.stride_w = static_cast<int32_t>(stride.empty() ? kernel[1] : stride[1]);
    p.pad_h = static_cast<int32_t>(padding[0]), p.pad_w = static_cast<int32_t>(padding[1]);
    replace(m, target::int8_max_pool2d, p);
    return "";
  }

  std::string mean(Match& m) {
    if (std::string why = single_input(m); !why.empty()) return why;
    Int8Params p = base_params(m);
    if (is_call(m.op, target::adaptive_avg_pool2d)) {
      if (ints_arg(m.op, 1, {}) != std::vector<int64_t>{1, 1})
        throw NotImplementedError("the int8 mean kernel pools to 1x1 only");
    } else {
      std::vector<int64_t> dims = ints_arg(m.op, 1, {});
      for (int64_t& d : dims) d = d < 0 ? d + 4 : d;
      std::sort(dims.begin(), dims.end());
      if (dims != std::vector<int64_t>{2, 3}) throw NotImplementedError("the int8 mean kernel averages over dims (2, 3) only");
      p.keepdim = static_cast<int32_t>(int_arg(m.op, 2, 0));
    }
    if (const auto& v = m.input_dqs[0]->meta.val; v && v->shape.size() == 4)  // the multiplier's check, at lowering
      requantization(static_cast<kernels::RequantKind>(p.requant),
                     m.in[0].scale / (m.out.scale * static_cast<float>(v->shape[2] * v->shape[3])), p.out_zero_point,
                     p.out_qmin, p.out_qmax);
    const Tensor scale = Tensor::from<float>({m.in[0].scale, m.out.scale}, {2});
    replace(m, target::int8_mean, p, nullptr, nullptr, &scale);
    return "";
  }

  std::string cat(Match& m) {
    const auto* list = std::get_if<std::vector<Node*>>(&m.op->args()[0].v);
    if (!list || list->empty()) return "its inputs are not a list of tensors";
    for (Node* in : *list)
      if (std::string why = add_input(m, in); !why.empty()) return why;
    if (std::string why = find_output(m, false); !why.empty()) return why;
    check_dtypes(m);
    check_shared(m);
    Int8Params p = base_params(m);
    int64_t dim = int_arg(m.op, 1, 0);
    if (dim < 0) {
      if (!m.q->meta.val) throw ValueError("cat with a negative dim needs the graph's shapes (meta.val)");
      dim += static_cast<int64_t>(m.q->meta.val->shape.size());
    }
    p.dim = static_cast<int32_t>(dim);
    replace(m, target::int8_cat, p);
    return "";
  }

  std::string flatten(Match& m) {
    if (std::string why = single_input(m); !why.empty()) return why;
    check_shared(m);
    Int8Params p = base_params(m);
    p.dim = static_cast<int32_t>(int_arg(m.op, 1, 0));
    p.end_dim = static_cast<int32_t>(int_arg(m.op, 2, -1));
    replace(m, target::int8_flatten, p);
    return "";
  }

  GraphModule& gm_;
  const LowerOptions& o_;
};

// Connected groups of int8 ops (one int8 op reading another's codes joins its group).
int count_subgraphs(const Graph& g) {
  std::map<const Node*, const Node*> parent;
  std::function<const Node*(const Node*)> root = [&](const Node* n) { return parent[n] == n ? n : parent[n] = root(parent[n]); };
  for (const Node* n : g.nodes())
    if (node_kind(*n) == NodeKind::delegate) parent[n] = n;
  for (const Node* n : g.nodes()) {
    if (!parent.count(n)) continue;
    for (const Node* in : n->all_input_nodes())
      if (parent.count(in)) parent[root(in)] = root(n);
  }
  std::set<const Node*> roots;
  for (auto& [n, _] : parent) roots.insert(root(n));
  return static_cast<int>(roots.size());
}

}  // namespace

Lowered lower(const GraphModule& converted, const LowerOptions& options) {
  Lowered out{converted.clone(), {}};
  Lowerer l(out.gm, options);
  l.run();
  DelegationInfo& r = out.report;
  for (const Node* n : converted.graph.nodes()) {
    if (n->op != OpKind::call_function) continue;
    PartitionNode pn{n->name, n->target, false, "", ""};
    const Node* now = out.gm.graph.find(n->name);
    pn.delegated = !now || node_kind(*now) == NodeKind::delegate;
    if (pn.delegated) {
      const auto it = l.lowered_as.find(n->name);
      pn.lowered_as = it != l.lowered_as.end() ? it->second : "";
      ++r.num_delegated_nodes;
    } else {
      const auto it = l.reasons.find(n->name);
      pn.reason = it != l.reasons.end() ? it->second
                  : node_kind(*n) == NodeKind::quantize || node_kind(*n) == NodeKind::dequantize
                      ? "a boundary quantize / dequantize, run in float"
                      : "not part of a quantized pattern";
    }
    r.nodes.push_back(pn);
  }
  for (const Node* n : out.gm.graph.nodes())
    if (n->op == OpKind::call_function && node_kind(*n) != NodeKind::delegate) ++r.num_non_delegated_nodes;
  r.num_delegated_subgraphs = count_subgraphs(out.gm.graph);
  return out;
}

}  // namespace pt
