from torchao.quantization.pt2e.quantizer import ComposableQuantizer, QuantizationAnnotation, Quantizer

class KeepFp32(Quantizer):
    def __init__(self, module):
        super().__init__()
        self.module = module
    def annotate(self, model):
        for n in model.graph.nodes:
            stack = n.meta.get("nn_module_stack", {})
            if any(fqn == self.module for fqn, _ in stack.values()):
                n.meta["quantization_annotation"] = QuantizationAnnotation(_annotated=True)
        return model
    def validate(self, model):
        pass

for quantizers in ([KeepFp32("fc2"), XNNPACKQuantizer().set_global(cfg)],
                   [XNNPACKQuantizer().set_global(cfg), KeepFp32("fc2")]):
    gm = export(MLP().eval(), (torch.randn(2, 16),)).module()
    print(prepare_pt2e(gm, ComposableQuantizer(quantizers)).graph)
