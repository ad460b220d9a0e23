# continues B: the rewriter's rule on the two graphs, then an integer add next to dq -> add -> q
from torchao.quantization.pt2e import MinMaxObserver

def can_lower(g, op_name):
    op = next(n for n in g.graph.nodes if n.name == op_name)
    dqs = [a for a in op.all_input_nodes if "dequantize" in str(a.target)]
    return all(list(d.users) == [op] for d in dqs)

for name, g in [("after DuplicateDQPass", converted), ("shared dq", shared)]:
    print(name, {op: can_lower(g, op) for op in ("conv2d", "add")})

Q = torch.ops.quantized_decomposed
torch.manual_seed(1)
r = torch.randn(x.shape) * 0.5
def minmax_qparams(t):
    obs = MinMaxObserver(dtype=torch.int8, quant_min=-128, quant_max=127)
    obs(t)
    s, z = obs.calculate_qparams()
    return s.item(), int(z)
s_r, z_r = minmax_qparams(r)
q_x = Q.quantize_per_tensor(x, s_x, z_x, -128, 127, torch.int8)
q_r = Q.quantize_per_tensor(r, s_r, z_r, -128, 127, torch.int8)
float_sum = (Q.dequantize_per_tensor(q_x, s_x, z_x, -128, 127, torch.int8)
             + Q.dequantize_per_tensor(q_r, s_r, z_r, -128, 127, torch.int8))
s_o, z_o = minmax_qparams(float_sum)
reference = Q.quantize_per_tensor(float_sum, s_o, z_o, -128, 127, torch.int8)
m_x = torch.tensor(s_x / s_o, dtype=torch.float32)
m_r = torch.tensor(s_r / s_o, dtype=torch.float32)
integer = torch.clamp(torch.round((q_x.int() - z_x) * m_x + (q_r.int() - z_r) * m_r) + z_o, -128, 127).to(torch.int8)
print((integer.int() - reference.int()).abs().max().item(), (integer == reference).float().mean().item())
