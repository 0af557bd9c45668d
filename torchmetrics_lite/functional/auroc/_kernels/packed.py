"""The packed kernel (``PACKED`` of :func:`~._kernels.choose`): the unweighted curve reads of rows on CPU (EER,
LogAUC, the operating points) from one value sort per row of packed ``(descending score key, label)`` int64 keys
(:func:`torchmetrics_lite._sort_keys.desc_key32`, the label in the low bit): no argsort, no gather; the thresholds
are decoded from the keys. It applies to 32-bit scores (float32, or float64 holding float32 values) and to float64
scores in ``[0, 2)`` (probabilities: :func:`desc_key62`, whose keys also leave
room for the label bit); each function returns ``None`` otherwise, and the chooser's fallback runs.

>>> from torchmetrics_lite._xp import NUMPY
>>> g = segments(NUMPY, torch.tensor([[0.9, 0.4, 0.4, 0.1]]), torch.tensor([[True, True, False, False]]))
>>> g.fpr.tolist(), g.valid.tolist()
([[0.0, 0.5, 0.5, 1.0]], [[True, False, True, True]])
"""
from __future__ import annotations

import math
from typing import Optional, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._sort_keys import desc_key32
from torchmetrics_lite._xp import Xp
from torchmetrics_lite.functional.auroc._kernels.result_segments import Segments
from torchmetrics_lite.functional.auroc._kernels.result_swept import Swept

__all__ = ["segments", "eer", "curve_sweep", "desc_key62", "decode_desc_key62"]


def segments(xp: Xp, scores: Tensor, positive: Tensor, hi: float = 1.0) -> Optional[Segments]:
    """The :class:`~.result_segments.Segments` of every row's ROC curve up to (at least) the first point with
    ``fpr >= hi``, cut after the last row's point past ``hi``; ``None`` where the packed sort does not apply."""
    found = _cumulative(xp, scores, positive)
    if found is None:
        return None
    packed, wide, tp, fp = found
    rows, n = packed.shape
    n_pos, n_neg = tp[:, -1:], n - tp[:, -1:]
    key = packed >> 1
    reach = np.minimum((fp < hi * n_neg).sum(1, keepdims=True), n - 1)  # the first position with fpr >= hi
    cut = int(((key <= np.take_along_axis(key, reach, 1)).sum(1)).max())  # ... and the end of its tie group
    tp, fp, key = tp[:, :cut], fp[:, :cut], packed[:, :min(cut + 1, n)] >> 1
    valid = np.ones((rows, cut), dtype=bool)
    width = key.shape[1] - 1  # cut, or cut - 1 when the cut is the row's end (whose last position is a point)
    np.not_equal(key[:, 1:], key[:, :width], out=valid[:, :width])
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr, fnr = fp / n_neg, (n_pos - tp) / n_pos
    seen = np.maximum.accumulate(np.where(valid, np.arange(cut), -1), axis=1)
    prev = np.concatenate([np.full((rows, 1), -1), seen[:, :-1]], 1)
    at = np.maximum(prev, 0)
    fpr_prev = np.where(prev >= 0, np.take_along_axis(fpr, at, 1), 0.0)
    fnr_prev = np.where(prev >= 0, np.take_along_axis(fnr, at, 1), 1.0)
    thresholds = torch.from_numpy(_decode(key[:, :cut], wide)).to(scores.dtype)
    t = torch.from_numpy
    return Segments(t(fpr), t(fnr), t(fpr_prev), t(fnr_prev), t(valid), thresholds)


