from torchao.testing.pt2e._xnnpack_quantizer import get_symmetric_quantization_config

for label, kw in [("PTQ", {}), ("QAT (is_qat)", {"is_qat": True}), ("dynamic (is_dynamic)", {"is_dynamic": True})]:
    spec = get_symmetric_quantization_config(is_per_channel=True, **kw).input_activation
    # build it the way prepare_pt2e does: the spec's dtype / range / qscheme on top of the ctr's own kwargs
    obj = spec.observer_or_fake_quant_ctr.with_args(
        dtype=spec.dtype, quant_min=spec.quant_min, quant_max=spec.quant_max, qscheme=spec.qscheme,
        **({"is_dynamic": True} if spec.is_dynamic else {}))()
    inner = getattr(obj, "activation_post_process", None)          # fake-quant classes wrap an observer
    changed = not torch.equal(obj(x), x)
    print(f"{label:22} {type(obj).__name__:32} {type(inner).__name__ if inner is not None else '-':30} {changed}")
