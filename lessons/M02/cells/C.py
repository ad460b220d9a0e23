import torch
import torch.nn.functional as F
from torchao.quantization.utils import compute_error

def qdq(t, scale, zp, qmin=-128, qmax=127):            # per tensor, as quantize/dequantize_per_tensor
    q = torch.clamp(torch.round(t * (1.0 / scale)) + zp, qmin, qmax)
    return (q - zp) * scale

s_w, z_w = qp["w"]
w = model.conv.weight.detach()
w_q = (torch.clamp(torch.round(w / s_w.view(-1, 1, 1, 1)), -127, 127)) * s_w.view(-1, 1, 1, 1)
xt = torch.randn(8, 3, 16, 16)
with torch.no_grad():
    ref = gm(xt)
    x_q = qdq(xt, qp["x"][0].item(), int(qp["x"][1]))
    y = torch.relu(F.conv2d(x_q, w_q, model.conv.bias, padding=1))
    y_q = qdq(y, qp["out"][0].item(), int(qp["out"][1]))
print(compute_error(ref, y_q))          # SQNR of the hand-"converted" model against float
