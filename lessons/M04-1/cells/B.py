# continues A
model_train = copy.deepcopy(model).train()   # "forgot .eval()": every batch_norm has training=True
gm_train = export_module(model_train, (batches[0][0],))
gm_train.load_state_dict(gm.state_dict())   # the same weights and statistics as gm
prepared_train = prepare_pt2e(copy.deepcopy(gm_train), get_xnnpack_quantizer(is_per_channel=True))
print([n.args[5] for n in gm_train.graph.nodes if n.target == torch.ops.aten.batch_norm.default])   # [True] * 4
with torch.no_grad():
    y_train, y_prepared = gm_train(x), prepared_train(x)
    print("train-mode graph vs eval", max_abs_diff(y_train, y))
    print("prepared train-mode graph vs eval", max_abs_diff(y_prepared, y), "vs train", max_abs_diff(y_prepared, y_train))
