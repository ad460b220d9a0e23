import torch
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True))
prepared = prepare_pt2e(torch.export.export(model, (example,)).module(), quantizer)
for xb in calibration_batches:              # the same 4 batches as cell B (keep them in a list there)
    prepared(xb)
converted = convert_pt2e(prepared)
print(converted.graph)                      # quantize/dequantize literals = the hand observers' qparams
print(compute_error(converted(xt), y_q))    # against the hand-converted output of cell C: very high
