import torch
from torch.export import export
from torchao.quantization.pt2e.observer import HistogramObserver
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.quantization.pt2e.quantizer import (
    DerivedQuantizationSpec, QuantizationAnnotation, QuantizationSpec, Quantizer)
from torchao.testing.pt2e._xnnpack_quantizer import get_symmetric_quantization_config
from pt2e_course import get_model   # the course's zoo (lessons/pt2e_course.py)

ACT = QuantizationSpec(dtype=torch.int8, quant_min=-128, quant_max=127, qscheme=torch.per_tensor_affine,
                       observer_or_fake_quant_ctr=HistogramObserver.with_args(eps=2**-12))
WEIGHT = get_symmetric_quantization_config(is_per_channel=True).weight

def bias_qparams(obs):
    sx, _ = obs[0].calculate_qparams()
    sw, _ = obs[1].calculate_qparams()               # one scale per output channel
    return sx * sw, torch.zeros_like(sw, dtype=torch.int32)

class DerivedBias(Quantizer):
    def annotate(self, model):
        for n in model.graph.nodes:
            if n.target == torch.ops.aten.conv2d.default:
                x, w, b = n.args[:3]
                bias = DerivedQuantizationSpec(
                    derived_from=[(x, n), (w, n)], derive_qparams_fn=bias_qparams, dtype=torch.int32,
                    quant_min=-2**31, quant_max=2**31 - 1, qscheme=torch.per_channel_symmetric, ch_axis=0)
                n.meta["quantization_annotation"] = QuantizationAnnotation(
                    input_qspec_map={x: ACT, w: WEIGHT, b: bias}, _annotated=True)
        return model
    def validate(self, model):
        pass

torch.manual_seed(0)       # get_model: the course's zoo
gm = export(get_model("conv_relu").eval(), (torch.randn(2, 3, 16, 16),)).module()
p = prepare_pt2e(gm, DerivedBias())
p(torch.randn(2, 3, 16, 16))
for n in p.graph.nodes:
    if n.op == "call_module":
        print(n.name, type(getattr(p, n.target)).__name__, getattr(p, n.target).calculate_qparams())

from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e
converted = convert_pt2e(p)
print(converted.graph)           # the bias: an int32 constant -> dequantize_per_channel -> conv2d
