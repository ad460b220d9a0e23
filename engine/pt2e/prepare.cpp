// prepare.cpp — spec collection, union-find grouping, observer creation and insertion (see prepare.h).
#include "pt2e/prepare.h"

#include <map>

#include "graph/passes.h"
#include "pt2e/qat_utils.h"

namespace pt {

// ---- 1. collect ---------------------------------------------------------------------------------

namespace {

void check_in_graph(const GraphModule& gm, const Node* n, const Node* owner, const char* what) {
  if (!n || !gm.graph.contains(n))
    throw ValueError("quantization annotation of node " + owner->name + ": " + what + " " +
                     (n ? n->name : std::string("None")) + " is not a node of this graph");
}

void check_spec_targets(const GraphModule& gm, const OptionalQSpec& spec, const Node* owner) {
  if (!spec) return;
  validate_spec(*spec);
  std::vector<EdgeOrNode> refs;
  if (const auto* s = std::get_if<SharedQuantizationSpec>(&*spec)) refs.push_back(s->edge_or_node);
  if (const auto* d = std::get_if<DerivedQuantizationSpec>(&*spec)) refs = d->derived_from;
  for (const EdgeOrNode& e : refs) {
    check_in_graph(gm, e.node, owner, "a spec refers to");
    if (e.user) check_in_graph(gm, e.user, owner, "a spec refers to");
  }
}

}  // namespace

EdgeOrNodeToQSpec get_edge_or_node_to_qspec(const GraphModule& gm) {
  EdgeOrNodeToQSpec out;
  for (Node* n : gm.graph.nodes()) {
    const QuantizationAnnotation* a = get_annotation(n);
    if (!a) continue;
    for (const auto& [input, spec] : a->input_qspec_map) {
      check_in_graph(gm, input, n, "input");
      check_spec_targets(gm, spec, n);
      out.emplace_back(EdgeOrNode::edge(input, n), spec);
    }
    if (a->output_qspec) {
      check_spec_targets(gm, a->output_qspec, n);
      out.emplace_back(EdgeOrNode::output(n), a->output_qspec);
    }
  }
  return out;
}

// ---- 2. group -----------------------------------------------------------------------------------

namespace {

class SharingGroups {
 public:
  explicit SharingGroups(const EdgeOrNodeToQSpec& specs) {
    for (const auto& [k, spec] : specs) {
      spec_.emplace(k, &spec);
      parent_.emplace(k, k);
    }
  }

  bool has(const EdgeOrNode& k) const { return spec_.count(k) != 0; }
  const OptionalQSpec& spec(const EdgeOrNode& k) const { return *spec_.at(k); }

  EdgeOrNode find(const EdgeOrNode& k) {
    auto it = parent_.find(k);
    if (it == parent_.end())
      throw ValueError("SharedQuantizationSpec / DerivedQuantizationSpec refers to " + k.str() +
                       ", which has no quantization spec");
    if (it->second == k) return k;
    const EdgeOrNode root = find(it->second);
    parent_[k] = root;  // path compression
    return root;
  }

  void unite(const EdgeOrNode& parent, const EdgeOrNode& child) {
    const EdgeOrNode rp = find(parent), rc = find(child);
    const OptionalQSpec& ps = spec(rp);
    const auto* shared = ps ? std::get_if<SharedQuantizationSpec>(&*ps) : nullptr;
    if (shared && shared->edge_or_node == rc) parent_[rp] = rc;  // the reverse link would close a cycle
    else parent_[rc] = rp;
  }

  // Follows Shared specs through the current roots to a spec that is not Shared.
  OptionalQSpec unwrap(OptionalQSpec s) {
    for (size_t hops = 0; s; ++hops) {
      const auto* shared = std::get_if<SharedQuantizationSpec>(&*s);
      if (!shared) break;
      if (hops > spec_.size()) throw RuntimeError("SharedQuantizationSpec chain forms a cycle at " + shared->edge_or_node.str());
      s = spec(find(shared->edge_or_node));
    }
    return s;
  }

