"""Rank kernels of Spearman's rho and Kendall's tau, numpy on the host, one output column per row.

* :func:`average_ranks`: per row, the 1-based ranks with ties given their group's average rank (one SIMD
  argsort per row block, then one ``repeat`` of the group averages: no loop over samples or groups).
* :func:`kendall_counts`: per row pair, the pair counts of Kendall's tau in ``O(n log n)``: the samples are put
  in lexicographic ``(preds, target)`` order by one argsort of ``preds`` (and, where ``preds`` has ties, a stable
  sort of the packed (run of preds, dense rank of target) key, which moves only the tied samples); the tie sums follow
  from the sorted runs; the discordant pairs are the inversions of the target's dense ranks in that order,
  counted by :func:`inversions` in ``ceil(log2 m)`` vectorised passes (``m`` distinct targets), each a stable
  partition by one bit of the rank (the levels of a wavelet tree): a pair ``i < j`` is an inversion exactly
  when, at the highest bit where the ranks differ, ``r_i`` has a 1 and ``r_j`` a 0, and within each group of
  equal higher bits those pairs follow from the group's counts and the positions of its ones.

Inputs of another device are copied to the host (these run at ``compute``, on the kept values); the counts stay
float64 numpy arrays, and only the final values take the device's floating dtype.
"""
from __future__ import annotations

from typing import Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._backend import host
from torchmetrics_lite._dtype import float_dtype

__all__ = ["average_ranks", "kendall_counts", "inversions", "KENDALL_ROWS"]

#: the rows of :func:`kendall_counts`' result
KENDALL_ROWS = ("n", "ties_p", "ties_t", "ties_joint", "discordant", "distinct_p", "distinct_t",
                "ties_p_cubic", "ties_p_var", "ties_t_cubic", "ties_t_var")


def _host_rows(x: Tensor) -> np.ndarray:
    """``(N, d)`` tensor as a C-contiguous ``(d, N)`` host array (float64 for integer input: exact)."""
    a = host(x.detach().cpu())
    if not np.issubdtype(a.dtype, np.floating):
        a = a.astype(np.float64)
    return np.ascontiguousarray(a.T)


