// graph_partition.cpp — the partition field's look-up and checks (graph_partition.h).
#include "graph_partition.h"

#include "core/error.h"

namespace ptv {

PartitionIndex::PartitionIndex(const GraphPartition& p) {
  for (const std::string& n : p.delegated) marks_[n] = {PartitionMark::delegated, ""};
  for (const auto& [n, why] : p.float_nodes) marks_[n] = {PartitionMark::float_op, why};
}

PartitionMark PartitionIndex::mark(const std::string& node) const {
  const auto it = marks_.find(node);
  return it == marks_.end() ? PartitionMark::none : it->second.first;
}

const std::string& PartitionIndex::reason(const std::string& node) const {
  static const std::string none;
  const auto it = marks_.find(node);
  return it == marks_.end() ? none : it->second.second;
}

void validate(const GraphPartition& p, const std::set<std::string>& nodes) {
  std::set<std::string> seen;
  auto check = [&](const std::string& n, const char* list) {
    if (!nodes.count(n)) throw pt::ValueError("graph view: partition." + std::string(list) + " names '" + n + "', which is in no stage");
    if (!seen.insert(n).second) throw pt::ValueError("graph view: partition lists '" + n + "' twice");
  };
  for (const std::string& n : p.delegated) check(n, "delegated");
  for (const auto& f : p.float_nodes) check(f.first, "float");
}

std::pair<std::string, std::string> partition_legend(const GraphPartition& p, int delegated_shown, int float_shown) {
  return {"delegated to " + (p.backend.empty() ? std::string("the backend") : p.backend) + " (" + std::to_string(delegated_shown) + ")",
          "float (" + std::to_string(float_shown) + ")"};
}

}  // namespace ptv
