from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import XNNPACKQuantizer as ETXNNPACKQuantizer

cfg = get_symmetric_quantization_config(is_per_channel=True)
for q in (XNNPACKQuantizer().set_operator_type(torch.ops.aten.linear.default, cfg),       # stored, never used
          ETXNNPACKQuantizer().set_operator_type(torch.ops.aten.linear.default, cfg),
          X86InductorQuantizer().set_global(default)
              .set_function_type_qconfig(F.linear, get_default_x86_inductor_quantization_config(is_qat=True))):
    gm = export(get_model("mlp").eval(), (torch.randn(2, 16),)).module()
    p = prepare_pt2e(gm, q)
    print(type(q).__module__, sum(n.op == "call_module" for n in p.graph.nodes))

try:
    XNNPACKQuantizer().set_module_name("fc2", None)
except Exception as e:          # torchao asserts; the message says None is not supported
    print(type(e).__name__, e)
