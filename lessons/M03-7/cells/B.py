import torch.nn.functional as F

default = get_default_x86_inductor_quantization_config()
rr = get_default_x86_inductor_quantization_config(reduce_range=True)
q = (X86InductorQuantizer()
     .set_global(rr)                               # lowest priority
     .set_function_type_qconfig(F.linear, default) # beats global
     .set_module_name_qconfig("fc2", rr)           # beats the operator type
     .set_module_name_qconfig("fc1", None))        # fc1 stays fp32
gm = export(get_model("mlp").eval(), (torch.randn(2, 16),)).module()
p = prepare_pt2e(gm, q)
for n in p.graph.nodes:
    if n.target == torch.ops.aten.linear.default:
        a = n.meta.get("quantization_annotation")
        print(n.name, a.input_qspec_map if a is not None else None)
