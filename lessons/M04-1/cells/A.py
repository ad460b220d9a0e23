import copy
import torch
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e
from torchao.quantization.pt2e.utils import _fuse_conv_bn_
from pt2e_course import (get_model, calibration_batches, export_module, set_bn_statistics, get_xnnpack_quantizer,
                         diff_ops, table, max_abs_diff)

torch.manual_seed(0)
model = get_model("tiny")                    # four conv(bias=False) -> bn, a residual add, linear
batches = calibration_batches(64, 16)
gm = export_module(model, (batches[0][0],))
set_bn_statistics(gm)
folded = copy.deepcopy(gm)
_fuse_conv_bn_(folded)
prepared = prepare_pt2e(copy.deepcopy(gm), get_xnnpack_quantizer(is_per_channel=True))
table(diff_ops(gm, folded), ["op", "export", "fold_bn", "delta"])
table(diff_ops(folded, prepared), ["op", "fold_bn", "prepare_pt2e", "delta"])

x = batches[1][0]
with torch.no_grad():
    y = gm(x)
    print("fold_bn", max_abs_diff(y, folded(x)), "prepare_pt2e", max_abs_diff(y, prepared(x)))
