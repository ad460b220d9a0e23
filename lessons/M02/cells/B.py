import torch
from torchao.quantization.pt2e.observer import HistogramObserver, PerChannelMinMaxObserver

act = dict(dtype=torch.int8, qscheme=torch.per_tensor_affine, quant_min=-128, quant_max=127, eps=2**-12)
obs_x, obs_out = HistogramObserver(**act), HistogramObserver(**act)
obs_w = PerChannelMinMaxObserver(dtype=torch.int8, qscheme=torch.per_channel_symmetric,
                                 quant_min=-127, quant_max=127, ch_axis=0, eps=2**-12)
obs_w(model.conv.weight.detach())
calibration_batches = []
with torch.no_grad():
    for _ in range(4):                       # 4 calibration batches
        xb = torch.randn(8, 3, 16, 16)
        calibration_batches.append(xb)
        obs_x(xb)
        obs_out(gm(xb))
qp = {"x": obs_x.calculate_qparams(), "out": obs_out.calculate_qparams(), "w": obs_w.calculate_qparams()}
print(qp)
