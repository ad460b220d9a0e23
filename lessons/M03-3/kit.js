// kit.js — M03-3's grader, shared by the exercise cell (one model) and the grading cell (six, and rule 3).
// From each graph alone it works out which edges the three rules quantize, runs prepare_pt2e with the learner's
// quantizer, and compares with the edges that got an observer (and its kind). Every message names the first edge
// that differs and the rule it breaks.
const tr = (pair) => pair[lang] ?? pair.en;
const isOp = (n, op) => n?.op === 'call_function' && n.target === `aten.${op}.default`;
const ex = (name) => { const m = pt.get_model(name); return pt.export(m, [pt.randn([2, ...m.input_shape])]); };
const isObs = (n) => n.op === 'call_module' && n.target.startsWith('activation_post_process');
const argNodes = (n) => n.args.flat().filter((a) => a && typeof a === 'object' && 'node' in a).map((a) => a.node);

// The graph annotate() sees, and the expected observed edges under the rules.
const folded = (gm, first) => { const seen = []; pt.prepare_pt2e(gm, new (class extends pt.Quantizer { annotate(g) { for (const n of g.nodes) seen.push(n); } validate() {} })()); return seen; };
function expected(nodes, claimed) {
  const by = Object.fromEntries(nodes.map((n) => [n.name, n]));
  const want = new Map();                           // edge 'a→b' -> [kind, reason]
  const outEdges = (n, why) => n.users.forEach((u) => want.set(`${n.name}→${u}`, ['act', why]));
  for (const c of nodes.filter((n) => isOp(n, 'conv2d') && !claimed.has(n.name))) {
    const [x, w] = argNodes(c);
    want.set(`${x}→${c.name}`, ['act', 'rule 1 (conv input)']);
    want.set(`${w}→${c.name}`, ['weight', 'rule 1 (weight)']);
    const u = c.users.length === 1 ? by[c.users[0]] : null;
    if (isOp(u, 'relu') && !claimed.has(u.name)) outEdges(u, 'rule 2 (relu output after conv)');
    else outEdges(c, 'rule 2 (conv output)');
  }
  return { by, want };
}
function observed(p) {
  const nodes = p.nodes, by = Object.fromEntries(nodes.map((n) => [n.name, n]));
  const types = Object.fromEntries(pt.observer_placement_table(p).rows.map((r) => [r[0], r[1]]));
  const src = (a) => { let o = null; while (isObs(by[a])) { o ??= a; a = argNodes(by[a])[0]; } return [a, o]; };
  const got = new Map();
  for (const c of nodes) {
    if (isObs(c)) continue;
    for (const a of argNodes(c)) { const [p0, o] = src(a); if (o) got.set(`${p0}→${c.name}`, types[o]); }
  }
  return got;
}
function explain(edge, want, got, by) {
  const [a, b] = edge.split('→');
  if (!want.has(edge)) {
    const conv = isOp(by[a], 'relu') ? by[argNodes(by[a])[0]] : null;
    if (isOp(conv, 'conv2d') && conv.users.length > 1) return tr({ en: `${a}'s output has an observer, but ${conv.name} has other users besides ${a} (${conv.users.join(', ')}): conv + relu fuse only when the relu is the conv's only user, so label the conv's output (rule 2)`, 'zh-TW': `${a} 的輸出有 observer，但 ${conv.name} 除了 ${a} 還有別的使用者（${conv.users.join('、')}）：只有當 relu 是 conv 唯一的使用者時，conv + relu 才會融合，所以要標 conv 的輸出（規則 2）` });
    if (isOp(by[a], 'conv2d') && isOp(by[b], 'relu')) return tr({ en: `observer between ${a} and ${b}: conv + relu is one kernel, so label the relu's output, not the conv's (rule 2)`, 'zh-TW': `${a} 與 ${b} 之間有 observer：conv + relu 是同一個 kernel，應該標 relu 的輸出，不是 conv 的（規則 2）` });
    if (isOp(by[b], 'conv2d') && argNodes(by[b])[2] === a) return tr({ en: `the bias edge ${a} → ${b} has an observer: the bias spec must be null (rule 1)`, 'zh-TW': `bias 邊 ${a} → ${b} 有 observer：bias 的規格必須是 null（規則 1）` });
    return tr({ en: `edge ${a} → ${b} has an observer, but no rule asks for one (did you label a node another quantizer had already claimed — rule 3 — or an op that is not conv/relu?)`, 'zh-TW': `邊 ${a} → ${b} 有 observer，但沒有任何規則要求（是不是標了別的 Quantizer 已經認領的 node——規則 3——或不是 conv／relu 的 op？）` });
  }
  const [kind, why] = want.get(edge);
  if (!got.has(edge)) return tr({ en: `edge ${a} → ${b} has no observer; ${why} asks for one — does your rule match every such node, not just one by name?`, 'zh-TW': `邊 ${a} → ${b} 沒有 observer；${why} 要求要有——你的規則是否比對到每一個這種 node，而不是僅點名一個？` });
  const tbl = got.get(edge), ok = kind === 'weight' ? /PerChannel/.test(tbl): tbl === 'HistogramObserver';
  if (!ok) return tr({ en: `edge ${a} → ${b} is observed by ${tbl}: ${kind === 'weight' ? 'weights take state.weight() (per-channel)' : 'activations take state.act()'}`, 'zh-TW': `邊 ${a} → ${b} 的 observer 是 ${tbl}：${kind === 'weight' ? 'weight 要用 state.weight()（per-channel）' : 'activation 要用 state.act()'}` });
  return null;
}
function grade(label, gm, quantizer, claimed = new Set()) {
  const { by, want } = expected(folded(gm), claimed);
  let got, problem = null;
  try { got = observed(pt.prepare_pt2e(gm, quantizer)); } catch (e) {
    problem = `${e.name}: ${e.message}`;
    // ComposableQuantizer (torchao _record_and_validate_annotations): a label object was replaced.
    if (/has changed annotations/.test(e.message)) problem += tr({ en: ' — your quantizer replaced a label another quantizer had already claimed; skip nodes marked _annotated (rule 3)', 'zh-TW': '——你的 Quantizer 換掉了別的 Quantizer 已經認領的標籤；要跳過設了 _annotated 的 node（規則 3）' });
  }
  if (!problem) for (const e of new Set([...got.keys(), ...want.keys()])) { problem = explain(e, want, got, by); if (problem) break; }
  const message = problem ? `${label}: ${problem}` : tr({ en: `${label}: the observed edges are exactly the ones the rules ask for`, 'zh-TW': `${label}：有 observer 的邊正好就是規則要求的那些` });
  return { ok: problem === null, message, row: [label, want.size, got ? got.size : '—', problem ? '✗' : '✓'] };
}

