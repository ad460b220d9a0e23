import operator
import torch
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

class Stem(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn = torch.nn.BatchNorm2d(16)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))

torch.manual_seed(0)
model = Stem().eval()
ex = torch.randn(4, 3, 16, 16)
gm = torch.export.export(model, (ex,)).module()
quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
prepared = prepare_pt2e(gm, quantizer)              # folds BN into the conv, then inserts observers
print(prepared.code)

bn = model.bn
factor = bn.weight / torch.sqrt(bn.running_var + bn.eps)
conv = next(n for n in prepared.graph.nodes if n.target == torch.ops.aten.conv2d.default)
w_node = conv.args[1].args[0]                        # the get_attr behind the weight observer
w_folded = operator.attrgetter(w_node.target)(prepared)
print((w_folded - model.conv.weight * factor[:, None, None, None]).abs().max())
with torch.no_grad():
    print((prepared(ex) - gm(ex)).abs().max())
