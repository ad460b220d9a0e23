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
show.view('histogram', { values: a, bins: 100, log_y: true, title: t('exercise_data_log_count') });
const sorted = Float32Array.from(a).sort();
const p99 = sorted[Math.floor(0.99 * sorted.length)];
show.text(t('data_summary', { n: state.act.numel, p99: p99.toFixed(2), max: sorted[sorted.length - 1].toFixed(2) }));
check(sorted[0] === 0 && sorted[sorted.length - 1] > 2 * p99, t('one_sided_data_min'));
