# continues A: which edge each observer sits on, and its qparams after calibration
for n in prepared.graph.nodes:
    if n.op == "call_module":
        obs = getattr(prepared, n.target)
        scale, zp = obs.calculate_qparams()
        print(n.name, type(obs).__name__, n.args[0].name, [u.name for u in n.users],
              scale.flatten()[0].item(), zp.flatten()[0].item())

conv = next(n for n in prepared.graph.nodes if n.name == "conv2d")
print([u.name for u in conv.users])          # just relu
