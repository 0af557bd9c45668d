"""Multilabel batches for ``average="samples"`` (``test_samples_average.py``), and its distributed cases."""
from functools import partial

import torch

import torchmetrics_lite as tl
from tests.helpers.distributed import Case


def batches(seed, weighted):
    """Four uneven ``(n, 4)`` multilabel batches (scores, indicators[, weights]) from one seeded generator."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for n in (5, 1, 7, 4):
        b = (torch.rand(n, 4, generator=g), torch.randint(0, 2, (n, 4), generator=g))
        out.append(b + (torch.rand(n, generator=g) * 3,) if weighted else b)
    return out


#: distributed: spawned with the family's other cases by test_classification.py
CASES = [
    Case("samples_f1", partial(tl.MultilabelF1Score, 4, average="samples", zero_division=1.0), batches(21, False)),
    Case("samples_jaccard_weighted", partial(tl.MultilabelJaccardIndex, 4, average="samples", weighted=True),
         batches(22, True)),
]
