"""Weighted binary, multiclass and multilabel scores with heavy ties and zero weights (``test_weights.py``), and
their distributed cases."""
from functools import partial

import numpy as np
import torch

from tests.helpers.distributed import Case
from torchmetrics_lite import (
    BinaryAUROC,
    MulticlassROC,
    MultilabelCoverageError,
    MultilabelRankingAveragePrecision,
    MultilabelRankingLoss,
)


def make(n, *, decimals=1, seed=0, zeros=0.1, integer=False):
    g = np.random.default_rng(seed)
    y = g.random(n) < 0.35
    s = np.round(g.normal(size=n) + 0.7 * y, decimals)
    w = g.integers(0, 4, n).astype(float) if integer else g.random(n) * 3
    w[g.random(n) < zeros] = 0.0
    return torch.tensor(s, dtype=torch.float32), torch.tensor(y.astype(np.int64)), torch.tensor(w)


C, L = 4, 3


def make_multi(n, seed=1):
    g = np.random.default_rng(seed)
    y = g.integers(0, C, n)
    logits = np.round(g.normal(size=(n, C)) * 2 + np.eye(C)[y], 1)
    probs = torch.softmax(torch.tensor(logits), 1)
    labels = (g.random((n, L)) < [0.2, 0.5, 0.7]).astype(np.int64)
    scores = np.round(g.normal(size=(n, L)) + labels, 1)
    w = g.random(n) * 2
    w[:10] = 0
    return probs, torch.tensor(y), torch.tensor(scores), torch.tensor(labels), torch.tensor(w)


PREDS, TARGET, WEIGHT = make(160, decimals=1, seed=7)
BATCHES = [(PREDS[a:b], TARGET[a:b], WEIGHT[a:b]) for a, b in ((0, 50), (50, 51), (51, 120), (120, 160))]
_MP, _MY, _MS, _ML, _MW = make_multi(120, seed=8)
MC_BATCHES = [(_MP[a:b], _MY[a:b], _MW[a:b]) for a, b in ((0, 40), (40, 90), (90, 120))]
ML_BATCHES = [(_MS[a:b], _ML[a:b], _MW[a:b]) for a, b in ((0, 70), (70, 120))]


CASES = [Case("weighted_auroc", BinaryAUROC, BATCHES), Case("weighted_mc_roc", partial(MulticlassROC, C), MC_BATCHES),
         # the label-ranking scores with weight= (zero weights included): three sums per rank
         *(Case(f"weighted_{cls.__name__}", partial(cls, L), ML_BATCHES)
           for cls in (MultilabelCoverageError, MultilabelRankingAveragePrecision, MultilabelRankingLoss))]
