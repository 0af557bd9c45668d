"""The numpy side of the retrieval kernels (no torch import: the command line runs on it alone).

:data:`NUMPY` is the :class:`~torchmetrics_lite.functional.retrieval._kernels.Ops` of numpy arrays and
:func:`rank` the CPU ranking: ONE numpy sort of packed int64 keys. With ``ties="average"`` and whole-number
grades the key is (query, score, grade), so the sorted keys alone give the ranked grades and the tie groups
(the order inside a group does not matter); otherwise (query, score, position) is sorted, grouping by query
first when the three do not fit 63 bits (:func:`~torchmetrics_lite._sort_keys.segment_order`).
"""
from __future__ import annotations

import math
from functools import partial
from typing import Any, NamedTuple, Optional

import numpy as np

from torchmetrics_lite._sort_keys import segment_order, segment_sort_payload
from torchmetrics_lite.functional.retrieval._kernels import Ops, Ranked, Runs, build, runs_of_sorted

__all__ = ["NUMPY", "rank", "ideal_runs"]


def _cumsum0(x: np.ndarray) -> np.ndarray:
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = np.zeros(x.shape[0] + 1, dtype=dtype)
    np.cumsum(x, out=out[1:])
    return out


def _segsum(values: np.ndarray, ids: np.ndarray, n: int) -> np.ndarray:
    return np.bincount(ids, values, minlength=n).astype(np.float64, copy=False)


def _lgamma(x: np.ndarray) -> np.ndarray:
    """log Gamma of whole numbers >= 1, from a table of ``math.lgamma`` (exact to the last bit)."""
    if x.size == 0:
        return np.zeros(0)
    top = int(x.max())
    table = np.array([0.0] + [math.lgamma(v) for v in range(1, top + 1)])
    return table.take(x.astype(np.int64))


def _span(n: int, k: Optional[int], *counts: np.ndarray) -> int:
    """``1 + min(k, the largest count)`` (``k=None``: the largest count)."""
    longest = 0
    for c in counts:
        longest = max(longest, int(c.max(initial=0)))
    return 1 + (longest if k is None else min(k, longest))


def _table(term: str, n: int, k: Optional[int], *counts: np.ndarray) -> np.ndarray:
    """``Ops.table``: prefix sums ``T[i] = sum_{p=1..i} t(p)`` of ``t(p) = 1/log2(p+1)`` (``"discount"``) or
    ``1/p`` (``"reciprocal"``), for ``i`` up to ``min(k, the largest count)`` (:func:`_span`)."""
    length = _span(n, k, *counts)
    pos = np.arange(length - 1, dtype=np.int64).astype(np.float64) + 1.0
    out = np.zeros(length, dtype=np.float64)
    np.cumsum(1.0 / np.log2(pos + 1.0) if term == "discount" else 1.0 / pos, out=out[1:])
    return out


class _Items(NamedTuple):
    q: np.ndarray  # (n,) int64 query of each item
    rel: np.ndarray  # (n,) its grade
    n_queries: int


def ideal_runs(q: np.ndarray, rel: np.ndarray, n_queries: int) -> Runs:
    """The runs of equal grades of each query's ideal order (grades descending) of items in any order (see
    :func:`_ideal_runs`)."""
    return _ideal_runs(_Items(q, rel, n_queries))


