"""Two correlated binary scores with ties (``test_delong.py``), and the DeLong modules' distributed cases."""
from functools import partial

import numpy as np
import torch

from tests.helpers.distributed import Case
from torchmetrics_lite import BinaryAUROCCI, PairedAUROCTest


def make(n, seed=0, decimals=1):
    g = np.random.default_rng(seed)
    y = g.random(n) < 0.4
    a = np.round(g.normal(size=n) + 1.0 * y, decimals)
    b = np.round(0.6 * a + g.normal(size=n) * 0.8 + 0.3 * y, decimals)  # correlated with a
    return (torch.tensor(a, dtype=torch.float32), torch.tensor(b, dtype=torch.float32),
            torch.tensor(y.astype(np.int64)))


_A, _B, _Y = make(160, seed=3)
BATCHES = [(_A[i:j], _Y[i:j]) for i, j in ((0, 50), (50, 51), (51, 160))]
PAIRED = [(_A[i:j], _B[i:j], _Y[i:j]) for i, j in ((0, 70), (70, 160))]


CASES = [Case("auroc_ci", partial(BinaryAUROCCI, alpha=0.1), BATCHES), Case("paired_test", PairedAUROCTest,
                                                                                  PAIRED)]
