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

# which activation? the observer on the input x, per-tensor config, calibrated as in A (read it before convert)
prepared = prepare_pt2e(torch.export.export(model, ex).module(),
                        XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=False)))
with torch.no_grad():
    for batch in calibration:
        prepared(batch)
x_obs = next(getattr(prepared, n.target) for n in prepared.graph.nodes if n.op == "call_module" and n.args[0].name == "x")
scale, zero_point = x_obs.calculate_qparams()
lo, hi = (-128 - zero_point.item()) * scale.item(), (127 - zero_point.item()) * scale.item()
converted = convert_pt2e(prepared)
held = held_out_images(256, 8)   # samples 256..263 of the set, never calibrated on
for name, x in [("randn ex", ex[0]), ("held-out images", held)]:
    with torch.no_grad():
        print(name, (lo, hi), ((x < lo) | (x > hi)).float().mean().item(), compute_error(model(x), converted(x)).item())
