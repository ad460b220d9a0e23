import copy
import torch
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

class CatPoolNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.b = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.out = torch.nn.Conv2d(16, 8, 3, padding=1)

    def forward(self, x):
        y = torch.cat([torch.relu(self.a(x)), torch.relu(self.b(x))], dim=1)
        y = self.out(torch.nn.functional.max_pool2d(y, 2))
        return y + y.mean(dim=(2, 3), keepdim=True)

# continues A's random stream
gm2 = torch.export.export(CatPoolNet().eval(), (torch.randn(4, 3, 16, 16),)).module()
q2 = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
annotated = q2.annotate(copy.deepcopy(gm2))     # labels only, in place: use a copy
for n in annotated.graph.nodes:
    a = n.meta.get("quantization_annotation")
    if a is not None:
        print(n.name, {k.name: v for k, v in a.input_qspec_map.items()}, a.output_qspec)
print([n.name for n in annotated.graph.nodes
       if n.op == "call_function" and "quantization_annotation" not in n.meta])
cat = next(n for n in gm2.graph.nodes if n.name == "cat")
print("source_fn_stack" in cat.meta)            # False on torch 2.14

# ExecuTorch's quantizer matches cat by node.target
from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
    XNNPACKQuantizer as ETXNNPACKQuantizer, get_symmetric_quantization_config as et_config)
et = ETXNNPACKQuantizer().set_global(et_config(is_per_channel=True)).annotate(copy.deepcopy(gm2))
print([n.name for n in et.graph.nodes if n.name in ("cat", "max_pool2d") and "quantization_annotation" in n.meta])
