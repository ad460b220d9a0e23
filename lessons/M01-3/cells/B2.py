import torch
from torchao.quantization.pt2e import MinMaxObserver, PerChannelMinMaxObserver
from torchao.quantization.utils import compute_error

w = torch.randn(4, 3, 3, 3)
w[0] *= 100.0
obs_t = MinMaxObserver(dtype=torch.int8, qscheme=torch.per_tensor_symmetric, quant_min=-127, quant_max=127)
obs_c = PerChannelMinMaxObserver(ch_axis=0, dtype=torch.int8, qscheme=torch.per_channel_symmetric, quant_min=-127, quant_max=127)
obs_t(w); obs_c(w)
(s_t, z_t), (s_c, z_c) = obs_t.calculate_qparams(), obs_c.calculate_qparams()
w_t = torch.fake_quantize_per_tensor_affine(w, s_t.item(), int(z_t), -127, 127)
w_c = torch.fake_quantize_per_channel_affine(w, s_c, z_c.int(), 0, -127, 127)
for c in range(4):
    print(c, w[c].abs().max().item(), compute_error(w[c], w_t[c]).item(), compute_error(w[c], w_c[c]).item())
print("whole", compute_error(w, w_t).item(), compute_error(w, w_c).item())
