import torch
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
from torchao.quantization.utils import compute_error          # SQNR in dB
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

class TinyConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        conv = lambda i, o: torch.nn.Conv2d(i, o, 3, padding=1, bias=False)
        self.conv1, self.bn1 = conv(3, 16), torch.nn.BatchNorm2d(16)
        self.conv2, self.bn2 = conv(16, 16), torch.nn.BatchNorm2d(16)
        self.conv3, self.bn3 = conv(16, 16), torch.nn.BatchNorm2d(16)
        self.conv4, self.bn4 = conv(16, 32), torch.nn.BatchNorm2d(32)
        self.fc = torch.nn.Linear(32, 4)

    def forward(self, x):
        F = torch.nn.functional
        x = F.max_pool2d(torch.relu(self.bn1(self.conv1(x))), 2)
        y = self.bn3(self.conv3(torch.relu(self.bn2(self.conv2(x)))))
        x = F.max_pool2d(torch.relu(y + x), 2)
        x = torch.relu(self.bn4(self.conv4(x)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))

# the course's image set: 256 samples in batches of 32, normalized per channel (lessons/pt2e_course.py)
from pt2e_course import calibration_batches, held_out_images
calibration = [x for x, _ in calibration_batches(n=256, batch_size=32)]
torch.manual_seed(0)
model = TinyConvNet().eval()
ex = (torch.randn(8, 3, 16, 16),)
with torch.no_grad():
    ref = model(*ex)

QDQ = {"quantize_per_tensor", "dequantize_per_tensor", "quantize_per_channel", "dequantize_per_channel"}

def run_one(**cfg):
    quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(**cfg))
    gm = torch.export.export(model, ex).module()
    prepared = prepare_pt2e(gm, quantizer)   # is_qat too: the config alone picks the observer type
    observers = [getattr(prepared, n.target) for n in prepared.graph.nodes if n.op == "call_module"]
    with torch.no_grad():
        for batch in calibration:
            prepared(batch)
    converted = convert_pt2e(prepared)
    # q/dq nodes by op name: a substring test on "quantize" would also count choose_qparams
    # (its target is quantized_decomposed.choose_qparams.tensor)
    qdq = [n for n in converted.graph.nodes if n.op == "call_function" and n.target.__name__.split(".")[0] in QDQ]
    with torch.no_grad():
        return len(observers), sorted({type(o).__name__ for o in observers}), len(qdq), compute_error(ref, converted(*ex)).item()

for cfg in [dict(is_per_channel=False), dict(is_per_channel=True),
            dict(is_per_channel=True, is_qat=True), dict(is_per_channel=True, is_dynamic=True)]:
    print(cfg, run_one(**cfg))
