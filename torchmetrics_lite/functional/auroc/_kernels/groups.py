"""The tie-group sums of :func:`~._kernels.choose` (weighted, numpy path): each group of equal scores' total
positive and negative weight, summed without an argsort or a gather of the weights, as a
:class:`~.result_swept.Swept` with one position per group; one counting machinery, for one row and for rows.

* ``GROUPS`` (one row): :func:`tie_groups`, from :func:`tie_group_weights` (one value sort and one ``bincount``,
  or one packed uint64 sort, or, for few distinct scores, no sort at all); ``None`` where it does not apply
  (labels that are not bool/uint8, scores that are not 32-bit floats, many distinct scores with weights that are
  not exact float32, empty input): the chooser's fallback (``GATHER_NUMPY``) runs then.
* ``BUCKETS`` (one row per class, a weight per sample): :func:`row_buckets`, each row's weights in buckets of
  increasing score (:func:`row_bucket_weights`: one row-wise value sort and one ``bincount``; an empty bucket adds
  nothing and is no point of a curve); ``None`` where the counting table does not apply (fallback ``SWEEP``).

The sums are float64, the groups' scores float32 (the input's dtype on the way back); eager only (data-dependent
lengths).

>>> import torch
>>> s = tie_groups(torch.tensor([0.5, 0.1, 0.5]), torch.tensor([True, False, False]), torch.tensor([2., 1, 3]))
>>> s.scores, s.pos, s.neg
(tensor([[0.5000, 0.1000]]), tensor([[2., 0.]], dtype=torch.float64), tensor([[3., 1.]], dtype=torch.float64))
>>> s = row_buckets(torch.tensor([[0.5, 0.1, 0.5]]), torch.tensor([[True, False, False]]), torch.tensor([2., 1, 3]))
>>> s.n_pos.tolist(), s.n_neg.tolist(), s.scores[s.pos + s.neg > 0].tolist()
([2.0], [4.0], [0.5, 0.10000000149011612])
"""
from __future__ import annotations

import sys
from typing import Optional, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite.functional.auroc._kernels.result_swept import Swept, grouped

__all__ = ["tie_groups", "row_buckets", "tie_group_weights", "row_bucket_weights", "MAX_BUCKETS"]


def tie_groups(scores: Tensor, is_pos: Tensor, weight: Tensor) -> Optional[Swept]:
    """The one-row sweep of 1-D ``scores`` from the tie groups' weights (CPU tensors), or ``None``."""
    if is_pos.dtype not in (torch.bool, torch.uint8):
        return None
    found = tie_group_weights(_host_array(scores), is_pos.detach().contiguous().numpy(), _host_array(weight))
    if found is None:
        return None
    values, neg, pos = (torch.from_numpy(v).flip(0) for v in found)
    return grouped(values.to(scores.dtype), pos.cumsum(0), neg.cumsum(0), pos, neg)


def row_buckets(scores: Tensor, positive: Tensor, weight: Tensor) -> Optional[Swept]:
    """The sweep of every row of ``scores`` ``(R, n)`` (bool ``positive`` ``(R, n)``, ``weight`` ``(n,)`` shared by
    the rows) from its buckets' weights (CPU tensors), or ``None``; ``order`` is zeros."""
    if positive.dtype != torch.bool:
        return None
    tables = row_bucket_weights(_host_array(scores), positive.detach().contiguous().numpy(), _host_array(weight))
    if tables is None:
        return None
    neg, pos, values = (torch.from_numpy(t).flip(1) for t in tables)
    tp, fp = pos.cumsum(1), neg.cumsum(1)
    last = torch.ones_like(pos, dtype=torch.bool)
    return Swept(torch.zeros_like(last, dtype=torch.int64), values.to(scores.dtype), pos, neg, tp, fp, tp - pos,
                 fp - neg, last, tp[:, -1], fp[:, -1])

def _host_array(t: Tensor) -> np.ndarray:
    """A contiguous numpy view of a CPU tensor (float16 / bfloat16 as float32, exact; bool as int64)."""
    t = t.detach()
    if t.dtype in (torch.float16, torch.bfloat16):
        t = t.float()
    elif t.dtype == torch.bool:
        t = t.long()
    return t.contiguous().numpy()


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
