"""Sort keys and packed segment sorts on numpy arrays alone (no torch import: the command line runs on them).

A packed sort puts (segment, value key, payload) into one int64 and sorts it with numpy's SIMD sort, which is
several times faster than any argsort and needs no gather afterwards. :mod:`torchmetrics_lite._sort` wraps
these for tensors.

>>> import numpy as np
>>> segment_order(np.array([1, 0, 1, 0]), np.array([0.5, 0.1, 0.9, 0.7], dtype=np.float32), n_segments=2)
array([3, 1, 2, 0])
"""
from __future__ import annotations

import sys
from typing import Optional, Tuple

import numpy as np

__all__ = ["key32", "desc_key32", "desc_key62", "decode_desc_key62", "key64", "segment_order",
           "segment_sort_payload", "tie_group_weights", "row_bucket_weights", "MAX_BUCKETS"]


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


# ------------------------------------------------------------ weighted tie groups (weighted AUROC, AP, curves)
MAX_BUCKETS = 1 << 20  # the largest counting table of :func:`tie_group_weights` (16 MiB; cache-friendly scatter)

GroupWeights = Tuple[np.ndarray, np.ndarray, np.ndarray]


def tie_group_weights(values: np.ndarray, labels: np.ndarray, weights: np.ndarray) -> Optional[GroupWeights]:
    """The distinct values (ascending, float32) with the total weight of their label-0 and label-1 items (float64
    sums): a group-by on 32-bit floats that needs neither an argsort nor a gather of the weights.

    ``values``: 1-D float32, or float64 that are all exact float32 (no NaN); ``labels``: 0/1 uint8 or bool;
    ``weights``: non-negative floats, one per value. Three exact kernels, chosen by the data:

    * sampled counting: when the distinct values of a strided sample of 2**16 values are every distinct value
      (few distinct, non-negative scores: the rounded scores of most models), no value sort at all; see
      :func:`_sampled_groups`;
    * counting: when some shift ``s`` maps the distinct float32 keys to distinct buckets ``key >> s`` spanning
      at most :data:`MAX_BUCKETS` (and ``max(4 n, 2**16)``) buckets (rounded scores, few distinct scores,
      float16/bfloat16 scores), one ``np.bincount`` of ``2 * bucket + label`` sums the weights (float64); the
      largest such shift comes from the distinct values of one value sort (their adjacent keys' highest
      differing bit);
    * packed sort: otherwise, when every weight is exactly a float32, one sort of the uint64 keys ``value key (32
      bits) | label (1) | weight bits (31: weights are non-negative)``; the labels and weights are decoded from
      the sorted keys and summed per run of equal values with ``np.add.reduceat``.

    Returns None for empty input, values that are not 32-bit floats, or (many distinct values) weights that are
    not exact float32: the caller's general path runs then. -0.0 and +0.0 form one group.

    >>> v, w0, w1 = tie_group_weights(np.array([0.5, 0.1, 0.5], dtype=np.float32), np.array([1, 0, 0], np.uint8),
    ...                               np.array([2.0, 1.0, 3.0], dtype=np.float32))
    >>> v.tolist(), w0.tolist(), w1.tolist()
    ([0.10000000149011612, 0.5], [1.0, 3.0], [0.0, 2.0])
    """
    single = _exact_float32(values)
    if single is None or single.shape[0] == 0:
        return None
    values = single
    labels = labels.view(np.uint8) if labels.dtype == np.bool_ else labels
    sampled = _sampled_groups(values, labels, weights)
    if sampled is not None:
        return sampled
    ordered = np.sort(values)
    signed = bool(ordered[0] < 0)
    counted = _counted_groups(values, ordered, signed, labels, weights)
    return counted if counted is not None else _packed_groups(values, signed, labels, weights)


_SAMPLE = 1 << 16  # values sampled by :func:`_sampled_groups`
_CHUNK = 1 << 16  # values per cache-resident pass of :func:`_sampled_groups`
_SAMPLED_BUCKETS = 1 << 17  # its largest bucket table (int32 keys + intp codes: 1.5 MiB)


