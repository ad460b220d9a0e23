// bind_train.cpp — Embind for engine/train: the recorded forward (a Tape handle), backward, the losses,
// parameters / grads / load_state_dict, SGD and Adam, and the train loop a page runs in slices (over fixed
// batches or a DataLoader, bind_data.cpp).
// Handles keep the GraphModules they point into alive (shared_ptr), so a tape or an optimizer never
// outlives its module. The public API over these is web/api/train.js.
#include <emscripten/bind.h>

#include <memory>

#include "common.h"
#include "data_handles.h"
#include "graph_handles.h"
#include "train/autograd.h"
#include "train/loss.h"
#include "train/optim.h"
#include "train/parameters.h"
#include "train/train_loop.h"

using emscripten::val;
using ptjs::GraphModuleHandle;
using pt::Tensor;

namespace {

using TapeHandle = ptjs::Handle<pt::Tape>;                // shares its GraphModule
using OptimizerHandle = ptjs::Handle<pt::Optimizer>;      // shares its parameters' modules
using TrainLoopHandle = ptjs::Handle<pt::TrainLoop>;      // shares its module and optimizer

pt::LossFn loss_by_name(const std::string& name) {
  if (name == "cross_entropy") return pt::cross_entropy;
  if (name == "mse_loss") return pt::mse_loss;
  throw pt::ValueError("unknown loss '" + name + "' (expected cross_entropy or mse_loss)");
}

// ---- autograd ----
val forward_recorded(const GraphModuleHandle& h, const val& inputs) {
  return ptjs::guarded([&] {
    auto tape = std::make_shared<pt::Tape>(h.get(), ptjs::tensors_from_js(inputs));
    val out = val::object();
    out.set("outputs", ptjs::tensors_to_js(tape->outputs()));
    out.set("tape", TapeHandle{ptjs::sharing(tape, h.ptr)});
    return out;
  });
}

// grads: one Tensor or null per output.
void tape_backward(const TapeHandle& t, const val& grads) {
  ptjs::guarded([&] {
    std::vector<std::optional<Tensor>> gs;
    const unsigned n = grads["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) {
      if (grads[i].isNull() || grads[i].isUndefined()) gs.emplace_back();
      else gs.emplace_back(grads[i].as<Tensor>());
    }
    t.get().backward(gs);
    return 0;
  });
}

// F.cross_entropy / F.mse_loss with torch's keyword arguments, checked by web/api/train.js: reduction's name,
// the class weights (a Tensor or null), ignore_index (an integer within ±2^53) and label_smoothing
// (cross_entropy's; mse_loss takes only the reduction).
val loss(const std::string& name, const Tensor& input, const Tensor& target, const std::string& reduction,
         const val& weight, double ignore_index, double label_smoothing) {
  return ptjs::guarded([&] {
    const pt::Reduction r = pt::reduction_from_name(reduction);
    pt::Loss l;
    if (name == "cross_entropy") {
      pt::CrossEntropyOptions o{.ignore_index = static_cast<int64_t>(ignore_index), .reduction = r, .label_smoothing = label_smoothing};
      if (!weight.isNull() && !weight.isUndefined()) o.weight = weight.as<Tensor>();
      l = pt::cross_entropy(input, target, o);
    } else if (name == "mse_loss") {
      l = pt::mse_loss(input, target, r);
    } else {
      loss_by_name(name);  // throws, naming the losses there are
    }
    val out = val::object();
    out.set("value", l.value);
    out.set("grad", l.grad);
    return out;
  });
}

// ---- parameters ----
val named_parameters(const GraphModuleHandle& h) {
  return ptjs::guarded([&] {
    val arr = val::array();
    for (const pt::NamedTensor& t : pt::named_parameters(h.get())) {
      val e = val::object();
      e.set("name", t.name);
      e.set("tensor", t.value);  // shares storage: it follows optimizer steps
      arr.call<void>("push", e);
    }
    return arr;
  });
}

val parameter_grad(const GraphModuleHandle& h, const std::string& name) {
  return ptjs::guarded([&] {
    if (!h.get().has_tensor(name)) throw pt::ValueError("no parameter named '" + name + "'");
    const Tensor* g = pt::grad(h.get(), name);
    return g ? val(g->clone()) : val::null();
  });
}

void zero_grad(const GraphModuleHandle& h, bool set_to_none) {
  ptjs::guarded([&] {
    pt::zero_grad(h.get(), set_to_none);
    return 0;
  });
}

// entries: [{name, tensor}]
val load_state_dict(const GraphModuleHandle& h, const val& entries, bool strict) {
  return ptjs::guarded([&] {
    std::vector<pt::NamedTensor> sd;
    const unsigned n = entries["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) sd.push_back({entries[i]["name"].as<std::string>(), entries[i]["tensor"].as<Tensor>(), false});
    const pt::IncompatibleKeys k = pt::load_state_dict(h.get(), sd, strict);
    val out = val::object();
    out.set("missing_keys", ptjs::strings_to_js(k.missing_keys));
    out.set("unexpected_keys", ptjs::strings_to_js(k.unexpected_keys));
    return out;
  });
}

// ---- optimizers ----
// An options object under torch's names (train.js has type-checked every value; Adam's betas as [b1, b2]) read onto
// `x`: a name that is absent keeps x's value. The constructor reads onto the defaults, param_groups' setter onto the
// optimizer's own options.
template <class T> void read(const val& o, const char* k, T& field) {
  if (!o[k].isUndefined()) field = o[k].as<T>();
}
pt::SGDOptions read_options(const val& o, pt::SGDOptions x) {
  read(o, "lr", x.lr), read(o, "momentum", x.momentum), read(o, "dampening", x.dampening);
  read(o, "weight_decay", x.weight_decay), read(o, "nesterov", x.nesterov), read(o, "maximize", x.maximize);
  return x;
}
pt::AdamOptions read_options(const val& o, pt::AdamOptions x) {
  read(o, "lr", x.lr), read(o, "eps", x.eps), read(o, "weight_decay", x.weight_decay);
  read(o, "amsgrad", x.amsgrad), read(o, "maximize", x.maximize);
  if (!o["betas"].isUndefined()) x.beta1 = o["betas"][0].as<double>(), x.beta2 = o["betas"][1].as<double>();
  return x;
}

// params: [{module: GraphModule handle, name}]; options: read_options's object.
OptimizerHandle make_optimizer(const std::string& kind, const val& params, const val& o) {
  return ptjs::guarded([&] {
    std::vector<std::shared_ptr<pt::GraphModule>> modules;
    std::vector<pt::Parameter> ps;
    const unsigned n = params["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) {
      const GraphModuleHandle m = params[i]["module"].as<GraphModuleHandle>();
      ps.push_back({&m.get(), params[i]["name"].as<std::string>()});
      modules.push_back(m.ptr);
    }
    std::shared_ptr<pt::Optimizer> opt;
    if (kind == "SGD") opt = std::make_shared<pt::SGD>(std::move(ps), read_options(o, pt::SGDOptions{}));
    else opt = std::make_shared<pt::Adam>(std::move(ps), read_options(o, pt::AdamOptions{}));
    return OptimizerHandle{ptjs::sharing(opt, std::move(modules))};
  });
}

// param_groups[0]'s hyper-parameters under torch's names (Adam's betas as two numbers); set_hyper reads the same
// object back (read_options).
val optimizer_hyper(const OptimizerHandle& h) {
  return ptjs::guarded([&] {
    val o = val::object();
    if (auto* sgd = dynamic_cast<pt::SGD*>(&h.get())) {
      const pt::SGDOptions& x = sgd->options();
      o.set("lr", x.lr), o.set("momentum", x.momentum), o.set("dampening", x.dampening);
      o.set("weight_decay", x.weight_decay), o.set("nesterov", x.nesterov), o.set("maximize", x.maximize);
    } else if (auto* adam = dynamic_cast<pt::Adam*>(&h.get())) {
      const pt::AdamOptions& x = adam->options();
      val betas = val::array();
      betas.call<void>("push", x.beta1), betas.call<void>("push", x.beta2);
      o.set("lr", x.lr), o.set("betas", betas), o.set("eps", x.eps), o.set("weight_decay", x.weight_decay);
      o.set("amsgrad", x.amsgrad), o.set("maximize", x.maximize);
    }
    return o;
  });
}

void optimizer_set_hyper(const OptimizerHandle& h, const val& o) {
  ptjs::guarded([&] {
    if (auto* sgd = dynamic_cast<pt::SGD*>(&h.get())) sgd->set_options(read_options(o, sgd->options()));
    else if (auto* adam = dynamic_cast<pt::Adam*>(&h.get())) adam->set_options(read_options(o, adam->options()));
    return 0;
  });
}

void optimizer_step(const OptimizerHandle& h) {
  ptjs::guarded([&] {
    h.get().step();
    return 0;
  });
}

void optimizer_zero_grad(const OptimizerHandle& h, bool set_to_none) {
  ptjs::guarded([&] {
    h.get().zero_grad(set_to_none);
    return 0;
  });
}

// ---- the train loop ----
// batches: [{x, labels}]
TrainLoopHandle make_train_loop(const GraphModuleHandle& gm, const OptimizerHandle& opt, const std::string& loss_name,
                                const val& batches) {
  return ptjs::guarded([&] {
    std::vector<pt::Batch> bs;
    const unsigned n = batches["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) bs.push_back({batches[i]["x"].as<Tensor>(), batches[i]["labels"].as<Tensor>()});
    auto loop = std::make_shared<pt::TrainLoop>(gm.get(), opt.get(), loss_by_name(loss_name), std::move(bs));
    return TrainLoopHandle{ptjs::sharing(loop, gm.ptr, opt.ptr)};
  });
}

// The loop iterates a copy of the loader (its order and generator state as they are now).
TrainLoopHandle make_train_loop_over(const GraphModuleHandle& gm, const OptimizerHandle& opt, const std::string& loss_name,
                                     const ptjs::DataLoaderHandle& loader) {
  return ptjs::guarded([&] {
    auto loop = std::make_shared<pt::TrainLoop>(gm.get(), opt.get(), loss_by_name(loss_name), loader.get());
    return TrainLoopHandle{ptjs::sharing(loop, gm.ptr, opt.ptr)};
  });
}

val train_loop_run(const TrainLoopHandle& h, double steps) {
  return ptjs::guarded([&] {
    const std::vector<float> losses = h.get().run(static_cast<int64_t>(steps));
    val arr = val::global("Float32Array").new_(static_cast<double>(losses.size()));
    for (size_t i = 0; i < losses.size(); ++i) arr.set(i, losses[i]);
    return arr;
  });
}

double train_loop_position(const TrainLoopHandle& h) { return ptjs::guarded([&] { return double(h.get().position()); }); }
double train_loop_epoch(const TrainLoopHandle& h) { return ptjs::guarded([&] { return double(h.get().epoch()); }); }

}  // namespace

EMSCRIPTEN_BINDINGS(pt_train) {
  using namespace emscripten;
  class_<TapeHandle>("Tape").function("backward", &tape_backward);
  class_<OptimizerHandle>("Optimizer")
      .function("step", &optimizer_step)
      .function("zero_grad", &optimizer_zero_grad)
      .function("hyper", &optimizer_hyper)
      .function("set_hyper", &optimizer_set_hyper);
  class_<TrainLoopHandle>("TrainLoop")
      .function("run", &train_loop_run)
      .function("position", &train_loop_position)
      .function("epoch", &train_loop_epoch);
  function("forward_recorded", &forward_recorded);
  function("loss", &loss);
  function("named_parameters", &named_parameters);
  function("parameter_grad", &parameter_grad);
  function("zero_grad", &zero_grad);
  function("load_state_dict", &load_state_dict);
  function("make_optimizer", &make_optimizer);
  function("make_train_loop", &make_train_loop);
  function("make_train_loop_over", &make_train_loop_over);
}
