"""Seeded multiclass logits and multilabel scores with ties, shared by the EER, LogAUC, multilabel ranking and
operating-point tests (``test_eer.py``, ``test_logauc.py``, ``test_multilabel_ranking.py``,
``test_operating_points.py``), the batches their harness tests stream, and their distributed cases."""
from functools import partial

import torch

import torchmetrics_lite as T
from tests.helpers.distributed import Case

C, L = 4, 5


def make(n, seed=0, decimals=1):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, C, (n,), generator=g)
    logits = (torch.randn(n, C, generator=g) * 2 + torch.nn.functional.one_hot(y, C)).round(decimals=decimals)
    labels = (torch.rand(n, L, generator=g) < torch.linspace(0.1, 0.7, L)).long()
    scores = (torch.randn(n, L, generator=g) + labels).round(decimals=decimals)
    return logits, torch.softmax(logits.double(), 1), y, scores, labels


def per_column(fn, scores, positive):
    return [fn(positive[:, j].numpy(), scores[:, j].numpy()) for j in range(scores.shape[1])]


_LG, _PR, _Y, _S, _LB = make(160, seed=5)
MC = [(_LG[a:b], _Y[a:b]) for a, b in ((0, 50), (50, 51), (51, 160))]
ML = [(_S[a:b], _LB[a:b]) for a, b in ((0, 70), (70, 71), (71, 160))]
BIN = [(_S[a:b, 3], _LB[a:b, 3]) for a, b in ((0, 90), (90, 160))]

CASES = [Case("eer_mc", partial(T.MulticlassEER, C, from_logits=True), MC),
         Case("logauc_ml", partial(T.MultilabelLogAUC, L, (0.05, 1.0), average="macro"), ML),
         Case("ranking_loss", partial(T.MultilabelRankingLoss, L), ML),
         Case("ml_point", partial(T.MultilabelRecallAtFixedPrecision, L, 0.6), ML)]
