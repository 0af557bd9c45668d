"""The shared result of the AUROC family's curve kernels, :class:`Swept` (one descending sweep per row), and the
formulas that read it, whichever kernel built it (:mod:`.static_sweep`, :mod:`.groups`,
:mod:`.gather`, :mod:`.curve_counts`, :mod:`.packed`).

Per row, in decreasing-score order, ``tp(k)`` / ``fp(k)`` are the positive / negative weight of the scores
``>= scores[k]`` and ``tp_above(k)`` / ``fp_above(k)`` those of the scores ``> scores[k]`` (``int64`` counts
without weights, so they stay exact; float64 weights otherwise, float32 on a device without float64):

* weighted Mann-Whitney, tied pairs at 1/2: ``2U = sum_{k positive} w_k (2 (W_neg - fp(k)) + (fp(k) -
  fp_above(k)))``, AUROC ``= 2U / (2 W_pos W_neg)``;
* average precision: ``sum_{k positive} w_k tp(k) / (tp(k) + fp(k)) / W_pos`` (scikit-learn's step sum: the
  positives of a tie group enter together);
* the curves: ``(tp, fp, scores)`` at the last position of each tie group of non-zero weight (a kernel with one
  position per tie group marks every position ``last``; an empty bucket adds nothing and is no point);
* DeLong's structural components (:mod:`~torchmetrics_lite.functional.auroc.delong`).

Static shapes (masked reductions), so the formulas trace under ``torch.compile``; only the point lists, whose
length is the number of distinct scores, select with a mask at the end.

>>> s = grouped(torch.tensor([0.9, 0.4, 0.1]), torch.tensor([1, 2, 2]), torch.tensor([0, 1, 2]))
>>> auroc_from_swept(s).item(), ap_from_swept(s).item()
(0.875, 0.8333333333333333)
"""
from __future__ import annotations

from typing import List, NamedTuple, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._dtype import float_dtype

__all__ = ["Swept", "grouped", "auroc_from_swept", "ap_from_swept", "points", "roc_rates", "pr_rates", "roc_points",
           "pr_points", "standardized_partial_auroc"]


class Swept(NamedTuple):
    """One descending sweep per row; every ``(R, n)`` field is in the row's decreasing-score order."""

    order: Tensor  # int64 (R, n): column of each sorted position (zeros where a kernel does not sort columns)
    scores: Tensor  # (R, n) scores, decreasing
    pos: Tensor  # (R, n) weight of the sample at k if positive, else 0 (int64 without weights)
    neg: Tensor  # (R, n) weight of the sample at k if negative, else 0
    tp: Tensor  # (R, n) positive weight of scores >= scores[k]
    fp: Tensor  # (R, n) negative weight of scores >= scores[k]
    tp_above: Tensor  # (R, n) positive weight of scores > scores[k]
    fp_above: Tensor  # (R, n) negative weight of scores > scores[k]
    last: Tensor  # bool (R, n): k is the last position of its tie group
    n_pos: Tensor  # (R,) total positive weight
    n_neg: Tensor  # (R,) total negative weight


def grouped(thresholds: Tensor, tp: Tensor, fp: Tensor, pos: Optional[Tensor] = None,
            neg: Optional[Tensor] = None) -> Swept:
    """A one-row :class:`Swept` with one position per tie group, from the distinct scores (decreasing) and the
    cumulative weights at each (and the groups' own weights when known, else their differences); ``order`` is
    zeros."""
    zero = tp.new_zeros(1)
    pos = torch.diff(tp, prepend=zero) if pos is None else pos
    neg = torch.diff(fp, prepend=zero) if neg is None else neg
    last = torch.ones(1, tp.numel(), dtype=torch.bool, device=tp.device)
    fields = (thresholds, pos, neg, tp, fp, tp - pos, fp - neg)
    totals = (tp[-1:], fp[-1:]) if tp.numel() else (zero, zero)
    scores, pos, neg, tp, fp, tp_above, fp_above = (v.unsqueeze(0) for v in fields)
    return Swept(torch.zeros_like(last, dtype=torch.int64), scores, pos, neg, tp, fp, tp_above, fp_above, last,
                 *totals)


def auroc_from_swept(s: Swept) -> Tensor:
    """Weighted Mann-Whitney AUROC per row (float64, float32 on a device without float64; ``nan`` where a row
    lacks a class or all its weight is 0)."""
    dtype = float_dtype(s.pos.device)
    fp, fp_above = s.fp, s.fp_above
    two_u = (s.pos * (2 * (s.n_neg.unsqueeze(1) - fp) + (fp - fp_above))).sum(1)
    return two_u.to(dtype) / (2 * s.n_pos * s.n_neg).to(dtype)


def ap_from_swept(s: Swept) -> Tensor:
    """Average precision per row (float64, float32 on a device without float64; ``nan`` without positive
    weight)."""
    dtype = float_dtype(s.pos.device)
    tp, predicted = s.tp.to(dtype), (s.tp + s.fp).to(dtype)
    used = s.pos > 0
    precision = torch.where(used, tp / torch.where(used, predicted, 1.0), 0.0)
    return (s.pos.to(dtype) * precision).sum(1) / s.n_pos.to(dtype)


