import torch

fq.disable_observer()                       # freeze A's scale / zero_point
x = (torch.randn(10000) * 2).requires_grad_()
y = fq(x)
y.sum().backward()                          # d(sum y)/dx through fake quant: the straight-through estimator
s, z = fq.scale.item(), int(fq.zero_point)
q = torch.round(x.detach() * (1.0 / s)) + z
mask = (q >= QMIN) & (q <= QMAX)
assert torch.equal(x.grad, mask.float())    # gradient 1 inside the grid, 0 where the clamp cut
print(mask.sum().item(), "of", x.numel(), "pass the gradient")
