import torch
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

class Residual(torch.nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(ch)
        self.conv2 = torch.nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn2 = torch.nn.BatchNorm2d(ch)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(y)) + x)

torch.manual_seed(0)
model = Residual(ch=8).eval()
example = (torch.randn(4, 8, 16, 16),)
gm = torch.export.export(model, example).module()

quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
prepared = prepare_pt2e(gm, quantizer)
with torch.no_grad():
    for _ in range(8):
        prepared(torch.randn(4, 8, 16, 16))
converted = convert_pt2e(prepared)

def op_counts(g):
    from collections import Counter
    return Counter(n.target.__name__.split(".")[0] if n.op == "call_function" else f"<module:{type(getattr(g, n.target)).__name__}>"
                   for n in g.graph.nodes if n.op in ("call_function", "call_module"))
print(op_counts(gm), op_counts(prepared), op_counts(converted), sep="\n")
