import torch
from torch.export import export
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(16, 32), torch.nn.Linear(32, 4)
        self.relu = torch.nn.ReLU()
    def forward(self, x):
        return self.fc2(self.relu(self.fc1(x)))        # relu is a module of its own: not part of fc1

torch.manual_seed(0)
cfg = get_symmetric_quantization_config(is_per_channel=True)
for q in (XNNPACKQuantizer().set_global(cfg),
          XNNPACKQuantizer().set_module_name("fc1", cfg),
          XNNPACKQuantizer().set_module_name("fc2", cfg)):
    gm = export(MLP().eval(), (torch.randn(2, 16),)).module()
    print(prepare_pt2e(gm, q).graph)
