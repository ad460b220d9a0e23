# continues A
import copy

q_dyn = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True, is_dynamic=True))
gm = torch.export.export(model, ex).module()
annotated = q_dyn.annotate(copy.deepcopy(gm))
print([n.name for n in annotated.graph.nodes if "quantization_annotation" in n.meta])

prepared = prepare_pt2e(gm, q_dyn)
with torch.no_grad():
    prepared(*ex)
converted = convert_pt2e(prepared)
print(" → ".join(str(n.target).split(".")[1] if "." in str(n.target) else str(n.target)
                 for n in converted.graph.nodes if n.op == "call_function"))
