import copy
import torch
from torchao.quantization.pt2e import (generate_numeric_debug_handle, prepare_for_propagation_comparison,
                                       extract_results_from_loggers, compare_results)
from torchao.quantization.pt2e import move_exported_model_to_eval
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
from torchao.quantization.utils import compute_error
from pt2e_course import (export_zoo, calibration_batches, train_batches, accuracy, x86_quantizer_keeping_float,
                         fold_bn, calibrate)

torch.manual_seed(0)
batches = calibration_batches(256, 32)             # 4 classes, 8 batches
held_x, held_labels = calibration_batches(288, 32)[-1]   # samples 256..287: held out
gm = train_batches(export_zoo("tiny"), batches, steps=24, lr=0.05, momentum=0.9)
move_exported_model_to_eval(gm)
print("held-out accuracy", accuracy(gm, held_x, held_labels))
calibration = [x for x, _ in batches[:2]]
quantizer_for = x86_quantizer_keeping_float        # quantizer_for(["conv1"]) leaves conv1 in fp32

generate_numeric_debug_handle(gm)                  # node.meta["custom"]["numeric_debug_handle"] on every op
float_model = fold_bn(copy.deepcopy(gm))           # the reference, BN folded as prepare folds it
converted = convert_pt2e(calibrate(prepare_pt2e(copy.deepcopy(gm), quantizer_for([])), calibration))
ref = prepare_for_propagation_comparison(float_model)
act = prepare_for_propagation_comparison(converted)
ref(held_x)
act(held_x)
for handle, s in sorted(compare_results(extract_results_from_loggers(ref), extract_results_from_loggers(act)).items()):
    print(handle, s.ref_node_name, float(s.results[0].sqnr))
model_sqnr = float(compute_error(converted(held_x), float_model(held_x)))   # as compute_sqnr(actual, ref)
