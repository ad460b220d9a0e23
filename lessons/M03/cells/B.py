cfg = quantizer.global_config
rows = []
for field in ("dtype", "quant_min", "quant_max", "qscheme", "ch_axis", "observer_or_fake_quant_ctr"):
    row = [field]
    for spec in (cfg.input_activation, cfg.weight):
        v = getattr(spec, field)
        ctr = getattr(v, "p", None)             # Observer.with_args(...) is a partial wrapper
        row.append(ctr.func.__name__ if ctr is not None else v)
    rows.append(row)
for r in rows:
    print(*r, sep="\t")
assert cfg.weight.qscheme == torch.per_channel_symmetric and cfg.weight.ch_axis == 0
assert cfg.bias is None
