"""Per-sample label-ranking sums: one sort per row (sample), all rows at once, no loop over samples or labels.

For sample ``i`` with scores ``s`` ``(L,)`` and relevant labels ``R`` (``n_rel = |R|``), ties counted in full
(scikit-learn's ``rankdata(-s, "max")`` convention), every relevant label ``j`` has

* ``rank(j) = #{k : s_k >= s_j}`` and ``rank_R(j) = #{k in R : s_k >= s_j}``;
* ``irr_ge(j) = rank(j) - rank_R(j)``, the irrelevant labels scored at or above it.

The ranking loss needs ``misordered = sum_{j in R} irr_ge(j)``, the ranking average precision
``precision_sum = sum_{j in R} rank_R(j) / rank(j)``.

On CPU every row is sorted once by a packed int64 key: the score's descending 32-bit key shifted left by one, the
relevance bit below it. Within a tie the irrelevant labels then come first and the relevant ones of the tie form
one run of equal keys at its end. With ``p`` the 1-based position in the sorted row and ``c(p)`` the number of
relevant labels up to ``p``: a relevant label at ``p`` has ``irr_ge = p - c(p)`` (its tied relevant labels after it
are not irrelevant), so ``misordered = sum_{j in R} p_j - n_rel (n_rel + 1) / 2`` (a matrix-vector product); and a
relevant run ending at ``p`` with ``m`` labels adds ``m * c(p) / p`` to ``precision_sum``. Scores wider than 32 bits
(float64 that are not exact float32), other devices and ``torch.compile`` take the descending sweep of
:mod:`._sweep`, whose tie groups give ``rank_R`` (``tp``) and ``irr_ge`` (``fp``) directly.
"""
from __future__ import annotations

import sys
from typing import Optional

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite import _backend
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite._sort_keys import desc_key32
from torchmetrics_lite.functional.auroc import _kernels as kernels

__all__ = ["misordered_pairs", "precision_sums", "coverage_per_row", "relevant_counts"]


def _packed_rows(scores: Tensor, relevant: Tensor) -> Optional[np.ndarray]:
    """Each row's packed keys, sorted (CPU, 32-bit scores), else ``None``."""
    if not _backend.use_numpy(scores) or scores.numel() == 0 or float_dtype(scores.device) != torch.float64:
        return None  # (a CPU without float64 is the emulated Apple MPS of the tests: its torch path makes none)
    key = desc_key32(_backend.host(scores))
    if key is None:
        return None
    packed = key.astype(np.int64) << 1
    packed |= relevant.numpy()
    packed.sort(axis=1)
    return packed


def relevant_counts(relevant: Tensor) -> Tensor:
    """``n_rel`` per row (int64) of a boolean ``(N, L)``; numpy on CPU (torch's row sums of bools are slow)."""
    if not _backend.use_numpy(relevant) or relevant.numel() == 0:
        return relevant.sum(1)
    count = np.uint8 if relevant.shape[1] < 256 else np.int64
    return torch.from_numpy(_backend.host(relevant).view(np.uint8).sum(1, dtype=count).astype(np.int64))


def misordered_pairs(scores: Tensor, relevant: Tensor) -> Tensor:
    """``sum_{j in R} #{k not in R : s_k >= s_j}`` per row (int64), for ``scores`` ``(N, L)`` and boolean
    ``relevant``."""
    packed = _packed_rows(scores, relevant)
    if packed is None:
        swept = kernels.sweep(scores, relevant)
        return torch.where(swept.pos > 0, swept.fp, 0).sum(1)
    n = packed.shape[1]
    exact = np.float32 if n < 4096 else np.float64  # every sum an integer below 2**24 (2**53)
    low_byte = packed.view(np.uint8)[:, (0 if sys.byteorder == "little" else 7)::8]  # each key's, no copy
    is_rel = (low_byte & 1).astype(exact)
    weights = np.stack([np.arange(1, n + 1, dtype=exact), np.ones(n, dtype=exact)], 1)
    sums = (is_rel @ weights).astype(np.int64)  # per row: sum of relevant positions, n_rel
    n_rel = sums[:, 1]
    return torch.from_numpy(sums[:, 0] - n_rel * (n_rel + 1) // 2)


def precision_sums(scores: Tensor, relevant: Tensor) -> Tensor:
    """``sum_{j in R} rank_R(j) / rank(j)`` per row (float64; float32 on a device without float64)."""
    packed = _packed_rows(scores, relevant)
    if packed is None:
        swept = kernels.sweep(scores, relevant)
        dtype = float_dtype(scores.device)
        ratio = swept.tp.to(dtype) / (swept.tp + swept.fp).clamp(min=1).to(dtype)
        return torch.where(swept.pos > 0, ratio, 0.0).sum(1)
    rows, n = packed.shape
    is_rel = (packed & 1).astype(bool)
    count = np.cumsum(is_rel, axis=1, dtype=np.int32)
    position = np.arange(1, n + 1, dtype=np.float64)
    new = packed[:, 1:] != packed[:, :-1]
    if new.all():  # no two labels of a row share score and relevance: every run is one label
        return torch.from_numpy(np.where(is_rel, count / position, 0.0).sum(1))
    last = np.ones((rows, n), dtype=bool)
    last[:, :-1] = new
    first = np.ones((rows, n), dtype=bool)
    first[:, 1:] = new
    start = np.maximum.accumulate(np.where(first, np.arange(n, dtype=np.int32), 0), axis=1)
    run = np.arange(1, n + 1, dtype=np.int32) - start
    return torch.from_numpy(np.where(is_rel & last, run * count / position, 0.0).sum(1))


def coverage_per_row(scores: Tensor, relevant: Tensor) -> Tensor:
    """``#{k : s_k >= min_{j in R} s_j}`` per row (int64), 0 for a row without relevant labels: no sort, one
    masked minimum and one count (on CPU the masked minimum in torch, the count in numpy, each the faster there;
    the count summed in uint8 when a row has fewer than 256 labels, and only the rows whose minimum is ``inf``,
    without relevant labels or with all of them at ``+inf``, are looked at again)."""
    if _backend.use_numpy(scores) and scores.numel():
        values, rel = _backend.host(scores), _backend.host(relevant)
        top = torch.full((), float("inf"), dtype=scores.dtype)  # torch's where and row minimum beat numpy's here
        lowest = torch.where(relevant, scores.detach(), top).amin(1, keepdim=True).numpy()
        count = np.uint8 if values.shape[1] < 256 else np.int64
        covered = (values >= lowest).view(np.uint8).sum(1, dtype=count).astype(np.int64)
        at_inf = np.flatnonzero(lowest[:, 0] == np.inf)
        covered[at_inf] = np.where(rel[at_inf].any(1), covered[at_inf], 0)
        return torch.from_numpy(covered)
    top = torch.full((), float("inf"), dtype=scores.dtype, device=scores.device)
    lowest_t = torch.where(relevant, scores, top).amin(1, keepdim=True) if scores.shape[1] else scores[:, :1]
    return torch.where(relevant.any(1), (scores >= lowest_t).sum(1), 0)
