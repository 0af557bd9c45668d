"""The numpy side of the retrieval kernels (no torch import: the command line runs on it alone).

:func:`rank` is the CPU ranking (its measures run in :data:`~torchmetrics_lite._xp.NUMPY`): ONE numpy sort of
packed int64 keys. With ``ties="average"`` and whole-number
grades the key is (query, score, grade), so the sorted keys alone give the ranked grades and the tie groups
(the order inside a group does not matter); otherwise (query, score, position) is sorted, grouping by query
first when the three do not fit 63 bits (:func:`~torchmetrics_lite._sort_keys.segment_order`).
"""
from __future__ import annotations

from typing import Any, NamedTuple, Optional

import numpy as np

from torchmetrics_lite._sort_keys import segment_order, segment_sort_payload
from torchmetrics_lite._xp import NUMPY
from torchmetrics_lite.functional.retrieval._kernels import Ranked, Runs, build, runs_of_sorted

__all__ = ["rank", "ideal_runs"]

class _Items(NamedTuple):
    q: np.ndarray  # (n,) int64 query of each item
    rel: np.ndarray  # (n,) its grade
    n_queries: int


def ideal_runs(q: np.ndarray, rel: np.ndarray, n_queries: int) -> Runs:
    """The runs of equal grades of each query's ideal order (grades descending) of items in any order (see
    :func:`_ideal_runs`)."""
    return _ideal_runs(_Items(q, rel, n_queries))


def _ideal_runs(items: Any) -> Runs:
    """:func:`ideal_runs` of a :class:`Ranked` or :class:`_Items` (the ranking's ``Ranked.ideal``): a histogram of
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
    qstart = NUMPY.cumsum0(np.bincount(q, minlength=n_queries))[:-1]
    return runs_of_sorted(NUMPY, q.take(order), rel.take(order), qstart)


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
        return build(NUMPY, q, rel, new, n_items, _ideal_runs)
    return _head(q, rel, new, n_items, cut)


def _head(q: np.ndarray, rel: np.ndarray, new: Optional[np.ndarray], n_items: np.ndarray, cut: int) -> Ranked:
    """The ranking restricted to the tie groups that start above rank ``cut`` of their query (a prefix of each
    query), with the counts of the whole ranking."""
    starts = NUMPY.cumsum0(n_items)
    qstart = starts[:-1]
    end = qstart + np.minimum(n_items, cut)  # a prefix of each query ...
    if new is not None:  # ... extended to the end of a tie group that straddles the cut-off
        group_start = np.flatnonzero(new)
        last = np.flatnonzero(n_items > cut)
        after = np.searchsorted(group_start, qstart.take(last) + cut, side="left")
        end[last] = np.append(group_start, q.shape[0]).take(after)
        end = np.minimum(end, starts[1:])
    length = end - qstart
    sel = np.arange(int(length.sum()), dtype=np.int64) + np.repeat(qstart - NUMPY.cumsum0(length)[:-1], length)
    q_all, rel_all = q, rel
    q, rel = q.take(sel), rel.take(sel)
    head = build(NUMPY, q, rel, None if new is None else new.take(sel), length,
                 lambda r: ideal_runs(q_all, rel_all, r.n_queries))
    n_rel = np.bincount(q_all, rel_all > 0, minlength=n_items.shape[0]).astype(np.int64)
    return head._replace(n_items=n_items, n_rel=n_rel)