 private:
  std::map<EdgeOrNode, const OptionalQSpec*> spec_;
  std::map<EdgeOrNode, EdgeOrNode> parent_;
};

// The attributes implicit sharing compares (torchao _has_same_attr over a fixed list).
struct SharingAttrs {
  DType dtype;
  bool is_dynamic;
  std::optional<int64_t> quant_min, quant_max;
  std::optional<QScheme> qscheme;
  bool has_ch_axis = false;
  std::optional<int64_t> ch_axis;
  bool has_fixed = false;
  double scale = 0;
  int64_t zero_point = 0;
  bool operator==(const SharingAttrs& o) const = default;
};

std::optional<SharingAttrs> sharing_attrs(const OptionalQSpec& s) {
  if (!s) return std::nullopt;
  if (const auto* q = std::get_if<QuantizationSpec>(&*s))
    return SharingAttrs{q->dtype, q->is_dynamic, q->quant_min, q->quant_max, q->qscheme, true, q->ch_axis};
  if (const auto* d = std::get_if<DerivedQuantizationSpec>(&*s))
    return SharingAttrs{d->dtype, d->is_dynamic, d->quant_min, d->quant_max, d->qscheme, true, d->ch_axis};
  if (const auto* f = std::get_if<FixedQParamsQuantizationSpec>(&*s))
    return SharingAttrs{f->dtype,          f->is_dynamic, f->quant_min, f->quant_max, f->qscheme, false,
                        std::nullopt,      true,          f->scale,     f->zero_point};
  return std::nullopt;
}

void union_input_edge_with(SharingGroups& g, const EdgeOrNode& input_edge, const OptionalQSpec& input_root,
                           const EdgeOrNode& other) {
  if (!g.has(other)) return;
  const auto a = sharing_attrs(g.unwrap(g.spec(other))), b = sharing_attrs(input_root);
  if (a && b && *a == *b) g.unite(other, input_edge);
}

void update_shared_with(SharingGroups& g, const EdgeOrNode& child, const OptionalQSpec& spec) {
  if (!spec) return;
  if (const auto* s = std::get_if<SharedQuantizationSpec>(&*spec)) g.unite(s->edge_or_node, child);
}

}  // namespace

std::vector<std::pair<EdgeOrNode, int>> get_edge_or_node_to_group_id(const EdgeOrNodeToQSpec& specs) {
  SharingGroups g(specs);
  for (const auto& [k, spec] : specs) {
    if (k.is_edge()) {
      const OptionalQSpec root = g.unwrap(spec);
      const QuantizationAnnotation* a = get_annotation(k.user);
      if (a && a->allow_implicit_sharing) {
        for (Node* u : k.node->users())  // other users first, then the producer's output (no cycles)
          if (u != k.user) union_input_edge_with(g, k, root, EdgeOrNode::edge(k.node, u));
        union_input_edge_with(g, k, root, EdgeOrNode::output(k.node));
      }
    }
    update_shared_with(g, k, spec);
  }
  std::map<EdgeOrNode, int> root_id;
  std::vector<std::pair<EdgeOrNode, int>> out;
  for (const auto& [k, spec] : specs) {
    const EdgeOrNode root = g.find(k);
    auto it = root_id.find(root);
    if (it == root_id.end()) it = root_id.emplace(root, static_cast<int>(root_id.size())).first;
    out.emplace_back(k, it->second);
  }
  return out;
}

// ---- 3. create ----------------------------------------------------------------------------------

namespace {

struct CreatedObservers {
  EdgeOrNodeToObsOrFq map;
  std::map<const ObserverBase*, ObserverOrFakeQuantizeConstructor> ctr;  // how each was built
};

std::shared_ptr<ObserverBase> lookup(const EdgeOrNodeToObsOrFq& map, const EdgeOrNode& k) {
  auto it = map.find(k);
  return it == map.end() ? nullptr : it->second;
}

// field=value in kwargs, or field=None when the spec holds None (it overrides a with_args value).
template <class T>
void pass_field(ObserverArgs& kwargs, const char* name, std::optional<T>& field, const std::optional<T>& value) {
  if (value) field = value;
  else kwargs.set_none(name);
}

// torchao prepare.py _get_observer_kwargs: asdict(spec), i.e. every field, None included.
template <class Spec>
void pass_spec_fields(const Spec& s, ObserverArgs& kwargs) {
  kwargs.dtype = s.dtype;
  kwargs.quantized_dtype = s.quantized_dtype;
  pass_field(kwargs, "quant_min", kwargs.quant_min, s.quant_min);
  pass_field(kwargs, "quant_max", kwargs.quant_max, s.quant_max);
  pass_field(kwargs, "qscheme", kwargs.qscheme, s.qscheme);
  kwargs.is_dynamic = s.is_dynamic;
}

std::shared_ptr<ObserverBase> create_obs_or_fq(const OptionalQSpec& spec, CreatedObservers& made, bool is_qat) {
  if (!spec) return nullptr;
  if (const auto* s = std::get_if<SharedQuantizationSpec>(&*spec)) {
    if (!made.map.count(s->edge_or_node))
      throw RuntimeError("please make sure only refer to edge or node that has observer/fake_quant inserted: '" +
                         s->edge_or_node.str() + "' has none yet (a SharedQuantizationSpec must point to an "
                         "earlier edge or node)");
    return made.map.at(s->edge_or_node);
  }
  if (const auto* d = std::get_if<DerivedQuantizationSpec>(&*spec)) {
    std::vector<std::shared_ptr<ObserverBase>> from;
    for (const EdgeOrNode& k : d->derived_from) {
      if (!lookup(made.map, k))
        throw RuntimeError("DerivedQuantizationSpec: '" + k.str() + "' has no observer yet (derived_from must "
                           "name earlier edges or nodes)");
      from.push_back(made.map.at(k));
    }
    return std::make_shared<DerivedObserverOrFakeQuantize>(*d, std::move(from));
  }
  ObserverOrFakeQuantizeConstructor ctr;
  if (const auto* f = std::get_if<FixedQParamsQuantizationSpec>(&*spec)) {
    ctr.name = "FixedQParamsObserver";
    ctr.kwargs.scale = f->scale;
    ctr.kwargs.zero_point = f->zero_point;
    pass_spec_fields(*f, ctr.kwargs);
    if (is_qat) {  // FixedQParamsFakeQuantize.with_args(observer=FixedQParamsObserver.with_args(**fields))
      ctr.name = "FixedQParamsFakeQuantize";
      ctr.kwargs.observer = "FixedQParamsObserver";
    }
  } else {
    const auto& q = std::get<QuantizationSpec>(*spec);
    ctr = q.observer_or_fake_quant_ctr;  // with_args kwargs, overridden by every field of the spec
    pass_spec_fields(q, ctr.kwargs);
    // ch_axis only for a class whose name says PerChannel (a FakeQuantize keeps its observer's default).
    if (ctr.name.find("PerChannel") != std::string::npos) pass_field(ctr.kwargs, "ch_axis", ctr.kwargs.ch_axis, q.ch_axis);
  }
  std::shared_ptr<ObserverBase> obs = make_observer(ctr.name, ctr.kwargs);
  made.ctr.emplace(obs.get(), ctr);
  return obs;
}

CreatedObservers get_obs_or_fq_map(const EdgeOrNodeToQSpec& specs, bool is_qat) {
  const auto groups = get_edge_or_node_to_group_id(specs);
  CreatedObservers made;
  std::map<int, std::shared_ptr<ObserverBase>> per_group;
  for (size_t i = 0; i < specs.size(); ++i) {
    const int gid = groups[i].second;
    if (!per_group.count(gid)) per_group[gid] = create_obs_or_fq(specs[i].second, made, is_qat);
    made.map[specs[i].first] = per_group[gid];
  }
  return made;
}

// ---- 4. insert ----------------------------------------------------------------------------------

class ObserverInserter {
 public:
  ObserverInserter(GraphModule& gm, CreatedObservers& made) : gm_(gm), made_(made) {}

