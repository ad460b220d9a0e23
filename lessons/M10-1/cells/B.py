from pt2e_course import VPUQuantizer

torch.manual_seed(0)
gm = export(get_model("tiny").eval(), (torch.randn(2, *input_shape("tiny")),)).module()
prepared = prepare_pt2e(gm, VPUQuantizer())
calibrate(prepared, calibration_batches(64, 16))
converted = convert_pt2e(prepared)
# the fake-quant graph: dq -> op -> q in float, every product and partial sum exact (integers times 2**k)
print(converted(torch.randn(4, *input_shape("tiny"))))
