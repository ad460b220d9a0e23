from torchao.quantization.pt2e.quantizer import SharedQuantizationSpec
from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e

for n in gm.graph.nodes:
    a = n.meta.get("quantization_annotation")
    if a is not None and isinstance(a.output_qspec, SharedQuantizationSpec):
        print(n.name, "shares", a.output_qspec.edge_or_node)

p = prepare_pt2e(export(get_model("tiny").eval(), (torch.randn(2, 3, 16, 16),)).module(),
                 XNNPACKQuantizer().set_global(get_symmetric_quantization_config(is_per_channel=True)))
p(torch.randn(2, 3, 16, 16))
for n in p.graph.nodes:
    if n.op == "call_module":
        print(n.name, n.args[0].name, getattr(p, n.target).calculate_qparams())
