// W. Data for the exercise: post-relu activations where every 1000th value is 10x larger.
const { f32, QMIN, QMAX } = kit;
pt.manual_seed(7);
const a = pt.randn([50000]).data();
for (let i = 0; i < a.length; i += 1000) a[i] = f32(a[i] * 10);
for (let i = 0; i < a.length; i++) if (a[i] < 0) a[i] = 0;
state.act = pt.tensor(a, [50000]);
// The candidates the exercise may choose from (name -> a fresh observer).
const mk = (Cls, qscheme) => () => new Cls({ dtype: 'int8', qscheme, quant_min: QMIN, quant_max: QMAX });
state.candidates = {
  'MinMax affine': mk(pt.MinMaxObserver, 'per_tensor_affine'),
  'MinMax symmetric': mk(pt.MinMaxObserver, 'per_tensor_symmetric'),
  'Histogram affine': mk(pt.HistogramObserver, 'per_tensor_affine'),
  'Histogram symmetric': mk(pt.HistogramObserver, 'per_tensor_symmetric'),
};
show.view('histogram', { values: a, bins: 100, log_y: true, title: ctx.tr({ en: 'exercise data (log count)', 'zh-TW': '練習的資料（次數取 log）' }) });
const sorted = Float32Array.from(a).sort();
const p99 = sorted[Math.floor(0.99 * sorted.length)];
show.text(ctx.tr({ en: `${state.act.numel} values; 99th percentile ${p99.toFixed(2)}, max ${sorted[sorted.length - 1].toFixed(2)}`,
  'zh-TW': `共 ${state.act.numel} 個值；第 99 百分位 ${p99.toFixed(2)}，最大值 ${sorted[sorted.length - 1].toFixed(2)}` }));
check(sorted[0] === 0 && sorted[sorted.length - 1] > 2 * p99, { en: 'one-sided data (min 0) with a long tail: max is more than twice the 99th percentile', 'zh-TW': '單邊資料（最小值 0）且有長尾：最大值超過第 99 百分位的兩倍' });
