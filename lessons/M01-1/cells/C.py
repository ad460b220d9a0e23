# continues A
import copy

train_model = copy.deepcopy(model).train()          # "forgot .eval()": BN in training mode
gm_train = torch.export.export(train_model, (ex,)).module()
print([n.args[5] for n in gm_train.graph.nodes if n.target == torch.ops.aten.batch_norm.default])   # [True]
prepared_train = prepare_pt2e(gm_train, quantizer)
print(prepared_train.graph)     # no batch_norm: folded with its running statistics, conv -> relu as in eval
