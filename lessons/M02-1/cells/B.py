import torch
from torchao.quantization.pt2e.observer import HistogramObserver
from torchao.quantization.utils import compute_error   # SQNR in dB

# continues after cell A (same generator stream, minmax / qdq from there)
data = {
    "gaussian": torch.randn(100_000),
    "relu(gaussian)": torch.relu(torch.randn(100_000)),
    "heavy tail t(3)": torch.distributions.StudentT(3.0).sample((100_000,)),
}
observers = {
    "MinMax affine": lambda: minmax(),
    "MinMax symmetric": lambda: minmax(symmetric=True),
    "Histogram affine": lambda: HistogramObserver(dtype=torch.int8, qscheme=torch.per_tensor_affine,
                                                  quant_min=QMIN, quant_max=QMAX),
}
sqnr, upper = {}, {}
for dname, d in data.items():
    for oname, make in observers.items():
        obs = make()
        obs(d)
        scale, zp = obs.calculate_qparams()
        s, z = scale.item(), int(zp)
        sqnr[dname, oname] = compute_error(d, qdq(d, s, z)).item()
        upper[dname, oname] = (QMAX - z) * s
        print(f"{dname:16} {oname:17} scale={s:.4f} zp={z:4d} "
              f"[{(QMIN - z) * s:.2f}, {(QMAX - z) * s:.2f}] {sqnr[dname, oname]:.2f} dB")

gap = sqnr["relu(gaussian)", "MinMax affine"] - sqnr["relu(gaussian)", "MinMax symmetric"]
assert 5 < gap < 7
better = [d for d in data if sqnr[d, "Histogram affine"] > sqnr[d, "MinMax affine"]]
assert all(upper[d, "Histogram affine"] < upper[d, "MinMax affine"] for d in data)
assert 0 < len(better) < len(data)
