# A scale that is no power of two has no exact shift: s_x * s_w / s_out = m * 2**-s with m != 1.
import math
m, e = math.frexp(0.0123 * 0.0041 / 0.0377)
print("mantissa", m, "exponent", e, "-> a shift only if the mantissa is 0.5")
