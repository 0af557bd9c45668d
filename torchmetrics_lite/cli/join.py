"""Stage 3 of the command line: the run joined with its qrels (numpy alone, no torch).

:func:`join` keeps the run's documents of the queries in both files, each with its judged relevance: one sort
of the packed (query, document) keys of both files (:func:`~torchmetrics_lite.cli.ids.lookup`).
"""
from __future__ import annotations

from typing import List, NamedTuple, Tuple

import numpy as np

from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.files import Qrels, Run
from torchmetrics_lite.cli.ids import Vocab, check_unique, lookup


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
