#!/usr/bin/python3
"""gen_data.py — golden data for shuffling: torch.randperm on CPU with a generator, and the sample order
of torch.utils.data.DataLoader(shuffle=True, generator=g) over several epochs.

Run with Debian's torch 1.13 (the oracle):   /usr/bin/python3 tests/golden/gen_data.py
Writes tests/golden/data/shuffle.bin + shuffle.json (gen_models.py's Writer: float32 tensors, indices are
exact below 2^24). tests/engine/core/test_randperm.cpp and tests/engine/train/test_data.cpp compare
them with pt::randperm and pt::DataLoader.
  randperm.seed<s>.n<n>   torch.randperm(n, generator=torch.Generator().manual_seed(s))
  sequence                on one generator seeded 7: randperm(10), randperm(5), randn(20), randperm(6)
                          (the generator's state after each draw carries into the next)
  loader.n<n>.b<b>.epoch<e>  the indices DataLoader(TensorDataset(arange(n)), batch_size=b, shuffle=True,
                          generator=torch.Generator().manual_seed(3)) yields in epoch e, batches concatenated
"""
import os
import sys

import torch
from torch.utils.data import DataLoader, TensorDataset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_models import Writer  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def main():
    w = Writer(OUT)
    for seed in [0, 1, 42]:
        for n in [1, 2, 3, 10, 100, 1000]:
            w.add(f"randperm.seed{seed}.n{n}", torch.randperm(n, generator=torch.Generator().manual_seed(seed)))
    g = torch.Generator().manual_seed(7)
    parts = [torch.randperm(10, generator=g), torch.randperm(5, generator=g),
             torch.randn(20, generator=g), torch.randperm(6, generator=g)]
    w.add("sequence", torch.cat([p.to(torch.float32) for p in parts]))
    for n, b in [(10, 4), (12, 4), (7, 7)]:
        loader = DataLoader(TensorDataset(torch.arange(n)), batch_size=b, shuffle=True,
                            generator=torch.Generator().manual_seed(3))
        for epoch in range(3):
            w.add(f"loader.n{n}.b{b}.epoch{epoch}", torch.cat([batch[0] for batch in loader]))
    w.save("shuffle")


if __name__ == "__main__":
    main()
