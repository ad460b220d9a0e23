// models.h — the model zoo (the models the lessons use), export_module, and example_inputs (the seeds' randn
// inputs; the image data set and calibration_batches are in graph/datasets.h).
//
// A Model is a module description: its leaf layers (Conv2d / BatchNorm2d / Linear / ReLU) in torch's
// construction order, their parameters and buffers, and a forward function that emits aten nodes
// through a ModelTracer. get_model creates parameters with nn_init from the default generator in
// that order, so after pt::manual_seed(s) they equal torch's after torch.manual_seed(s).
// export_module builds the GraphModule as torch.export(...).module() shows it: get_attr nodes for
// parameters then buffers (conv1_weight, ..., bn1_running_var; num_batches_tracked is left out, it
// is int64 and unused in eval), the placeholder x, the call_function nodes, output; then runs the
// graph on the example inputs to fill meta.val.
//
//   pt::manual_seed(0);
//   pt::Model m = pt::get_model("residual", {.ch = 8});
//   pt::GraphModule gm = pt::export_module(m, {pt::randn({4, 8, 16, 16})});
//
// Zoo: conv_relu, stem, residual (ch), cat_pool, tiny (num_classes), linear_sigmoid, mlp, conv_relu_add (see
// models.cpp for each structure). Batch norm is exported as aten.batch_norm.default (one node, no getitem): that
// is what the seed's diff tables count ("batch_norm"), and fold_bn also folds the
// _native_batch_norm_legit_no_training + getitem form.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "graph/datasets.h"  // Batch, calibration_batches (the lessons' data)
#include "graph/graph.h"

namespace pt {

struct Layer {
  std::string fqn;   // "conv1"
  std::string type;  // module_class::conv2d, batch_norm2d, linear or relu (graph/targets.h; relu has no tensors)
  std::vector<int64_t> stride{1, 1}, padding{0, 0}, dilation{1, 1};  // Conv2d
  int64_t groups = 1;                                                // Conv2d
  double eps = 1e-5, momentum = 0.1;                                 // BatchNorm2d
  std::vector<NamedTensor> tensors;  // local names: weight, bias, running_mean, running_var
};

class ModelTracer;

struct Model {
  std::string name;        // zoo name, "residual"
  std::string class_name;  // the nn.Module class, "ResidualBlock"
  Shape input_shape;       // one sample, e.g. {8, 16, 16}
  std::vector<Layer> layers;
  std::function<Node*(ModelTracer&, Node* x)> forward;

  // torch's state_dict order (per layer: parameters, then buffers), dotted names.
  std::vector<NamedTensor> state_dict() const;
  // Replaces every tensor by the same-named one (shapes must match; all names must be present;
  // nothing changes when a check fails). ValueError naming the missing / mismatched entry.
  void load_state_dict(const std::vector<NamedTensor>& state);
  const Layer& layer(const std::string& fqn) const;
};

// Emits nodes for a model's forward into a GraphModule's graph.
class ModelTracer {
 public:
  ModelTracer(GraphModule& gm, const Model& model) : gm_(gm), model_(model) {}
  // Runs a leaf layer on x: aten.conv2d.default / aten.batch_norm.default / aten.linear.default
  // with the layer's get_attr nodes, or aten.relu.default; nn_module_stack = [(fqn, type)].
  Node* layer(const std::string& fqn, Node* x);
  // A functional op (torch.cat, F.max_pool2d, x.mean, +, ...), outside any submodule.
  Node* call(const std::string& target, std::vector<Arg> args);

 private:
  Node* attr(const std::string& fqn, const std::string& local);
  GraphModule& gm_;
  const Model& model_;
};

struct ModelOptions {
  std::optional<int64_t> ch = {};      // residual: channels (default 8)
  std::optional<int64_t> num_classes = {};  // tiny: fc's outputs, TinyConvNet(num_classes) (default 4; M06 trains on more)
};

std::vector<std::string> model_names();
Model get_model(const std::string& name, const ModelOptions& opts = {});  // ValueError for an unknown name
GraphModule export_module(const Model& model, const std::vector<Tensor>& example_inputs);

// randn(batch, 3, 16, 16) from the default generator (the seeds' example_inputs); with a model, its
// own input shape.
std::vector<Tensor> example_inputs(int64_t batch);
std::vector<Tensor> example_inputs(const Model& model, int64_t batch);

}  // namespace pt
