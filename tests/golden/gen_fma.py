"""gen_fma.py — golden data for core/fma.h's fma_f32: float32 a·b + c rounded once, computed exactly.

Python's fractions.Fraction holds a·b + c exactly; round_f32 rounds it to the nearest float32 (ties to even),
so the reference depends on no libm, FPU or torch build (Emscripten's fmaf rounds twice; see fma.h).
Writes tests/golden/fma/fma_f32.bin: records of four little-endian float32 (a, b, c, fused), in three parts:
triples built to make a double sum land exactly on a float tie (the case one double rounding gets wrong),
triples with special values and results below float's normal range, and drawn triples of every scale.

    python3 tests/golden/gen_fma.py
"""
import math
import random
import struct
from fractions import Fraction
from pathlib import Path

OUT = Path(__file__).resolve().parent / "fma" / "fma_f32.bin"


def f32(x):
    """A Python float rounded to float32 (inputs only: drawn values; ±inf past float's range)."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def from_bits(w):
    return struct.unpack("<f", struct.pack("<I", w))[0]


def round_f32(q):
    """Fraction -> the float32 value nearest q, ties to even; ±inf past the overflow threshold."""
    if q == 0:
        return 0.0
    sign = -1.0 if q < 0 else 1.0
    q = abs(q)
    e = math.floor(math.log2(q.numerator) - math.log2(q.denominator))
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    ulp = Fraction(2) ** (max(e, -126) - 23)
    n, rem = divmod(q, ulp)
    n = int(n)
    if rem * 2 > ulp or (rem * 2 == ulp and n % 2 == 1):
        n += 1
    v = n * ulp
    if v >= Fraction(2) ** 128:
        return sign * math.inf
    return sign * float(v)


def fused(a, b, c):
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return f32(a * b + c)  # IEEE's inf / NaN rules; a float32 product cannot overflow a double
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:  # an exact zero's sign: as IEEE's sum of the rounded-to-double terms (both exact here)
        return a * b + c
    return round_f32(exact)


def main():
    rng = random.Random(20261204)
    rows = []
    # 1. Ties: c a float with exponent E; a·b = k·h·(1 − 2^-46) with h half of c's ulp, k odd, so the double
    #    sum rounds onto the tie c + k·h while the exact sum lies just below it (signs and scales vary).
    for _ in range(2000):
        E = rng.randint(-100, 100)
        c = f32(rng.uniform(1, 2)) * 2.0 ** E
        k = rng.choice([1, 3, 5])
        h = 2.0 ** (E - 24)
        a, b = f32(1 + 2.0 ** -23) * k, f32(h * (1 - 2.0 ** -23))
        s = rng.choice([1, -1])
        if rng.random() < 0.5:
            a, b = b, a
        rows.append((s * a, b, s * c))
    # 2. Special values and results near and below float's normal range.
    specials = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, from_bits(1), from_bits(0x007fffff),
                from_bits(0x00800000), from_bits(0x7f7fffff), 2.0 ** -100, 2.0 ** -30, 3.0]
    for a in specials:
        for b in specials:
            for c in specials:
                rows.append((a, b, c))
    for _ in range(2000):
        rows.append((f32(rng.uniform(-1, 1)) * 2.0 ** rng.randint(-90, -40),
                     f32(rng.uniform(-1, 1)) * 2.0 ** rng.randint(-90, -40),
                     f32(rng.uniform(-1, 1)) * 2.0 ** rng.randint(-149, -110)))
    # 3. Drawn: the unit range, every scale, any bit pattern, short significands (exact sums and ties).
    def draw():
        kind = rng.randrange(4)
        if kind == 0:
            return f32(rng.uniform(-1, 1))
        if kind == 1:
            return f32(math.ldexp(rng.uniform(-1, 1), rng.randint(-150, 130)))
        if kind == 2:
            return from_bits(rng.getrandbits(32))
        return rng.randint(-64, 64) / 8.0
    for _ in range(16000):
        rows.append((draw(), draw(), draw()))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("wb") as f:
        for a, b, c in rows:
            a, b, c = f32(a), f32(b), f32(c)
            f.write(struct.pack("<4f", a, b, c, fused(a, b, c)))
    print(f"{OUT}: {len(rows)} records")


if __name__ == "__main__":
    main()
