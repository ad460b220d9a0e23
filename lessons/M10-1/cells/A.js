// A. With power-of-two scales the multiplier s_x·s_w / s_out of a conv is 2^-s: requantization is a shift.
pt.manual_seed(0);
state.vpuConfig = () => pt.get_vpu_quantization_config();
// Calibration inputs: the image set for the 3-channel image models, randn of the input shape for residual and mlp.
state.calibration = pt.calibration_batches({ n: 64, batch_size: 16 });
state.inputs = (name, count) => {
  const shape = pt.get_model(name).input_shape;
  return shape.join() === '3,16,16' ? state.calibration.slice(0, count).map((b) => b.x) : Array.from({ length: count }, () => pt.randn([16, ...shape]));
};
state.held = pt.calibration_batches({ n: 80, batch_size: 16 }).at(-1).x;   // samples 64..79: never calibrated on
state.convert = (name, config = state.vpuConfig()) => {
  const prepared = pt.prepare_pt2e(kit.export_zoo(name), new pt.VPUQuantizer().set_global(config));
  kit.calibrate(prepared, state.inputs(name, 4));
  return pt.convert_pt2e(prepared);
};
const converted = state.convert('tiny');
const sim = pt.simulate_vpu(converted);
state.tiny = { converted, sim };
// The first conv's output row 2 of channel 0, image 0 (elements 32..47), pictured element by element; the table takes
// element 37 apart and the view opens on it.
const pictures = pt.integer_picture(sim, 'conv2d', state.held, { indices: Array.from({ length: 16 }, (_, i) => 32 + i) });
const pic = pictures[37 - 32];
// quantize's rounding, as torch.round: half to even. The shift must round the same way.
const ties = pt.quantize_per_tensor(pt.tensor([0.5, 1.5, 2.5, -0.5, -2.5]), 1, 0, -128, 127, 'int8');
const halfEven = (v, s) => { const q = Math.floor(v / 2 ** s), r = v - q * 2 ** s, h = 2 ** (s - 1); return s === 0 ? v : q + (r > h || (r === h && q % 2 !== 0) ? 1 : 0); };
show.table([t('step'), t('value')], [
  [t('acc'), pic.accumulator], [t('bias'), pic.bias], [t('acc_bias'), pic.accumulator_with_bias],
  [t('multiplier'), `${pic.multiplier} = 2^${Math.log2(pic.multiplier)}`], [t('requant_kind'), pic.requantization],
  [t('shifted'), `${pic.accumulator_with_bias} >> ${pic.shift} = ${pic.output}`],
  [t('ties_row'), Array.from(ties.data()).join(', ')],
]);
kit.draw_integer_picture(t('picture_title'), pictures, { element: 37 - 32 });
check(pictures.every((p) => p.requantization === 'shift_even' && p.multiplier === 2 ** -p.shift), t('is_shift', { m: pic.multiplier, s: pic.shift }));
const byHand = (p) => Math.min(p.qmax, Math.max(p.qmin, p.output_zero_point + halfEven(p.accumulator_with_bias, p.shift)));
check(pictures.every((p) => p.output === byHand(p)), t('shift_is_round', { n: pictures.length, out: pic.output }));
check(Array.from(ties.data()).join() === '0,2,2,0,-2', t('ties_to_even'));
