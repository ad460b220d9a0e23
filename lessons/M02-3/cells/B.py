import torch

# The same miniature, in PyTorch: one int8 tensor, one shared dequantize vs one copy per user.
q_x = torch.ops.quantized_decomposed.quantize_per_tensor(x, s_x, z_x, -128, 127, torch.int8)
dq_shared = torch.ops.quantized_decomposed.dequantize_per_tensor(q_x, s_x, z_x, -128, 127, torch.int8)
dq_conv = torch.ops.quantized_decomposed.dequantize_per_tensor(q_x, s_x, z_x, -128, 127, torch.int8)
dq_add = torch.ops.quantized_decomposed.dequantize_per_tensor(q_x, s_x, z_x, -128, 127, torch.int8)
assert torch.equal(dq_shared, dq_conv) and torch.equal(dq_shared, dq_add)   # the copies are free
