import torch
from torch.export import export
from torchao.quantization.pt2e.observer import HistogramObserver
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.quantization.pt2e.quantizer import QuantizationAnnotation, QuantizationSpec, Quantizer
from pt2e_course import get_model   # the course's zoo (lessons/pt2e_course.py)

ACT = QuantizationSpec(dtype=torch.int8, quant_min=-128, quant_max=127, qscheme=torch.per_tensor_affine,
                       observer_or_fake_quant_ctr=HistogramObserver.with_args(eps=2**-12))

class ByName(Quantizer):                      # an experiment: nodes picked by name
    def __init__(self, edge):
        super().__init__()
        self.edge = edge
    def annotate(self, model):
        nodes = {n.name: n for n in model.graph.nodes}
        if self.edge:
            nodes["conv2d"].meta["quantization_annotation"] = QuantizationAnnotation(
                input_qspec_map={nodes["x"]: ACT}, _annotated=True)
        else:
            nodes["x"].meta["quantization_annotation"] = QuantizationAnnotation(output_qspec=ACT, _annotated=True)
        return model
    def validate(self, model):
        pass

torch.manual_seed(0)
for edge in (False, True):      # get_model: the course's zoo (residual block, ch=8)
    gm = export(get_model("residual").eval(), (torch.randn(2, 8, 16, 16),)).module()
    print(prepare_pt2e(gm, ByName(edge)).graph)
