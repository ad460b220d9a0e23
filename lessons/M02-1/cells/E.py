from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

for label, kw in [("PTQ", {}), ("QAT (is_qat)", {"is_qat": True}), ("dynamic (is_dynamic)", {"is_dynamic": True})]:
    config = get_symmetric_quantization_config(is_per_channel=True, **kw)
    obj = config.input_activation.observer_or_fake_quant_ctr()     # build what prepare_pt2e would insert
    inner = getattr(obj, "activation_post_process", None)          # fake-quant classes wrap an observer
    changed = not torch.equal(obj(x), x)
    print(f"{label:22} {type(obj).__name__:32} {type(inner).__name__ if inner is not None else '-':30} {changed}")
