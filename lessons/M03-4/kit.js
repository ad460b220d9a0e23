// kit.js — M03-4's grader for the cat exercise, shared by the exercise cell and the grading cell: prepare
// cat_pool with the learner's quantizer, calibrate it on cell C's batches, read every observer around cat.
const tr = (pair) => pair[lang] ?? pair.en;
function grade(Q, state) {
  if (typeof Q !== 'function') throw new pt.TypeError('state.CatQuantizer is not set: define the class in the exercise cell');
  const results = [];
  let rows = null;
  const ok = (cond, message) => results.push({ ok: !!cond, message: tr(message) });
  const p = pt.prepare_pt2e(state.ex('cat_pool'), new Q());
  for (const b of state.batches) p.forward(b);
  const cat = p.nodes.find((n) => state.isOp(n, 'cat'));
  const { into, out } = state.around(p, cat.name);
  const tbl = pt.observer_placement_table(p).rows;
  const obsCount = (name) => {                         // observers between this cat input and the op that produced it
    let k = 0, cur = name;
    while (p.node(cur).op === 'call_module') { k += 1; cur = p.node(cur).args[0].node; }
    return [k, cur];
  };
  const paths = cat.args[0].map((a) => obsCount(a.node));
  rows = [[tr({ en: 'place', 'zh-TW': '位置' }), 'observer', 'qparams'], [
    ...into.map((r) => [`${r[2]} → ${cat.name}`, `${r[0]} (${r[1]})`, r[4]]),
    ...out.map((r) => [`${cat.name} ${tr({ en: 'output', 'zh-TW': '輸出' })}`, `${r[0]} (${r[1]})`, r[4]]),
  ]];
  const scales = [...into, ...out].map((r) => r[4]);
  ok(out.length === 1, out.length ? { en: 'cat\'s output is observed', 'zh-TW': 'cat 的輸出有 observer' }
    : { en: 'cat\'s output has no observer: give the cat label an output_qspec', 'zh-TW': 'cat 的輸出沒有 observer：cat 的標籤要有 output_qspec' });
  ok(out.length === 1 && new Set(scales).size === 1, new Set(scales).size === 1 && out.length === 1
    ? { en: `one scale around cat: ${scales[0]}`, 'zh-TW': `cat 周圍只有一個 scale：${scales[0]}` }
    : { en: `cat sees ${new Set(scales).size} different qparams (${[...new Set(scales)].join(' | ')}): every input but the first, and the output, need a SharedQuantizationSpec pointing at the first input edge`,
        'zh-TW': `cat 周圍有 ${new Set(scales).size} 組不同的 qparams（${[...new Set(scales)].join(' | ')}）：除了第一個輸入，其他輸入與輸出都要用指向第一條輸入邊的 SharedQuantizationSpec` });
  const chained = paths.filter(([k]) => k !== 1);
  ok(chained.length === 0, chained.length === 0
    ? { en: 'each relu reaches cat through exactly one observer (no requantization)', 'zh-TW': '每個 relu 都只經過一個 observer 到達 cat（沒有重新量化）' }
    : { en: `${chained.map(([k, src]) => `${src} → cat passes ${k} observers`).join('; ')}: one per edge is the goal — a spec whose fields differ from the relu output's chains a second observer`,
        'zh-TW': `${chained.map(([k, src]) => `${src} → cat 經過 ${k} 個 observer`).join('；')}：目標是每條邊一個——欄位和 relu 輸出不同的規格會串接出第二個 observer` });
  // cat's output holds exactly the values of its inputs, so an output observer of its own would land on the same
  // numbers here: only the label tells sharing from coincidence.
  const outSpec = p.annotation(cat.name)?.output_qspec ?? null;
  ok(outSpec?.kind === 'SharedQuantizationSpec', outSpec?.kind === 'SharedQuantizationSpec'
    ? { en: `the output label is a SharedQuantizationSpec (of ${JSON.stringify(outSpec.edge_or_node)})`, 'zh-TW': `輸出標籤是 SharedQuantizationSpec（共用 ${JSON.stringify(outSpec.edge_or_node)}）` }
    : { en: `the output label is ${outSpec ? outSpec.kind : 'missing'}: equal numbers today are a coincidence (cat's output holds the same values as its inputs); share the observer instead`,
        'zh-TW': `輸出標籤是 ${outSpec ? outSpec.kind : '（沒有）'}：今天數字相同只是巧合（cat 的輸出就是輸入的那些值）；應該共用 observer` });
  return { results, headers: rows[0], rows: rows[1] };
}
return { grade };
