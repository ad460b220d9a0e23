import torch
from torchao.quantization.pt2e.fake_quantize import FakeQuantize   # wraps MovingAverageMinMaxObserver

QMIN, QMAX = -128, 127
torch.manual_seed(0)
x = torch.randn(10000)
fq = FakeQuantize(dtype=torch.int8, qscheme=torch.per_tensor_affine, quant_min=QMIN, quant_max=QMAX)
y = fq(x)                                     # observe, update scale / zero_point, then quantize -> dequantize
s, z = fq.scale.item(), int(fq.zero_point)

# what the quantize_per_tensor / dequantize_per_tensor ops compute (they multiply by 1/scale)
q = torch.clamp(torch.round(x * (1.0 / s)) + z, QMIN, QMAX).to(torch.int8)
dq = (q.float() - z) * s
assert torch.equal(y, torch.fake_quantize_per_tensor_affine(x, s, z, QMIN, QMAX))
assert torch.equal(y, dq)
print(s, z, (y != x).sum().item(), y.unique().numel(), (y - x).abs().max().item() / s)
