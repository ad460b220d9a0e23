# continues B
from pt2e_course import quantize_multiplier, fixed_point_requantize

m, shift = quantize_multiplier(multiplier.item())           # M = m * 2**(shift - 31), m in [2**30, 2**31)
print(multiplier.item(), m, shift, m * 2.0 ** (shift - 31))
fixed = torch.clamp(fixed_point_requantize(accumulator + bias_int32, m, shift) + zp_out, -128, 127)
print((fixed - codes).abs().max(), (fixed != codes).sum())  # at most 1 apart from the float32 multiplier
