# continues B
import torch._inductor.config as inductor_config
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.exir import to_edge_transform_and_lower
from executorch.extension.pybindings.portable_lib import _load_for_executorch_from_buffer
from pt2e_course import node_values, sqnr, time_forward

inductor_config.freezing = True                      # X86: Inductor fuses q/dq + conv into onednn qconv (u8 x s8)
lowered = {name: torch.compile(converted[name]) for name in ("x86", "x86 reduce_range")}
et = to_edge_transform_and_lower(torch.export.export(converted["xnnpack"], (held,)), partitioner=[XnnpackPartitioner()])
program = _load_for_executorch_from_buffer(et.to_executorch().buffer)   # the .pte a device would load
lowered["xnnpack"] = lambda x: program.forward((x,))[0]

values = node_values(converted["x86"], held)         # the uint8 codes the first conv reads
conv = next(n for n in converted["x86"].graph.nodes if n.name == "conv2d")
codes = values[conv.args[0].args[0].name]
print(codes.dtype, codes.min().item(), codes.max().item())

with torch.no_grad():
    y_float = gm(held)
    for name, model in lowered.items():
        print(name, sqnr(y_float, model(held)), time_forward(model, held, 5))
    print("float", time_forward(gm, held, 5))
