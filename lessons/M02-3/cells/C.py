import torch
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.exir import to_edge_transform_and_lower

# Lowering: the partitioner claims each dq -> op -> q group as one int8 XNNPACK kernel.
ep = torch.export.export(converted, (x,))
lowered = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])
print(lowered.exported_program().graph_module.graph)   # conv and add inside the delegate