def eer(xp: Xp, scores: Tensor, positive: Tensor) -> Optional[Tuple[Tensor, Tensor]]:
    """:func:`~.result_segments.eer_rows` of every row, from the packed sort without building the curve (``None`` where
    it does not apply): ``d = fp * n_pos - fn * n_neg`` rises strictly at every sorted position (a positive lowers
    ``fn``, a negative raises ``fp``), so the first position with ``d >= 0`` is the number of positions below 0; the
    crossing's segment ends at the end of that position's tie group and starts at the end of the group before (two
    counts of keys per row)."""
    found = _cumulative(xp, scores, positive)
    if found is None:
        return None
    packed, wide, tp, fp = found
    rows, n = packed.shape
    n_pos, n_neg = tp[:, -1:], n - tp[:, -1:]
    first = (fp * n_pos < (n_pos - tp) * n_neg).sum(1, keepdims=True)  # d < 0 before it
    key = packed >> 1
    at = np.take_along_axis(key, np.minimum(first, n - 1), 1)
    end = (key <= at).sum(1, keepdims=True) - 1  # the crossing's point: the end of its tie group
    start = (key < at).sum(1, keepdims=True) - 1  # the point before it (-1: the curve's start)
    before = np.maximum(start, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = np.take_along_axis(fp, end, 1) / n_neg
        g1 = (n_pos - np.take_along_axis(tp, end, 1)) / n_pos
        f0 = np.where(start >= 0, np.take_along_axis(fp, before, 1) / n_neg, 0.0)
        g0 = np.where(start >= 0, (n_pos - np.take_along_axis(tp, before, 1)) / n_pos, 1.0)
        d0, d1 = f0 - g0, f1 - g1
        rate = np.where((n_pos > 0) & (n_neg > 0), f0 + (f1 - f0) * d0 / (d0 - d1), np.nan)[:, 0]
    threshold = torch.from_numpy(_decode(np.take_along_axis(key, end, 1)[:, 0], wide)).to(scores.dtype)
    return torch.from_numpy(rate), torch.where(torch.from_numpy(np.isnan(rate)), math.nan, threshold)


def curve_sweep(xp: Xp, scores: Tensor, positive: Tensor) -> Optional[Swept]:
    """The sweep of every row for the curve reads (:func:`~.result_swept.roc_rates`,
    :func:`~.result_swept.pr_rates`: the operating points), ``None`` where the packed sort does not apply: its
    ``tp_above``/``fp_above`` are per position (only their difference from ``tp``/``fp`` being non-zero is read
    there), so it is not for AUROC, the ROC / PR point lists or DeLong."""
    found = _cumulative(xp, scores, positive)
    if found is None:
        return None
    packed, wide, tp, fp = found
    rows, n = packed.shape
    pos = packed & 1
    key = packed >> 1
    last = np.ones((rows, n), dtype=bool)
    np.not_equal(key[:, 1:], key[:, :-1], out=last[:, :-1])
    t = torch.from_numpy
    neg = 1 - pos
    return Swept(t(np.zeros((rows, n), dtype=np.int64)), t(_decode(key, wide)).to(scores.dtype), t(pos), t(neg), t(tp),
                 t(fp), t(tp - pos), t(fp - neg), t(last), t(tp[:, -1]), t(fp[:, -1]))


def _cumulative(xp: Xp, scores: Tensor, positive: Tensor) -> Optional[Tuple[np.ndarray, bool, np.ndarray, np.ndarray]]:
    """The packed rows of :func:`_packed_rows` (and whether their key is the wide one) with the positives and the
    negatives at or above each sorted position, ``tp`` and ``fp`` ``(R, n)``; ``None`` where it does not apply."""
    found = _packed_rows(xp, scores, positive)
    if found is None:
        return None
    packed, wide = found
    tp = np.cumsum(packed & 1, axis=1)
    return packed, wide, tp, np.arange(1, packed.shape[1] + 1) - tp


def _decode(key: np.ndarray, wide: bool) -> np.ndarray:
    """The score values of their keys: float64 from :func:`desc_key62` keys
    (``wide``), else float32 from :func:`~torchmetrics_lite._sort_keys.desc_key32` keys (an involution of the
    bits)."""
    if wide:
        return decode_desc_key62(key)
    bits = key.astype(np.uint32).view(np.int32)
    return (bits ^ (~(bits >> 31) & np.int32(0x7FFFFFFF))).view(np.float32)


def _packed_rows(xp: Xp, scores: Tensor, positive: Tensor) -> Optional[Tuple[np.ndarray, bool]]:
    """Per row the sorted int64 keys ``key(score) << 1 | label``, and whether the key is the 62-bit one: float64
    scores in ``[0, 2)`` take :func:`desc_key62` (no float32 round trip to check),
    other scores :func:`~torchmetrics_lite._sort_keys.desc_key32`; ``None`` for empty input and scores that fit
    neither (float64 outside ``[0, 2)`` or -0.0 there, that are not exact float32)."""
    if scores.numel() == 0 or xp.result_dtype(scores) != torch.float64:
        return None
    values = xp.asarray(scores)
    key, wide = desc_key62(values), True
    if key is None:
        key, wide = desc_key32(values), False
    if key is None:
        return None
    if wide:  # a new int64 array already
        key <<= 1
        packed = key
    else:
        packed = key.astype(np.int64) << 1
    packed |= xp.asarray(positive)
    packed.sort(axis=1)
    return packed, wide


def desc_key62(a: np.ndarray) -> Optional[np.ndarray]:
    """int64 keys in [0, 2**62) ordered as the float64 ``a`` DEScending (smallest key = largest value, equal
    exactly where the values are), or None unless every value is a non-negative float64 below 2.0.

    Such a value has its sign bit and its exponent's top bit clear, so its bits read as int64 lie in [0, 2**62) and
    rise with the value; the key is ``2**62 - 1 - bits`` (:func:`decode_desc_key62` inverts it). The condition is
    read on the bits themselves: their minimum ``>= 0`` rejects -0.0 and negative values (NaN with the sign bit
    too), their maximum ``< 2**62`` rejects values ``>= 2``, inf and NaN. A key shifted left by one leaves room
    for a label bit in a non-negative int64."""
    if a.dtype != np.float64:
        return None
    bits = a.view(np.int64)
    if bits.size and (int(bits.min()) < 0 or int(bits.max()) >= 1 << 62):
        return None
    return np.int64((1 << 62) - 1) - bits


def decode_desc_key62(key: np.ndarray) -> np.ndarray:
    """The float64 values of :func:`desc_key62` keys."""
    return (np.int64((1 << 62) - 1) - key).view(np.float64)
