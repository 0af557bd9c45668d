"""Per-sample label-ranking counts: one sort per row (sample), no loop over samples or labels.

For sample ``i`` with scores ``s`` ``(L,)`` and relevant labels ``R`` (``n_rel = |R|``), every relevant label ``j``
needs two counts, ties counted in full (scikit-learn's ``rankdata(-s, "max")`` convention):

* ``irr_ge(j) = #{k not in R : s_k >= s_j}``: the irrelevant labels ranked at or above ``j``;
* ``rel_ge(j) = #{k in R : s_k >= s_j}``: the relevant ones (``j`` itself included).

Every row is sorted once by a packed key: the score's descending 32-bit key shifted left by one, with the
relevance bit below it. Within a tie the irrelevant labels then come first, so ``irr_ge(j)`` is the number of
irrelevant labels before ``j`` (a cumulative sum) and ``rel_ge(j)`` the cumulative count of relevant labels at the
end of ``j``'s run of equal keys (the relevant labels of a tie are contiguous). Scores wider than 32 bits (float64
that are not exact float32) and every non-CPU device or ``torch.compile`` take the descending sweep of
:mod:`._sweep` instead, which reads the same counts from its tie groups (``tp``, ``fp``).
"""
from __future__ import annotations

from typing import Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite import _backend
from torchmetrics_lite._sort_keys import desc_key32
from torchmetrics_lite.functional.auroc import _sweep as sw

__all__ = ["relevant_counts", "coverage_per_row"]


def relevant_counts(scores: Tensor, relevant: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
    """``(is_rel, rel_ge, irr_ge)``, each ``(N, L)`` in a per-row order (the same for the three): ``is_rel`` marks
    the relevant positions; ``rel_ge`` and ``irr_ge`` are the counts above at those positions (any value
    elsewhere). int64 counts; ``relevant`` is boolean ``(N, L)``."""
    if _backend.use_numpy(scores) and scores.numel():
        key = desc_key32(_backend.host(scores))
        if key is not None:
            return _relevant_counts_numpy(key, relevant.numpy())
    swept = sw.sweep(scores, relevant)
    return swept.pos > 0, swept.tp, swept.fp


def _relevant_counts_numpy(key: np.ndarray, relevant: np.ndarray) -> Tuple[Tensor, Tensor, Tensor]:
    packed = key.astype(np.int64) << 1
    packed |= relevant
    packed.sort(axis=1)
    is_rel = (packed & 1).astype(bool)
    irr_ge = np.cumsum(~is_rel, axis=1)
    rel_cum = np.cumsum(is_rel, axis=1)
    rows, n = packed.shape
    last = np.ones((rows, n), dtype=bool)  # the last position of each run of equal packed keys
    np.not_equal(packed[:, 1:], packed[:, :-1], out=last[:, :-1])
    end = np.where(last, np.arange(n), n)
    end = np.minimum.accumulate(end[:, ::-1], axis=1)[:, ::-1]
    rel_ge = np.take_along_axis(rel_cum, end, axis=1)
    return torch.from_numpy(is_rel), torch.from_numpy(rel_ge), torch.from_numpy(irr_ge)


def coverage_per_row(scores: Tensor, relevant: Tensor) -> Tensor:
    """``#{k : s_k >= min_{j in R} s_j}`` per row (int64), 0 for a row without relevant labels: no sort, one
    masked minimum and one count."""
    top = torch.full((), float("inf"), dtype=scores.dtype, device=scores.device)
    lowest = torch.where(relevant, scores, top).amin(1, keepdim=True) if scores.shape[1] else scores[:, :1]
    covered = (scores >= lowest).sum(1)
    return torch.where(relevant.any(1), covered, 0)
