from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e

converted = convert_pt2e(prepared)          # observers -> quantize / dequantize; runs DuplicateDQPass at the end
for n in converted.graph.nodes:
    if n.op == "call_function" and "quantize_per_tensor" in str(n.target) and n.args[0].name == "x":
        print(n.name, n.args[1:3], [(u.name, [v.name for v in u.users]) for u in n.users])
