#!/usr/bin/python3
"""gen_random.py — golden data for the torch-exact generator and nn init (docs/algorithms.md).

Run with Debian's torch 1.13 (the oracle):   /usr/bin/python3 tests/golden/gen_random.py
Writes tests/golden/random/<case>.bin (raw little-endian float32, row-major) and index.json
(one entry per .bin: op, seed, arguments, shape); normal_fma_probe_args.f64 holds that probe's
exact (mean, std) as two little-endian float64. tests/engine/core/test_generator.cpp and
test_nn_init.cpp replay every case with pt::Generator and compare the bits.
"""
import json
import math
import os
from fractions import Fraction

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "random")
SEEDS = [0, 1, 42]
SIZES = [1, 5, 15, 16, 17, 1000, 20000, 100003]
STRESS_SEEDS = 4000
index = []


def dump(name, t, **meta):
    t = t.detach().contiguous().to(torch.float32)
    with open(os.path.join(OUT, name + ".bin"), "wb") as f:
        f.write(t.numpy().astype("<f4").tobytes())
    index.append(dict(name=name, shape=list(t.shape), **meta))


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))

    # randn / rand on 1-D sizes across the n<16, n%16==0 and tail-block paths; fresh seed each.
    for seed in SEEDS:
        for n in SIZES:
            torch.manual_seed(seed)
            dump(f"randn_seed{seed}_n{n}", torch.randn(n), op="randn", seed=seed)
            torch.manual_seed(seed)
            dump(f"rand_seed{seed}_n{n}", torch.rand(n), op="rand", seed=seed)

    # Multi-dim shapes are contiguous: the same stream as randn(numel).
    torch.manual_seed(0)
    dump("randn_seed0_4x8x16x16", torch.randn(4, 8, 16, 16), op="randn", seed=0)
    torch.manual_seed(0)
    dump("randn_seed0_3x5", torch.randn(3, 5), op="randn", seed=0)
    # The MT19937 seed is the low 32 bits of the 64-bit seed.
    big = 2**32 + 7
    torch.manual_seed(big)
    dump(f"randn_seed{big}_n17", torch.randn(17), op="randn", seed=big)

    # The scalar path's cached second Box–Muller value survives across calls: randn(7) leaves
    # one value cached, randn(3) starts with it, randn(20) (block path) neither uses nor clears it.
    torch.manual_seed(0)
    seq = [torch.randn(7), torch.randn(3), torch.randn(20)]
    dump("cache_seq_seed0", torch.cat(seq), op="sequence", seed=0, parts=[7, 3, 20])
    torch.manual_seed(0)
    seq = [torch.randn(1), torch.randn(16), torch.randn(1), torch.randn(5)]
    dump("cache_mixed_seed0", torch.cat(seq), op="sequence", seed=0, parts=[1, 16, 1, 5])

    # uniform_ / normal_ with parameters (from/to and mean/std are rounded to f32 by the kernel).
    for n in [15, 1000]:
        for lo, hi in [(-2.5, 3.0), (-0.1, 0.7)]:
            torch.manual_seed(0)
            dump(f"uniform_{lo}_{hi}_n{n}", torch.empty(n).uniform_(lo, hi), op="uniform_", seed=0,
                 args=[lo, hi])
        for mean, std in [(1.5, 0.25), (0.3, 1.7)]:
            torch.manual_seed(0)
            dump(f"normal_{mean}_{std}_n{n}", torch.empty(n).normal_(mean, std), op="normal_", seed=0,
                 args=[mean, std])

    # The scalar path in bulk: for each seed, randn(15) then normal_(-0.7, 2.3) on 15 more. This
    # path runs glibc's double log/sin/cos in torch (and in our native build) but musl's in wasm.
    parts = []
    for seed in range(STRESS_SEEDS):
        torch.manual_seed(seed)
        parts += [torch.randn(15), torch.empty(15).normal_(-0.7, 2.3)]
    dump("scalar_stress", torch.cat(parts), op="sequence", seeds=STRESS_SEEDS,
         calls=["randn(15)", "normal_(-0.7, 2.3) on 15"])

    # Probe: does torch fuse transformation::normal (val*std + mean) into an fma? Pick mean so that
    # the first scalar-path value lands next to a float32 rounding tie, where the fused and unfused
    # forms round differently. The double v is recomputed here with the same libm torch calls.
    torch.manual_seed(0)
    u1, u2 = torch.rand(2, dtype=torch.float64).tolist()
    v = math.sqrt(-2.0 * math.log(1.0 - u2)) * math.cos(2.0 * math.pi * u1)
    std = 1.7
    for k in range(2**23, 2**23 + 1000):
        mean = (k + 0.5) * 2.0**-33 - v * std
        fused = np.float32(float(Fraction(v) * Fraction(std) + Fraction(mean)))
        if fused != np.float32(v * std + mean):
            break
    torch.manual_seed(0)
    got = torch.empty(1).normal_(mean, std)
    assert np.float32(got.item()) == fused, "torch does not fuse val*std + mean"
    dump("normal_fma_probe", got, op="normal_", seed=0, args=[mean, std])
    np.array([mean, std], "<f8").tofile(os.path.join(OUT, "normal_fma_probe_args.f64"))

    # nn init: modules built in this order after one manual_seed(0).
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(3, 8, 3)
    lin = torch.nn.Linear(16, 10)
    bn = torch.nn.BatchNorm2d(8)
    lin7 = torch.nn.Linear(7, 5)
    for prefix, mod in [("conv_3_8_3", conv), ("linear_16_10", lin), ("bn_8", bn), ("linear_7_5", lin7)]:
        for pname, p in list(mod.named_parameters()) + list(mod.named_buffers()):
            if pname == "num_batches_tracked":
                continue
            dump(f"init_{prefix}_{pname}", p, op="nn_init", seed=0, module=prefix)
    # Seed M01-2's conv, without and with bias, and a grouped conv; fresh seed each.
    for prefix, kw in [("conv_8_8_3_nobias", dict(padding=1, bias=False)),
                       ("conv_8_8_3_bias", dict(padding=1, bias=True)),
                       ("conv_8_8_3_groups4", dict(groups=4))]:
        torch.manual_seed(0)
        mod = torch.nn.Conv2d(8, 8, 3, **kw)
        for pname, p in mod.named_parameters():
            dump(f"init_{prefix}_{pname}", p, op="nn_init", seed=0, module=prefix)

    with open(os.path.join(OUT, "index.json"), "w") as f:
        f.write('{"torch": %s,\n "format": "raw little-endian float32, row-major; see gen_random.py",\n'
                ' "cases": [\n' % json.dumps(torch.__version__))
        f.write(",\n".join("  " + json.dumps(c) for c in index))
        f.write("\n]}\n")
    total = sum(os.path.getsize(os.path.join(OUT, x)) for x in os.listdir(OUT))
    print(f"{len(index)} cases, {total / 1e6:.2f} MB in {OUT}")


if __name__ == "__main__":
    main()
