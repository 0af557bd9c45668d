"""Multiclass logits and multilabel scores with ties (``test_curves_points.py``), and the distributed cases of
the per-class curves and operating points."""
from functools import partial

import torch

import torchmetrics_lite as T
from tests.helpers.distributed import Case

C, L = 4, 3


def make(n, seed=0, decimals=1):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, C, (n,), generator=g)
    logits = (torch.randn(n, C, generator=g) * 2 + torch.nn.functional.one_hot(y, C)).round(decimals=decimals)
    labels = (torch.rand(n, L, generator=g) < torch.tensor([0.2, 0.5, 0.7])).long()
    scores = (torch.rand(n, L, generator=g) + 0.3 * labels).round(decimals=decimals)
    return logits, torch.softmax(logits.double(), 1), y, scores, labels


LOGITS, PROBS, Y, _S, _LB = make(150, seed=5)
MC = [(LOGITS[a:b], Y[a:b]) for a, b in ((0, 40), (40, 41), (41, 100), (100, 150))]
ML = [(_S[a:b], _LB[a:b]) for a, b in ((0, 70), (70, 150))]
BIN = [(PROBS[a:b, 2].float(), (Y[a:b] == 2).long()) for a, b in ((0, 60), (60, 150))]


CASES = [Case("mc_pr", partial(T.MulticlassPrecisionRecallCurve, C, from_logits=True), MC),
               Case("mc_recall_at_precision", partial(T.MulticlassRecallAtFixedPrecision, C, 0.7, from_logits=True),
                    MC)]
