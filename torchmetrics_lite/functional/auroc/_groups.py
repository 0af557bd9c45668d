"""The tie-group kernels: a :class:`~._sweep.Swept` with one position per distinct score (a tie group), built from
each group's total positive and negative weight, for the eager paths that :func:`._kernels.choose` sends here.

* :func:`tie_groups` (``GROUPS``: weighted, one row, numpy path): the groups' weights from
  :func:`torchmetrics_lite._sort_keys.tie_group_weights` (one value sort and one ``bincount``, or one packed
  uint64 sort; no argsort, no gather of the weights). ``None`` where that kernel does not apply (labels that
  are not bool/uint8, scores that are not 32-bit floats, many distinct scores with weights that are not exact
  float32, empty input).
* :func:`row_buckets` (``BUCKETS``: weighted, one row per class, a weight per sample, numpy path): each row's
  weights in buckets of increasing score (:func:`torchmetrics_lite._sort_keys.row_bucket_weights`: a row-wise
  value sort and one ``bincount``); ``None`` where the counting table does not apply.
* :func:`gather_groups` (``GATHER``: weighted, one row, the general path, numpy on CPU or torch): one row sort
  (:func:`torchmetrics_lite._sort.rank_rows`), two gathers and cumulative sums, written once for both array
  modules.
* :func:`from_counts` (``COUNTS``: unweighted, one row): the true / false positive counts at every distinct score
  (:func:`._ranking.curve_counts_numpy` / :func:`._ranking.curve_counts_torch`).

The weights are float64 (float32 on a device without float64), the counts int64; the formulas of
:mod:`._sweep` read every kernel's result alike (a bucket or group is its own tie group; an empty bucket adds
nothing and is no point of a curve). Data-dependent lengths: eager only.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite import _backend, _sort
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite._sort_keys import row_bucket_weights, tie_group_weights
from torchmetrics_lite.functional.auroc._sweep import Swept

__all__ = ["tie_groups", "row_buckets", "gather_groups", "from_counts", "grouped"]


def tie_groups(scores: Tensor, is_pos: Tensor, weight: Tensor) -> Optional[Swept]:
    """The one-row sweep of 1-D ``scores`` from the tie groups' weights (numpy path), or ``None``.

    >>> s = tie_groups(torch.tensor([0.5, 0.1, 0.5]), torch.tensor([True, False, False]), torch.tensor([2., 1, 3]))
    >>> s.scores, s.pos, s.neg
    (tensor([[0.5000, 0.1000]]), tensor([[2., 0.]], dtype=torch.float64), tensor([[3., 1.]], dtype=torch.float64))
    """
    if is_pos.dtype not in (torch.bool, torch.uint8):
        return None
    found = tie_group_weights(_sort._as_numpy(scores), is_pos.detach().contiguous().numpy(), _sort._as_numpy(weight))
    if found is None:
        return None
    values, neg, pos = (torch.from_numpy(v).flip(0) for v in found)
    return grouped(values.to(scores.dtype), pos.cumsum(0), neg.cumsum(0), pos, neg)


def row_buckets(scores: Tensor, positive: Tensor, weight: Tensor) -> Optional[Swept]:
    """The sweep of every row of ``scores`` ``(R, n)`` (bool ``positive`` ``(R, n)``, ``weight`` ``(n,)`` shared by
    the rows) from its buckets' weights (numpy path), or ``None``; ``order`` is zeros.

    >>> s = row_buckets(torch.tensor([[0.5, 0.1, 0.5]]), torch.tensor([[True, False, False]]), torch.tensor([2., 1, 3]))
    >>> s.n_pos.tolist(), s.n_neg.tolist(), s.scores[s.pos + s.neg > 0].tolist()
    ([2.0], [4.0], [0.5, 0.10000000149011612])
    """
    if positive.dtype != torch.bool:
        return None
    tables = row_bucket_weights(_sort._as_numpy(scores), positive.detach().contiguous().numpy(),
                                _sort._as_numpy(weight))
    if tables is None:
        return None
    neg, pos, values = (torch.from_numpy(t).flip(1) for t in tables)
    tp, fp = pos.cumsum(1), neg.cumsum(1)
    last = torch.ones_like(pos, dtype=torch.bool)
    return Swept(torch.zeros_like(last, dtype=torch.int64), values.to(scores.dtype), pos, neg, tp, fp, tp - pos,
                 fp - neg, last, tp[:, -1], fp[:, -1])


def gather_groups(scores: Tensor, is_pos: Tensor, weight: Tensor, on_host: bool) -> Swept:
    """The one-row sweep of 1-D ``scores`` by one row sort and gathers: numpy (``on_host``, a CPU tensor; its
    gathers are several times faster than torch's there) or torch (any device)."""
    xp: Any = np if on_host else torch
    arr: Callable[[Tensor], Any] = _backend.host if on_host else (lambda t: t)
    order, keys = (arr(v)[0] for v in _sort.rank_rows(scores.unsqueeze(0), descending=True))
    wide = np.float64 if on_host else float_dtype(scores.device)
    w_all = xp.asarray(arr(weight)[order], dtype=wide)  # gather first, widen the gathered copy
    w_pos = xp.where(arr(is_pos)[order], w_all, 0)
    n = order.shape[0]
    starts = xp.concatenate([order[:1] * 0, xp.where(keys[1:] != keys[:-1])[0] + 1]) if n else order
    ends = xp.concatenate([starts[1:] - 1, starts[:1] * 0 + n - 1]) if n else order
    tp, fp = xp.cumsum(w_pos, 0)[ends], xp.cumsum(w_all - w_pos, 0)[ends]
    return grouped(*(torch.as_tensor(v).to(scores.device) for v in (arr(scores)[order[starts]], tp, fp)))


def from_counts(counts: Any) -> Swept:
    """The one-row sweep from ``(thresholds, tps, fps)`` in increasing-threshold order (the unweighted counts of
    :mod:`._ranking`)."""
    thresholds, tp, fp = (v.flip(0) for v in counts)
    return grouped(thresholds, tp, fp)


def grouped(thresholds: Tensor, tp: Tensor, fp: Tensor, pos: Optional[Tensor] = None,
            neg: Optional[Tensor] = None) -> Swept:
    """A one-row :class:`~._sweep.Swept` from the distinct scores (decreasing) and the cumulative weights at each
    (and the groups' own weights when known, else their differences)."""
    zero = tp.new_zeros(1)
    pos = torch.diff(tp, prepend=zero) if pos is None else pos
    neg = torch.diff(fp, prepend=zero) if neg is None else neg
    last = torch.ones(1, tp.numel(), dtype=torch.bool, device=tp.device)
    fields = (thresholds, pos, neg, tp, fp, tp - pos, fp - neg)
    totals = (tp[-1:], fp[-1:]) if tp.numel() else (zero, zero)
    scores, pos, neg, tp, fp, tp_above, fp_above = (v.unsqueeze(0) for v in fields)
    return Swept(torch.zeros_like(last, dtype=torch.int64), scores, pos, neg, tp, fp, tp_above, fp_above, last,
                 *totals)
