// targets.h — the graph vocabulary, defined once: every call_function target the engine names,
// the op groups that quantizers and passes match on, the node kinds, and the node predicates.
//
// A target is the string form of a torch OpOverload (target::conv2d, aten.conv2d.default, is
// torch.ops.aten.conv2d.default). Nothing else in engine/ or web/ spells a target: build nodes and
// compare against these constants, and match groups with is_call.
//
//   Node* c = gm.graph.call_function(target::conv2d, {x, w});
//   if (is_call(n, group::conv)) ...                    // torchao pt2e/utils.py _is_conv_node
//   if (node_kind(*n) == NodeKind::dequantize) ...      // q / dq / choose_qparams / observer / op ...
//   Node* weight = arg_node(n, 1);                      // nullptr when absent or not a node
//
// Groups are named after the torchao predicate or list they restate (the upstream file is named on
// each); a quantizer that needs a narrower list builds it from target:: constants in its own file.
// The node kind is what lessons, report tables and views key on instead of testing strings.
#pragma once
#include <array>
#include <span>
#include <string_view>

#include "graph/graph.h"

namespace pt {

namespace target {
// ---- aten float ops (torch.ops.aten.<name>.<overload>) ----
inline constexpr char conv1d[] = "aten.conv1d.default";
inline constexpr char conv2d[] = "aten.conv2d.default";
inline constexpr char conv3d[] = "aten.conv3d.default";
inline constexpr char conv1d_padding[] = "aten.conv1d.padding";
inline constexpr char conv2d_padding[] = "aten.conv2d.padding";
inline constexpr char conv3d_padding[] = "aten.conv3d.padding";
inline constexpr char convolution[] = "aten.convolution.default";
inline constexpr char conv_transpose1d[] = "aten.conv_transpose1d.default";
inline constexpr char conv_transpose2d[] = "aten.conv_transpose2d.input";
inline constexpr char conv_transpose3d[] = "aten.conv_transpose3d.input";
// Overload packets: torchao's lists name them beside the overloads; an exported graph never holds one.
inline constexpr char conv_transpose1d_packet[] = "aten.conv_transpose1d";
inline constexpr char conv_transpose2d_packet[] = "aten.conv_transpose2d";
inline constexpr char conv_transpose3d_packet[] = "aten.conv_transpose3d";
inline constexpr char linear[] = "aten.linear.default";
inline constexpr char matmul[] = "aten.matmul.default";
inline constexpr char batch_norm[] = "aten.batch_norm.default";
inline constexpr char native_batch_norm_legit_no_training[] = "aten._native_batch_norm_legit_no_training.default";
// Training batch norms torchao also accepts (_is_supported_batch_norm_for_training); no engine op runs them.
inline constexpr char native_batch_norm_legit[] = "aten._native_batch_norm_legit.default";
inline constexpr char cudnn_batch_norm[] = "aten.cudnn_batch_norm.default";
inline constexpr char miopen_batch_norm[] = "aten.miopen_batch_norm.default";
inline constexpr char relu[] = "aten.relu.default";
inline constexpr char relu_[] = "aten.relu_.default";
inline constexpr char relu6[] = "aten.relu6.default";
inline constexpr char relu6_[] = "aten.relu6_.default";
inline constexpr char hardtanh[] = "aten.hardtanh.default";
inline constexpr char hardtanh_[] = "aten.hardtanh_.default";
inline constexpr char hardswish[] = "aten.hardswish.default";
inline constexpr char hardswish_[] = "aten.hardswish_.default";
inline constexpr char silu[] = "aten.silu.default";
inline constexpr char silu_[] = "aten.silu_.default";
inline constexpr char leaky_relu[] = "aten.leaky_relu.default";
inline constexpr char leaky_relu_[] = "aten.leaky_relu_.default";
inline constexpr char gelu[] = "aten.gelu.default";
inline constexpr char gelu_[] = "aten.gelu_.default";
inline constexpr char tanh[] = "aten.tanh.default";
inline constexpr char tanh_[] = "aten.tanh_.default";
inline constexpr char sigmoid[] = "aten.sigmoid.default";
inline constexpr char max_pool2d[] = "aten.max_pool2d.default";
inline constexpr char avg_pool2d[] = "aten.avg_pool2d.default";
inline constexpr char adaptive_avg_pool2d[] = "aten.adaptive_avg_pool2d.default";
inline constexpr char mean[] = "aten.mean.default";
inline constexpr char mean_dim[] = "aten.mean.dim";
inline constexpr char add[] = "aten.add.Tensor";
inline constexpr char add_[] = "aten.add_.Tensor";
inline constexpr char mul[] = "aten.mul.Tensor";
inline constexpr char mul_[] = "aten.mul_.Tensor";
inline constexpr char div[] = "aten.div.Tensor";
inline constexpr char sqrt[] = "aten.sqrt.default";
inline constexpr char cat[] = "aten.cat.default";
inline constexpr char flatten[] = "aten.flatten.using_ints";
inline constexpr char reshape[] = "aten.reshape.default";
inline constexpr char view[] = "aten.view.default";
inline constexpr char view_copy[] = "aten.view_copy.default";
inline constexpr char permute[] = "aten.permute.default";
inline constexpr char permute_copy[] = "aten.permute_copy.default";
inline constexpr char transpose[] = "aten.transpose.int";
inline constexpr char squeeze[] = "aten.squeeze.dim";
inline constexpr char squeeze_copy[] = "aten.squeeze_copy.dim";
inline constexpr char slice[] = "aten.slice.Tensor";
inline constexpr char slice_copy[] = "aten.slice_copy.Tensor";
inline constexpr char zeros_like[] = "aten.zeros_like.default";
// operator.getitem (a tuple output's element)
inline constexpr char getitem[] = "getitem";

// ---- torch.ops.quantized_decomposed (torchao quantization/pt2e/_affine_quantization + quant_primitives) ----
inline constexpr char quantize_per_tensor[] = "quantized_decomposed.quantize_per_tensor.default";
inline constexpr char dequantize_per_tensor[] = "quantized_decomposed.dequantize_per_tensor.default";
inline constexpr char quantize_per_tensor_tensor[] = "quantized_decomposed.quantize_per_tensor.tensor";
inline constexpr char dequantize_per_tensor_tensor[] = "quantized_decomposed.dequantize_per_tensor.tensor";
inline constexpr char quantize_per_channel[] = "quantized_decomposed.quantize_per_channel.default";
inline constexpr char dequantize_per_channel[] = "quantized_decomposed.dequantize_per_channel.default";
inline constexpr char choose_qparams[] = "quantized_decomposed.choose_qparams.tensor";
inline constexpr char choose_qparams_symmetric[] = "quantized_decomposed.choose_qparams_symmetric.tensor";

// ---- integer ops a lowered graph runs (engine/lower/int8_ops.h: their arguments and kernels) ----
// One per delegated pattern dq → op [→ relu] → q: int8 / uint8 codes in, int8 / uint8 codes out.
inline constexpr char int8_conv2d[] = "int8.conv2d";
inline constexpr char int8_linear[] = "int8.linear";
inline constexpr char int8_add[] = "int8.add";
inline constexpr char int8_max_pool2d[] = "int8.max_pool2d";
inline constexpr char int8_mean[] = "int8.mean";  // adaptive_avg_pool2d to 1×1, mean over H and W
inline constexpr char int8_cat[] = "int8.cat";
inline constexpr char int8_flatten[] = "int8.flatten";

// ---- the reference representation's integer ops (engine/pt2e/reference_representation.h) ----
// torchao's reference_representation_rewrite.py replacements, one op each, named after the function.
inline constexpr char reference_quantized_linear[] = "torchao.reference_quantized_linear";
inline constexpr char reference_quantized_conv2d[] = "torchao.reference_quantized_conv2d";
inline constexpr char reference_quantized_add[] = "torchao.reference_quantized_add";
inline constexpr char reference_quantized_add_relu[] = "torchao.reference_quantized_add_relu";
inline constexpr char reference_quantized_max_pool2d[] = "torchao.reference_quantized_max_pool2d";
inline constexpr char reference_quantize_per_tensor_int8[] = "torchao.reference_quantize_per_tensor_int8";
inline constexpr char reference_dequantize_per_tensor_int8[] = "torchao.reference_dequantize_per_tensor_int8";
inline constexpr char reference_quantize_per_channel_int8[] = "torchao.reference_quantize_per_channel_int8";
inline constexpr char reference_dequantize_per_channel_int8[] = "torchao.reference_dequantize_per_channel_int8";
}  // namespace target

// A list of targets one predicate accepts.
using TargetGroup = std::span<const char* const>;

namespace group {
// ---- torchao quantization/pt2e/utils.py -------------------------------------------------------------
// _is_conv_node
inline constexpr std::array conv = {target::conv1d, target::conv1d_padding, target::conv2d,
                                    target::conv2d_padding, target::conv3d, target::conv3d_padding};
// _is_conv_transpose_node (the packets too, as upstream lists them)
inline constexpr std::array conv_transpose = {target::conv_transpose1d_packet, target::conv_transpose1d,
                                              target::conv_transpose2d_packet, target::conv_transpose2d,
                                              target::conv_transpose3d_packet, target::conv_transpose3d};
// _is_linear_node
inline constexpr std::array linear = {target::linear};
// _is_supported_batch_norm_for_training
inline constexpr std::array supported_batch_norm_for_training = {
    target::batch_norm, target::native_batch_norm_legit, target::cudnn_batch_norm, target::miopen_batch_norm};
// _is_bn_node: the above and the inference form
inline constexpr std::array bn = {target::batch_norm, target::native_batch_norm_legit,
                                  target::cudnn_batch_norm, target::miopen_batch_norm,
                                  target::native_batch_norm_legit_no_training};
// _QUANTIZE_OPS / _DEQUANTIZE_OPS: the quantized_decomposed ops convert_pt2e writes; the choose_qparams
// ops of dynamic quantization (quantizer/port_metadata_pass.py _CHOOSE_QPARAMS_OPS).
inline constexpr std::array quantize = {target::quantize_per_tensor, target::quantize_per_tensor_tensor,
                                        target::quantize_per_channel};
inline constexpr std::array dequantize = {target::dequantize_per_tensor, target::dequantize_per_tensor_tensor,
                                          target::dequantize_per_channel};
inline constexpr std::array choose_qparams = {target::choose_qparams, target::choose_qparams_symmetric};

// ---- what a module or function becomes in an exported graph: the functional and the in-place op -------
// (the quantizers' relu checks, e.g. ExecuTorch xnnpack_quantizer_utils.py is_relu_node, and the
// operator lists of their add / mul annotators; X86InductorQuantizer's partitions by nn module type)
inline constexpr std::array relu = {target::relu, target::relu_};
inline constexpr std::array hardtanh = {target::hardtanh, target::hardtanh_};
inline constexpr std::array hardswish = {target::hardswish, target::hardswish_};
inline constexpr std::array relu6 = {target::relu6, target::relu6_};
inline constexpr std::array silu = {target::silu, target::silu_};
inline constexpr std::array leaky_relu = {target::leaky_relu, target::leaky_relu_};
inline constexpr std::array tanh = {target::tanh, target::tanh_};
inline constexpr std::array gelu = {target::gelu, target::gelu_};
inline constexpr std::array add = {target::add, target::add_};
inline constexpr std::array mul = {target::mul, target::mul_};

// ---- the XNNPACK quantizers' share-observer ops (propagate_annotation) -------------------------------
// torchao testing/pt2e/_xnnpack_quantizer_utils.py _is_share_obs_or_fq_op
inline constexpr std::array xnnpack_share_obs_or_fq = {
    target::relu,           target::hardtanh,       target::hardtanh_,    target::max_pool2d,
    target::mean,           target::mean_dim,       target::permute,      target::permute_copy,
    target::squeeze,        target::squeeze_copy,   target::adaptive_avg_pool2d,
    target::view_copy,      target::view,           target::slice_copy,   target::flatten};
// ExecuTorch backends/xnnpack/quantizer/xnnpack_quantizer_utils.py _is_share_obs_or_fq_op: the torchao
// list plus transpose.int, reshape.default and slice.Tensor
inline constexpr std::array executorch_share_obs_or_fq = {
    target::relu,           target::hardtanh,       target::hardtanh_,    target::max_pool2d,
    target::mean,           target::mean_dim,       target::permute,      target::permute_copy,
    target::transpose,      target::squeeze,        target::squeeze_copy, target::adaptive_avg_pool2d,
    target::view_copy,      target::view,           target::reshape,      target::slice,
    target::slice_copy,     target::flatten};

// ---- ExecuTorch backends/xnnpack/quantizer/xnnpack_quantizer.py: the targets an operator-type config
// selects a pattern by (CONV_TARGETS ...; CONV_TRANSPOSE_TARGETS is conv_transpose, LINEAR_TARGETS linear)
inline constexpr std::array executorch_conv_targets = {target::conv2d, target::conv1d, target::convolution};
inline constexpr std::array executorch_adaptive_avg_pool2d_targets = {target::adaptive_avg_pool2d};
inline constexpr std::array executorch_add_targets = {target::add};
inline constexpr std::array executorch_mul_targets = {target::mul};
inline constexpr std::array executorch_cat_targets = {target::cat};

// ---- torchao quantization/pt2e/quantizer/x86_inductor_quantizer.py --------------------------------
// int8_in_int8_out_ops (= propagation_quantizable_ops)
inline constexpr std::array x86_int8_in_int8_out = {target::max_pool2d, target::cat, target::avg_pool2d,
                                                    target::adaptive_avg_pool2d, target::flatten};
// default_quantizable_ops: propagation_quantizable_ops | {conv1d, conv2d, linear, mul.Tensor}
inline constexpr std::array x86_default_quantizable = {
    target::max_pool2d, target::cat,    target::avg_pool2d, target::adaptive_avg_pool2d, target::flatten,
    target::conv1d,     target::conv2d, target::linear,     target::mul};
// quantizable_ops: default_quantizable_ops | {matmul}
inline constexpr std::array x86_quantizable = {
    target::max_pool2d, target::cat,    target::avg_pool2d, target::adaptive_avg_pool2d, target::flatten,
    target::conv1d,     target::conv2d, target::linear,     target::mul,                 target::matmul};
// ---- the integer ops of a lowered graph (NodeKind::delegate)
inline constexpr std::array int8 = {target::int8_conv2d,      target::int8_linear, target::int8_add,
                                    target::int8_max_pool2d,  target::int8_mean,   target::int8_cat,
                                    target::int8_flatten};
}  // namespace group

// ---- module classes, as nn_module_stack records them (torch's non-strict export: "module.qualname") ----
// The zoo's layers carry these (graph/models.cpp); quantizers that find patterns by module match on them.
namespace module_class {
inline constexpr const char* conv1d = "torch.nn.modules.conv.Conv1d";
inline constexpr const char* conv2d = "torch.nn.modules.conv.Conv2d";
inline constexpr const char* batch_norm2d = "torch.nn.modules.batchnorm.BatchNorm2d";
inline constexpr const char* linear = "torch.nn.modules.linear.Linear";
inline constexpr const char* relu = "torch.nn.modules.activation.ReLU";
inline constexpr const char* relu6 = "torch.nn.modules.activation.ReLU6";
inline constexpr const char* hardtanh = "torch.nn.modules.activation.Hardtanh";
inline constexpr const char* hardswish = "torch.nn.modules.activation.Hardswish";
inline constexpr const char* silu = "torch.nn.modules.activation.SiLU";
inline constexpr const char* leaky_relu = "torch.nn.modules.activation.LeakyReLU";
inline constexpr const char* tanh = "torch.nn.modules.activation.Tanh";
inline constexpr const char* gelu = "torch.nn.modules.activation.GELU";
}  // namespace module_class

// ---- node predicates --------------------------------------------------------------------------------

// A call_function node whose target is `t` / one of `g`. A null node is no call.
bool is_call(const Node* n, std::string_view t);
bool is_call(const Node* n, TargetGroup g);
// Positional argument i as a node; nullptr when absent, None or not a node.
Node* arg_node(const Node* n, size_t i);
// `n` has exactly one user and it is `user`.
bool only_user(const Node* n, const Node* user);

// What a node is, computed once from op and target, carried in the API's node objects and the
// view data: lessons and views key on it instead of testing strings.
// delegate: an integer op of a lowered graph (group::int8), the work a backend took over.
enum class NodeKind { placeholder, get_attr, op, observer, quantize, dequantize, choose_qparams, delegate, output };
NodeKind node_kind(const Node& n);     // call_module nodes are observer / fake-quantize modules
const char* node_kind_name(NodeKind k);  // "placeholder", "get_attr", "op", "observer", "quantize", ...

}  // namespace pt
