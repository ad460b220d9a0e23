// kit.js — M05's grader for the exercise "keep at most two layers float and reach at least X dB". The bar X comes
// from the page's own measurements (cell C): halfway between the best one layer kept float can do and what the two
// most sensitive layers kept float reach, so a second layer must earn at least half of what the second most
// sensitive one adds. Each message says what is wrong: not a list of layer names, a name the model does not have,
// more than two layers, or the SQNR short of X (and which layers would have cost less to keep quantized).
const tr = (pair) => pair[lang] ?? pair.en;

// X (dB) from cells B and C: state.kept (one layer kept float) and state.curve (most sensitive first).
function bar(state) {
  const best_one = Math.max(...state.kept.map((p) => p.model_sqnr));
  return (best_one + state.curve[2].model_sqnr) / 2;
}

function problem(state, keep) {
  if (!Array.isArray(keep) || !keep.every((l) => typeof l === 'string')) {
    return tr({ en: 'state.keep_float must be a list of layer names, e.g. [\'conv1\']', 'zh-TW': 'state.keep_float 必須是層名稱的清單，例如 [\'conv1\']' });
  }
  const unknown = keep.filter((l) => !state.layers.includes(l));
  if (unknown.length) {
    return tr({ en: `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a layer' : 'are not layers'} of this model (graph nodes are not layers); its layers are ${state.layers.join(', ')}`, 'zh-TW': `${unknown.join('、')} 不是這個模型的層（圖上的 node 不是層）；它的層是 ${state.layers.join('、')}` });
  }
  const distinct = [...new Set(keep)];
  if (distinct.length > 2) {
    return tr({ en: `${distinct.length} layers kept float (${distinct.join(', ')}): at most two may stay float`, 'zh-TW': `保留了 ${distinct.length} 層 fp32（${distinct.join('、')}）：最多保留兩層` });
  }
  return null;
}

// The grade of state.keep_float: { ok, message, sqnr, x }.
function grade(state, keep) {
  const x = bar(state);
  const wrong = problem(state, keep);
  if (wrong) return { ok: false, message: wrong, sqnr: null, x };
  const layers = [...new Set(keep)];
  const sqnr = pt.quantize_and_compare(state.gm, state.quantizer_for(layers), state.data).model_sqnr;
  const named = layers.join(tr({ en: ', ', 'zh-TW': '、' })) || tr({ en: 'no layer', 'zh-TW': '沒有任何層' });
  if (sqnr >= x) {
    return { ok: true, sqnr, x, message: tr({ en: `keeping ${named} float reaches ${sqnr.toFixed(2)} dB ≥ ${x.toFixed(2)} dB`, 'zh-TW': `保留 ${named} 為 fp32 達到 ${sqnr.toFixed(2)} dB ≥ ${x.toFixed(2)} dB` }) };
  }
  const cheap = state.ranking.slice(-2).filter((l) => layers.includes(l));
  const hint = layers.length === 0
    ? tr({ en: ' — choose up to two layers to keep float', 'zh-TW': '——選出最多兩層保留 fp32' })
    : layers.length < 2
    ? tr({ en: ' — one layer is not enough here: keep a second one float', 'zh-TW': '——這裡只保留一層不夠：再保留一層' })
    : cheap.length
      ? tr({ en: ` — ${cheap.join(', ')} cost${cheap.length === 1 ? 's' : ''} little when quantized (the bottom of cell B's ranking): keep the layers whose quantization alone costs the most`, 'zh-TW': `——${cheap.join('、')} 量化後代價很小（cell B 排名的最後）：要保留的是單獨量化時代價最大的層` })
      : tr({ en: ' — look at cell B\'s ranking: the layers whose quantization alone costs the most', 'zh-TW': '——看 cell B 的排名：單獨量化時代價最大的層' });
  return { ok: false, sqnr, x, message: tr({ en: `keeping ${named} float reaches ${sqnr.toFixed(2)} dB, short of ${x.toFixed(2)} dB`, 'zh-TW': `保留 ${named} 為 fp32 只達到 ${sqnr.toFixed(2)} dB，不到 ${x.toFixed(2)} dB` }) + hint };
}

return { bar, grade };
