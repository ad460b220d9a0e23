// parameters.cpp — named_parameters, state_dict, load_state_dict, zero_grad (see parameters.h).
#include "train/parameters.h"

#include <algorithm>
#include <cstring>

namespace pt {

bool is_parameter(const NamedTensor& t) { return !t.is_buffer && t.value.dtype() == DType::Float32; }

namespace {

// torch.Size([4, 3]) as torch prints it in load_state_dict's messages.
std::string torch_size(const Shape& s) {
  std::string out = "torch.Size([";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "])";
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", \"" : "\"") + names[i] + "\"";
  return out;
}
}  // namespace

std::vector<NamedTensor> named_parameters(const GraphModule& gm) {
  std::vector<NamedTensor> out;
  for (const NamedTensor& t : gm.state())
    if (is_parameter(t)) out.push_back(t);
  return out;
}

std::vector<Parameter> parameters(GraphModule& gm) {
  std::vector<Parameter> out;
  for (const NamedTensor& t : gm.state())
    if (is_parameter(t)) out.push_back({&gm, t.name});
  return out;
}

std::vector<NamedTensor> state_dict(const GraphModule& gm) {
  std::vector<NamedTensor> out;
  for (bool buffers : {false, true})
    for (const NamedTensor& t : gm.state())
      if (t.is_buffer == buffers) out.push_back(t);
  return out;
}

const Tensor* grad(const GraphModule& gm, const std::string& name) {
  auto it = gm.grads.find(name);
  return it == gm.grads.end() ? nullptr : &it->second;
}

void zero_grad(GraphModule& gm, bool set_to_none) {
  if (set_to_none) {
    gm.grads.clear();
    return;
  }
  for (auto& [name, g] : gm.grads) std::fill_n(g.data<float>(), g.numel(), 0.f);
}

IncompatibleKeys load_state_dict(GraphModule& gm, const std::vector<NamedTensor>& state, bool strict) {
  IncompatibleKeys keys;
  std::vector<std::string> errors;
  std::vector<std::pair<Tensor, const Tensor*>> copies;  // (module tensor, new value)
  auto find = [&state](const std::string& name) {
    return std::find_if(state.begin(), state.end(), [&](const NamedTensor& s) { return s.name == name; });
  };
  for (const NamedTensor& own : state_dict(gm)) {
    auto it = find(own.name);
    if (it == state.end()) {
      keys.missing_keys.push_back(own.name);
      continue;
    }
    if (it->value.shape() != own.value.shape()) {
      errors.push_back("size mismatch for " + own.name + ": copying a param with shape " + torch_size(it->value.shape()) +
                       " from checkpoint, the shape in current model is " + torch_size(own.value.shape()) + ".");
      continue;
    }
    if (it->value.dtype() != own.value.dtype())
      throw TypeError("load_state_dict: '" + own.name + "' is " + dtype_name(it->value.dtype()) + ", the module's is " +
                      dtype_name(own.value.dtype()));
    copies.emplace_back(own.value, &it->value);
  }
  for (const NamedTensor& s : state)
    if (!gm.has_tensor(s.name)) keys.unexpected_keys.push_back(s.name);
  if (strict) {
    if (!keys.unexpected_keys.empty())
      errors.insert(errors.begin(), "Unexpected key(s) in state_dict: " + quoted_list(keys.unexpected_keys) + ". ");
    if (!keys.missing_keys.empty())
      errors.insert(errors.begin(), "Missing key(s) in state_dict: " + quoted_list(keys.missing_keys) + ". ");
  }
  if (!errors.empty()) {
    std::string msg = "Error(s) in loading state_dict for " + gm.class_name + ":";
    for (const std::string& e : errors) msg += "\n\t" + e;
    throw RuntimeError(msg);
  }
  for (auto& [dst, src] : copies) std::memmove(dst.bytes(), src->bytes(), src->nbytes());  // may be the same storage
  return keys;
}

}  // namespace pt
