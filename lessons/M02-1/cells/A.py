import torch
from torchao.quantization.pt2e.observer import MinMaxObserver

QMIN, QMAX = -128, 127

def minmax(symmetric=False):
    scheme = torch.per_tensor_symmetric if symmetric else torch.per_tensor_affine
    return MinMaxObserver(dtype=torch.int8, qscheme=scheme, quant_min=QMIN, quant_max=QMAX)

def qdq(x, scale, zp, qmin=QMIN, qmax=QMAX):
    # quantize, clamp, dequantize -- all float32 tensor arithmetic
    q = torch.clamp(torch.round(x / scale) + zp, qmin, qmax)
    return (q - zp) * scale

torch.manual_seed(0)
x = torch.randn(20000)
aff, sym = minmax(), minmax(symmetric=True)
aff(x); sym(x)
scale_aff, zp_aff = aff.calculate_qparams()
scale_sym, zp_sym = sym.calculate_qparams()
by_hand = torch.maximum(-aff.min_val, aff.max_val) / ((QMAX - QMIN) / 2)   # formula (1)
print(scale_aff, zp_aff, scale_sym, zp_sym, by_hand)
assert zp_sym.item() == 0 and torch.allclose(scale_sym, by_hand)
assert scale_sym > scale_aff

# torch's quantize kernels multiply by float32(1 / scale) instead of dividing: compare with the helper
by_op = torch.fake_quantize_per_tensor_affine(x, scale_sym.item(), 0, QMIN, QMAX)
print((qdq(x, scale_sym.item(), 0) != by_op).sum().item(), "of", x.numel(), "differ")
