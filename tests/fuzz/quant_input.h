// quant_input.h — random quantization pieces for the fuzz targets, drawn from fuzz_input.h's Input: observer
// keyword arguments (any subset of the table of quant/observer_kwargs.h, each with an edgy value), the
// observer class names (the registry's, now and then one it does not know), QuantizationSpecs, configs,
// and the four spec kinds over a graph's nodes (pointing at any node or edge, the graph's or none).
//
//   pt::ObserverArgs a = pt::fuzz::observer_args(in);
//   pt::QuantizationSpec s = pt::fuzz::quantization_spec(in);
//   pt::OptionalQSpec q = pt::fuzz::any_spec(in, nodes);
#pragma once
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "graph/graph.h"
#include "pt2e/quantizer.h"
#include "quant/observer.h"

namespace pt::fuzz {

inline DType any_dtype(Input& in) {
  static const std::vector<DType> dtypes = {DType::Int8, DType::UInt8, DType::Int32, DType::Int16, DType::Float32};
  return in.pick(dtypes);
}
inline QScheme any_qscheme(Input& in) {
  static const std::vector<QScheme> q = {QScheme::per_tensor_affine, QScheme::per_tensor_symmetric, QScheme::per_channel_affine,
                                         QScheme::per_channel_symmetric, QScheme::per_channel_affine_float_qparams};
  return in.pick(q);
}
inline std::string observer_name(Input& in) {
  static const std::vector<std::string> names = observer_names();
  return in.name(names);
}

// Each keyword set with probability 1/4, to a value of its type (edgy ints, special floats).
inline ObserverArgs observer_args(Input& in) {
  ObserverArgs a;
  auto set = [&](const char*, auto& field) {
    using T = typename std::decay_t<decltype(field)>::value_type;
    if (in.byte() % 4 != 0) return;
    if constexpr (std::is_same_v<T, DType>) field = any_dtype(in);
    else if constexpr (std::is_same_v<T, QScheme>) field = any_qscheme(in);
    else if constexpr (std::is_same_v<T, bool>) field = in.flag();
    else if constexpr (std::is_same_v<T, int64_t>) field = in.edgy_int();
    else if constexpr (std::is_same_v<T, float>) field = in.special_float();
    else if constexpr (std::is_same_v<T, double>) field = in.special_double();
    else field = observer_name(in);  // std::string: a fake-quantize class's observer
  };
  for_each_observer_kwarg(a, set);
  return a;
}

inline std::optional<int64_t> maybe_int(Input& in) {
  if (in.flag()) return std::nullopt;
  return in.edgy_int();
}

inline QuantizationSpec quantization_spec(Input& in) {
  QuantizationSpec s;
  s.dtype = any_dtype(in);
  s.observer_or_fake_quant_ctr = {observer_name(in), observer_args(in)};
  s.quant_min = maybe_int(in);
  s.quant_max = maybe_int(in);
  if (in.flag()) s.qscheme = any_qscheme(in);
  if (in.flag()) s.ch_axis = in.range(-2, 4);
  s.is_dynamic = in.byte() % 8 == 0;
  return s;
}

// An edge or a node output over `nodes`: usually a real edge (a node and one of its users), sometimes any
// pair (no such edge), sometimes a node's output.
inline EdgeOrNode edge_or_node(Input& in, const std::vector<Node*>& nodes) {
  Node* a = in.pick(nodes);
  if (in.byte() % 3 == 0) return EdgeOrNode::output(a);
  if (!a->users().empty() && in.flag()) return EdgeOrNode::edge(a, in.pick(a->users()));
  return EdgeOrNode::edge(a, in.pick(nodes));
}

// Any of the four spec kinds, or None. A Derived spec's function reads its observers' qparams and returns
// qparams of its own choosing (right-sized or not, finite or not).
inline OptionalQSpec any_spec(Input& in, const std::vector<Node*>& nodes) {
  switch (in.byte() % 6) {
    case 0: return std::nullopt;
    case 1: {
      FixedQParamsQuantizationSpec f;
      f.dtype = any_dtype(in);
      f.scale = in.special_double();
      f.zero_point = in.edgy_int();
      f.quant_min = maybe_int(in);
      f.quant_max = maybe_int(in);
      if (in.flag()) f.qscheme = any_qscheme(in);
      return f;
    }
    case 2: return SharedQuantizationSpec{edge_or_node(in, nodes)};
    case 3: {
      DerivedQuantizationSpec d;
      for (int i = 0, n = static_cast<int>(in.range(0, 3)); i < n; ++i) d.derived_from.push_back(edge_or_node(in, nodes));
      const int64_t n = in.range(0, 3);
      const float scale = in.special_float();
      const int32_t zp = static_cast<int32_t>(in.range(-300, 300));
      d.derive_qparams_fn = [n, scale, zp](const std::vector<ObserverBase*>& observers) {
        for (ObserverBase* o : observers) (void)o->calculate_qparams();
        QParams qp{Tensor::full({n}, scale), Tensor::zeros({n}, DType::Int32)};
        for (int64_t i = 0; i < n; ++i) qp.zero_point.data<int32_t>()[i] = zp;
        return qp;
      };
      d.dtype = any_dtype(in);
      d.quant_min = maybe_int(in);
      d.quant_max = maybe_int(in);
      if (in.flag()) d.qscheme = any_qscheme(in);
      if (in.flag()) d.ch_axis = in.range(-1, 3);
      return d;
    }
    default: return quantization_spec(in);
  }
}

}  // namespace pt::fuzz
