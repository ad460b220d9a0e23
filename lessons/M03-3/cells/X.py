from torchao.quantization.pt2e.quantizer import QuantizationAnnotation

class MyQuantizer(Quantizer):
    def annotate(self, model):
        for n in model.graph.nodes:
            if n.target != torch.ops.aten.conv2d.default:
                continue
            x, w = n.args[0], n.args[1]
            n.meta["quantization_annotation"] = QuantizationAnnotation(
                input_qspec_map={x: ACT, w: WEIGHT},
                output_qspec=ACT,            # TODO: rule 2 (conv -> relu is one kernel)
            )                                # TODO: rule 3 (_annotated)
        return model
    def validate(self, model):
        pass
