import torch
from torch.export import export
from torchao.quantization.pt2e.quantizer import Quantizer
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

class Look(Quantizer):
    def annotate(self, model):
        for n in model.graph.nodes:
            print(n.name, n.op, n.target, n.args, list(n.users))
        return model
    def validate(self, model):
        pass

torch.manual_seed(0)
# get_model / input_shape: the course's model zoo (residual: conv1 bn1 relu conv2 bn2 + x relu)
gm = export(get_model("residual").eval(), (torch.randn(2, *input_shape("residual")),)).module()
prepare_pt2e(gm, Look())      # prints the graph with BN already folded into the convs
