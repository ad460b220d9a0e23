from torchao.quantization.pt2e.fake_quantize import disable_observer
from torchao.quantization.pt2e import move_exported_model_to_train, move_exported_model_to_eval

move_exported_model_to_train(prepared)
opt = torch.optim.SGD(prepared.parameters(), lr=0.01, momentum=0.9)
loader = torch.utils.data.DataLoader(train_set, batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(1))
for step in range(10, 41, 10):
    train_steps(prepared, loader, opt, 10)
    if step == 20:       # the QAT tutorial's "freezing BN": batch norms keep their running statistics
        for n in prepared.graph.nodes:
            if n.target in (torch.ops.aten.batch_norm.default, torch.ops.aten._native_batch_norm_legit.default):
                n.args = n.args[:5] + (False,) + n.args[6:]
        prepared.recompile()
    if step == 30:
        prepared.apply(disable_observer)              # the scales stay put from here
    copy_ = copy.deepcopy(prepared)
    move_exported_model_to_eval(copy_)
    print(step, evaluate_accuracy(convert_pt2e(copy_), test_set))
