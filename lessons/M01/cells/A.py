import torch

torch.manual_seed(0)
x = torch.randn(20000)
print(x[:3], x.mean(), x.min(), x.max())
