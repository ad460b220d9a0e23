# VPUQuantizer.validate (lessons/pt2e_course.py) raises NotImplementedError naming the first node it cannot run
for name in ("conv_relu", "stem", "residual", "cat_pool", "tiny", "linear_sigmoid", "mlp", "conv_relu_add"):
    gm = export(get_model(name).eval(), (torch.randn(2, *input_shape(name)),)).module()
    try:
        prepare_pt2e(gm, VPUQuantizer())
        print(name, "runs on the VPU")
    except NotImplementedError as e:
        print(name, e)