def _split_rows(values: Tensor, mask: Tensor) -> List[Tensor]:
    """The masked entries of each row as one tensor per row (one selection and one split, no row loop; a single
    row needs no split, which keeps the binary curves traceable by ``torch.compile`` with
    ``capture_dynamic_output_shape_ops``)."""
    if values.shape[0] == 1:
        return [values[0][mask[0]]]
    return list(values[mask].split(mask.sum(1).tolist()))


def points(s: Swept) -> Tensor:
    """The positions that are points of a curve: the last of each tie group whose total weight is not 0 (a
    group of zero-weight samples adds no threshold, as scikit-learn, which drops those samples)."""
    return s.last & ((s.tp - s.tp_above) + (s.fp - s.fp_above) > 0)


def roc_rates(s: Swept) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """``(fpr, tpr, thresholds, valid)``, each ``(R, n + 1)`` in decreasing-threshold order: first the point
    ``(0, 0)`` at threshold ``inf``, then every position; ``valid`` marks the curve's points (that first one and
    the last position of each tie group of non-zero weight). Rates are float64, ``nan`` for a row without
    negatives (positives)."""
    rows, dtype = s.scores.shape[0], float_dtype(s.scores.device)
    start = torch.zeros(rows, 1, dtype=dtype, device=s.scores.device)
    fpr = torch.cat([start, s.fp.to(dtype)], 1) / s.n_neg.to(dtype).unsqueeze(1)
    tpr = torch.cat([start, s.tp.to(dtype)], 1) / s.n_pos.to(dtype).unsqueeze(1)
    thresholds = torch.cat([s.scores.new_full((rows, 1), float("inf")), s.scores], 1)
    valid = torch.cat([torch.ones(rows, 1, dtype=torch.bool, device=s.last.device), points(s)], 1)
    return fpr, tpr, thresholds, valid


def pr_rates(s: Swept) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """``(precision, recall, thresholds, valid)``, each ``(R, n)`` in decreasing-threshold order (``valid``: the
    last position of each tie group of non-zero weight). A row without positive weight has recall 1 everywhere
    (scikit-learn)."""
    dtype = float_dtype(s.tp.device)
    tp, predicted = s.tp.to(dtype), (s.tp + s.fp).to(dtype)
    n_pos = s.n_pos.to(dtype).unsqueeze(1)
    recall = torch.where(n_pos > 0, tp / torch.where(n_pos > 0, n_pos, 1.0), 1.0)
    return tp / predicted, recall, s.scores, points(s)


def roc_points(s: Swept) -> Tuple[List[Tensor], List[Tensor], List[Tensor]]:
    """Per row ``(fpr, tpr, thresholds)``: ``inf`` and ``(0, 0)`` first, then one point per distinct score in
    decreasing order (scikit-learn's ``roc_curve(..., drop_intermediate=False)``)."""
    fpr, tpr, thresholds, valid = roc_rates(s)
    return _split_rows(fpr, valid), _split_rows(tpr, valid), _split_rows(thresholds, valid)


def pr_points(s: Swept) -> Tuple[List[Tensor], List[Tensor], List[Tensor]]:
    """Per row ``(precision, recall, thresholds)`` as scikit-learn's ``precision_recall_curve``: thresholds
    increasing, the point ``(1, 0)`` appended."""
    precision, recall, thresholds, valid = (v.flip(1) for v in pr_rates(s))
    one = torch.ones(valid.shape[0], 1, dtype=precision.dtype, device=valid.device)
    mask = torch.cat([valid, one.bool()], 1)
    return (_split_rows(torch.cat([precision, one], 1), mask), _split_rows(torch.cat([recall, 0 * one], 1), mask),
            _split_rows(thresholds, valid))


def standardized_partial_auroc(tps: Tensor, fps: Tensor, max_fpr: float, dtype: torch.dtype) -> Tensor:
    """McClish-standardised area under the ROC curve for ``fpr <= max_fpr`` (as scikit-learn).

    ``tps``/``fps`` are the curve's counts in decreasing-threshold order starting at ``(0, 0)``. The area is the
    trapezoidal one (linear between points, i.e. tied pairs count 1/2), cut at ``fpr = max_fpr`` by linear
    interpolation; then ``0.5 * (1 + (area - min_area) / (max_area - min_area))`` with ``min_area =
    max_fpr**2 / 2`` (the chance diagonal) and ``max_area = max_fpr``; in ``dtype`` (float64, float32 on a device
    without float64)."""
    n_pos, n_neg = tps[-1].to(dtype), fps[-1].to(dtype)
    cut = max_fpr * n_neg  # in false-positive counts
    stop = int(torch.searchsorted(fps.to(dtype), cut.reshape(1), right=True))
    f, t = fps[:stop].to(dtype), tps[:stop].to(dtype)
    area2 = ((f[1:] - f[:-1]) * (t[1:] + t[:-1])).sum()  # twice the trapezoid area, in counts
    if stop < fps.numel():
        f0, f1, t0, t1 = f[-1], fps[stop].to(dtype), t[-1], tps[stop].to(dtype)
        t_cut = t0 + (t1 - t0) * (cut - f0) / (f1 - f0)
        area2 = area2 + (cut - f0) * (t0 + t_cut)
    area = area2 / (2 * n_pos * n_neg)
    min_area, max_area = 0.5 * max_fpr ** 2, max_fpr
    return 0.5 * (1 + (area - min_area) / (max_area - min_area))
