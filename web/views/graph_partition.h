// graph_partition.h — the graph view's partition field: which nodes a backend's partitioner delegated and
// why the others stayed float (ExecuTorch's to_edge_transform_and_lower + get_delegation_info; the data is
// pt.lower's delegation_info, web/api/lower.js). Pure data and look-ups, no drawing: graph_view.cpp marks
// the boxes and draws the legend from them; tests/engine/views/test_graph_partition.cpp checks them.
//
//   { view: 'graph', ..., partition: { backend: 'xnnpack', delegated: ['conv2d', ...],
//                                      float: [{ name: 'sigmoid', reason: 'no int8 pattern' }, ...] } }
#pragma once
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ptv {

struct GraphPartition {
  std::string backend;                                         // named in the legend ("xnnpack")
  std::vector<std::string> delegated;                          // nodes the backend runs
  std::vector<std::pair<std::string, std::string>> float_nodes;  // (node, why it stayed float)
  bool empty() const { return delegated.empty() && float_nodes.empty(); }
};

enum class PartitionMark { none, delegated, float_op };

// A partition's look-up by node name, for drawing.
class PartitionIndex {
 public:
  PartitionIndex() = default;
  explicit PartitionIndex(const GraphPartition& p);
  PartitionMark mark(const std::string& node) const;
  const std::string& reason(const std::string& node) const;  // "" unless float
  bool empty() const { return marks_.empty(); }

 private:
  std::map<std::string, std::pair<PartitionMark, std::string>> marks_;
};

// pt::ValueError naming the problem: a node listed twice (or both delegated and float), or a name that is
// in none of `nodes` (the node names of every stage).
void validate(const GraphPartition& p, const std::set<std::string>& nodes);

// The legend's two entries, counting the marked nodes shown: {"delegated to xnnpack (5)", "float (2)"}.
std::pair<std::string, std::string> partition_legend(const GraphPartition& p, int delegated_shown, int float_shown);

}  // namespace ptv
