import torch
from torchao.quantization.pt2e.observer import PlaceholderObserver

y = torch.randn(1000)
for obs in (minmax(), PlaceholderObserver(dtype=torch.float32)):
    out = obs(y)
    names = [n for n, _ in obs.named_buffers()]
    try:
        qp = obs.calculate_qparams()
    except Exception as e:          # PlaceholderObserver: "calculate_qparams should not be called ..."
        qp = e
    print(type(obs).__name__, torch.equal(out, y), names, qp)
