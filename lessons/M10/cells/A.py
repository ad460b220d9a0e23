import torch
from torch.export import export
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
# VPUQuantizer, PowerOfTwoMinMaxObserver: lessons/pt2e_course.py writes the VPU's rules in torchao's terms
from pt2e_course import VPUQuantizer, get_model, input_shape, calibration_batches, calibrate, observer_placement_table, table

torch.manual_seed(0)
gm = export(get_model("residual").eval(), (torch.randn(2, *input_shape("residual")),)).module()
prepared = prepare_pt2e(gm, VPUQuantizer())
calibrate(prepared, calibration_batches(64, 16))
table(observer_placement_table(prepared))
