import torch
from torchao.quantization.pt2e.quantizer import Quantizer, annotate_output_qspec
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

class ReluOutputQuantizer(Quantizer):
    def annotate(self, model):
        for node in model.graph.nodes:
            if node.op == "call_function" and node.target == torch.ops.aten.relu.default:
                annotate_output_qspec(node, ACT)                    # creates the annotation if needed
                node.meta["quantization_annotation"]._annotated = True
        return model

    def validate(self, model):
        pass

# get_model(name) / input_shape(name): the course's model zoo, the same modules the playground builds
for name in ("conv_relu", "residual", "tiny"):
    gm = export(get_model(name).eval(), (torch.randn(2, *input_shape(name)),)).module()
    prepared = prepare_pt2e(gm, ReluOutputQuantizer())
    relus = sum(n.target == torch.ops.aten.relu.default for n in prepared.graph.nodes)
    observers = sum(n.op == "call_module" and "activation_post_process" in n.target for n in prepared.graph.nodes)
    print(f"{name:<10} relu {relus}  observers {observers}")
    assert observers == relus
