"""The static-shape descending sweep (the ``SWEEP`` kernel of :func:`._kernels.choose`) and the formulas that read
a sweep, whichever kernel built it.

Every row of ``scores`` ``(R, n)`` is sorted once in decreasing order (:func:`torchmetrics_lite._sort.rank_rows`,
tie groups read from its keys); the positives' and negatives' weights follow the same order (``int64`` ones
without ``weight``, so the counts stay exact, ``float64`` weights otherwise). With ``tp(k)`` / ``fp(k)`` the
positive / negative weight of the scores ``>= scores[k]`` (cumulative sums read at the end of ``k``'s tie group)
and ``tp_above(k)`` / ``fp_above(k)`` those of the scores ``> scores[k]`` (read at the group's start):

* weighted Mann-Whitney, tied pairs at 1/2: ``2U = sum_{k positive} w_k (2 (W_neg - fp(k)) + (fp(k) -
  fp_above(k)))``, AUROC ``= 2U / (2 W_pos W_neg)``;
* average precision: ``sum_{k positive} w_k tp(k) / (tp(k) + fp(k)) / W_pos`` (scikit-learn's step sum: the
  positives of a tie group enter together);
* the curves: ``(tp, fp, scores)`` at the last position of each tie group;
* DeLong's structural components (:mod:`~torchmetrics_lite.functional.auroc.delong`).

Group starts and ends come from ``cummax`` / ``cummin`` of the group-boundary indices, so nothing has a
data-dependent shape and the pass traces under ``torch.compile(fullgraph=True)``; only the curves, whose length
is the number of distinct scores, select with a mask at the end.

The chooser sends ``torch.compile``, the unweighted per-class curves, weighted rows off the counting tables and
DeLong here; the formulas below also read the sweeps of :mod:`._groups` (one position per tie group) and
:mod:`._packed` (one per sample, the group ends marked), which it picks on the other eager paths.
"""
from __future__ import annotations

from typing import List, NamedTuple, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite import _sort
from torchmetrics_lite._dtype import float_dtype

__all__ = ["Swept", "sweep", "auroc_from_swept", "ap_from_swept", "roc_rates", "pr_rates", "roc_points",
           "pr_points"]


class Swept(NamedTuple):
    """One descending sweep per row; every ``(R, n)`` field is in the row's decreasing-score order."""

    order: Tensor  # int64 (R, n): column of each sorted position (zeros from _groups / _packed)
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


def sweep(scores: Tensor, positive: Tensor, weight: Optional[Tensor] = None) -> Swept:
    """The sweep of every row of ``scores`` ``(R, n)`` with boolean ``positive`` ``(R, n)`` and an optional
    per-column ``weight`` ``(n,)`` (shared by the rows: one sample's weight in every class) or per-element
    ``(R, n)``."""
    rows, n = scores.shape
    order, keys = _sort.rank_rows(scores, descending=True)
    order, keys = order.to(scores.device), keys.to(scores.device)
    is_pos = positive.gather(1, order)
    if weight is None:
        pos = is_pos.long()
        neg = 1 - pos
    else:
        w = weight.to(float_dtype(scores.device))
        w = w.gather(1, order) if w.dim() == 2 else w[order]  # per element (R, n) or per column (n,)
        pos = torch.where(is_pos, w, 0.0)
        neg = w - pos
    new = keys[:, 1:] != keys[:, :-1]
    edge = torch.ones(rows, 1, dtype=torch.bool, device=scores.device)
    last, first = torch.cat([new, edge], 1), torch.cat([edge, new], 1)
    index = torch.arange(n, device=scores.device).expand(rows, n)
    end = torch.where(last, index, n).flip(1).cummin(1).values.flip(1)
    start = torch.where(first, index, 0).cummax(1).values
    tp_inc, fp_inc = pos.cumsum(1), neg.cumsum(1)
    return Swept(order, scores.gather(1, order), pos, neg, tp_inc.gather(1, end), fp_inc.gather(1, end),
                 (tp_inc - pos).gather(1, start), (fp_inc - neg).gather(1, start), last, pos.sum(1), neg.sum(1))


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


def _points(s: Swept) -> Tensor:
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
    valid = torch.cat([torch.ones(rows, 1, dtype=torch.bool, device=s.last.device), _points(s)], 1)
    return fpr, tpr, thresholds, valid


def pr_rates(s: Swept) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """``(precision, recall, thresholds, valid)``, each ``(R, n)`` in decreasing-threshold order (``valid``: the
    last position of each tie group of non-zero weight). A row without positive weight has recall 1 everywhere
    (scikit-learn)."""
    dtype = float_dtype(s.tp.device)
    tp, predicted = s.tp.to(dtype), (s.tp + s.fp).to(dtype)
    n_pos = s.n_pos.to(dtype).unsqueeze(1)
    recall = torch.where(n_pos > 0, tp / torch.where(n_pos > 0, n_pos, 1.0), 1.0)
    return tp / predicted, recall, s.scores, _points(s)


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
