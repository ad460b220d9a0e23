import torch

class ConvReLU(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))

torch.manual_seed(0)
model = ConvReLU().eval()
example = torch.randn(4, 3, 16, 16)
gm = torch.export.export(model, (example,)).module()
print(gm.graph)
print({k: tuple(v.shape) for k, v in gm.state_dict().items()})
