# continues A
from torchao.quantization.pt2e import move_exported_model_to_train, move_exported_model_to_eval
from pt2e_course import state_dict, table, max_abs_diff

move_exported_model_to_train(qat)
opt = torch.optim.SGD(qat.parameters(), lr=0.01, momentum=0.9)
history = [state_dict(qat)]
for x, labels in batches:
    loss = torch.nn.functional.cross_entropy(qat(x), labels.long())
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(state_dict(qat))
print([h["bn1.running_mean"][:4].tolist() for h in history])
stats = [f"bn{i}.running_{s}" for i in range(1, 5) for s in ("mean", "var")]
table([(k, max_abs_diff(history[0][k], history[-1][k])) for k in stats], ["buffer", "moved"])
move_exported_model_to_eval(qat)
with torch.no_grad():
    qat(batches[3][0])                        # eval: the running statistics stay
