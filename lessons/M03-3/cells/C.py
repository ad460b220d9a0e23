class NoLinear(Quantizer):
    def annotate(self, model):
        return model
    def validate(self, model):
        bad = [n.name for n in model.graph.nodes if n.target == torch.ops.aten.linear.default]
        if bad:
            raise ValueError(f"unsupported op linear at {', '.join(bad)}")

for name in ("residual", "tiny"):
    gm = export(get_model(name).eval(), (torch.randn(2, *input_shape(name)),)).module()
    try:
        prepare_pt2e(gm, NoLinear()); print(name, "ok")
    except ValueError as e:
        print(name, e)
