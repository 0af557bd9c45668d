"""Exact rank statistics shared by AUROC, average precision and the ROC / PR curves.

Everything is derived from two sorts: all the scores ``A`` (ascending) and the positives' scores ``P``
(ascending). For a value ``v`` let ``below(v) = #{A < v}``, ``at_or_below(v) = #{A <= v}`` and
``pos_below(v) = #{P < v}``. With ``n`` scores of which ``n_pos`` are positive:

* Mann-Whitney: ``2U = sum_{i positive} (below(s_i) + at_or_below(s_i)) - n_pos**2``. Each positive/negative
  pair with the positive above counts 2, a tied pair 1 (mid-ranks); positive/positive pairs, which the
  first sum also counts, add exactly ``n_pos**2``. ``2U`` is an exact int64, so AUROC ``= 2U / (2 n_pos n_neg)``
  is one float64 rounding of the exact rational.
* Precision at the threshold ``s_i`` (predict positive when ``score >= s_i``):
  ``(n_pos - pos_below(s_i)) / (n - below(s_i))``; average precision is its mean over the positives.

The positives are deduplicated first (their sorted copy is scanned once), so the binary searches run once
per distinct positive score: with heavily tied scores (rounded probabilities) they are nearly free.
Multi-column inputs (multiclass one-vs-rest, multilabel) read the same counts off one batched row sort
instead (:func:`~.row_sort.rank_rows`, its keys equal exactly within a tie group): per tie group of a row, its
size and its positives; ``below`` is the sum of the sizes of the groups before it, ``at_or_below`` adds its
own, ``pos_below`` sums the positives before it (running sums, no binary search: the batched searches cost
several times the sort on long rows).

This is the ``RANK`` kernel of :func:`~._kernels.choose` (unweighted, eager), written once over the namespace ``xp``
the chooser decided (:mod:`torchmetrics_lite._xp`); its counts come back as tensors, which
:func:`auroc_from_ranked` and :func:`precision_sum` read.

>>> import torch
>>> from torchmetrics_lite._xp import NUMPY
>>> r = rank_one_row(NUMPY, torch.tensor([0.9, 0.4, 0.4, 0.1]), torch.tensor([True, True, False, False]))
>>> auroc_from_ranked(r).item(), (precision_sum(r) / r.n_pos).item()
(0.875, 0.8333333333333333)
"""
from __future__ import annotations

from typing import NamedTuple

import torch
from torch import Tensor

from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite._xp import Xp
from torchmetrics_lite.functional.auroc._kernels.row_sort import rank_rows as rank_rows_sorted

__all__ = ["Ranked", "rank_one_row", "rank_rows", "two_u", "auroc_from_ranked", "precision_sum", "ap_from_ranked"]


class Ranked(NamedTuple):
    """Counts at each distinct positive score (one row), or at each tie group of every row (rows; ``weight`` 0
    where a group holds no positive, and for the padding after a row's last group); the last dimension runs over
    those."""

    weight: Tensor  # int64 positives at that score (0 for row padding)
    below: Tensor  # int64 #{all scores < v}
    at_or_below: Tensor  # int64 #{all scores <= v}
    pos_below: Tensor  # int64 #{positive scores < v}
    n_pos: Tensor  # int64, shape (...,): positives per row
    n: int  # scores per row


def rank_one_row(xp: Xp, scores: Tensor, is_pos: Tensor) -> Ranked:
    """Counts for 1-D ``scores`` and boolean (or 0/1) ``is_pos``: one sort of everything, one of the positives."""
    a = xp.asarray(scores)
    all_sorted = xp.sort(a)
    pos = xp.select_sorted(a, xp.asarray(is_pos))
    starts = xp.run_starts(pos)
    values = pos[starts]
    weight = xp.diff(starts, pos.shape[0])
    below, at_or_below = xp.searchsorted(all_sorted, values), xp.searchsorted(all_sorted, values, right=True)
    n_pos = torch.tensor(pos.shape[0], dtype=torch.int64, device=scores.device)
    weight, below, at_or_below, starts = (xp.tensor(v, scores) for v in (weight, below, at_or_below, starts))
    return Ranked(weight, below, at_or_below, starts, n_pos, scores.numel())


