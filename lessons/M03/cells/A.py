import torch
from torch.export import export
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config
from pt2e_course import get_model, input_shape   # the course's zoo (lessons/pt2e_course.py)

torch.manual_seed(0)

class ConvReLU(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
    def forward(self, x):
        return torch.relu(self.conv(x))

model = ConvReLU().eval()
gm = export(model, (torch.randn(2, 3, 16, 16),)).module()
quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))

# read the labels: annotate a copy by hand (prepare_pt2e would do this internally)
labelled = export(model, (torch.randn(2, 3, 16, 16),)).module()
quantizer.annotate(labelled)
for n in labelled.graph.nodes:
    a = n.meta.get("quantization_annotation")
    if a is not None:
        print(n.name, {k.name: v for k, v in a.input_qspec_map.items()}, a.output_qspec)

prepared = prepare_pt2e(gm, quantizer)
print(prepared.graph)
conv = next(n for n in prepared.graph.nodes if n.target == torch.ops.aten.conv2d.default)
assert [u.target for u in conv.users] == [torch.ops.aten.relu.default]
