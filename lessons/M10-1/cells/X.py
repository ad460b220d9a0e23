import math
from torchao.quantization.pt2e.observer import MinMaxObserver


class PowerOfTwoObserver(MinMaxObserver):
    def calculate_qparams(self):
        scale, zero_point = super().calculate_qparams()
        # TODO: the smallest 2**k with max(|min_val|, |max_val|) / 2**k <= quant_max and 2**k >= eps
        print(math.log2(scale.item()))
        return scale, zero_point
