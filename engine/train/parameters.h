// parameters.h — a GraphModule's parameters and state dict, with torch.nn.Module's names.
//
//   for (const pt::NamedTensor& p : pt::named_parameters(gm)) ...   // "conv1.weight", ... (shares storage)
//   std::vector<pt::Parameter> ps = pt::parameters(gm);               // what an optimizer takes
//   const pt::Tensor* g = pt::grad(gm, "conv1.weight");               // p.grad; nullptr = None
//   pt::zero_grad(gm);                                                // set_to_none=True (torch 2.x default)
//   pt::IncompatibleKeys k = pt::load_state_dict(gm, pt::state_dict(other), /*strict=*/true);
//
// Parameters are the GraphModule's float32 tensors that are not buffers (after export: the layers'
// weight and bias; running_mean / running_var are buffers), in registration order. state_dict lists
// parameters then buffers as the GraphModule holds them (torch's keys: "bn1.running_mean"). The
// zoo's exported modules keep no num_batches_tracked (int64 in torch, never read with momentum=0.1, and
// the engine has no int64), so their state dicts have none.
// load_state_dict copies values into the existing tensors (param.copy_ in torch), so optimizers and
// tensors handed out earlier stay bound. Errors, all checked before anything is copied (nothing changes
// when it fails): RuntimeError "Error(s) in loading state_dict for <class>:" with torch's lines —
// Missing key(s) / Unexpected key(s) (strict only) / size mismatch for <name> (always); TypeError for a
// dtype that differs from the module's (torch would cast). strict=false returns what was missing and
// unexpected, as torch's _IncompatibleKeys.
#pragma once
#include <string>
#include <vector>

#include "graph/graph.h"

namespace pt {

// torch.nn.Parameter as an optimizer holds it: the module and the name. Its value is
// module->get_tensor(name) (updated in place) and its .grad is module->grads[name].
struct Parameter {
  GraphModule* module;
  std::string name;
};

// A state entry is a parameter when it is a float32 tensor that is not a buffer.
bool is_parameter(const NamedTensor& t);
std::vector<NamedTensor> named_parameters(const GraphModule& gm);
std::vector<Parameter> parameters(GraphModule& gm);
std::vector<NamedTensor> state_dict(const GraphModule& gm);
const Tensor* grad(const GraphModule& gm, const std::string& name);
void zero_grad(GraphModule& gm, bool set_to_none = true);

struct IncompatibleKeys {
  std::vector<std::string> missing_keys, unexpected_keys;
};
IncompatibleKeys load_state_dict(GraphModule& gm, const std::vector<NamedTensor>& state, bool strict = true);

}  // namespace pt
