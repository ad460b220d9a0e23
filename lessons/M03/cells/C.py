import torch
from torchao.quantization.pt2e.observer import HistogramObserver, MinMaxObserver
from torchao.quantization.pt2e.quantizer import (
    DerivedQuantizationSpec, FixedQParamsQuantizationSpec, QuantizationAnnotation,
    QuantizationSpec, Quantizer, SharedQuantizationSpec)

ACT = QuantizationSpec(dtype=torch.int8, quant_min=-128, quant_max=127, qscheme=torch.per_tensor_affine,
                       observer_or_fake_quant_ctr=HistogramObserver.with_args(eps=2**-12))
WEIGHT = QuantizationSpec(dtype=torch.int8, quant_min=-127, quant_max=127, qscheme=torch.per_tensor_symmetric,
                          observer_or_fake_quant_ctr=MinMaxObserver.with_args(eps=2**-12))

def bias_qparams(obs):                       # obs = [activation observer, weight observer]
    (sx, _), (sw, _) = obs[0].calculate_qparams(), obs[1].calculate_qparams()
    return sx * sw, torch.zeros_like(sx, dtype=torch.int32)

class FourSpecs(Quantizer):
    def annotate(self, model):
        for n in model.graph.nodes:
            if n.target == torch.ops.aten.linear.default:
                x, w, b = n.args
                bias = DerivedQuantizationSpec(derived_from=[(x, n), (w, n)], derive_qparams_fn=bias_qparams,
                                               dtype=torch.int32, quant_min=-2**31, quant_max=2**31 - 1,
                                               qscheme=torch.per_tensor_symmetric)
                n.meta["quantization_annotation"] = QuantizationAnnotation(
                    input_qspec_map={x: ACT, w: WEIGHT, b: bias}, output_qspec=ACT, _annotated=True)
            elif n.target == torch.ops.aten.sigmoid.default:
                prev = n.args[0]
                n.meta["quantization_annotation"] = QuantizationAnnotation(
                    input_qspec_map={prev: SharedQuantizationSpec(prev)},
                    output_qspec=FixedQParamsQuantizationSpec(dtype=torch.uint8, scale=1 / 256, zero_point=0,
                                                              quant_min=0, quant_max=255, qscheme=torch.per_tensor_affine),
                    _annotated=True)
        return model

    def validate(self, model):
        pass
