import torch
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
from torchao.quantization.utils import compute_error
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

class ConvRelu(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))

torch.manual_seed(0)
model = ConvRelu().eval()
ex = torch.randn(4, 3, 16, 16)
gm = torch.export.export(model, (ex,)).module()                        # 1. export
quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
prepared = prepare_pt2e(gm, quantizer)                                 # 2. prepare
with torch.no_grad():
    for _ in range(4):
        prepared(torch.randn(4, 3, 16, 16))                            # 3. calibrate
converted = convert_pt2e(prepared)                                     # 4. convert
print(converted.code)
with torch.no_grad():
    print(compute_error(gm(ex), converted(ex)))
