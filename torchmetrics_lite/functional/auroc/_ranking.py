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
Multi-column inputs (multiclass one-vs-rest, multilabel) sort every column at once with a batched row sort;
the positives of each row are moved to its front by giving the negatives ``+inf`` (a pad that is equal to
any real ``+inf`` score, so the first ``n_pos`` values of the sorted row are exactly the positives).

This is the ``RANK`` kernel of :func:`._kernels.choose` (unweighted, eager): its one-row counts come as numpy and
torch twins, which the chooser picks; the row counts sort through :mod:`torchmetrics_lite._sort`.
"""
from __future__ import annotations

from typing import NamedTuple, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite import _backend, _sort
from torchmetrics_lite._dtype import float_dtype

__all__ = ["Ranked", "rank_binary_numpy", "rank_binary_torch", "rank_rows", "two_u", "auroc_from_ranked",
           "precision_sum", "curve_counts_numpy", "curve_counts_torch", "partial_auroc"]


class Ranked(NamedTuple):
    """Counts at each (distinct) positive score; the last dimension runs over those scores."""

    weight: Tensor  # int64 multiplicity of the positive score (0 for row padding)
    below: Tensor  # int64 #{all scores < v}
    at_or_below: Tensor  # int64 #{all scores <= v}
    pos_below: Tensor  # int64 #{positive scores < v}
    n_pos: Tensor  # int64, shape (...,): positives per row
    n: int  # scores per row


def rank_binary_torch(scores: Tensor, is_pos: Tensor) -> Ranked:
    """Counts for 1-D ``scores`` and boolean ``is_pos`` (one sort of everything, one of the positives) in torch
    (any device, eager)."""
    all_sorted = torch.sort(scores).values
    pos = torch.sort(scores[is_pos]).values
    starts = _starts_torch(pos)
    values = pos[starts]
    weight = torch.diff(starts, append=torch.tensor([pos.numel()], device=starts.device))
    below = torch.searchsorted(all_sorted, values)
    at_or_below = torch.searchsorted(all_sorted, values, right=True)
    n_pos = torch.tensor(pos.numel(), dtype=torch.int64, device=scores.device)
    return Ranked(weight, below, at_or_below, starts, n_pos, scores.numel())


def rank_binary_numpy(scores: Tensor, is_pos: Tensor) -> Ranked:
    """:func:`rank_binary_torch` on the zero-copy numpy views of CPU tensors (the scores are float32 or float64,
    the labels bool)."""
    a, m = _backend.host(scores), is_pos.numpy(force=True)
    m = m if m.dtype == np.bool_ else m != 0
    all_sorted = np.sort(a)
    pos = np.compress(m, a)
    pos.sort()
    starts = _starts_numpy(pos)
    values = pos.take(starts)
    weight = np.diff(starts, append=pos.shape[0])
    below = np.searchsorted(all_sorted, values, side="left").astype(np.int64)
    at_or_below = np.searchsorted(all_sorted, values, side="right").astype(np.int64)
    n_pos = torch.tensor(pos.shape[0], dtype=torch.int64)
    return Ranked(torch.from_numpy(weight), torch.from_numpy(below), torch.from_numpy(at_or_below),
                  torch.from_numpy(starts), n_pos, scores.numel())


def _starts_torch(sorted_seq: Tensor) -> Tensor:
    """Indices (int64) where a new value starts in a sorted 1-D tensor."""
    new = torch.ones_like(sorted_seq, dtype=torch.bool)
    if sorted_seq.numel() > 1:
        torch.ne(sorted_seq[1:], sorted_seq[:-1], out=new[1:])
    return torch.nonzero(new).view(-1)


def _starts_numpy(a: np.ndarray) -> np.ndarray:
    flags = np.ones(a.shape[0], dtype=np.bool_)
    np.not_equal(a[1:], a[:-1], out=flags[1:])
    return np.flatnonzero(flags)


def rank_rows(scores: Tensor, is_pos: Tensor) -> Ranked:
    """Counts for every row of ``scores`` ``(R, n)`` with boolean ``is_pos`` ``(R, n)``: batched, no row loop."""
    n = scores.shape[-1]
    all_sorted = _sort.sort_rows(scores)
    pad = torch.full((), float("inf"), dtype=scores.dtype, device=scores.device)
    pos = _sort.sort_rows(torch.where(is_pos, scores, pad))
    n_pos = is_pos.sum(-1)
    weight = (torch.arange(n, device=scores.device) < n_pos.unsqueeze(-1)).long()
    below = _sort.searchsorted_rows(all_sorted, pos)
    at_or_below = _sort.searchsorted_rows(all_sorted, pos, right=True)
    pos_below = _sort.searchsorted_rows(pos, pos)
    return Ranked(weight, below, at_or_below, pos_below, n_pos, n)


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


def curve_counts_torch(scores: Tensor, is_pos: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
    """Every distinct score as a threshold, ascending, with the true and false positives at ``score >= t``.

    Returns ``(thresholds, tps, fps)`` (int64 counts); thresholds keep the scores' dtype. In torch (any device,
    eager)."""
    all_sorted = torch.sort(scores).values
    pos = torch.sort(scores[is_pos]).values
    starts = _starts_torch(all_sorted)
    thresholds = all_sorted[starts]
    tps = pos.numel() - torch.searchsorted(pos, thresholds)
    fps = (scores.numel() - starts) - tps
    return thresholds, tps, fps


def curve_counts_numpy(scores: Tensor, is_pos: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
    """:func:`curve_counts_torch` on the zero-copy numpy views of CPU tensors."""
    a = _backend.host(scores)
    all_sorted = np.sort(a)
    m = is_pos.numpy(force=True)
    pos = np.compress(m if m.dtype == np.bool_ else m != 0, a)
    pos.sort()
    starts = _starts_numpy(all_sorted)
    thresholds = all_sorted.take(starts)
    tps = pos.shape[0] - np.searchsorted(pos, thresholds, side="left").astype(np.int64)
    fps = (a.shape[0] - starts) - tps
    return torch.from_numpy(thresholds), torch.from_numpy(tps), torch.from_numpy(fps)


def partial_auroc(tps: Tensor, fps: Tensor, max_fpr: float) -> Tensor:
    """McClish-standardised area under the ROC curve for ``fpr <= max_fpr`` (as scikit-learn).

    ``tps``/``fps`` are the curve's counts in decreasing-threshold order starting at ``(0, 0)``. The area is the
    trapezoidal one (linear between points, i.e. tied pairs count 1/2), cut at ``fpr = max_fpr`` by linear
    interpolation; then ``0.5 * (1 + (area - min_area) / (max_area - min_area))`` with ``min_area =
    max_fpr**2 / 2`` (the chance diagonal) and ``max_area = max_fpr``."""
    dtype = float_dtype(tps.device)
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
