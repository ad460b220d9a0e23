from torchao.quantization.utils import compute_error

scores = {}
for name, make in candidates.items():
    obs = make()
    obs(act)
    scale, zp = obs.calculate_qparams()
    scores[name] = compute_error(act, qdq(act, scale.item(), int(zp))).item()
choice = max(scores, key=scores.get)
print(scores, choice)
