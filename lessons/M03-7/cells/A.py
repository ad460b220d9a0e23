import torch
from torch.export import export
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
    X86InductorQuantizer, get_default_x86_inductor_quantization_config)
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config
from pt2e_course import get_model, input_shape   # the course's zoo (lessons/pt2e_course.py)

torch.manual_seed(0)
for name in ("residual", "mlp"):          # get_model / input_shape: the course's zoo
    for q in (XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True)),
              X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config())):
        gm = export(get_model(name).eval(), (torch.randn(2, *input_shape(name)),)).module()
        p = prepare_pt2e(gm, q)
        obs = [n for n in p.graph.nodes if n.op == "call_module"]
        print(name, type(q).__name__, len(obs), [o.args[0].name for o in obs])
