# continues A
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
from torchao.quantization.pt2e.quantizer import Quantizer, QuantizationAnnotation
from torchao.testing.pt2e._xnnpack_quantizer import get_symmetric_quantization_config
from pt2e_course import get_xnnpack_quantizer, calibrate, sqnr

config = get_symmetric_quantization_config(is_per_channel=True)

class ConvThenRelu(Quantizer):                 # no fusion: conv and relu each get an output observer
    def annotate(self, model):
        for n in model.graph.nodes:
            if n.target == torch.ops.aten.conv2d.default:
                n.meta["quantization_annotation"] = QuantizationAnnotation(
                    input_qspec_map={n.args[0]: config.input_activation, n.args[1]: config.weight},
                    output_qspec=config.output_activation, _annotated=True)
            if n.target == torch.ops.aten.relu.default:
                n.meta["quantization_annotation"] = QuantizationAnnotation(output_qspec=config.output_activation, _annotated=True)
        return model

    def validate(self, model):
        pass

held = batches[3][0]
with torch.no_grad():
    ref = gm(held)
for quantizer in (get_xnnpack_quantizer(is_per_channel=True), ConvThenRelu()):
    prepared = prepare_pt2e(copy.deepcopy(gm), quantizer)
    calibrate(prepared, batches[:3])
    print(type(quantizer).__name__, prepared.graph)
    with torch.no_grad():
        print(sqnr(ref, convert_pt2e(prepared)(held)))
