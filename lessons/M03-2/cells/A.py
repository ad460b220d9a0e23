import torch
from torch.export import export
from torchao.quantization.pt2e.utils import _fuse_conv_bn_
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config
from pt2e_course import get_model, input_shape   # the course's zoo (lessons/pt2e_course.py)

torch.manual_seed(0)
# get_model: the course's zoo (TinyConvNet)
gm = export(get_model("tiny").eval(), (torch.randn(2, 3, 16, 16),)).module()
_fuse_conv_bn_(gm)                                  # what prepare_pt2e does before calling the quantizer
XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True)).annotate(gm)
for n in gm.graph.nodes:
    a = n.meta.get("quantization_annotation")
    if a is not None:
        ins = {k.name: type(v).__name__ for k, v in a.input_qspec_map.items()}
        print(f"{n.name:<22} {ins}  out={type(a.output_qspec).__name__}")
