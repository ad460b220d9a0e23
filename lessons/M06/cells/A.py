import torch
from torchao.quantization.pt2e import move_exported_model_to_eval, move_exported_model_to_train
from pt2e_course import get_model, synthetic_images, evaluate_accuracy, train_steps

torch.manual_seed(0)
train_set = synthetic_images("train", 1024)        # 10 classes, noise 0.3
test_set = synthetic_images("test", 256)
gm = torch.export.export(get_model("tiny", num_classes=10), (torch.randn(2, 3, 16, 16),)).module()
move_exported_model_to_train(gm)
loader = torch.utils.data.DataLoader(train_set, batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(0))
losses, accuracy = [], []
for steps, lr in [(100, 0.1), (20, 0.01)]:           # then a tenth of the rate, to settle
    opt = torch.optim.SGD(gm.parameters(), lr=lr, momentum=0.9)
    for _ in range(0, steps, 10):
        losses += train_steps(gm, loader, opt, 10)   # the page's loop.run(10)
        move_exported_model_to_eval(gm)
        accuracy.append(evaluate_accuracy(gm, test_set))
        move_exported_model_to_train(gm)
        print(len(losses), losses[-1], accuracy[-1])
move_exported_model_to_eval(gm)
float_accuracy = accuracy[-1]
