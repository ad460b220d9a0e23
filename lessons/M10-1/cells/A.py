import torch
from torch.export import export
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
from pt2e_course import get_model, input_shape, calibration_batches, calibrate

# quantize rounds half to even (torch.round); a shift that rounds the same way reproduces it exactly
print(torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5])))

def shift_half_even(acc, s):
    """acc / 2**s rounded half to even, in integers only."""
    if s <= 0:
        return acc << -s
    q, r, half = acc >> s, acc & ((1 << s) - 1), 1 << (s - 1)
    return q + (1 if r > half or (r == half and q & 1) else 0)

print([shift_half_even(v, 1) for v in (1, 3, 5, -1, -5)])   # [0, 2, 2, 0, -2]
