import copy

import torch
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config
from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
    XNNPACKQuantizer as ETXNNPACKQuantizer, get_symmetric_quantization_config as et_config)
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.exir import to_edge_transform_and_lower
from executorch.devtools.backend_debug import get_delegation_info
from pt2e_course import export_zoo, calibrate, calibration_batches, held_out_images, delegation_table

torch.manual_seed(0)
gm = export_zoo("cat_pool")
calibration, held = calibration_batches(64, 32), held_out_images(64, 32)
quantizers = {
    "torchao": XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True)),
    "executorch": ETXNNPACKQuantizer().set_global(et_config(is_per_channel=True)),
}
converted, lowered = {}, {}
for name, q in quantizers.items():
    converted[name] = convert_pt2e(calibrate(prepare_pt2e(copy.deepcopy(gm), q), calibration))   # prepare changes its input
    lowered[name] = to_edge_transform_and_lower(torch.export.export(converted[name], (held,)), partitioner=[XnnpackPartitioner()])
    delegation_table(get_delegation_info(lowered[name].exported_program().graph_module))
