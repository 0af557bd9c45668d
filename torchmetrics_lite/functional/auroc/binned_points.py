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


def _roc_rates(state: State) -> Tuple[Tensor, Tensor, Tensor]:
    """torchmetrics' binned ROC rates ``fpr``, ``tpr`` ``(K, T)`` (reversed threshold order, 0 for 0/0) and
    whether each column has both positives and negatives ``(K,)``."""
    tp, fp, fn, tn = (v.flip(0).T for v in _counts(state))
    defined = ((tp + fn)[:, 0] > 0) & ((fp + tn)[:, 0] > 0)
    return _safe(fp, fp + tn), _safe(tp, tp + fn), defined


def _interp(x: Tensor, xp: Tensor, fp: Tensor, below: bool = False) -> Tensor:
    """torchmetrics' ``interp`` on every row at once: ``x`` ``(M,)``, ``xp``/``fp`` ``(K, T)`` (``xp``
    non-decreasing) -> ``(K, M)``. At each ``x`` the segment of the last ``xp <= x`` (``below``: ``xp < x``, the
    LogAUC's ``interp``), clamped to the first and last segments; a zero-width segment has slope 0, so a vertical
    step reads its highest point except at the end."""
    run = xp[:, 1:] - xp[:, :-1]
    slope = torch.where(run != 0, (fp[:, 1:] - fp[:, :-1]) / torch.where(run != 0, run, 1.0), 0.0)
    intercept = fp[:, :-1] - slope * xp[:, :-1]
    at_or_below = x[None, :, None] > xp[:, None, :] if below else x[None, :, None] >= xp[:, None, :]
    index = (at_or_below.sum(-1) - 1).clamp(0, max(slope.shape[1] - 1, 0))
    return slope.gather(1, index) * x + intercept.gather(1, index)


def _nearest_crossing(fpr: Tensor, tpr: Tensor) -> Tensor:
    """``(fpr + 1 - tpr) / 2`` at the first point (last axis) with the smallest ``|fpr - (1 - tpr)|``, found in
    float32 as torchmetrics (its rounding decides near-ties); the value from the exact rates."""
    index = (fpr.float() - (1 - tpr.float())).abs().argmin(-1, keepdim=True)
    return ((fpr.gather(-1, index) + 1 - tpr.gather(-1, index)) / 2).squeeze(-1)


def binned_macro_eer(state: State) -> Tensor:
    """torchmetrics' binned macro EER (a scalar): the classes' binned ROC curves ``(K, T)`` averaged vertically
    at every class's ``fpr`` (all ``K * T`` of them, sorted; each class through :func:`_interp`), and
    :func:`_nearest_crossing` on that mean curve. A class without positives or negatives is left out of the mean
    (torchmetrics averages its zero rates in); none left: ``nan``."""
    fpr, tpr, defined = _roc_rates(state)
    fpr, tpr = fpr[defined], tpr[defined]
    if fpr.shape[0] == 0 or fpr.shape[1] < 2:
        return torch.full((), math.nan, dtype=fpr.dtype, device=fpr.device)
    mean_fpr = fpr.reshape(-1).sort().values
    mean_tpr = _interp(mean_fpr, fpr, tpr).mean(0)
    return _nearest_crossing(mean_fpr, mean_tpr)


def binned_logauc(state: State, lo: float, hi: float) -> Tensor:
    """torchmetrics' binned LogAUC per column ``(K,)``: the points at ``fpr = lo, hi`` interpolated
    (:func:`_interp` on the segment from the last point with ``fpr < lo`` (``hi``), the highest of a vertical
    step: torchmetrics sorts the points with an unstable ``argsort`` first, so after a vertical step its reading
    depends on how the sort permutes the step's points; the curve starts at ``(0, 0)``, where torchmetrics
    extrapolates its first segment: ``nan``, ``-inf`` or a line below ``lo`` when the highest threshold already
    passes negatives) and inserted (``fpr`` and ``tpr`` each sorted), then the trapezoid in ``(log10 fpr, tpr)``
    from the last point at ``lo`` to the last at ``hi``, divided by ``log10(hi / lo)``. A column without positives
    or negatives is ``nan`` (this library's rule; torchmetrics: 0)."""
    fpr, tpr, defined = _roc_rates(state)
    origin = torch.zeros_like(fpr[:, :1])  # nothing predicted positive (torchmetrics extrapolates its first segment)
    fpr, tpr = torch.cat([origin, fpr], 1), torch.cat([origin, tpr], 1)
    bounds = torch.tensor([lo, hi], dtype=fpr.dtype, device=fpr.device)
    x = torch.cat([fpr, bounds.expand(fpr.shape[0], 2)], 1).sort(1).values
    y = torch.cat([tpr, _interp(bounds, fpr, tpr, below=True)], 1).sort(1).values
    position = torch.arange(x.shape[1], device=x.device)
    first = torch.where(x == lo, position, -1).amax(1, keepdim=True)
    last = torch.where(x == hi, position, -1).amax(1, keepdim=True)
    log_x = torch.log10(x)
    inside = (position[:-1] >= first) & (position[:-1] < last)  # the segments [j, j + 1] of the trimmed curve
    area = torch.where(inside, (log_x[:, 1:] - log_x[:, :-1]) * (y[:, 1:] + y[:, :-1]) / 2, 0.0).sum(1)
    value = area / (math.log10(hi) - math.log10(lo))
    return torch.where(defined, value, math.nan)
