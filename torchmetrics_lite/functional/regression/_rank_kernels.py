"""Rank kernels of Spearman's rho and Kendall's tau, numpy on the host, one output column per row.

* :func:`average_ranks`: per row, the 1-based ranks with ties given their group's average rank (one SIMD
  argsort per row block, then one ``repeat`` of the group averages: no loop over samples or groups).
* :func:`kendall_counts`: per row pair, the pair counts of Kendall's tau, exact. Where both inputs have few
  distinct values (at most :data:`TABLE_DISTINCT`, and a table no larger than the data), from each row's
  contingency table of dense ranks (integers get their ranks from a presence table, other values from one
  sort of their packed keys and a binary search): discordant pairs by int64 cumulative sums of the table, ties
  from its cells and margins, in ``O(n + cells)``. Otherwise in ``O(n log n)``: the target's dense ranks
  from one packed SIMD sort of (row, target, position); the lexicographic ``(preds, target)`` order from one
  packed sort of (row, preds, target's rank) where preds fit 32 bits (else an argsort of ``preds`` and a
  re-sort of the samples in runs of tied preds only); the tie sums from the sorted runs; the discordant pairs
  are the inversions of the target's dense ranks in that order, counted by :func:`inversions` in
  ``ceil(log2 m)`` vectorised passes (``m`` distinct targets), each a stable partition by one bit of the rank
  (the levels of a wavelet tree): a pair ``i < j`` is an inversion exactly when, at the highest bit where the
  ranks differ, ``r_i`` has a 1 and ``r_j`` a 0, and within each group of equal higher bits those pairs follow
  from the group's counts and the positions of its ones.

Inputs of another device are copied to the host (these run at ``compute``, on the kept values); integers are
ranked as int64 (never through float64, which merges integers beyond 2**53); the counts stay float64 numpy
arrays, and only the final values take the device's floating dtype.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._backend import host
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite._sort_keys import key32, segment_order, segment_sort_payload

__all__ = ["average_ranks", "kendall_counts", "inversions", "KENDALL_ROWS"]

#: the rows of :func:`kendall_counts`' result
_PACKED_BITS = 63  # the widest packed sort key (a module constant so that tests can force the argsort path)

#: the most distinct values (over all rows) for which Kendall's counts come from contingency tables
TABLE_DISTINCT = 1 << 10

KENDALL_ROWS = ("n", "ties_p", "ties_t", "ties_joint", "discordant", "distinct_p", "distinct_t",
                "ties_p_cubic", "ties_p_var", "ties_t_cubic", "ties_t_var")


def _host_rows(x: Tensor) -> np.ndarray:
    """``(N, d)`` tensor (or ``(N,)``, one column) as a C-contiguous ``(d, N)`` host array: floating input as it
    is (float16/bfloat16 as float32), integers as int64, so that integers are ranked as integers (exact beyond
    2**53: nanosecond timestamps, 64-bit ids)."""
    a = host(x.detach().cpu())
    if not np.issubdtype(a.dtype, np.floating):
        a = a.astype(np.int64)
    return np.ascontiguousarray(a[None] if a.ndim == 1 else a.T)


def _runs(sorted_rows: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Starts (flat indices) and lengths of the runs of equal values in each sorted row of ``(d, n)``."""
    d, n = sorted_rows.shape
    flag = np.empty((d, n), dtype=bool)
    flag[:, 0] = True
    np.not_equal(sorted_rows[:, 1:], sorted_rows[:, :-1], out=flag[:, 1:])
    starts = np.flatnonzero(flag)
    return starts, np.diff(starts, append=d * n)


