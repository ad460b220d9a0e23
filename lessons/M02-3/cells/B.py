import torch
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e

converted = convert_pt2e(prepared)          # runs DuplicateDQPass at the end
for n in converted.graph.nodes:
    if n.op == "call_function" and "dequantize_per_tensor" in str(n.target) and n.args[0].args[0].name == "x":
        print(n.name, "->", [u.name for u in n.users])   # one dequantize per user of x: conv2d, add
# the pass itself: torchao.quantization.pt2e.utils / duplicate_dq_pass.DuplicateDQPass