  void observe(Node* node) {
    if (!get_annotation(node)) return;
    std::vector<Arg> args = node->args();
    bool changed = false;
    for (Arg& a : args) {
      if (Node* in = a.node()) {
        Node* r = input_observer(node, in);
        changed |= r != in;
        a = Arg(r);
      } else if (auto* list = std::get_if<std::vector<Node*>>(&a.v)) {
        for (Node*& in : *list) {
          Node* r = input_observer(node, in);
          changed |= r != in;
          in = r;
        }
      }
    }
    if (changed) gm_.graph.set_args(node, std::move(args));
    if (!node->meta.val) return;  // only single-tensor outputs get an output observer
    const auto obs = lookup(made_.map, EdgeOrNode::output(node));
    if (!obs) return;
    Node* o = insert(node, obs);
    // torchao prepare.py _maybe_insert_output_observer_for_node: the output observer carries the
    // node's provenance (FROM_NODE_KEY; meta["custom"]["numeric_debug_handle"] up to torchao 0.11).
    o->meta.custom = node->meta.custom;
    gm_.graph.replace_all_uses_with(node, o, [o](Node* u) { return u != o; });
  }

 private:
  bool is_observer_node(const Node* n) const { return get_observer(gm_, n) != nullptr; }

  Node* input_observer(Node* node, Node* arg) {
    Node* original = arg;
    while (is_observer_node(original)) original = original->args()[0].node();
    const auto obs = lookup(made_.map, EdgeOrNode::edge(original, node));
    if (!obs) return arg;
    if (lookup(made_.map, EdgeOrNode::output(original)) == obs) return arg;
    for (Node* u : arg->users())
      if (get_observer_ptr(gm_, u) == obs) return u;
    return insert(arg, obs);
  }

