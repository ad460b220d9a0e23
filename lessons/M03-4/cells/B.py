from torchao.quantization.pt2e.observer import HistogramObserver, MinMaxObserver
from torchao.quantization.pt2e.quantizer import QuantizationAnnotation, QuantizationSpec

ACT = QuantizationSpec(dtype=torch.int8, quant_min=-128, quant_max=127, qscheme=torch.per_tensor_affine,
                       observer_or_fake_quant_ctr=HistogramObserver.with_args(eps=2**-12))

def edge_quantizer(edge_spec):
    class Q(Quantizer):
        def annotate(self, model):
            for n in model.graph.nodes:
                if n.target == torch.ops.aten.conv2d.default and n.args[0].target == torch.ops.aten.relu.default:
                    prev = n.args[0]
                    prev.meta["quantization_annotation"] = QuantizationAnnotation(output_qspec=ACT, _annotated=True)
                    n.meta["quantization_annotation"] = QuantizationAnnotation(input_qspec_map={prev: edge_spec}, _annotated=True)
            return model
        def validate(self, model):
            pass
    return Q()

for dtype, lo, hi in ((torch.int8, -128, 127), (torch.uint8, 0, 255)):
    spec = QuantizationSpec(dtype=dtype, quant_min=lo, quant_max=hi, qscheme=torch.per_tensor_affine,
                            observer_or_fake_quant_ctr=MinMaxObserver.with_args(eps=2**-12))
    gm = export(get_model("residual").eval(), (torch.randn(2, 8, 16, 16),)).module()
    p = prepare_pt2e(gm, edge_quantizer(spec))
    print(dtype, p.graph)