def _runs(sorted_rows: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Starts (flat indices) and lengths of the runs of equal values in each sorted row of ``(d, n)``."""
    d, n = sorted_rows.shape
    flag = np.empty((d, n), dtype=bool)
    flag[:, 0] = True
    np.not_equal(sorted_rows[:, 1:], sorted_rows[:, :-1], out=flag[:, 1:])
    starts = np.flatnonzero(flag)
    return starts, np.diff(starts, append=d * n)


def average_ranks(x: Tensor) -> Tensor:
    """Average ranks (1-based) of each column of ``x`` ``(N, d)``, returned ``(d, N)`` on ``x``'s device in its
    floating dtype (float64; float32 on a device without it: exact up to 2**23 samples): tied values get the
    mean of the ranks they span (scipy's ``rankdata(method="average")``)."""
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


def _dense(a: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row of ``(d, n)``: the 0-based dense ranks (int64), the sorting permutation and the runs of the
    sorted row (run ids are global over the rows; each row's are shifted to start at 0)."""
    d, n = a.shape
    order = np.argsort(a, axis=1)
    starts, sizes = _runs(np.take_along_axis(a, order, 1))
    dense = np.empty((d, n), dtype=np.int64)
    run_id = np.repeat(np.arange(starts.size), sizes).reshape(d, n)
    first_run = np.searchsorted(starts, np.arange(d) * n)  # the id of each row's first run
    np.put_along_axis(dense, order, run_id - first_run[:, None], 1)
    return dense, order, starts, sizes


def _tie_sums(starts: np.ndarray, sizes: np.ndarray, d: int, n: int) -> np.ndarray:
    """Per row: the number of runs, ``sum t(t-1)/2``, ``sum t(t-1)(t-2)`` and ``sum t(t-1)(2t+5)`` over the
    runs' lengths ``t`` (float64; the pair count is exact below 2**53)."""
    row = starts // n
    t = sizes.astype(np.float64)
    pairs = t * (t - 1)
    return np.stack([np.bincount(row, minlength=d).astype(np.float64),
                     np.bincount(row, pairs / 2, minlength=d),
                     np.bincount(row, pairs * (t - 2), minlength=d),
                     np.bincount(row, pairs * (2 * t + 5), minlength=d)])


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
    dtype = np.int32 if size < 2**31 and top < 2**31 else np.int64
    v = np.ascontiguousarray(ranks, dtype=dtype).ravel()
    nxt, bit = np.empty_like(v), np.empty_like(v)
    one = np.empty(size, dtype=bool)
    cum = np.zeros(size + 1, dtype=np.int64)
    sizes, row = np.full(d, n, dtype=np.int64), np.arange(d)  # the non-empty groups, in arrangement order
    for b in range(top.bit_length() - 1, -1, -1):
        np.right_shift(v, b, out=bit)
        np.bitwise_and(bit, 1, out=bit)
        np.not_equal(bit, 0, out=one)
        ends = np.cumsum(sizes)
        starts = ends - sizes
        np.cumsum(one, out=cum[1:])
        ones = cum[ends] - cum[starts]
        zeros = sizes - ones
        idx1 = np.flatnonzero(one)
        pos_sum = np.array([idx1.sum(dtype=np.int64)]) if d == 1 else np.bincount(idx1 // n, idx1, minlength=d)
        total += np.bincount(row, ones * zeros + ones * starts + ones * (ones - 1) // 2, minlength=d) - pos_sum
        if b == 0:
            break
        idx0 = np.flatnonzero(~one)
        nxt[np.arange(idx0.size, dtype=dtype) + np.repeat((np.cumsum(ones) - ones).astype(dtype), zeros)] = v[idx0]
        nxt[np.arange(idx1.size, dtype=dtype) + np.repeat(np.cumsum(zeros).astype(dtype), ones)] = v[idx1]
        v, nxt = nxt, v
        sizes, row = np.stack([zeros, ones], 1).ravel(), np.repeat(row, 2)
        keep = sizes > 0
        sizes, row = sizes[keep], row[keep]
    return total


def kendall_counts(preds: Tensor, target: Tensor) -> np.ndarray:
    """Kendall's pair counts of each column of ``preds``, ``target`` ``(N, d)``: a float64 ``(11, d)`` host
    array with the rows :data:`KENDALL_ROWS`: ``n``; the tied pairs in ``preds``, in ``target``
    and in both; the discordant pairs (strictly opposite order); the numbers of distinct values; and per input
    the tie sums ``sum t(t-1)(t-2)`` and ``sum t(t-1)(2t+5)`` of the p-value's variance."""
    p, t = _host_rows(preds), _host_rows(target)
    d, n = p.shape
    out = np.zeros((len(KENDALL_ROWS), d))
    out[0] = n
    if n:
        p_order = np.argsort(p, axis=1)
        p_starts, p_sizes = _runs(np.take_along_axis(p, p_order, 1))
        rt, _, t_starts, t_sizes = _dense(t)
        rt_by_p = np.take_along_axis(rt, p_order, 1)
        if p_starts.size == d * n:  # no tie in preds: their order is the lexicographic one, no joint tie
            order_rt, joint = rt_by_p, np.zeros(d)
        else:  # (run of preds, target) packed; already sorted by the run: only ties of preds move
            run = np.repeat(np.arange(p_starts.size), p_sizes).reshape(d, n)
            key = run * (int(rt.max()) + 1) + rt_by_p
            fix = np.argsort(key, axis=1, kind="stable")
            order_rt = np.take_along_axis(rt_by_p, fix, 1)
            key_starts, key_sizes = _runs(np.take_along_axis(key, fix, 1))
            joint = _tie_sums(key_starts, key_sizes, d, n)[1]
        tp, tt = _tie_sums(p_starts, p_sizes, d, n), _tie_sums(t_starts, t_sizes, d, n)
        out[1], out[2], out[3] = tp[1], tt[1], joint
        out[4] = inversions(order_rt)
        out[5], out[6] = tp[0], tt[0]
        out[7:9], out[9:11] = tp[2:], tt[2:]
    return out
