# continues A
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e
from torchao.quantization.utils import compute_error

with torch.no_grad():
    for _ in range(4):
        prepared(torch.randn(4, 3, 16, 16))
converted = convert_pt2e(prepared)
print(converted.code)
with torch.no_grad():
    print(compute_error(gm(ex), converted(ex)))
