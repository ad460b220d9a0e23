import torch
from torchao.quantization.pt2e import MinMaxObserver

torch.manual_seed(0)
x = torch.rand(2000) * 2 + 1                     # values in [1, 3)
qmin, qmax = -128, 127
lo, hi = min(x.min().item(), 0.0), max(x.max().item(), 0.0)   # widen to include 0
scale = (hi - lo) / (qmax - qmin)
zp = qmin - round(lo / scale)

obs = MinMaxObserver(dtype=torch.int8, qscheme=torch.per_tensor_affine, quant_min=qmin, quant_max=qmax)
obs(x)
s, z = obs.calculate_qparams()
print(scale, zp, s.item(), z.item())

q = torch.ops.quantized_decomposed.quantize_per_tensor(x, s.item(), z.item(), qmin, qmax, torch.int8)
x_back = torch.ops.quantized_decomposed.dequantize_per_tensor(q, s.item(), z.item(), qmin, qmax, torch.int8)
print(q.unique().numel(), (x_back - x).abs().max() / s)