def average_ranks(x: Tensor) -> Tensor:
    """Average ranks (1-based) of each column of ``x`` ``(N, d)`` (``(N,)``: one column), returned ``(d, N)`` on
    ``x``'s device in its floating dtype (float64; float32 on a device without it: exact up to 2**23 samples):
    tied values get the mean of the ranks they span (scipy's ``rankdata(method="average")``)."""
    a = _host_rows(x)
    d, n = a.shape
    dtype = float_dtype(x.device)
    if n == 0:
        return torch.zeros((d, 0), dtype=dtype, device=x.device)
    order = np.argsort(a, axis=1)
    starts, sizes = _runs(np.take_along_axis(a, order, 1))
    mean_rank = (starts % n) + (sizes + 1) / 2  # 1-based mean of positions start+1 .. start+size
    ranks = np.empty((d, n))
    np.put_along_axis(ranks, order, np.repeat(mean_rank, sizes).reshape(d, n), 1)
    return torch.from_numpy(ranks.astype(np.float32) if dtype == torch.float32 else ranks).to(x.device)


def _sorted_rows(a: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Flat permutation sorting each row of ``(d, n)`` (global indices into ``a.ravel()``) and the sorted rows:
    one packed SIMD sort of (row, value, position) where the values fit 32 bits (see
    :func:`~torchmetrics_lite._sort_keys.segment_order`), else one argsort."""
    d, n = a.shape
    order = segment_order(np.repeat(np.arange(d, dtype=np.int64), n), a.ravel(), n_segments=d, descending=False)
    return order, a.ravel()[order].reshape(d, n)


def _dense(sorted_rows: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Per sorted row of ``(d, n)``: each sample's 0-based dense rank (int32 below 2**31 samples: numpy's
    cumsum of booleans into int64 is several times slower; in sorted order) and the flags of the runs' first
    samples."""
    flag = np.empty(sorted_rows.shape, dtype=bool)
    flag[:, 0] = False
    np.not_equal(sorted_rows[:, 1:], sorted_rows[:, :-1], out=flag[:, 1:])
    dense = np.cumsum(flag, axis=1, dtype=np.int32 if sorted_rows.shape[-1] < 2**31 else np.int64)
    flag[:, 0] = True
    return dense, flag


def _tie_sums(starts: np.ndarray, sizes: np.ndarray, d: int, n: int,
              counts: Optional[np.ndarray] = None) -> np.ndarray:
    """Per row: the number of runs (``counts`` when given), ``sum t(t-1)/2``, ``sum t(t-1)(t-2)`` and
    ``sum t(t-1)(2t+5)`` over the runs' lengths ``t`` (float64; the pair count is exact below 2**53). Runs of
    one sample add nothing to the sums and are left out of them."""
    out = np.empty((4, d))
    out[0] = np.bincount(starts // n, minlength=d) if counts is None else counts
    tied = sizes > 1
    row, t = starts[tied] // n, sizes[tied].astype(np.float64)
    pairs = t * (t - 1)
    for k, w in enumerate((pairs / 2, pairs * (t - 2), pairs * (2 * t + 5)), 1):
        out[k] = np.bincount(row, w, minlength=d)  # sequential sums in run order, as ever
    return out


def _lexicographic(rt_by_p: np.ndarray, p_flag: np.ndarray,
                   width: int) -> Tuple[np.ndarray, Tuple[np.ndarray, np.ndarray]]:
    """Re-sort the samples of each run of tied ``preds`` by the target's dense rank ``rt_by_p`` (flat, in preds'
    sorted order; ``p_flag`` the flat run starts, ``width`` the ranks' bound): only the tied samples move, in one
    sort of the packed (run, rank, position) key. Returns the ranks in lexicographic order and the flat
    starts of the runs of equal (preds, target) among the tied samples."""
    single = p_flag.copy()
    single[:-1] &= p_flag[1:]  # a run of one sample: it starts, and so does the next run (or the array ends)
    idx = np.flatnonzero(~single)
    run = np.cumsum(p_flag)[idx] - 1
    rank_bits, pos_bits = max(width - 1, 0).bit_length(), max(idx.size - 1, 0).bit_length()
    key = (run << rank_bits) | rt_by_p[idx]
    if max(int(run[-1]), 0).bit_length() + rank_bits + pos_bits <= _PACKED_BITS:
        packed = (key << pos_bits) | np.arange(idx.size, dtype=np.int64)
        packed.sort()
        fix, key = packed & ((1 << pos_bits) - 1), packed >> pos_bits
    else:
        fix = np.argsort(key)
        key = key[fix]
    out = rt_by_p.copy()
    out[idx] = rt_by_p[idx[fix]]
    first = np.empty(idx.size, dtype=bool)
    first[0] = True
    np.not_equal(key[1:], key[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    return out, (idx[starts], np.diff(starts, append=idx.size))


def inversions(ranks: np.ndarray) -> np.ndarray:
    """Per row of ``ranks`` ``(d, n)`` (non-negative integers), the number of pairs ``i < j`` with
    ``ranks[i] > ranks[j]``, as float64 (exact below 2**53), in ``B = ceil(log2(max + 1))`` vectorised passes.

    Pass ``b`` (from the highest bit down) sees the values stably sorted by ``v >> (b + 1)`` within each row:
    contiguous groups of equal higher bits, of known sizes. A pair decided at bit ``b`` is a one before a zero
    in the same group; with ``O``, ``Z`` and ``S`` a group's ones, zeros and start, and ``p_i`` the positions of
    its ones, there are ``O Z + O S + O (O - 1) / 2 - sum p_i`` of them (each one counts the zeros after it).
    Then the stable partition by the bit (zeros, then ones, in each group: the next pass's groups) is two
    monotone scatters."""
    d, n = ranks.shape
    total = np.zeros(d)
    top = int(ranks.max(initial=0))
    if n < 2 or top == 0:
        return total
    size = d * n
    dtype = np.int32 if size < 2**31 and top < 2**31 else np.int64  # cumsum into int32 is ~8x faster
    v = np.ascontiguousarray(ranks, dtype=dtype).ravel()
    nxt, bit, at = np.empty_like(v), np.empty_like(v), np.arange(size, dtype=np.intp)  # intp: no index cast
    one, zero = np.empty(size, dtype=bool), np.empty(size, dtype=bool)
    cum = np.zeros(size + 1, dtype=dtype)
    sizes, row = np.full(d, n, dtype=np.int64), np.arange(d)  # the non-empty groups, in arrangement order
    for b in range(top.bit_length() - 1, -1, -1):
        np.bitwise_and(v, dtype(1) << b, out=bit)
        np.not_equal(bit, 0, out=one)
        ends = np.cumsum(sizes)
        starts = ends - sizes
        np.cumsum(one, out=cum[1:])
        ones = cum[ends] - cum[starts].astype(np.int64)
        zeros = sizes - ones
        idx1 = np.flatnonzero(one)
        pairs = ones * (zeros + starts) + ones * (ones - 1) // 2
        if d == 1:
            total[0] += int(pairs.sum()) - int(idx1.sum(dtype=np.int64))
        else:
            total += np.bincount(row, pairs, minlength=d) - np.bincount(idx1 // n, idx1, minlength=d)
        if b == 0:
            break
        np.logical_not(one, out=zero)
        idx0 = np.flatnonzero(zero)
        dest = np.repeat(np.cumsum(ones) - ones, zeros)
        dest += at[:idx0.size]
        nxt[dest] = v[idx0]
        dest = np.repeat(np.cumsum(zeros), ones)
        dest += at[:idx1.size]
        nxt[dest] = v[idx1]
        v, nxt = nxt, v
        sizes = np.stack([zeros, ones], 1).ravel()
        keep = sizes > 0
        if d > 1:
            row = np.repeat(row, 2)[keep]
        sizes = sizes[keep]
    return total


def _by_preds(p: np.ndarray, rt: np.ndarray, width: int) -> Tuple[np.ndarray, np.ndarray, Any, Any]:
    """The target's dense ranks ``rt`` (flat) in lexicographic (preds, target) order per row of ``p`` ``(d, n)``,
    the flat flags of the first samples of the runs of equal preds in that order, and the flat starts and
    lengths of the runs of equal (preds, target) (None without a tie in preds). Where preds fit 32 bits, one
    packed sort of (row, preds, target's rank) gives it all; else an argsort of preds, then a re-sort of the
    samples in runs of tied preds."""
    d, n = p.shape
    packed = segment_sort_payload(np.repeat(np.arange(d, dtype=np.int64), n), p.ravel(), rt, n_segments=d,
                                  descending=False)
    if packed is None:
        p_order, p_sorted = _sorted_rows(p)
        p_flag = _dense(p_sorted)[1].ravel()
        rt_by_p = rt[p_order]
        if p_flag.all():  # no tie in preds: their order is the lexicographic one, no joint tie
            return rt_by_p, p_flag, None, None
        order_rt, (j_starts, j_sizes) = _lexicographic(rt_by_p, p_flag, width)
        return order_rt, p_flag, j_starts, j_sizes
    keys, order_rt = packed
    p_flag = np.empty(d * n, dtype=bool)
    p_flag[0] = True
    np.not_equal(keys[1:], keys[:-1], out=p_flag[1:])
    if p_flag.all():
        return order_rt, p_flag, None, None
    j_flag = p_flag.copy()
    j_flag[1:] |= order_rt[1:] != order_rt[:-1]
    j_starts = np.flatnonzero(j_flag)
    return order_rt, p_flag, j_starts, np.diff(j_starts, append=d * n)


def _integer_codes(x: np.ndarray) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """:func:`_codes` of integer values spanning less than :data:`TABLE_DISTINCT` ``* 16``: a presence table
    of the (row, value) pairs, no sort; else None."""
    d, n = x.shape
    lo, hi = x.min(), x.max()
    integral = x.dtype.kind in "iu"
    # Python ints: the span of int64 values may not fit int64; NaN and inf fail here
    if not float(hi) - float(lo) < TABLE_DISTINCT * 16 or not (integral or np.array_equal(np.floor(x), x)):
        return None
    span = int(hi) - int(lo) + 1
    cells = (x - lo).astype(np.int64)  # exact: integers whose difference is small
    if d > 1:
        cells += np.arange(d, dtype=np.int64)[:, None] * span
    present = np.bincount(cells.ravel(), minlength=d * span).reshape(d, span) > 0
    code = np.cumsum(present, axis=1) - 1
    return code.ravel()[cells], present.sum(1)


def _codes(x: np.ndarray) -> Optional[Tuple[np.ndarray, np.ndarray]]:
    """Per row of ``x`` ``(d, n)`` with few distinct values (at most :data:`TABLE_DISTINCT` over all rows, each
    fitting 32 bits): each sample's 0-based dense rank in its row and each row's number of distinct values
    (integers: a presence table; others: one sort of the packed (row, value) keys and a binary search of the
    small table of distinct keys); else None."""
    d, n = x.shape
    sample = x[:, ::max(n // max(8 * TABLE_DISTINCT, 1), 1)]  # a cheap probe: a strided sample, many values
    if np.unique(sample).size > TABLE_DISTINCT:
        return None
    if x.dtype.kind in "iu" or np.array_equal(np.floor(sample), sample):
        found = _integer_codes(x)
        if found is not None:
            return found
    key = key32(x.ravel())
    if key is None:
        return None
    row_key = np.arange(d, dtype=np.int64) << 32
    if d > 1:
        key |= np.repeat(row_key, n)
    table = np.sort(key)
    first = np.empty(table.size, dtype=bool)
    first[0] = True
    np.not_equal(table[1:], table[:-1], out=first[1:])
    table = table[first]
    if table.size > TABLE_DISTINCT:
        return None
    row_first = np.searchsorted(table, row_key)
    codes = np.searchsorted(table, key).reshape(d, n) - row_first[:, None]
    return codes, np.diff(row_first, append=table.size)


def _table_counts(p: np.ndarray, t: np.ndarray, out: np.ndarray) -> bool:
    """Kendall's counts (rows 1.. of ``out``) from each row's contingency table of the dense ranks of ``p`` and
    ``t`` where both have few distinct values: the discordant pairs are ``sum C[i, j] C[i', j']`` over
    ``i' > i``, ``j' < j`` (exact int64 cumulative sums of the table), the ties follow from its cells and
    margins. False (``out`` untouched) where the values are too many for the table."""
    d, n = p.shape
    cp, ct = _codes(p), _codes(t)
    if cp is None or ct is None:
        return False
    (rp, mp), (rt, mt) = cp, ct
    wp, wt = int(mp.max()), int(mt.max())
    if d * wp * wt > max(d * n, 1 << 16):  # a table larger than the data: the sorting path is cheaper
        return False
    cells = ((np.arange(d)[:, None] * wp + rp) * wt + rt).ravel()
    c = np.bincount(cells, minlength=d * wp * wt).reshape(d, wp, wt)
    below = np.cumsum(c[:, ::-1], axis=1)[:, ::-1] - c  # same target rank, larger preds rank
    left = np.cumsum(below, axis=2) - below  # ... and a smaller target rank
    out[4] = (c * left).sum((1, 2))
    out[3] = np.bincount(np.repeat(np.arange(d), wp * wt), (c * (c - 1) // 2).ravel().astype(np.float64),
                         minlength=d)
    for margin, count, rows in ((c.sum(2), mp, (1, 5, 7, 8)), (c.sum(1), mt, (2, 6, 9, 10))):
        starts = np.flatnonzero(margin.ravel())  # runs in value order; a row's runs come before the next row's
        size = margin.shape[1]
        sums = _tie_sums(starts // size * n, margin.ravel()[starts], d, n)
        out[rows[0]], out[rows[1]], out[rows[2]], out[rows[3]] = sums[1], count, sums[2], sums[3]
    return True


def kendall_counts(preds: Tensor, target: Tensor) -> np.ndarray:
    """Kendall's pair counts of each column of ``preds``, ``target`` ``(N, d)`` (``(N,)``: one column): a
    float64 ``(11, d)`` host array with the rows :data:`KENDALL_ROWS`: ``n``; the tied pairs in ``preds``, in ``target``
    and in both; the discordant pairs (strictly opposite order); the numbers of distinct values; and per input
    the tie sums ``sum t(t-1)(t-2)`` and ``sum t(t-1)(2t+5)`` of the p-value's variance. A column with NaN
    (unchecked input) gets NaN counts."""
    p, t = _host_rows(preds), _host_rows(target)
    d, n = p.shape
    out = np.zeros((len(KENDALL_ROWS), d))
    out[0] = n
    if n and not _table_counts(p, t, out):
        t_order, t_sorted = _sorted_rows(t)
        t_dense, t_flag = _dense(t_sorted)
        rt = np.empty(d * n, dtype=t_dense.dtype)
        rt[t_order] = t_dense.ravel()
        order_rt, p_flag, j_starts, j_sizes = _by_preds(p, rt, int(t_dense[:, -1].max()) + 1)
        joint = np.zeros(d) if j_starts is None else _tie_sums(j_starts, j_sizes, d, n)[1]
        p_starts, t_starts = np.flatnonzero(p_flag), np.flatnonzero(t_flag)
        tp = _tie_sums(p_starts, np.diff(p_starts, append=d * n), d, n, p_flag.reshape(d, n).sum(1))
        tt = _tie_sums(t_starts, np.diff(t_starts, append=d * n), d, n, t_flag.sum(1))
        out[1], out[2], out[3] = tp[1], tt[1], joint
        out[4] = inversions(order_rt.reshape(d, n))
        out[5], out[6] = tp[0], tt[0]
        out[7:9], out[9:11] = tp[2:], tt[2:]
    if n:  # NaN (unchecked input, validate_args=False) has no rank: NaN counts, so NaN tau and p (as scipy)
        out[1:, np.isnan(p).any(1) | np.isnan(t).any(1)] = np.nan
    return out
