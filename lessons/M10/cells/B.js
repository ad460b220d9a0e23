// B. convert_pt2e: every rule on a dequantize node of the converted residual block and tiny. A dequantize's args are
// (codes, scale, zero_point, quant_min, quant_max, dtype); its range tells int8, int16 (Q3.12) and int32 (bias) apart.
const codeType = (qmax) => ({ 127: 'int8', 32767: 'int16', 2147483647: 'int32' })[qmax] ?? String(qmax);
const rows = [];
let powers = 0, total = 0, biasOk = 0, biases = 0;
for (const name of ['residual', 'tiny']) {
  const converted = state.vpuConverted(name);
  state[`converted_${name}`] = converted;
  const byName = Object.fromEntries(converted.nodes.map((n) => [n.name, n]));
  for (const n of converted.nodes.filter((m) => kit.is_dequantize(m))) {
    const [, scale, zero_point, quant_min, quant_max] = n.args;
    const type = codeType(quant_max), user = byName[n.users[0]];
    total += 1;
    powers += Number.isInteger(Math.log2(scale)) && zero_point === 0;
    let rule = t('role_act');
    if (type === 'int32') {
      // The bias feeds op(x, w, b): its scale must be s_x · s_w, the scales of the op's other two dequantized inputs.
      const [sx, sw] = user.args.slice(0, 2).map((a) => byName[a.node].args[1]);
      biases += 1;
      biasOk += scale === sx * sw;
      rule = t('role_bias', { sx, sw });
    } else if (type === 'int16') rule = t('role_output');
    else if (quant_min === -127) rule = t('role_weight');
    else if (kit.is_op(user, 'add')) rule = t('role_add_input');
    rows.push([name, n.name, type, scale, `2^${Math.log2(scale)}`, zero_point, rule]);
  }
}
show.table([t('model'), 'dequantize', 'dtype', 'scale', 'log2', 'zero_point', t('rule')], rows);
kit.draw(state.converted_residual, t('converted_residual'), { stage: 'convert_pt2e' });
check(powers === total, t('all_powers', { powers, total }));
check(biases > 0 && biasOk === biases, t('bias_derived', { ok: biasOk, n: biases }));
const out = state.converted_tiny.nodes.find((n) => kit.is_dequantize(n) && n.users.includes('output'));
check(out !== undefined && codeType(out.args[4]) === 'int16' && out.args[1] === 2 ** -12,
  t('q312_output', { dtype: codeType(out?.args[4]), scale: out?.args[1] }));
const addIns = state.converted_residual.nodes.find((n) => kit.is_op(n, 'add')).args.map((a) => state.converted_residual.node(a.node).args[1]);
check(addIns[0] === addIns[1], t('add_same_scale', { a: addIns[0], b: addIns[1] }));
