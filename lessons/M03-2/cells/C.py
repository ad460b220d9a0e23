from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import XNNPACKQuantizer as ETXNNPACKQuantizer

def unlabelled(model_gm):
    return sorted({n.target.__name__.split(".")[0] for n in model_gm.graph.nodes
                   if n.op == "call_function" and "quantization_annotation" not in n.meta})

for name in ("conv_relu", "stem", "residual", "cat_pool", "tiny", "linear_sigmoid", "mlp", "conv_relu_add"):
    row = [name]
    for Q in (XNNPACKQuantizer, ETXNNPACKQuantizer):
        g = export(get_model(name).eval(), (torch.randn(2, *input_shape(name)),)).module()
        _fuse_conv_bn_(g)
        Q().set_global(get_symmetric_quantization_config(is_per_channel=True)).annotate(g)
        row.append(unlabelled(g))
    print(*row)
    cat = next((n for n in g.graph.nodes if n.target == torch.ops.aten.cat.default), None)
    if cat is not None:
        print(sorted(cat.meta))        # no 'source_fn_stack' with torch 2.14
