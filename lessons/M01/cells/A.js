pt.manual_seed(0);
const x = pt.randn([20000]);
const d = x.data();
let sum = 0, min = Infinity, max = -Infinity;
for (const v of d) { sum += v; min = Math.min(min, v); max = Math.max(max, v); }
const mean = sum / d.length;
show.table(
  [ctx.tr({ en: 'statistic', 'zh-TW': '統計量' }), ctx.tr({ en: 'value', 'zh-TW': '數值' })],
  [['first 3', Array.from(d.slice(0, 3), (v) => v.toFixed(4)).join(', ')],
   ['mean', mean.toFixed(4)], ['min', min.toFixed(4)], ['max', max.toFixed(4)]]);
check(x.dtype === 'float32' && d.length === 20000, { en: 'randn([20000]) gives 20000 float32 values', 'zh-TW': 'randn([20000]) 給出 20000 個 float32' });
check(Math.abs(mean) < 4 / Math.sqrt(d.length), { en: 'the mean is within 4 standard errors of 0', 'zh-TW': '平均值在 0 的 4 個標準誤以內' });
check(min < -3 && max > 3, { en: 'the extremes of 20000 normal samples lie beyond ±3', 'zh-TW': '20000 個常態樣本的極值超出 ±3' });
pt.manual_seed(0);
const again = pt.randn([20000]).data();
check(again.every((v, i) => Object.is(v, d[i])), { en: 'the same seed gives the same bits', 'zh-TW': '同一個 seed 給出同樣的位元' });
