// B. Post-training quantization of the trained model: int8, and 4 bits (XNNPACKQuantizer's symmetric config with
// weights in [-7, 7] and activations in [-8, 7]), calibrated on 256 training images.
const calibration = new pt.DataLoader(state.train, { batch_size: 32 }).epoch().slice(0, 8);
state.four_bits = (is_qat) => kit.get_xnnpack_quantizer({ is_qat, act_qmin: -8, act_qmax: 7, weight_qmin: -7, weight_qmax: 7 });
const ptq = (quantizer) => pt.evaluate_accuracy(pt.convert_pt2e(kit.calibrate(pt.prepare_pt2e(state.gm, quantizer), calibration)), state.test);
state.ptq_int8 = ptq(kit.get_xnnpack_quantizer());
state.ptq_4bit = ptq(state.four_bits(false));
show.table([t('model'), t('test_accuracy')], [['float', state.float_accuracy.toFixed(1)],
  ['int8 PTQ', state.ptq_int8.toFixed(1)], ['4-bit PTQ', state.ptq_4bit.toFixed(1)]]);
const lost = state.float_accuracy - state.ptq_4bit;
reveal(lost < 1 ? 'none' : lost <= 10 ? 'some' : 'many');
check(Math.abs(state.ptq_int8 - state.float_accuracy) <= 1, t('int8_keeps'));
check(lost >= 1, t('four_bits_cost', { points: lost.toFixed(1) }));
