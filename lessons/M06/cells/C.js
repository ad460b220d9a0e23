// C. prepare_qat_pt2e with the same 4-bit config (is_qat: true): the observers become fake quantizers that observe
// and fake-quantize in one op, and conv and batch_norm stay apart, so BN keeps learning during QAT.
state.prepared = pt.prepare_qat_pt2e(state.gm, state.four_bits(true));
kit.table(pt.observer_placement_table(state.prepared));
kit.draw(state.prepared, t('qat_graph'), { show_params: false });
const modules = [];
state.prepared.apply((m) => modules.push(m));
reveal(modules.length);
check(modules.length > 0 && modules.every((m) => m instanceof pt.FakeQuantizeBase), t('all_fake_quant', { n: modules.length }));
const bn = (g) => g.nodes.filter((n) => kit.is_op(n, 'batch_norm')).length;
check(bn(state.prepared) > 0 && bn(state.prepared) === bn(state.gm), t('bn_kept', { n: bn(state.gm) }));
