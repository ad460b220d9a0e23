import dataclasses

import torch
from torch.export import export
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.quantization.pt2e.quantizer import Quantizer
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config
from pt2e_course import get_model   # the course's zoo (lessons/pt2e_course.py)

xnn = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))

class NoImplicitSharing(Quantizer):
    def __init__(self, how_many):
        super().__init__()
        self.how_many = how_many
    def annotate(self, model):
        xnn.annotate(model)
        convs = [n for n in model.graph.nodes
                 if n.target == torch.ops.aten.conv2d.default and n.args[0].name == "x"]
        for c in convs[: self.how_many]:
            # a new label with XNNPACK's fields and the flag off (as the JS cell's gm.annotate does)
            c.meta["quantization_annotation"] = dataclasses.replace(
                c.meta["quantization_annotation"], allow_implicit_sharing=False)
        return model
    def validate(self, model):
        pass

torch.manual_seed(0)
for k in (0, 1, 2):     # get_model: the course's zoo (CatPoolNet)
    gm = export(get_model("cat_pool").eval(), (torch.randn(2, 3, 16, 16),)).module()
    p = prepare_pt2e(gm, NoImplicitSharing(k))
    x = next(n for n in p.graph.nodes if n.name == "x")
    print(k, [u.name for u in x.users])       # observer nodes hanging off x
