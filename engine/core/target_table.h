// target_table.h — a table from an op target ("aten.conv2d.default") to the function that handles it:
// the interpreter's forward ops (graph/interpreter.cpp) and autograd's backward rules
// (train/autograd.cpp) are each one of these. Adding a target replaces what was there, so a test can
// swap in its own op; an empty function is refused with a ValueError naming the target.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace pt {

template <class Fn>
class TargetTable {
 public:
  // `what` names the registering call in errors ("register_op").
  TargetTable(const char* what, std::map<std::string, Fn> initial) : what_(what), map_(std::move(initial)) {}

  void add(const std::string& target, Fn fn) {
    if (!fn) throw ValueError(std::string(what_) + "('" + target + "'): function must not be empty");
    map_[target] = std::move(fn);
  }
  const Fn* find(const std::string& target) const {  // nullptr when the target has no entry
    auto it = map_.find(target);
    return it == map_.end() ? nullptr : &it->second;
  }
  std::vector<std::string> targets() const {
    std::vector<std::string> out;
    for (const auto& [k, _] : map_) out.push_back(k);
    return out;
  }

 private:
  const char* what_;
  std::map<std::string, Fn> map_;
};

}  // namespace pt