def rank_rows(xp: Xp, scores: Tensor, is_pos: Tensor) -> Ranked:
    """Counts for every row of ``scores`` ``(R, n)`` with boolean ``is_pos`` ``(R, n)``, batched, no row loop: one
    ascending row sort (:func:`~.row_sort.rank_rows`: numpy's packed SIMD sort on the host), the labels gathered in
    that order, then per tie group (the last dimension runs over each row's groups, zero-padded): its positives
    (``weight``), the scores below it (the sizes of the groups before it), at or below it and the positives below
    it (running sums); no binary search."""
    rows, n = scores.shape
    order, keys = rank_rows_sorted(xp, scores, descending=False)
    offsets = xp.arange(rows, order).reshape(rows, 1) * n
    flat = (order + offsets).reshape(-1)
    pos = xp.take(xp.asarray(is_pos).reshape(-1), flat).reshape(rows, n)
    k = keys.reshape(-1)
    starts = (k != xp.concatenate([k[:1], k[:-1]])).reshape(rows, n)  # where a new tie group starts
    if n:
        starts[:, 0] = False  # a row's first group is its group 0
    segments = (xp.cumsum(starts, 1) + offsets).reshape(-1)  # each sorted score's tie group, packed per row
    size = xp.bincount(segments, rows * n).reshape(rows, n)  # scores per group, zero-padded at each row's end
    at_or_below = xp.cumsum(size, 1)
    below = at_or_below - size
    running = xp.cumsum(pos, 1).reshape(-1)  # positives among the first i + 1 sorted scores of each row
    pos_at_or_below = xp.where(at_or_below > 0, xp.take(running, (offsets + at_or_below - 1).reshape(-1))
                               .reshape(rows, n), 0)
    pos_below = xp.where(below > 0, xp.take(running, (offsets + below - 1).reshape(-1)).reshape(rows, n), 0)
    weight, below, at_or_below, pos_below = (xp.tensor(v, scores) for v in (pos_at_or_below - pos_below, below,
                                                                             at_or_below, pos_below))
    return Ranked(weight, below, at_or_below, pos_below, weight.sum(-1), n)


def two_u(r: Ranked) -> Tensor:
    """Twice the Mann-Whitney U statistic (pairs with the positive above count 2, ties 1), exact int64."""
    return (r.weight * (r.below + r.at_or_below)).sum(-1) - r.n_pos * r.n_pos


def auroc_from_ranked(r: Ranked) -> Tensor:
    """``2U / (2 n_pos n_neg)`` in float64 (float32 on a device without float64: the int64 counts are exact,
    each is rounded once to float32, then the ratio); ``nan`` where a row has one class only."""
    dtype = float_dtype(r.n_pos.device)
    pairs = r.n_pos * (r.n - r.n_pos)
    return two_u(r).to(dtype) / (2 * pairs).to(dtype)


def precision_sum(r: Ranked) -> Tensor:
    """``sum_{i positive} precision(score >= s_i)`` in float64 (average precision times ``n_pos``; float32 on a
    device without float64)."""
    dtype = float_dtype(r.n_pos.device)
    tp = (r.n_pos.unsqueeze(-1) - r.pos_below).to(dtype)
    predicted = (r.n - r.below).to(dtype)
    used = r.weight > 0
    precision = torch.where(used, tp / torch.where(used, predicted, torch.ones_like(predicted)), 0.0)
    return (r.weight.to(dtype) * precision).sum(-1)



def ap_from_ranked(r: Ranked) -> Tensor:
    """Average precision per row: :func:`precision_sum` over ``n_pos`` (``nan`` without positives)."""
    return precision_sum(r) / r.n_pos.to(float_dtype(r.n_pos.device))