  Node* insert(Node* after, const std::shared_ptr<ObserverBase>& obs) {
    int k = 0;
    auto taken = [&](const std::string& n) { return gm_.get_module(n) || gm_.has_tensor(n) || gm_.graph.find(n); };
    while (taken("activation_post_process_" + std::to_string(k))) ++k;
    const std::string name = "activation_post_process_" + std::to_string(k);
    gm_.add_module(name, module_of(obs));
    Node* o = gm_.graph.insert_after(after, OpKind::call_module, name, {after}, name);
    o->meta.val = after->meta.val;
    return o;
  }

  // One module per observer instance, registered under every name that uses it (torch.fx's
  // _insert_obs_or_fq setattr's the same module), so a clone keeps the sharing.
  std::shared_ptr<ObserverModule> module_of(const std::shared_ptr<ObserverBase>& obs) {
    std::shared_ptr<ObserverModule>& m = modules_[obs.get()];
    if (!m) {
      auto it = made_.ctr.find(obs.get());
      std::optional<ObserverOrFakeQuantizeConstructor> ctr;
      if (it != made_.ctr.end()) ctr = it->second;
      m = std::make_shared<ObserverModule>(obs, ctr);
    }
    return m;
  }

  GraphModule& gm_;
  CreatedObservers& made_;
  std::map<const ObserverBase*, std::shared_ptr<ObserverModule>> modules_;
};

}  // namespace

void prepare(GraphModule& gm, bool is_qat, Quantizer* quantizer) {
  const std::vector<Node*> original = gm.graph.nodes();
  CreatedObservers made = get_obs_or_fq_map(get_edge_or_node_to_qspec(gm), is_qat);
  if (quantizer) quantizer->prepare_obs_or_fq_callback(gm, made.map);
  ObserverInserter inserter(gm, made);
  for (Node* n : original) inserter.observe(n);
  gm.graph.lint();
}

GraphModule prepare_pt2e(const GraphModule& model, Quantizer& quantizer) {
  GraphModule gm = model.clone();
  fold_bn(gm);
  quantizer.transform_for_annotation(gm);
  quantizer.annotate(gm);
  quantizer.validate(gm);
  prepare(gm, /*is_qat=*/false, &quantizer);
  return gm;
}

GraphModule prepare_qat_pt2e(const GraphModule& model, Quantizer& quantizer) {
  GraphModule gm = model.clone();
  quantizer.transform_for_annotation(gm);
  quantizer.annotate(gm);
  quantizer.validate(gm);
  _fuse_conv_bn_qat(gm);  // conv -> bn becomes the nniqat.ConvBn2d "approximate" form, BN kept
  prepare(gm, /*is_qat=*/true, &quantizer);
  return gm;
}

}  // namespace pt
