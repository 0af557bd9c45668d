"""The run joined with its qrels and ranked trec_eval's way, for the command line (numpy alone, no torch).

:func:`join` keeps the run's documents of the queries in both files, each with its judged relevance (one sort
of the packed (query, document) keys of both files); :func:`ranking` orders them by query, then descending
score (ties: the expectation over their orders, or trec_eval's descending docid), and keeps the tie groups that
hold a relevant document: the command line's measures add nothing for the others.
"""
from __future__ import annotations

from typing import Any, List, NamedTuple, Optional, Tuple

import numpy as np

from torchmetrics_lite._trec_files import CliError, Qrels, Run
from torchmetrics_lite._trec_ids import Vocab, check_unique, lookup


def _natural_key(qid: str) -> Tuple[int, int, str]:
    # isdecimal, not isdigit: int() rejects digits such as '²'; the id itself breaks ties such as '7' / '07'
    return (0, int(qid), qid) if qid.isdecimal() else (1, 0, qid)


class Joined(NamedTuple):
    qids: List[str]  # evaluated queries, in output order
    q: np.ndarray  # (n,) query of each retrieved document (index into qids)
    score: np.ndarray  # (n,) float64
    rel: np.ndarray  # (n,) int64 judged relevance (0 when unjudged)
    doc: np.ndarray  # (n,) document key: in byte order of the document ids
    judged_q: np.ndarray  # query of each judgement with relevance > 0
    judged_rel: np.ndarray  # its relevance


def join(qrels: Qrels, run: Run, queries: Vocab, docs: Vocab) -> Joined:
    """The run's documents of the queries present in both files, with their judged relevance (one sort of the
    packed (query, document) keys of both files)."""
    q_codes = queries.codes()
    n_codes = queries.unique.size
    q_bits = max(n_codes - 1, 1).bit_length()
    doc_keys, doc_bits = docs.keys(62 - q_bits)  # (query, document) packed in 62 bits, tagged in 63
    qrels_q, run_q, qrels_doc, run_doc = q_codes[qrels.q], q_codes[run.q], doc_keys[qrels.doc], doc_keys[run.doc]
    judged_key, run_key = (qrels_q << doc_bits) | qrels_doc, (run_q << doc_bits) | run_doc
    rel = lookup(judged_key, qrels.rel, run_key, q_bits + doc_bits)
    if rel is None:  # a pair repeats: report its line
        check_unique(qrels.path, qrels.lines, judged_key, "judged", qrels_q, qrels_doc, queries, docs)
        check_unique(run.path, run.lines, run_key, "retrieved", run_q, run_doc, queries, docs)
        raise AssertionError("a repeated (query, document) pair was not found")  # pragma: no cover
    both = np.flatnonzero((np.bincount(run_q, minlength=n_codes) > 0) & (np.bincount(qrels_q, minlength=n_codes) > 0))
    if not both.size:
        raise CliError("no query of the run has judgements in the qrels")
    named = sorted(zip(queries.names(both), both.tolist()), key=lambda x: _natural_key(x[0]))
    index = np.full(n_codes, -1, dtype=np.int64)
    index[[code for _, code in named]] = np.arange(len(named))
    q = index.take(run_q)
    keep = np.flatnonzero(q >= 0)
    if keep.size < q.size:
        q, score, rel, doc = q.take(keep), run.score.take(keep), rel.take(keep), run_doc.take(keep)
    else:
        score, doc = run.score, run_doc
    jq = index.take(qrels_q)
    positive = np.flatnonzero((jq >= 0) & (qrels.rel > 0))
    return Joined([name for name, _ in named], q, score, rel, doc, jq.take(positive), qrels.rel.take(positive))


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
    from torchmetrics_lite.functional.retrieval import _kernels as K
    from torchmetrics_lite.functional.retrieval import _numpy_kernels as NK

    at = np.flatnonzero(rel > 0)
    gq = q.take(at)
    first = np.cumsum(n_items) - n_items  # ranked position of each query's first document
    found = np.bincount(gq, minlength=n_items.shape[0])
    index, one = np.arange(at.shape[0]), np.ones(at.shape[0], dtype=np.int64)
    return K.Ranked(NK.NUMPY, rel.take(at), gq, index, one, gq, at - first.take(gq), one,
                    index - (np.cumsum(found) - found).take(gq), n_items, found, first, n_items.shape[0])


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
    ideal = NK.ideal_runs(joined.judged_q, joined.judged_rel, nq)
    n_rel = np.bincount(joined.judged_q, minlength=nq).astype(np.int64)
    return ranked._replace(ops=NK.NUMPY._replace(ideal_runs=lambda _: ideal), n_rel=n_rel)