def _sampled_groups(values: np.ndarray, labels: np.ndarray, weights: np.ndarray) -> Optional[GroupWeights]:
    """The counting kernel without the value sort: guess the distinct values from a strided sample, then check
    every value against the guess while counting, chunk by chunk in cache.

    The sample's distinct keys (float32 bits, non-negative values only) give the largest shift keeping them
    apart; a table over the buckets ``key >> shift`` holds each sampled key (or, in an empty bucket, a key that
    belongs to the bucket below) and the sampled value's row of the count table. A value passes when the table's
    key of its bucket (clipped to the table) is the value's own key: a value outside the sample, a negative
    value, -0.0 or a NaN never does, so the sums are exact whenever this returns. None (the caller sorts) at the
    first value that fails, for small input, or when the sample alone needs too many buckets.
    """
    n = values.shape[0]
    if n < 8 * _SAMPLE:
        return None
    bits = values.view(np.int32)
    sample = np.unique(bits[:: n // _SAMPLE])
    if sample[0] < 0 or sample[-1] > 0x7F800000:  # a sign bit (negative, -0.0) or a NaN: the sorted kernels
        return None
    shift = 0
    if sample.shape[0] > 1:  # as in :func:`_counted_groups`: the highest bit where adjacent keys differ
        shift = int(np.frexp((sample[1:] ^ sample[:-1]).astype(np.float64))[1].min()) - 1
    base = int(sample[0]) >> shift
    buckets = (int(sample[-1]) >> shift) - base + 1
    if buckets > _SAMPLED_BUCKETS:
        return None
    slot = (sample >> shift) - base
    keys = (((np.arange(buckets, dtype=np.int64) + base) << shift) - 1).astype(np.int32)  # never in own bucket
    keys[slot] = sample
    rows = np.zeros(buckets, dtype=np.intp)
    rows[slot] = 2 * np.arange(sample.shape[0])
    table = np.zeros(2 * sample.shape[0])
    bucket, row, key = np.empty(_CHUNK, np.int32), np.empty(_CHUNK, np.intp), np.empty(_CHUNK, np.int32)
    for start in range(0, n, _CHUNK):  # chunks of one array, not a loop over samples or groups
        chunk = bits[start : start + _CHUNK]
        m = chunk.shape[0]
        np.right_shift(chunk, shift, out=bucket[:m])
        bucket[:m] -= base
        np.take(keys, bucket[:m], out=key[:m], mode="clip")
        if not np.array_equal(key[:m], chunk):
            return None
        np.take(rows, bucket[:m], out=row[:m])
        row[:m] |= labels[start : start + m]
        table += np.bincount(row[:m], weights=weights[start : start + m], minlength=table.shape[0])
    return sample.view(np.float32), table[0::2].copy(), table[1::2].copy()


def _exact_float32(a: np.ndarray) -> Optional[np.ndarray]:
    """``a`` as float32 when it is float32, or float64 holding float32 values only (one cast, one comparison);
    else None."""
    if a.dtype == np.float64:
        with np.errstate(over="ignore"):  # beyond float32's range: inf, unequal to the float64
            single = a.astype(np.float32)
        return single if np.array_equal(single, a) else None
    return a if a.dtype == np.float32 else None


def _first_of_runs(a: np.ndarray) -> np.ndarray:
    """Bool mask of the positions where a run of equal values starts (``a`` non-empty)."""
    first = np.empty(a.shape[0], dtype=np.bool_)
    first[0] = True
    np.not_equal(a[1:], a[:-1], out=first[1:])
    return first


def _float_key(values: np.ndarray, signed: bool) -> np.ndarray:
    """int64 keys ordered as the float32 ``values``, equal exactly where the values are: a non-negative float's
    bits, minus the magnitude bits of a negative one (so -0.0 and +0.0 are both 0). ``signed``: whether any value
    is negative (else one masking pass)."""
    key = values.view(np.int32).astype(np.int64)
    if not signed:
        key &= 0x7FFFFFFF  # -0.0 -> 0
        return key
    sign = key >> 63  # 0 or -1
    key &= 0x7FFFFFFF
    key ^= sign
    key -= sign  # two's complement negation where negative
    return key


def _counted_groups(values: np.ndarray, ordered: np.ndarray, signed: bool, labels: np.ndarray,
                    weights: np.ndarray) -> Optional[GroupWeights]:
    n = values.shape[0]
    limit = min(MAX_BUCKETS, max(4 * n, 1 << 16))
    first = _first_of_runs(ordered)
    if np.count_nonzero(first) > limit:
        return None
    distinct = ordered[first]
    key = _float_key(distinct, signed)
    shift = 0
    if distinct.shape[0] > 1:  # the largest shift keeping adjacent distinct keys apart: their highest differing bit
        offset = key + (1 << 31)
        shift = int(np.frexp((offset[1:] ^ offset[:-1]).astype(np.float64))[1].min()) - 1
        if shift < 0:  # equal keys of unequal values: NaN (unchecked input)
            return None
    top = int(key[-1]) >> shift
    base = int(key[0]) >> shift
    if top - base + 1 > limit:
        return None
    if top + 1 > limit or signed:  # buckets counted from the smallest one
        index = _float_key(values, signed)
        index >>= shift
        index -= base
    else:  # non-negative values: buckets counted from 0, in 32-bit arithmetic (half the memory traffic)
        base = 0
        index = np.right_shift(values.view(np.int32), shift)  # a -0.0 gives a negative index: redone below
    index <<= 1
    index |= labels
    try:
        table = np.bincount(index, weights=weights, minlength=2 * (top - base + 1))
    except ValueError:  # -0.0 among non-negative values
        return _counted_groups(values + np.float32(0.0), ordered, True, labels, weights)
    at = ((key >> shift) - base) << 1
    return distinct + np.float32(0.0), table[at], table[at | 1]  # a -0.0 threshold read as +0.0


def _packed_groups(values: np.ndarray, signed: bool, labels: np.ndarray,
                   weights: np.ndarray) -> Optional[GroupWeights]:
    single = _exact_float32(weights)
    if sys.byteorder != "little" or single is None:  # the halves of a uint64 are written through a uint32 view
        return None
    weights = single
    n = values.shape[0]
    packed = np.empty(n, dtype=np.uint64)
    halves = packed.view(np.uint32).reshape(n, 2)  # [:, 0] low word, [:, 1] high word
    high = values.view(np.int32) & np.int32(0x7FFFFFFF)  # :func:`_float_key` in 32 bits, then + 2**31 (unsigned)
    if signed:
        sign = values.view(np.int32) >> 31
        high ^= sign
        high -= sign
    high ^= np.int32(-(1 << 31))
    halves[:, 1] = high.view(np.uint32)
    low = weights.view(np.uint32) & np.uint32(0x7FFFFFFF)  # weights >= 0: the sign bit is free (-0.0 -> +0.0)
    low |= np.left_shift(labels, 31, dtype=np.uint32)
    halves[:, 0] = low
    packed.sort()
    starts = np.flatnonzero(_first_of_runs(halves[:, 1]))
    weight = (halves[:, 0] & np.uint32(0x7FFFFFFF)).view(np.float32).astype(np.float64)
    weight1 = np.where(halves[:, 0].view(np.int32) < 0, weight, 0.0)  # the label bit: the low word's sign bit
    weight0 = weight - weight1
    if starts.shape[0] < n:
        weight0, weight1 = np.add.reduceat(weight0, starts), np.add.reduceat(weight1, starts)
    key = halves[starts, 1].astype(np.int64) - (1 << 31)  # :func:`_float_key` of each distinct value
    bits = np.where(key < 0, -key | (1 << 31), key).astype(np.uint32)
    return bits.view(np.float32), weight0, weight1


def row_bucket_weights(values: np.ndarray, labels: np.ndarray, weights: np.ndarray) -> Optional[GroupWeights]:
    """Per row of ``values`` ``(R, n)``, the total weight of the label-0 and label-1 items of each distinct value:
    ``(weight0, weight1, bucket_values)``, ``(R, B)`` each, whose columns run over buckets of increasing value (a
    bucket holds one distinct value of the row, ``bucket_values`` (float32), or none: then its weights and value
    are 0). The counting kernel of :func:`tie_group_weights` on every row at once (one row-wise value sort, one
    shift shared by the rows, one ``bincount`` of ``(row, bucket, label)``), for the per-class AUROC, AP and curves
    (``(R, n)`` 0/1 ``labels``, one weight per column shared by the rows). None where it does not apply: values
    that are not 32-bit floats, or more than :data:`MAX_BUCKETS` (and ``max(4 R n, R 2**16)``) buckets in all.

    >>> neg, pos, at = row_bucket_weights(np.array([[0.5, 0.1, 0.5], [0.2, 0.2, 0.7]], dtype=np.float32),
    ...                                   np.array([[1, 0, 0], [0, 1, 1]], np.uint8), np.array([2.0, 1.0, 3.0]))
    >>> used = (neg + pos) > 0
    >>> [v[u].tolist() for v, u in zip(at, used)], [v[u].tolist() for v, u in zip(neg, used)]
    ([[0.10000000149011612, 0.5], [0.20000000298023224, 0.699999988079071]], [[1.0, 3.0], [2.0, 0.0]])
    >>> [v[u].tolist() for v, u in zip(pos, used)]
    [[0.0, 2.0], [1.0, 3.0]]
    """
    single = _exact_float32(values)
    if single is None or single.size == 0:
        return None
    rows, n = single.shape
    limit = min(MAX_BUCKETS, max(4 * rows * n, rows << 16))
    ordered = np.sort(single, axis=1)
    signed = bool(ordered[:, 0].min() < 0)
    key = _float_key(ordered.reshape(-1), signed).reshape(rows, n)
    differ = key[:, 1:] != key[:, :-1]
    shift = 31
    if differ.any():  # the largest shift keeping adjacent distinct keys of a row apart
        offset = key + (1 << 31)
        gaps = (offset[:, 1:] ^ offset[:, :-1])[differ]
        shift = int(np.frexp(gaps.astype(np.float64))[1].min()) - 1
    base, top = int(key[:, 0].min()) >> shift, int(key[:, -1].max()) >> shift
    buckets = top - base + 1
    if rows * buckets > limit:
        return None
    index = _float_key(single.reshape(-1), signed)
    index >>= shift
    index.reshape(rows, n)[...] += (np.arange(rows, dtype=np.int64) * buckets - base)[:, None]  # row offsets
    index <<= 1
    index |= labels.reshape(-1).view(np.uint8)
    table = np.bincount(index, weights=np.tile(weights, rows), minlength=2 * rows * buckets).reshape(rows, buckets, 2)
    first = np.ones((rows, n), dtype=np.bool_)
    first[:, 1:] = differ
    at = np.zeros((rows, buckets), dtype=np.float32)
    at[np.nonzero(first)[0], (key[first] >> shift) - base] = ordered[first] + np.float32(0.0)  # -0.0 as +0.0
    return table[:, :, 0], table[:, :, 1], at
