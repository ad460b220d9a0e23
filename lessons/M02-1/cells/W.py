import torch
from torchao.quantization.pt2e.observer import HistogramObserver, MinMaxObserver

torch.manual_seed(7)
act = torch.randn(50000)
act[::1000] *= 10
act = torch.relu(act)
candidates = {
    f"{kind} {scheme}": (lambda cls=cls, qs=qs: cls(dtype=torch.int8, qscheme=qs, quant_min=QMIN, quant_max=QMAX))
    for kind, cls in (("MinMax", MinMaxObserver), ("Histogram", HistogramObserver))
    for scheme, qs in (("affine", torch.per_tensor_affine), ("symmetric", torch.per_tensor_symmetric))
}
