import copy
import torch
from torchao.quantization.pt2e.utils import _fuse_conv_bn_
from pt2e_course import get_model, calibration_batches, export_module, set_bn_statistics, diff_ops, table, max_abs_diff

torch.manual_seed(0)
model = get_model("stem")                    # Conv2d(3, 16, 3, padding=1, bias=False) -> BN(16) -> relu
batches = calibration_batches(64, 16)        # the course's image set, 4 batches of (x, labels)
gm = export_module(model, (batches[0][0],))
set_bn_statistics(gm)                        # weight, bias, running_mean / running_var as a trained BN has them
folded = copy.deepcopy(gm)
_fuse_conv_bn_(folded)                       # what prepare_pt2e does first
table(diff_ops(gm, folded), ["op", "export", "fold_bn", "delta"])

# by hand: scale = gamma / sqrt(var + eps) per output channel; w' = w * scale, b' = beta - mean * scale
p, f = gm.state_dict(), folded.state_dict()
eps = next(n for n in gm.graph.nodes if n.target == torch.ops.aten.batch_norm.default).args[7]
scale = p["bn.weight"] / torch.sqrt(p["bn.running_var"] + eps)
shift = p["bn.bias"] - p["bn.running_mean"] * scale
print(max_abs_diff(f["conv.weight"], p["conv.weight"] * scale[:, None, None, None]))
print(max_abs_diff(f["conv.weight_bias"], shift))
x = batches[1][0]
with torch.no_grad():
    print(max_abs_diff(gm(x), folded(x)))
