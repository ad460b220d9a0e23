import torch
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

class ResidualBlock(torch.nn.Module):
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
model = ResidualBlock(ch=8).eval()
x = torch.randn(2, 8, 16, 16)
gm = torch.export.export(model, (x,)).module()
print([(n.name, [u.name for u in n.users]) for n in gm.graph.nodes if len(n.users) > 1])

quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
prepared = prepare_pt2e(gm, quantizer)
prepared(x)                                 # calibrate
for n in prepared.graph.nodes:
    if n.op == "call_module" and len(n.users) > 1:
        obs = getattr(prepared, n.target)
        scale, zp = obs.calculate_qparams()
        s_x, z_x = scale.item(), int(zp)                  # x's qparams, used again below
        print(n.name, type(obs).__name__, [u.name for u in n.users], s_x, z_x)
