#!/usr/bin/python3
# gen_distributions.py — golden data for engine/core/distributions (StudentT / chi2 / gamma sampling).
#
# Run with Debian's torch 1.13 (the oracle):  /usr/bin/python3 tests/golden/gen_distributions.py
# Writes tests/golden/distributions/<case>.bin (raw little-endian float32 samples) and cases.json.
# Each case seeds the default generator, draws the sample, then draws randn(7) so the test can
# check that the generator (including the cached double normal of the scalar normal path) is left
# in the same state as torch leaves it.
import json
import os

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "distributions")


def student_t(df, n):
    return torch.distributions.StudentT(df).sample((n,))


def chi2(df, n):
    return torch.distributions.Chi2(df).sample((n,))


def standard_gamma(alpha, n):
    return torch._standard_gamma(torch.full((n,), alpha, dtype=torch.float32))


CASES = [
    # (name, kind, parameter, n, seed)
    ("student_t_df3_n30000_s0", "student_t", 3.0, 30000, 0),
    ("student_t_df3_n1000_s1", "student_t", 3.0, 1000, 1),
    ("student_t_df1_n4096_s7", "student_t", 1.0, 4096, 7),
    ("student_t_df0.5_n777_s3", "student_t", 0.5, 777, 3),
    ("student_t_df10_n17_s5", "student_t", 10.0, 17, 5),
    ("student_t_df2.5_n7_s11", "student_t", 2.5, 7, 11),
    ("student_t_df30_n16_s2", "student_t", 30.0, 16, 2),
    ("chi2_df3_n5000_s4", "chi2", 3.0, 5000, 4),
    ("chi2_df0.7_n3000_s9", "chi2", 0.7, 3000, 9),
    ("standard_gamma_a0.25_n3000_s6", "standard_gamma", 0.25, 3000, 6),
    ("standard_gamma_a1_n2000_s8", "standard_gamma", 1.0, 2000, 8),
    ("standard_gamma_a7.5_n2000_s10", "standard_gamma", 7.5, 2000, 10),
]

FNS = {"student_t": student_t, "chi2": chi2, "standard_gamma": standard_gamma}


def main():
    os.makedirs(OUT, exist_ok=True)
    meta = []
    for name, kind, param, n, seed in CASES:
        torch.manual_seed(seed)
        x = FNS[kind](param, n)
        after = torch.randn(7)
        assert x.dtype == torch.float32 and x.shape == (n,)
        with open(os.path.join(OUT, name + ".bin"), "wb") as f:
            f.write(x.numpy().astype("<f4").tobytes())
            f.write(after.numpy().astype("<f4").tobytes())
        meta.append({"name": name, "kind": kind, "param": param, "n": n, "seed": seed})
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump({"torch": torch.__version__, "after": "randn(7)", "cases": meta}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
