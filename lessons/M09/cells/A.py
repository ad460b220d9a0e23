import copy

import torch
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
    X86InductorQuantizer, get_default_x86_inductor_quantization_config)
from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config
from pt2e_course import export_zoo, calibrate, calibration_batches, held_out_images, qdq_nodes, short

torch.manual_seed(0)
gm = export_zoo("cat_pool")
calibration, held = calibration_batches(64, 32), held_out_images(64, 32)
quantizers = {
    "xnnpack": XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True)),
    "x86": X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config()),
    "x86 reduce_range": X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config(reduce_range=True)),
}
prepared, converted = {}, {}
for name, q in quantizers.items():
    prepared[name] = calibrate(prepare_pt2e(copy.deepcopy(gm), q), calibration)   # prepare changes its input
    converted[name] = convert_pt2e(copy.deepcopy(prepared[name]))                 # so does convert; B reads prepared
    acts = {(n.args[3], n.args[4]) for n in qdq_nodes(converted[name]) if short(n.target) == "quantize_per_tensor"}
    print(name, sorted(acts))
