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
    judged_q: np.ndarray  # query of each judgement of the evaluated queries
    judged_rel: np.ndarray  # its relevance
    judged: np.ndarray  # (n,) bool: the retrieved document has a judgement


def join(qrels: Qrels, run: Run, queries: Vocab, docs: Vocab, *, order: str = "natural",
         keep: str = "both") -> Joined:
    """The run's documents of the evaluated queries, with their judged relevance (one sort of the packed (query,
    document) keys of both files). The evaluated queries are those in both files (``keep="both"``) or every
    query of the qrels (``"qrels"``: trec_eval's ``-c``), ordered by number then id (``order="natural"``) or by
    the bytes of their ids (``"bytes"``: trec_eval's ``strcmp``)."""
    q_codes = queries.codes()
    n_codes = queries.unique.size
    q_bits = max(n_codes - 1, 1).bit_length()
    doc_keys, doc_bits = docs.keys(62 - q_bits)  # (query, document) packed in 62 bits, tagged in 63
    qrels_q, run_q, qrels_doc, run_doc = q_codes[qrels.q], q_codes[run.q], doc_keys[qrels.doc], doc_keys[run.doc]
    judged_key, run_key = (qrels_q << doc_bits) | qrels_doc, (run_q << doc_bits) | run_doc
    low = int(qrels.rel.min(initial=0))
    found = lookup(judged_key, qrels.rel - (low - 1), run_key, q_bits + doc_bits)  # 0: not judged
    if found is None:  # a pair repeats: report its line
        check_unique(qrels.path, qrels.lines, judged_key, "judged", qrels_q, qrels_doc, queries, docs)
        check_unique(run.path, run.lines, run_key, "retrieved", run_q, run_doc, queries, docs)
        raise AssertionError("a repeated (query, document) pair was not found")  # pragma: no cover
    judged = found > 0
    rel = np.where(judged, found + (low - 1), 0) if low != 1 else found
    in_qrels = np.bincount(qrels_q, minlength=n_codes) > 0
    evaluated = np.flatnonzero(in_qrels if keep == "qrels" else (np.bincount(run_q, minlength=n_codes) > 0) & in_qrels)
    if not evaluated.size:
        raise CliError("no query of the run has judgements in the qrels")
    names = queries.names(evaluated)
    named = sorted(zip(names, evaluated.tolist()), key=lambda x: _natural_key(x[0])) if order == "natural" else \
        list(zip(names, evaluated.tolist()))
    index = np.full(n_codes, -1, dtype=np.int64)
    index[[code for _, code in named]] = np.arange(len(named))
    q = index.take(run_q)
    kept = np.flatnonzero(q >= 0)
    if kept.size < q.size:
        q, score, rel, doc, judged = q.take(kept), run.score.take(kept), rel.take(kept), run_doc.take(kept), \
            judged.take(kept)
    else:
        score, doc = run.score, run_doc
    jq = index.take(qrels_q)
    mine = np.flatnonzero(jq >= 0)
    return Joined([name for name, _ in named], q, score, rel, doc, jq.take(mine), qrels.rel.take(mine), judged)
