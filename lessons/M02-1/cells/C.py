import torch
from torchao.quantization.pt2e.observer import MovingAverageMinMaxObserver

c = 0.1
mm = minmax()
ma = MovingAverageMinMaxObserver(averaging_constant=c, dtype=torch.int8, qscheme=torch.per_tensor_affine,
                                 quant_min=QMIN, quant_max=QMAX)
hand_min, mm_min = None, []
for i in range(20):
    amp = 10.0 if i == 3 else 1.0
    batch = torch.randn(1000) * amp
    mm(batch); ma(batch)
    m = batch.min()
    hand_min = m if hand_min is None else hand_min + c * (m - hand_min)     # formula (2)
    mm_min.append(mm.min_val.item())
    if i in (0, 2, 3, 4, 10, 19):
        print(i, f"{amp:.0f}x", (mm.min_val.item(), mm.max_val.item()), (ma.min_val.item(), ma.max_val.item()))
assert torch.allclose(ma.min_val, hand_min)
assert mm_min[3:] == [mm_min[3]] * 17
