class MyVPUQuantizer(VPUQuantizer):   # the VPU's annotate, your validate
    def validate(self, model):
        for n in model.graph.nodes:
            pass   # TODO: rules 1-3; raise NotImplementedError(f"node {n.name} ({n.target}) ...")
