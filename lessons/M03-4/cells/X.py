from torchao.quantization.pt2e.quantizer import SharedQuantizationSpec

class CatQuantizer(Quantizer):
    def annotate(self, model):
        for n in model.graph.nodes:
            if n.target == torch.ops.aten.relu.default:
                n.meta["quantization_annotation"] = QuantizationAnnotation(output_qspec=ACT, _annotated=True)
        for n in model.graph.nodes:
            if n.target != torch.ops.aten.cat.default:
                continue
            first, *rest = n.args[0]
            shared = SharedQuantizationSpec((first, n))          # the edge first -> cat
            n.meta["quantization_annotation"] = QuantizationAnnotation(
                input_qspec_map={first: ACT, **{r: shared for r in rest}},
                output_qspec=shared, _annotated=True)
        return model
    def validate(self, model):
        pass
