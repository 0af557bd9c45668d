"""Sort keys and packed segment sorts on numpy arrays alone (no torch import: the command line runs on them).

A packed sort puts (segment, value key, payload) into one int64 and sorts it with numpy's SIMD sort, which is
several times faster than any argsort and needs no gather afterwards. :mod:`torchmetrics_lite._sort` wraps
these for tensors; the retrieval and regression rank kernels, the command line and the AUROC family's row sort
(:mod:`torchmetrics_lite.functional.auroc._kernels.row_sort`) use the keys directly.

>>> import numpy as np
>>> segment_order(np.array([1, 0, 1, 0]), np.array([0.5, 0.1, 0.9, 0.7], dtype=np.float32), n_segments=2)
array([3, 1, 2, 0])
"""
from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

__all__ = ["key32", "desc_key32", "key64", "segment_order", "segment_sort_payload"]


def key32(a: np.ndarray) -> Optional[np.ndarray]:
    """int64 keys in [0, 2**32) ordered as ``a`` (no NaN), or None when ``a`` does not fit 32 bits.

    float32 bits are made monotonic (negative floats flip their magnitude bits, -0.0 becomes +0.0);
    integers are shifted by their minimum; float64 values that are all exact float32 take the float32 path."""
    if a.size == 0:
        return np.zeros(0, dtype=np.int64)
    if a.dtype == np.float64:
        with np.errstate(over="ignore"):  # a value beyond float32's range becomes inf, and fails the test below
            single = a.astype(np.float32)
        if not np.array_equal(single.astype(np.float64), a):
            return None
        a = single
    if a.dtype == np.float32:
        bits = (a + np.float32(0.0)).view(np.int32).astype(np.int64)
        return (bits ^ ((bits >> 31) & 0x7FFFFFFF)) + (1 << 31)
    if a.dtype == np.bool_:
        return a.astype(np.int64)
    lo, hi = int(a.min()), int(a.max())
    if hi - lo >= 1 << 32:
        return None
    return a.astype(np.int64) - lo


def desc_key32(a: np.ndarray) -> Optional[np.ndarray]:
    """Keys in [0, 2**32) ordered as ``a`` DEScending (smallest key = largest value), or None (as :func:`key32`).
    float32: one xor of the bits (positive values flip their 31 low bits, negative ones keep them)."""
    if a.dtype == np.float32:
        bits = (a + np.float32(0.0)).view(np.int32)  # -0.0 -> +0.0
        return (bits ^ (~(bits >> 31) & np.int32(0x7FFFFFFF))).view(np.uint32)
    key = key32(a)
    return None if key is None else ((1 << 32) - 1) - key


def key64(a: np.ndarray) -> np.ndarray:
    """int64 keys ordered as ``a`` (floats: monotonic bits, -0.0 as +0.0)."""
    if a.dtype.kind != "f":
        return a.astype(np.int64)
    bits = (a.astype(np.float64) + 0.0).view(np.int64)
    return bits ^ ((bits >> 63) & 0x7FFFFFFFFFFFFFFF)


def _bits(x: int) -> int:
    return max(int(x) - 1, 0).bit_length()


def segment_order(seg: np.ndarray, values: np.ndarray, *, n_segments: int, descending: bool = True,
                  stable: bool = False) -> np.ndarray:
    """Permutation sorting items by segment (int64 in ``[0, n_segments)``, ascending), then by value
    (``descending`` or not); ``stable=True`` keeps the input order of equal (segment, value).

    The (segment, value, position) triple is packed into one int64 and sorted by value (no argsort) when it fits
    63 bits: values of at most 32 bits (float32 and narrower, int32 and narrower, int64 spanning < 2**32,
    float64 that are exact float32), positions counted within the segment when the input is already grouped by
    segment (dense rows), else globally. Otherwise (segment, value) is packed for one argsort, or two stable
    argsorts are chained."""
    n = values.shape[0]
    seg = seg.astype(np.int64, copy=False)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    key = key32(values)
    if key is not None:
        if descending:
            key = ((1 << 32) - 1) - key
        grouped = bool(np.all(seg[1:] >= seg[:-1]))
        starts = np.searchsorted(seg, np.arange(n_segments, dtype=np.int64)) if grouped else None
        tie = np.arange(n, dtype=np.int64) - (starts.take(seg) if starts is not None else 0)
        tie_bits = max(int(tie.max()), 0).bit_length()
        if _bits(n_segments) + 32 + tie_bits <= 63:
            packed = (seg << (32 + tie_bits)) | (key << tie_bits) | tie
            packed.sort()
            out = packed & ((1 << tie_bits) - 1)
            if starts is not None:
                out += starts.take(packed >> (32 + tie_bits))
            return out
        if _bits(n_segments) + 32 <= 63:
            return np.argsort((seg << 32) | key, kind="stable" if stable else None)
        k64 = key
    else:
        k64 = key64(values)
        if descending:
            k64 = ~k64
    by_value = np.argsort(k64, kind="stable" if stable else None)
    small = np.uint16 if n_segments <= 1 << 16 else np.int64  # 16-bit keys: numpy's stable sort is a radix sort
    return by_value[np.argsort(seg.take(by_value).astype(small), kind="stable")]


def segment_sort_payload(seg: np.ndarray, values: np.ndarray, payload: np.ndarray, *, n_segments: int,
                         descending: bool = True, row_length: int = 0) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """Items sorted by segment (ascending), then value (``descending`` or not), then payload, in ONE sort of a
    packed int64 ``(segment, value key, payload)``: ``(keys, payload)`` in that order, where the int64 ``keys``
    are equal exactly where segment and value are, and ``keys >> 32`` is the segment. Items with equal segment
    and value come in payload order, NOT input order. None when it does not fit: empty input, values wider than
    32 bits (see :func:`segment_order`), or a payload that is not exactly integral in ``[0, 2**b)`` with ``b``
    the bits left. ``row_length > 0``: the items are the consecutive rows of a dense block, segment ``i`` the
    ``i``-th row, so each row is sorted alone (``n log row_length`` instead of ``n log n``; the same result)."""
    if values.shape[0] == 0:
        return None
    key = desc_key32(values) if descending else key32(values)
    if key is None or payload.dtype.kind not in "biuf":
        return None
    load = payload
    if load.dtype.kind != "i":
        load = payload.astype(np.int64)
        if payload.dtype.kind == "f" and not np.array_equal(load, payload):
            return None
    lo, hi = int(load.min()), int(load.max())
    load_bits = hi.bit_length()
    if lo < 0 or _bits(n_segments) + 32 + load_bits > 63:
        return None
    packed = np.left_shift(key, load_bits, dtype=np.int64)
    packed |= load
    if row_length > 0:  # the rows stay in place: the segment bits go in after the row sorts
        packed.reshape(-1, row_length).sort(axis=1)
        packed |= np.left_shift(seg, 32 + load_bits, dtype=np.int64)
    else:
        packed |= np.left_shift(seg, 32 + load_bits, dtype=np.int64)
        packed.sort()
    return packed >> load_bits, packed & ((1 << load_bits) - 1)
