// models.h — the model zoo (the models the lessons use), export_module, and the lessons' input data.
//
// A Model is a module description: its leaf layers (Conv2d / BatchNorm2d / Linear) in torch's
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
// Zoo: conv_relu, stem, residual (ch), cat_pool, tiny, linear_sigmoid, mlp (see models.cpp for each
// structure). Batch norm is exported as aten.batch_norm.default (one node, no getitem): that is what
// the seed's diff tables count ("batch_norm"), and fold_bn also folds the
// _native_batch_norm_legit_no_training + getitem form.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace pt {

struct Layer {
  std::string fqn;   // "conv1"
  std::string type;  // "torch.nn.modules.conv.Conv2d", "torch.nn.modules.batchnorm.BatchNorm2d", "torch.nn.modules.linear.Linear"
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
  // with the layer's get_attr nodes; nn_module_stack = [(fqn, type)].
  Node* layer(const std::string& fqn, Node* x);
  // A functional op (F.relu, torch.cat, x.mean, ...), outside any submodule.
  Node* call(const std::string& target, std::vector<Arg> args);

 private:
  Node* attr(const std::string& fqn, const std::string& local);
  GraphModule& gm_;
  const Model& model_;
};

struct ModelOptions {
  std::optional<int64_t> ch;  // residual: channels (default 8)
};

std::vector<std::string> model_names();
Model get_model(const std::string& name, const ModelOptions& opts = {});  // ValueError for an unknown name
GraphModule export_module(const Model& model, const std::vector<Tensor>& example_inputs);

// randn(batch, 3, 16, 16) from the default generator (the seeds' example_inputs); with a model, its
// own input shape.
std::vector<Tensor> example_inputs(int64_t batch);
std::vector<Tensor> example_inputs(const Model& model, int64_t batch);

// A deterministic synthetic 4-class image set for calibration (and for training a small classifier
// later): the kind of "some images" set a course builds when it has no real data to ship.
//
// Each sample is drawn in pixel space with intensities in [0, 1], like torchvision's ToTensor():
// a shape mask m(h, w) in [0, 1] for the sample's class, painted per channel c as
//   pixel_c = clamp(bg_c + (fg_c - bg_c) * m + 0.05 * noise, 0, 1),
// with a per-sample colour: background bg_c ~ U(0, 0.3), foreground fg_c ~ U(0.6, 1) for each channel
// (so brightness and contrast vary between samples and channels) and noise randn. Sample i has
// label i % 4; the shapes, each with per-sample random position / size:
//   0 bars      stripes along a random axis (rows or columns), period U{4, 5, 6} px, random phase,
//               "on" for the first floor(period / 2) px of each period
//   1 ring      anti-aliased annulus: centre uniform in the middle half of the image, radius
//               U(0.2, 0.35) * min(H, W), 1.5 px wide (m = max(0, 1 - |d - r| / 1.5))
//   2 checker   checkerboard, cell size U{2, 3, 4} px, random offset
//   3 gradient  linear ramp from 0 to 1 across the image along a random direction
// Then each channel is normalized like transforms.Normalize(mean, std) with the set's own mean and
// std, computed once per sample_shape from the set's first 1024 samples (the way a dataset's
// Normalize constants are computed once from its training split), so sample i does not depend on n.
// All random numbers come from a private Generator seeded with 2024, drawn sample by sample (a set of
// n samples is a prefix of a longer one); the default generator is not touched.
//
// Why this design: real images are bounded, smooth and spatially correlated, with a few strong edges,
// and after Normalize their per-pixel values are far from i.i.d. Gaussian. example_inputs (what the
// seeds evaluate on) is i.i.d. randn, so calibrating on these images and evaluating on randn is a
// calibration / evaluation mismatch, which is what the activation observers see in a notebook that
// calibrates on its data set and measures SQNR on randn. The parameters above were fixed before any
// SQNR was measured with this set and are not tuned to a seed's numbers.
//
// Batches hold n samples in total, batch_size each (the last may be smaller); sample_shape is
// (C, H, W). ValueError for n or batch_size < 1 or a sample_shape that is not three positive sizes.
struct Batch {
  Tensor x;       // float32 [b, C, H, W]
  Tensor labels;  // int32 [b]
};
std::vector<Batch> calibration_batches(int64_t n, int64_t batch_size, const Shape& sample_shape = {3, 16, 16});

}  // namespace pt
