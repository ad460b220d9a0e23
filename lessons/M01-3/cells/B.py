# continues A: a quantizer that labels only the weight input of every conv2d / linear
from torchao.quantization.pt2e.quantizer import Quantizer, QuantizationAnnotation

class WeightOnlyQuantizer(Quantizer):
    def __init__(self, is_per_channel):
        super().__init__()
        self.spec = get_symmetric_quantization_config(is_per_channel=is_per_channel).weight

    def annotate(self, gm):
        for n in gm.graph.nodes:
            if n.op == "call_function" and n.target in (torch.ops.aten.conv2d.default, torch.ops.aten.linear.default):
                n.meta["quantization_annotation"] = QuantizationAnnotation(input_qspec_map={n.args[1]: self.spec}, _annotated=True)
        return gm

    def validate(self, gm):
        pass

for per_channel in (False, True):
    prepared = prepare_pt2e(torch.export.export(model, ex).module(), WeightOnlyQuantizer(per_channel))
    with torch.no_grad():
        prepared(*ex)
        converted = convert_pt2e(prepared)
        print(per_channel, compute_error(ref, converted(*ex)).item())
