import copy
import torch
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, prepare_qat_pt2e
from pt2e_course import get_model, calibration_batches, export_module, set_bn_statistics, get_xnnpack_quantizer, draw_stages

torch.manual_seed(0)
model = get_model("tiny")                    # four conv(bias=False) -> bn
batches = calibration_batches(64, 16)
gm = export_module(model, (batches[0][0],))
set_bn_statistics(gm)
ptq = prepare_pt2e(copy.deepcopy(gm), get_xnnpack_quantizer(is_per_channel=True))
qat = prepare_qat_pt2e(copy.deepcopy(gm), get_xnnpack_quantizer(is_per_channel=True, is_qat=True))
for bn in (n for n in qat.graph.nodes if n.target == torch.ops.aten.batch_norm.default):
    div = bn.args[0]
    conv = div.args[0]
    fq = conv.args[1]
    mul = fq.args[0]
    print(mul.args[0].target, mul.name, fq.name, conv.name, div.name, bn.name, bn.args[5])
draw_stages([(ptq, "prepare_pt2e"), (qat, "prepare_qat_pt2e")])
