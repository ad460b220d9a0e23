import torch
from torch.export import export
from torchao.quantization.pt2e.quantizer import Quantizer
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from pt2e_course import get_model, input_shape   # the course's zoo (lessons/pt2e_course.py)

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

# the specs the rest of the page (and the exercise) label with, and the conv -> relu graph of cell B
from torchao.quantization.pt2e.observer import HistogramObserver, PerChannelMinMaxObserver
from torchao.quantization.pt2e.quantizer import QuantizationSpec

ACT = QuantizationSpec(dtype=torch.int8, quant_min=-128, quant_max=127, qscheme=torch.per_tensor_affine,
                       observer_or_fake_quant_ctr=HistogramObserver.with_args(eps=2**-12))
WEIGHT = QuantizationSpec(dtype=torch.int8, quant_min=-127, quant_max=127, qscheme=torch.per_channel_symmetric, ch_axis=0,
                          observer_or_fake_quant_ctr=PerChannelMinMaxObserver.with_args(eps=2**-12))
conv_relu_gm = export(get_model("conv_relu").eval(), (torch.randn(2, *input_shape("conv_relu")),)).module()
