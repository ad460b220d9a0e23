# continues B
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e
from pt2e_course import diff_ops, sqnr

converted = convert_pt2e(qat)
table(diff_ops(qat, converted), ["op", "prepare_qat_pt2e", "convert_pt2e", "delta"])
s, c = state_dict(qat), state_dict(converted)
sf = s["bn1.weight"] / torch.sqrt(s["bn1.running_var"] + 1e-5)
w_fold = s["conv1.weight"] * sf[:, None, None, None]
b_fold = s["bn1.bias"] - s["bn1.running_mean"] * sf
conv = next(n for n in converted.graph.nodes if n.target == torch.ops.aten.conv2d.default and n.args[2].target == "conv1.weight_bias")
dq = conv.args[1]                              # dequantize_per_channel(int8 weight, scale, zero_point, 0, -127, 127)
q, scale = c[dq.args[0].target], c[dq.args[1].target]
q_fold = torch.clamp(torch.round(w_fold / scale[:, None, None, None]), -127, 127)
print("int8 weights that differ:", (q.float() != q_fold).sum().item(), "bias:", max_abs_diff(c["conv1.weight_bias"], b_fold))
x = batches[3][0]
with torch.no_grad():
    print(sqnr(qat(x), converted(x)))
