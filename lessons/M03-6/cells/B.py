# continues A
from torchao.quantization.pt2e.quantizer import (
    ComposableQuantizer, QuantizationAnnotation, Quantizer, annotate_input_qspec_map, annotate_output_qspec)

KEY = "quantization_annotation"

def in_fc2(n):
    return any(fqn == "fc2" for fqn, _ in n.meta.get("nn_module_stack", {}).values())

class KeepFp32(Quantizer):          # claims fc2's nodes that nobody has labelled yet
    def annotate(self, model):
        for n in model.graph.nodes:
            if in_fc2(n) and not (KEY in n.meta and n.meta[KEY]._annotated):
                n.meta[KEY] = QuantizationAnnotation(_annotated=True)
        return model

    def validate(self, model):
        pass

class ClearFc2(Quantizer):          # edits the labels already on fc2 in place: same annotation objects
    def annotate(self, model):
        for n in model.graph.nodes:
            a = n.meta.get(KEY) if in_fc2(n) else None
            if a is None:
                continue
            for inp in list(a.input_qspec_map):
                annotate_input_qspec_map(n, inp, None)
            if a.output_qspec is not None:
                annotate_output_qspec(n, None)
        return model

    def validate(self, model):
        pass

for quantizers in ([KeepFp32(), XNNPACKQuantizer().set_global(cfg)],
                   [XNNPACKQuantizer().set_global(cfg), KeepFp32()],
                   [XNNPACKQuantizer().set_global(cfg), ClearFc2()]):
    gm = export(MLP().eval(), (torch.randn(2, 16),)).module()
    print(prepare_pt2e(gm, ComposableQuantizer(quantizers)).graph)
