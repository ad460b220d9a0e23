import copy

import torch
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
from pt2e_course import get_model, export_module, get_xnnpack_quantizer, calibrate, diff_ops, table

torch.manual_seed(0)
model = get_model("mlp")                                    # Linear(16, 32) -> relu -> Linear(32, 4)
gm = export_module(model, (torch.randn(4, 16),))
prepared = prepare_pt2e(gm, get_xnnpack_quantizer())       # per-tensor weights
calibrate(prepared, [torch.randn(8, 16) for _ in range(4)])
reference = convert_pt2e(copy.deepcopy(prepared), use_reference_representation=True)   # convert changes its input
converted = convert_pt2e(prepared)
print(reference.code)
table(diff_ops(converted, reference), ["op", "convert", "reference", "delta"])

x = torch.randn(4, 16)
out_scale = [n for n in converted.graph.nodes if "dequantize" in str(n.target)][-1].args[1]
with torch.no_grad():
    worst = (converted(x) - reference(x)).abs().max().item()
print(worst, worst / out_scale)                            # torchao's test allows two steps of out_scale
