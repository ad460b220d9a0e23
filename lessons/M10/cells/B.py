import math

converted = convert_pt2e(prepared)
for n in converted.graph.nodes:
    if n.target == torch.ops.quantized_decomposed.dequantize_per_tensor.default:
        scale, zero_point, dtype = n.args[1], n.args[2], n.args[5]
        print(n.name, dtype, scale, f"2^{math.log2(scale):g}", zero_point)
