from torchao.quantization.pt2e.quantizer import ComposableQuantizer, QuantizationAnnotation, annotate_output_qspec

class ClaimRelu(Quantizer):               # "leave every relu in fp32": an empty label, marked as taken
    def annotate(self, model):
        for n in model.graph.nodes:
            if n.target == torch.ops.aten.relu.default:
                n.meta["quantization_annotation"] = QuantizationAnnotation(_annotated=True)
        return model
    def validate(self, model):
        pass

class ReluOutput(Quantizer):
    def annotate(self, model):
        for n in model.graph.nodes:
            if n.target != torch.ops.aten.relu.default:
                continue
            a = n.meta.get("quantization_annotation")
            if a is not None and a._annotated:     # someone else already decided
                continue
            annotate_output_qspec(n, ACT)
            n.meta["quantization_annotation"]._annotated = True
        return model
    def validate(self, model):
        pass

prepared = prepare_pt2e(conv_relu_gm, ComposableQuantizer([ClaimRelu(), ReluOutput()]))
