"""Tied score pairs, one output and three (``test_correlation.py``; the regression distributed test streams
``ONE`` and ``MULTI`` too)."""
import torch

GEN = torch.Generator().manual_seed(3)


def _batches(sizes, d=None, ties=False, gen=GEN):
    shape = (lambda n: (n,)) if d is None else (lambda n: (n, d))
    out = []
    for n in sizes:
        p = torch.randn(shape(n), generator=gen, dtype=torch.float64)
        t = p + torch.randn(shape(n), generator=gen, dtype=torch.float64)
        if ties:
            p, t = p.mul(2).round(), t.mul(2).round()
        out.append((p, t))
    return out


ONE = _batches((9, 0, 14, 1, 6), ties=True)
MULTI = _batches((7, 12, 0, 9), d=3, ties=True)
