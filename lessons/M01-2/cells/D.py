from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

# continues C
prepared2 = prepare_pt2e(gm2, q2)
with torch.no_grad():
    for _ in range(8):
        prepared2(torch.randn(4, 3, 16, 16))
for n in prepared2.graph.nodes:
    if n.op == "call_module" and n.args[0].name in ("relu", "relu_1"):
        print(n.name, n.args[0].name, getattr(prepared2, n.target).calculate_qparams())
cat = next(n for n in prepared2.graph.nodes if n.name == "cat")
print([u.name for u in cat.users])              # max_pool2d: no observer in between
