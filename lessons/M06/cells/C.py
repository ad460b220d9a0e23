from torchao.quantization.pt2e.quantize_pt2e import prepare_qat_pt2e
from torchao.quantization.pt2e.fake_quantize import FakeQuantizeBase

prepared = prepare_qat_pt2e(copy.deepcopy(gm), four_bits(True))
modules = [m for m in prepared.modules() if isinstance(m, FakeQuantizeBase)]
print(len(modules), "fake quantizers:", {type(m).__name__ for m in modules})
print(prepared.graph)      # conv -> batch_norm still apart
