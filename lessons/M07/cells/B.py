# continues A
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.exir import to_edge_transform_and_lower
from pt2e_course import node_values, integer_codes

lowered = to_edge_transform_and_lower(torch.export.export(converted, (x,)), partitioner=[XnnpackPartitioner()])
print(lowered.exported_program().graph_module.code)      # fc1, fc2 and the q / dq between them: one delegate call

# fc2 by hand from the converted graph: the int8 codes it reads, int32 products and sum, int32 bias, multiplier.
values = node_values(converted, x)                          # every node's output, by name
lin = next(n for n in converted.graph.nodes if n.name == "linear_1")
dq_x, dq_w, bias = lin.args
q_out = next(iter(lin.users))
s_x, zp_x, s_w, s_out, zp_out = dq_x.args[1], dq_x.args[2], dq_w.args[1], q_out.args[1], q_out.args[2]
x_codes, w_codes = values[dq_x.args[0].name].int(), values[dq_w.args[0].name].int()
accumulator = (x_codes - zp_x) @ w_codes.T                  # int32
bias_int32 = torch.round(values[bias.name] / (s_x * s_w)).int()
multiplier = torch.tensor(s_x * s_w / s_out, dtype=torch.float32)
codes = torch.clamp(torch.round((accumulator + bias_int32).float() * multiplier) + zp_out, -128, 127)
print(accumulator[0], bias_int32, multiplier.item())
print((codes - integer_codes(converted(x), converted)).abs().max())   # within 1 of dq -> linear -> q
