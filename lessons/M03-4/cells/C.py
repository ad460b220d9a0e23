from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import XNNPACKQuantizer as ETXNNPACKQuantizer

batches = [torch.randn(2, 3, 16, 16), torch.randn(2, 3, 16, 16)]
for Q in (XNNPACKQuantizer, ETXNNPACKQuantizer):
    gm = export(get_model("cat_pool").eval(), (torch.randn(2, 3, 16, 16),)).module()
    p = prepare_pt2e(gm, Q().set_global(get_symmetric_quantization_config(is_per_channel=True)))
    for b in batches:
        p(b)
    cat = next(n for n in p.graph.nodes if n.target == torch.ops.aten.cat.default)
    for obs in [*cat.args[0], *cat.users]:
        if obs.op == "call_module":
            print(Q.__module__, obs.name, getattr(p, obs.target).calculate_qparams())
