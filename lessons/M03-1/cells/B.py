from torchao.quantization.pt2e.quantize_pt2e import prepare_qat_pt2e

class Probe(Quantizer):
    def __init__(self, log):
        super().__init__()
        self.log = log
    def _bn(self, model):
        return sum(n.target == torch.ops.aten.batch_norm.default for n in model.graph.nodes)
    def transform_for_annotation(self, model):
        self.log.append(("transform_for_annotation", self._bn(model)))
        return model
    def annotate(self, model):
        self.log.append(("annotate", self._bn(model)))
        return model
    def validate(self, model):
        self.log.append(("validate", self._bn(model)))

for prepare in (prepare_pt2e, prepare_qat_pt2e):
    log = []
    m = get_model("stem")
    m = m.eval() if prepare is prepare_pt2e else m.train()
    gm = export(m, (torch.randn(2, 3, 16, 16),)).module()
    prepare(gm, Probe(log))
    print(prepare.__name__, log)
