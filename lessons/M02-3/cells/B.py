# continues A2: the two dequantize nodes of x in the converted graph, side by side
from torchao.quantization.pt2e.quantizer import QuantizationAnnotation, Quantizer

q_x = next(n for n in converted.graph.nodes
           if n.target == torch.ops.quantized_decomposed.quantize_per_tensor.default and n.args[0].name == "x")
for dq in q_x.users:
    print(dq.name, dq.target, dq.args[1:], [u.name for u in dq.users])

act = get_symmetric_quantization_config(is_per_channel=True).input_activation

class Labels(Quantizer):                 # x's output, and optionally conv2d's output; add gets no label
    def __init__(self, also_conv):
        super().__init__()
        self.names = {"x", "conv2d"} if also_conv else {"x"}

    def annotate(self, model):
        for n in model.graph.nodes:
            if n.name in self.names:
                n.meta["quantization_annotation"] = QuantizationAnnotation(output_qspec=act, _annotated=True)
        return model

    def validate(self, model):
        pass

for also_conv in (False, True):
    p = prepare_pt2e(torch.export.export(model, (x,)).module(), Labels(also_conv))
    p(x)
    c = convert_pt2e(p)
    q = next(n for n in c.graph.nodes
             if n.target == torch.ops.quantized_decomposed.quantize_per_tensor.default and n.args[0].name == "x")
    print(also_conv, [(d.name, [u.name for u in d.users]) for d in q.users])
    if not also_conv:
        shared = c
