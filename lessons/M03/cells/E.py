from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e

x = torch.randn(2, 3, 16, 16)
prepared(x)                          # calibrate on one batch
converted = convert_pt2e(prepared)   # observers -> quantize / dequantize
print(converted.graph)
from torchao.quantization.utils import compute_error
print(compute_error(model(x), converted(x)))     # SQNR in dB
