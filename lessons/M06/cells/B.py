import copy
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
from pt2e_course import get_xnnpack_quantizer, calibrate

calibration = [x for x, _ in torch.utils.data.DataLoader(train_set, batch_size=32)][:8]


def four_bits(is_qat):
    return get_xnnpack_quantizer(is_qat=is_qat, act_qmin=-8, act_qmax=7, weight_qmin=-7, weight_qmax=7)


def ptq(quantizer):
    return evaluate_accuracy(convert_pt2e(calibrate(prepare_pt2e(copy.deepcopy(gm), quantizer), calibration)), test_set)


ptq_int8, ptq_4bit = ptq(get_xnnpack_quantizer()), ptq(four_bits(False))
print("float", float_accuracy, "int8 PTQ", ptq_int8, "4-bit PTQ", ptq_4bit)
