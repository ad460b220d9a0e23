// observer_str.js — an observer or fake-quant module printed as torch prints it: nn.Module's repr, `Name(extra)`, with
// each class's extra_repr (torchao v0.18.0 torchao/quantization/pt2e/observer.py and fake_quantize.py) and a
// fake quant's observer as its child. Checked against torch's strings: tests/api/observer_repr.test.js.
//   observerRepr(name, config, buffer, dtype)  // buffer(n) -> Tensor; dtype as torch spells it ('qint8', 'int8')
import { tensorRepr, pythonFloat } from './tensor_str.js';

const pyBool = (b) => (b ? 'True' : 'False');
// An f-string shows a 0-dim tensor as its Python float, any other tensor as its repr.
const value = (t, dtype = t.dtype) => (t.shape.length === 0 ? pythonFloat(t.item()) : tensorRepr(t.data(), t.shape, dtype));
const minMax = (buf) => `min_val=${value(buf('min_val'))}, max_val=${value(buf('max_val'))}`;
const range = (c) => `quant_min=${c.quant_min}, quant_max=${c.quant_max}`;
const qparams = (buf) => `scale=${value(buf('scale'))}, zero_point=${value(buf('zero_point'))}`;
// FakeQuantizeBase registers its two switches as uint8 tensors; FusedMovingAvgObsFakeQuantize as torch.long ones.
const flags = (buf, dtype) => `fake_quant_enabled=${value(buf('fake_quant_enabled'), dtype)}, observer_enabled=${value(buf('observer_enabled'), dtype)}`;

const EXTRA_REPR = {
  MinMaxObserver: minMax,
  MovingAverageMinMaxObserver: minMax,
  PerChannelMinMaxObserver: minMax,
  MovingAveragePerChannelMinMaxObserver: minMax,
  HistogramObserver: minMax,
  PowerOfTwoMinMaxObserver: minMax,  // a MinMaxObserver subclass
  FixedQParamsObserver: () => '',
  PlaceholderObserver: (buf, c, dtype) => `dtype=torch.${dtype}, is_dynamic=${pyBool(c.is_dynamic)}`,
  FakeQuantize: (buf, c, dtype) => `${flags(buf, 'uint8')}, ${range(c)}, dtype=torch.${dtype}, qscheme=torch.${c.qscheme}, ch_axis=${c.ch_axis}, ${qparams(buf)}`,
  FixedQParamsFakeQuantize: (buf, c, dtype) => `${flags(buf, 'uint8')}, ${qparams(buf)}, dtype=torch.${dtype}, ${range(c)}, qscheme=torch.${c.qscheme}`,
  FusedMovingAvgObsFakeQuantize: (buf, c, dtype) => `${flags(buf, 'int64')}, ${qparams(buf)}, dtype=torch.${dtype}, ${range(c)}, qscheme=torch.${c.qscheme}, reduce_range=${pyBool(c.reduce_range)}`,
};

// name: the printed class name (a JS subclass prints its own); config.type: the engine class whose fields it has.
export function observerRepr(name, config, buffer, dtype) {
  const extra = EXTRA_REPR[config.type]?.(buffer, config, dtype) ?? '';
  const child = config.activation_post_process;
  if (!child) return `${name}(${extra})`;
  const childBuffer = (n) => buffer(`activation_post_process.${n}`);
  const childExtra = EXTRA_REPR[child]?.(childBuffer, config, dtype) ?? '';
  return `${name}(\n  ${extra}\n  (activation_post_process): ${child}(${childExtra})\n)`;
}
