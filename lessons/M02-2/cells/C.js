// C. The straight-through estimator. Freeze A's fake quantizer (observer off), then feed it data twice as
// wide as what it calibrated on, so part of it lands outside the grid.
const { fq, QMIN, QMAX } = state;
const f32 = Math.fround;
fq.disable_observer();
const s = fq.scale.item(), z = fq.zero_point.item();
const x = pt.randn([10000]).mul(2);
const y = fq.forward(x);
const xv = x.data(), yv = y.data();
// The mask torch saves for backward: 1 where round(x / s) + zp lands inside [qmin, qmax].
// (The JS API has no cachemask op yet, so it is computed here the way the kernel does: x * f32(1/s).)
const inv = f32(1 / s);
const rne = (v) => { const r = Math.round(v); return r - v === 0.5 && (r & 1) ? r - 1 : r; };
const mask = new Uint8Array(xv.length);
for (let i = 0; i < xv.length; i++) { const q = rne(f32(xv[i] * inv)) + z; mask[i] = q >= QMIN && q <= QMAX ? 1 : 0; }
const kept = mask.reduce((a, m) => a + m, 0);

// What the true derivative of the staircase is: nudge every input by a tiny amount, see whether y moves.
const tiny = pt.tensor(xv.map((v) => v + s / 1000), x.shape);
const yTiny = fq.forward(tiny).data();
let movedTiny = 0;
for (let i = 0; i < xv.length; i++) if (yTiny[i] !== yv[i]) movedTiny++;
// And the slope over one whole step: (y(x + s) - y(x)) / s. Inside the grid it is 1, outside 0 — the STE's gradient.
const step = pt.tensor(xv.map((v) => v + s), x.shape);
const yStep = fq.forward(step).data();
let agree = 0;
for (let i = 0; i < xv.length; i++) { const slope = Math.round((yStep[i] - yv[i]) / s); if (slope === mask[i]) agree++; }

const lo = (QMIN - z) * s, hi = (QMAX - z) * s;
show.table([ctx.tr({ en: 'quantity', 'zh-TW': '量' }), ctx.tr({ en: 'value', 'zh-TW': '數值' })], [
  [ctx.tr({ en: 'representable range', 'zh-TW': '可表示範圍' }), `[${lo.toFixed(3)}, ${hi.toFixed(3)}]`],
  [ctx.tr({ en: 'mask = 1 (gradient passes)', 'zh-TW': 'mask = 1（梯度通過）' }), `${kept} / ${xv.length}`],
  [ctx.tr({ en: 'mask = 0 (clipped, gradient 0)', 'zh-TW': 'mask = 0（被截斷，梯度為 0）' }), `${xv.length - kept} / ${xv.length}`],
  [ctx.tr({ en: 'outputs that move when x moves by s/1000', 'zh-TW': 'x 移動 s/1000 時會變的輸出' }), `${movedTiny} / ${xv.length}`],
  [ctx.tr({ en: 'one-step slope == mask', 'zh-TW': '一格斜率 == mask' }), `${agree} / ${xv.length}`],
]);
show.view('histogram', { values: xv, bins: 80, title: ctx.tr({ en: 'inputs; the band is where the STE lets the gradient through', 'zh-TW': '輸入；陰影帶內 STE 讓梯度通過' }),
  range: { min: lo, max: hi, label: 'mask = 1' }, clipped: (xv.length - kept) / xv.length });

const edgeLo = f32(f32(QMIN - z) * s), edgeHi = f32(f32(QMAX - z) * s);
check(kept < xv.length && kept > 0.5 * xv.length, { en: 'with the observer frozen, the wider data is partly clipped (some mask entries are 0)', 'zh-TW': 'observer 凍結後，較寬的資料有一部分被截斷（mask 有 0）' });
check(yv.every((v, i) => mask[i] === 1 || v === edgeLo || v === edgeHi), { en: 'every element with mask 0 comes out exactly at the edge of the grid', 'zh-TW': 'mask 為 0 的元素，輸出都剛好落在格子的邊界' });
check(movedTiny < 0.01 * xv.length, { en: 'the true derivative is 0 almost everywhere: a tiny nudge moves almost no output', 'zh-TW': '真正的導數幾乎處處為 0：輕推一下，幾乎沒有輸出會動' });
check(agree > 0.99 * xv.length, { en: 'the slope over one step matches the mask (1 inside, 0 clipped) for > 99 % of elements', 'zh-TW': '一格距離的斜率與 mask 相符（內部 1、截斷 0）的元素超過 99 %' });
check(fq.scale.item() === s, { en: 'disable_observer(): the scale stayed fixed while new data went through', 'zh-TW': 'disable_observer()：新資料通過時 scale 保持不變' });