// Rule 3, the other half: every node the quantizer labels is marked _annotated.
function marked(Q) {
  const own = ex('tiny');
  pt.fold_bn(own);
  new Q().annotate(own);
  const unmarked = own.nodes.filter((n) => { const a = own.annotation(n); return a && (a.output_qspec || a.input_qspec_map.some(([, sp]) => sp)) && !a._annotated; }).map((n) => n.name);
  return { ok: unmarked.length === 0, message: unmarked.length === 0 ? tr({ en: 'every node your quantizer labels is marked _annotated', 'zh-TW': '你的 Quantizer 標過的每個 node 都設了 _annotated' })
    : tr({ en: `labelled but not marked _annotated: ${unmarked.join(', ')} — a later quantizer could overwrite them (rule 3)`, 'zh-TW': `有標籤卻沒設 _annotated：${unmarked.join('、')}——後面的 Quantizer 可能蓋掉它們（規則 3）` }) };
}

// Rule 3: another quantizer claims the first conv of the residual block and its relu ("keep fp32") first.
function claimedFirst(Q) {
  const gm = ex('residual');
  const first = folded(gm).find((n) => isOp(n, 'conv2d'));
  class KeepFirstConv extends pt.Quantizer {
    annotate(g) { for (const n of [first.name, ...first.users]) g.annotate(n, new pt.QuantizationAnnotation({ _annotated: true })); }
    validate() {}
  }
  return grade(tr({ en: 'residual, first conv claimed', 'zh-TW': 'residual，第一個 conv 已被認領' }), gm, new pt.ComposableQuantizer([new KeepFirstConv(), new Q()]), new Set([first.name, ...first.users]));
}

function needClass(Q) {
  if (typeof Q !== 'function') throw new pt.TypeError('state.MyQuantizer is not set: define the class in the exercise cell');
  return Q;
}
return {
  // conv_relu_add (relu(conv(x)) + conv(x)): its conv has a relu user and another, so a rule that fuses when *some*
  // user is a relu, not the *only* one, fails there and nowhere else.
  models: ['conv_relu', 'stem', 'residual', 'cat_pool', 'tiny', 'conv_relu_add'],
  // grade(Q, name): the rules against prepare_pt2e(model, new Q()) on one zoo model -> { ok, message, row }
  grade: (Q, name) => grade(name, ex(name), new (needClass(Q))()),
  claimedFirst: (Q) => claimedFirst(needClass(Q)),
  marked: (Q) => marked(needClass(Q)),
};
