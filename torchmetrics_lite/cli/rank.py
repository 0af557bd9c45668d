"""Stage 4 of the command line: the joined run ranked trec_eval's way (numpy alone, no torch).

:func:`ranking` orders the documents of :func:`~torchmetrics_lite.cli.join.join` by query, then descending
score (ties: the expectation over their orders, or trec_eval's descending docid), and keeps the tie groups that
hold a relevant document: the ``retrieval`` measures add nothing for the others.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from torchmetrics_lite.cli.join import Joined


def _docid_order(joined: Joined) -> Optional[np.ndarray]:
    """trec_eval's ranking: by query, descending score, then descending docid (only tied documents need their
    docids compared); None when the run lists its documents in that order already."""
    from torchmetrics_lite._sort_keys import segment_order

    order = _listed_order(joined.q, joined.score)
    if order is None:
        order = segment_order(joined.q, joined.score, n_segments=len(joined.qids), descending=True)
    q, s = (joined.q, joined.score) if order is _LISTED else (joined.q.take(order), joined.score.take(order))
    same = np.zeros(q.shape[0], dtype=np.bool_)
    same[1:] = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    tied = np.flatnonzero(same | np.append(same[1:], False))  # ranked positions inside a tie group
    if not tied.size:
        return None if order is _LISTED else order
    if order is _LISTED:
        order = np.arange(q.shape[0])
    group = np.cumsum(~same).take(tied)  # document codes are in byte order of the ids, trec_eval's strcmp
    order[tied] = order.take(tied).take(np.lexsort((-joined.doc.take(order.take(tied)), group)))
    return order


_LISTED = np.zeros(0, dtype=np.int64)  # the order of a run that lists its documents ranked already


def _listed_order(q: np.ndarray, score: np.ndarray) -> Optional[np.ndarray]:
    """The order by query, then descending score, when the run already lists each query's documents together
    by descending score (as runs are written: rank 1 first): :data:`_LISTED` when the queries come in order too,
    else the blocks of queries sorted (no sort of the documents). None when the run is not listed so."""
    n = q.shape[0]
    new = np.empty(n, dtype=np.bool_)
    new[:1] = True
    np.not_equal(q[1:], q[:-1], out=new[1:])
    if not (new[1:] | (score[1:] <= score[:-1])).all():
        return None
    heads = np.flatnonzero(new)
    block_q = q.take(heads)
    if (block_q[1:] > block_q[:-1]).all():
        return _LISTED
    by_q = np.argsort(block_q)
    if (block_q.take(by_q[1:]) == block_q.take(by_q[:-1])).any():  # a query in two blocks
        return None
    size = np.diff(np.append(heads, n)).take(by_q)
    shift = heads.take(by_q) - (np.cumsum(size) - size)  # from a ranked position to the listed one
    return np.arange(n) + np.repeat(shift, size)


def _relevant_groups(ranked: Any) -> Any:
    """The ranking reduced to its tie groups that hold a relevant document. The command line's measures (DCG,
    AP, hits, the first relevant rank) add a term per group that is a multiple of its relevant count (of its
    gain, for DCG), so the other groups add nothing; each kept group keeps the ranks above it (``above``), the
    relevant documents above it (``h``), and the per-query counts stay those of the whole ranking."""
    keep = np.flatnonzero(ranked.r > 0)
    size = ranked.gsize.take(keep)
    start = np.cumsum(size) - size
    items = np.arange(int(size.sum())) + np.repeat(ranked.gstart.take(keep) - start, size)
    return ranked._replace(rel=ranked.rel.take(items), q=ranked.q.take(items), gstart=start, gsize=size,
                           gq=ranked.gq.take(keep), above=ranked.above.take(keep), r=ranked.r.take(keep),
                           h=ranked.h.take(keep))


def _relevant_ranks(q: np.ndarray, rel: np.ndarray, n_items: np.ndarray) -> Any:
    """:func:`_relevant_groups` of a ranking without ties (``q``, ``rel`` in ranked order): each relevant
    document is a group of one, its rank within its query and the relevant documents ranked above it."""
    from torchmetrics_lite._xp import NUMPY
    from torchmetrics_lite.functional.retrieval import _kernels as K

    at = np.flatnonzero(rel > 0)
    gq = q.take(at)
    first = np.cumsum(n_items) - n_items  # ranked position of each query's first document
    found = np.bincount(gq, minlength=n_items.shape[0])
    index, one = np.arange(at.shape[0]), np.ones(at.shape[0], dtype=np.int64)
    return K.Ranked(NUMPY, rel.take(at), gq, index, one, gq, at - first.take(gq), one,
                    index - (np.cumsum(found) - found).take(gq), n_items, found, first, n_items.shape[0],
                    _no_ideal)


def _no_ideal(ranked: Any) -> Any:
    raise AssertionError("the ideal order comes from the qrels (see ranking)")


def ranking(joined: Joined, ties: str) -> Any:
    """The tie groups of the run that hold a relevant document (numpy kernels), with the qrels' relevant counts
    and ideal order."""
    from torchmetrics_lite.functional.retrieval import _numpy_kernels as NK

    nq = len(joined.qids)
    rel = np.maximum(joined.rel, 0)
    if ties == "docid":
        order = _docid_order(joined)
        n_items = np.bincount(joined.q, minlength=nq)
        ranked = _relevant_ranks(*((joined.q, rel) if order is None else (joined.q.take(order), rel.take(order))),
                                 n_items)
    else:
        ranked = _relevant_groups(NK.rank(joined.q, joined.score, rel, nq, "average"))
    positive = np.flatnonzero(joined.judged_rel > 0)
    judged_q, judged_rel = joined.judged_q.take(positive), joined.judged_rel.take(positive)
    ideal = NK.ideal_runs(judged_q, judged_rel, nq)
    n_rel = np.bincount(judged_q, minlength=nq).astype(np.int64)
    return ranked._replace(ideal=lambda _: ideal, n_rel=n_rel)
