"""torchmetrics' binned operating points (``thresholds=``): the best of the given thresholds under a constraint.

The counts are the binned ``confmat`` ``(T, K, 2, 2)`` of :mod:`.binned` (predict positive when
``score >= t``). At each threshold, as torchmetrics: ``precision = tp / (tp + fp)`` and ``recall = tp / (tp + fn)``
(``nan`` for 0/0, the thresholds in the order given), ``tpr = tp / (tp + fn)``, ``fpr = fp / (fp + tn)`` (0 for
0/0, the thresholds in reversed order) and ``specificity = 1 - fpr``. A threshold is a candidate when its rate
meets the constraint (compared in float32, torchmetrics' arithmetic: the float32 of an exact count ratio is
the correctly rounded one torchmetrics computes); the chosen candidate is:

* recall at fixed precision: the highest ``(recall, precision, threshold)``, lexicographically; none, or a best
  recall of 0: ``(0, nan)``;
* precision at fixed recall: the highest ``(precision, recall, threshold)``; none, or 0: ``(0, nan)``;
* sensitivity at specificity / specificity at sensitivity: the highest value, ties to the first in torchmetrics'
  (reversed) order; none: ``(0, 1e6)``.

Exact ties go to the first candidate in torchmetrics' order. The value returned is the exact ratio (float64 by
default), the threshold one of the given thresholds, in their dtype. No loop over thresholds or classes: the
masked lexicographic maximum of :func:`.operating_points._best` on every column at once.
"""
from __future__ import annotations

import math
from typing import Callable, Dict, List, Tuple

import torch
from torch import Tensor

from torchmetrics_lite.functional.auroc._common import State
from torchmetrics_lite.functional.auroc.binned import _counts

__all__: List[str] = []  # private: the binned mode of the operating points

Point = Tuple[Tensor, Tensor]
Best = Callable[..., Point]


def _safe(num: Tensor, den: Tensor) -> Tensor:
    return torch.where(den > 0, num / den.clamp_min(1), torch.zeros_like(num))


def _order(n: int, reverse: bool, like: Tensor) -> Tensor:
    """A key that prefers the earlier position in torchmetrics' order (``reverse``: the thresholds reversed)."""
    position = torch.arange(n, device=like.device, dtype=like.dtype)
    return position if reverse else -position


def binned_point(state: State, thresholds: Tensor, kind: str, minimum: float, best: Best) -> Point:
    """``(values, thresholds)`` ``(K,)`` of the binned operating point ``kind`` (``"recall"``, ``"precision"``,
    ``"sensitivity"``, ``"specificity"``: the value maximised) under ``minimum``."""
    tp, fp, fn, tn = (v.T for v in _counts(state))  # (K, T)
    thr = thresholds.to(tp.device).expand_as(tp)
    low = torch.tensor(minimum, dtype=torch.float32)
    if kind in ("recall", "precision"):
        precision, recall = tp / (tp + fp), tp / (tp + fn)
        p32, r32 = precision.float(), recall.float()
        order = _order(tp.shape[1], False, tp).expand_as(tp)
        if kind == "recall":
            return best(p32 >= low, (r32, p32, thr, order), recall, thr, math.nan, True)
        return best(r32 >= low, (_nan_low(p32), r32, thr, order), precision, thr, math.nan, True)
    tpr, fpr = _safe(tp, tp + fn), _safe(fp, fp + tn)
    tpr32, spec32 = tpr.float(), 1 - fpr.float()
    order = _order(tp.shape[1], True, tp).expand_as(tp)
    if kind == "sensitivity":
        return best(spec32 >= low, (tpr32, order), tpr, thr, 1e6, False)
    return best(tpr32 >= low, (spec32, order), 1 - fpr, thr, 1e6, False)


def _nan_low(values: Tensor) -> Tensor:
    """An undefined precision (0/0) loses every comparison (Python's ``max`` over torchmetrics' tuples keeps an
    earlier defined one)."""
    return torch.nan_to_num(values, nan=-math.inf)


#: the rule functions of :mod:`.operating_points` -> the value they maximise
KINDS: Dict[str, str] = {
    "_recall_at_precision": "recall",
    "_precision_at_recall": "precision",
    "_sensitivity_at_specificity": "sensitivity",
    "_specificity_at_sensitivity": "specificity",
}


def binned_eer(state: State) -> Tensor:
    """torchmetrics' binned EER per column ``(K,)``: on the ROC points at the thresholds (reversed order, rates
    0 for 0/0), the first point with the smallest ``|fpr - (1 - tpr)|`` (in float32, as torchmetrics: its
    rounding decides near-ties), and ``(fpr + 1 - tpr) / 2`` there, exact; a
    column without positives or negatives is ``nan`` (this library's rule, as the exact EER)."""
    tp, fp, fn, tn = (v.flip(0).T for v in _counts(state))  # (K, T), torchmetrics' ROC order
    tpr, fpr = _safe(tp, tp + fn), _safe(fp, fp + tn)
    index = (fpr.float() - (1 - tpr.float())).abs().argmin(1, keepdim=True)  # torchmetrics' float32 ties
    eer = ((fpr.gather(1, index) + 1 - tpr.gather(1, index)) / 2).squeeze(1)
    positives, negatives = (tp + fn)[:, 0], (fp + tn)[:, 0]
    return torch.where((positives > 0) & (negatives > 0), eer, math.nan)