def _ideal_runs(items: Any) -> Runs:
    """:func:`ideal_runs` of a :class:`Ranked` or :class:`_Items` (``Ops.ideal_runs``): a histogram of
    (query, grade) for whole-number grades, else a sort by (query, grade)."""
    q, rel, n_queries = items.q, items.rel, items.n_queries
    top = int(rel.max(initial=0))
    whole = rel.dtype.kind in "biu" or np.array_equal(np.floor(rel), rel)
    if rel.size and n_queries * (top + 1) <= 4 * rel.size + 1024 and whole:
        counts = np.bincount(q * (top + 1) + (top - rel.astype(np.int64)), minlength=n_queries * (top + 1))
        above = np.cumsum(counts.reshape(n_queries, top + 1), axis=1).reshape(-1) - counts  # grades descending
        nz = np.flatnonzero(counts)
        return Runs(nz // (top + 1), above.take(nz), counts.take(nz), (top - nz % (top + 1)).astype(np.float64))
    order = segment_order(q, rel, n_segments=n_queries, descending=True)
    qstart = _cumsum0(np.bincount(q, minlength=n_queries))[:-1]
    return runs_of_sorted(NUMPY, q.take(order), rel.take(order), qstart)


NUMPY = Ops(
    name="numpy",
    real=partial(np.asarray, dtype=np.float64),  # numpy callables, not lambdas: no Python frame per call
    cumsum0=_cumsum0,
    take=np.ndarray.take,  # the method: np.take adds a Python wrapper call per gather
    segsum=_segsum,
    nonzero=np.flatnonzero,
    arange=lambda n, like: np.arange(n, dtype=np.int64),
    repeat=np.ndarray.repeat,
    cap=np.minimum,
    clip0=lambda x, hi: np.minimum(np.maximum(x, 0), hi),
    where=np.where,
    log=np.log,
    log2=np.log2,
    exp=np.exp,
    exp2=np.exp2,
    lgamma=_lgamma,
    ceil=lambda x: np.ceil(x).astype(np.int64),
    searchsorted=lambda a, v: np.searchsorted(a, v, side="left").astype(np.int64, copy=False),
    span=_span,
    table=_table,
    ideal_runs=_ideal_runs,
)


def rank(qid: np.ndarray, preds: np.ndarray, target: np.ndarray, n_queries: int, ties: str,
         cut: Optional[int] = None, row_length: int = 0) -> Ranked:
    """Rank flat items (int64 query ids in ``[0, n_queries)``, any order) by query, then descending score.

    ``cut``: the measure reads only the ranks up to ``cut`` (its ``k``); the tie groups that start below it are
    dropped after the sort (relevant counts, item counts and the ideal order still cover every item).
    ``row_length > 0``: the items are the full rows of a dense block (query ``i`` is row ``i``), sorted row by
    row."""
    if row_length > 0:
        n_items = np.full(n_queries, row_length, dtype=np.int64)
    else:
        n_items = np.bincount(qid, minlength=n_queries).astype(np.int64, copy=False)
    packed = segment_sort_payload(qid, preds, target, n_segments=n_queries,
                                  row_length=row_length) if ties == "average" else None
    new: Optional[np.ndarray] = None
    if packed is not None:
        keys, rel = packed  # payloads are >= 0
        q = keys >> 32
        if keys.shape[0] > 1:
            new = np.empty(keys.shape[0], dtype=np.bool_)
            new[0] = True
            np.not_equal(keys[1:], keys[:-1], out=new[1:])
    else:
        order = segment_order(qid, preds, n_segments=n_queries, descending=True, stable=ties == "order")
        q = qid.take(order)
        rel = np.maximum(target.take(order).astype(np.float64, copy=False), 0.0)  # < 0: validate_args=False only
        if ties == "average" and q.shape[0] > 1:
            s = preds.take(order)
            new = np.empty(q.shape[0], dtype=np.bool_)
            new[0] = True
            new[1:] = (q[1:] != q[:-1]) | (s[1:] != s[:-1])
    if new is not None and new.all():
        new = None
    if cut is None or q.shape[0] <= 2 * cut * n_queries:
        return build(NUMPY, q, rel, new, n_items)
    return _head(q, rel, new, n_items, cut)


def _head(q: np.ndarray, rel: np.ndarray, new: Optional[np.ndarray], n_items: np.ndarray, cut: int) -> Ranked:
    """The ranking restricted to the tie groups that start above rank ``cut`` of their query (a prefix of each
    query), with the counts of the whole ranking."""
    starts = _cumsum0(n_items)
    qstart = starts[:-1]
    end = qstart + np.minimum(n_items, cut)  # a prefix of each query ...
    if new is not None:  # ... extended to the end of a tie group that straddles the cut-off
        group_start = np.flatnonzero(new)
        last = np.flatnonzero(n_items > cut)
        after = np.searchsorted(group_start, qstart.take(last) + cut, side="left")
        end[last] = np.append(group_start, q.shape[0]).take(after)
        end = np.minimum(end, starts[1:])
    length = end - qstart
    sel = np.arange(int(length.sum()), dtype=np.int64) + np.repeat(qstart - _cumsum0(length)[:-1], length)
    q_all, rel_all = q, rel
    q, rel = q.take(sel), rel.take(sel)
    head = build(NUMPY._replace(ideal_runs=lambda r: ideal_runs(q_all, rel_all, r.n_queries)), q, rel,
                 None if new is None else new.take(sel), length)
    n_rel = np.bincount(q_all, rel_all > 0, minlength=n_items.shape[0]).astype(np.int64)
    return head._replace(n_items=n_items, n_rel=n_rel)
