from torchao.quantization.pt2e.observer import FixedQParamsObserver, MinMaxObserver
from torchao.quantization.pt2e.quantizer import FixedQParamsQuantizationSpec

FIXED = FixedQParamsQuantizationSpec(dtype=torch.uint8, scale=1 / 256, zero_point=0,
                                     quant_min=0, quant_max=255, qscheme=torch.per_tensor_affine)

class SigmoidFixed(Quantizer):
    def annotate(self, model):
        for n in model.graph.nodes:
            if n.target == torch.ops.aten.sigmoid.default:
                n.meta["quantization_annotation"] = QuantizationAnnotation(output_qspec=FIXED, _annotated=True)
        return model
    def validate(self, model):
        pass

gm = export(get_model("linear_sigmoid").eval(), (torch.randn(2, 16),)).module()
p = prepare_pt2e(gm, SigmoidFixed())
narrow = p(0.1 * torch.randn(64, 16))
mm = MinMaxObserver(dtype=torch.uint8, quant_min=0, quant_max=255); mm(narrow)
wide = p(10 * torch.randn(64, 16))
for obs in (FixedQParamsObserver(scale=1 / 256, zero_point=0, dtype=torch.uint8, quant_min=0, quant_max=255), mm):
    s, z = obs.calculate_qparams()
    print(type(obs).__name__, s, z, (wide - torch.fake_quantize_per_tensor_affine(wide, s.item(), int(z), 0, 255)).abs().max())
