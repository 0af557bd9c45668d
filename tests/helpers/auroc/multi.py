"""Multiclass logits and multilabel negative logits (``test_auroc_multi.py``) and their distributed cases."""
from functools import partial

import numpy as np
import torch

from tests.helpers.distributed import Case
from torchmetrics_lite import MulticlassAUROC, MultilabelAUROC, MultilabelAveragePrecision

C, L = 5, 4


def make_multiclass(n, *, decimals=None, scale=3.0, seed=0, dtype=torch.float32):
    g = np.random.default_rng(seed)
    target = g.integers(0, C, n)
    logits = g.normal(size=(n, C)) * scale
    logits[np.arange(n), target] += 2.0
    if decimals is not None:
        logits = np.round(logits, decimals)
    return torch.tensor(logits, dtype=dtype), torch.tensor(target)


def make_multilabel(n, *, decimals=None, seed=0, dtype=torch.float32):
    g = np.random.default_rng(seed)
    target = (g.random((n, L)) < np.array([0.1, 0.3, 0.5, 0.8])).astype(np.int64)
    scores = g.normal(size=(n, L)) - 20.0 + target  # negative logits
    if decimals is not None:
        scores = np.round(scores, decimals)
    return torch.tensor(scores, dtype=dtype), torch.tensor(target)


_MC = make_multiclass(150, decimals=1, seed=4)
MC_BATCHES = [(_MC[0][a:b], _MC[1][a:b]) for a, b in ((0, 60), (60, 61), (61, 110), (110, 150))]
_ML = make_multilabel(150, decimals=1, seed=5)
ML_BATCHES = [(_ML[0][a:b], _ML[1][a:b]) for a, b in ((0, 45), (45, 100), (100, 100), (100, 150))]

CASES = [
    Case("mc_auroc_macro", partial(MulticlassAUROC, C, average="macro", from_logits=True), MC_BATCHES),
    Case("mc_auroc_none", partial(MulticlassAUROC, C, average="none", from_logits=True), MC_BATCHES),
    # one-vs-one (Hand & Till): every class pair's AUROC from the gathered rows
    Case("mc_auroc_ovo_macro", partial(MulticlassAUROC, C, multi_class="ovo", from_logits=True), MC_BATCHES),
    Case("mc_auroc_ovo_weighted", partial(MulticlassAUROC, C, multi_class="ovo", average="weighted",
                                          from_logits=True), MC_BATCHES),
    Case("ml_auroc_micro", partial(MultilabelAUROC, L, average="micro"), ML_BATCHES),
    Case("ml_auroc_weighted", partial(MultilabelAUROC, L, average="weighted"), ML_BATCHES),
    Case("ml_ap_none", partial(MultilabelAveragePrecision, L, average="none"), ML_BATCHES),
]
