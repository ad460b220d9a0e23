import torch
from torchao.quantization.pt2e.fake_quantize import FakeQuantize, FusedMovingAvgObsFakeQuantize

w = torch.randn(16, 3, 3, 3) * 0.2
for qscheme, qmin, qmax in [(torch.per_tensor_symmetric, -127, 127), (torch.per_tensor_affine, -128, 127)]:
    kw = dict(dtype=torch.int8, qscheme=qscheme, quant_min=qmin, quant_max=qmax, eps=2**-12)
    fq, fused = FakeQuantize(**kw), FusedMovingAvgObsFakeQuantize(**kw)
    fq(w); fused(w)
    print(qscheme, fq.scale.item(), fused.scale.item(),
          fused.calculate_qparams()[0].item())   # what convert_pt2e bakes in
