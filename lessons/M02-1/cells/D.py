import torch
from torchao.quantization.pt2e.observer import PerChannelMinMaxObserver

w = torch.randn(4, 3, 3, 3)
w[0] *= 5.0
per_axis = {}
for axis in (0, 1):
    obs = PerChannelMinMaxObserver(ch_axis=axis, dtype=torch.int8, qscheme=torch.per_channel_symmetric,
                                   quant_min=-127, quant_max=127)
    obs(w)
    scale, zp = obs.calculate_qparams()
    view = [1] * w.dim(); view[axis] = -1          # broadcast the scale along `axis`
    per_axis[axis] = compute_error(w, qdq(w, scale.view(view), zp.view(view), -127, 127)).item()
    print(axis, tuple(scale.shape), scale, per_axis[axis])
assert per_axis[0] > per_axis[1]
