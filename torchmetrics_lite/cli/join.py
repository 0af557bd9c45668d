"""Stage 3 of the command line: the run joined with its qrels (numpy alone, no torch).

:func:`join` keeps the run's documents of the queries in both files, each with its judged relevance: one sort
of the packed (query, document) keys of both files (:func:`~torchmetrics_lite.cli.ids.lookup`).
"""
from __future__ import annotations

import sys
from typing import List, NamedTuple, Tuple

import numpy as np

from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.files import Qrels, Run
from torchmetrics_lite.cli.ids import Vocab, check_unique, first_repeat, lookup


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
    unretrieved: int = 0  # queries in the qrels and not in the run


def join(qrels: Qrels, run: Run, queries: Vocab, docs: Vocab, *, order: str = "natural",
         keep: str = "both", repeats: str = "error") -> Joined:
    """The run's documents of the evaluated queries, with their judged relevance (one sort of the packed (query,
    document) keys of both files). The evaluated queries are those in both files (``keep="both"``) or every
    query of the qrels (``"qrels"``: trec_eval's ``-c``), ordered by number then id (``order="natural"``) or by
    the bytes of their ids (``"bytes"``: trec_eval's ``strcmp``). A document judged or retrieved twice stops with
    its ``file:line``; with ``repeats="warn"`` (trec_eval, which never reads the queries it does not evaluate)
    only in an evaluated query, and elsewhere a warning on stderr names the first one."""
    q_codes = queries.codes()
    n_codes = queries.unique.size
    q_bits = max(n_codes - 1, 1).bit_length()
    doc_keys, doc_bits = docs.keys(62 - q_bits)  # (query, document) packed in 62 bits, tagged in 63
    qrels_q, run_q, qrels_doc, run_doc = q_codes[qrels.q], q_codes[run.q], doc_keys[qrels.doc], doc_keys[run.doc]
    judged_key, run_key = (qrels_q << doc_bits) | qrels_doc, (run_q << doc_bits) | run_doc
    qrels_rel, score = qrels.rel, run.score
    in_qrels, in_run = np.bincount(qrels_q, minlength=n_codes) > 0, np.bincount(run_q, minlength=n_codes) > 0
    wanted = in_qrels if keep == "qrels" else in_run & in_qrels
    low = int(qrels_rel.min(initial=0))
    found = lookup(judged_key, qrels_rel - (low - 1), run_key, q_bits + doc_bits)  # 0: not judged
    if found is None and repeats == "warn":  # repeats outside the evaluated queries are left with them
        warning = first_repeat(qrels.path, qrels.lines, judged_key, "judged", qrels_q, qrels_doc, queries, docs) or \
            first_repeat(run.path, run.lines, run_key, "retrieved", run_q, run_doc, queries, docs)
        qk, rk = np.flatnonzero(wanted.take(qrels_q)), np.flatnonzero(wanted.take(run_q))
        qrels = qrels._replace(lines=qrels.lines.take(qk))
        run = run._replace(lines=run.lines.take(rk))
        qrels_q, qrels_doc, judged_key, qrels_rel = (a.take(qk) for a in (qrels_q, qrels_doc, judged_key, qrels_rel))
        run_q, run_doc, run_key, score = (a.take(rk) for a in (run_q, run_doc, run_key, score))
        found = lookup(judged_key, qrels_rel - (low - 1), run_key, q_bits + doc_bits)
        if found is not None:
            sys.stderr.write(f"trec_eval: warning: {warning}, in a query not evaluated: ignored\n")
    if found is None:  # a pair repeats: report its line
        check_unique(qrels.path, qrels.lines, judged_key, "judged", qrels_q, qrels_doc, queries, docs)
        check_unique(run.path, run.lines, run_key, "retrieved", run_q, run_doc, queries, docs)
        raise AssertionError("a repeated (query, document) pair was not found")  # pragma: no cover
    judged = found > 0
    rel = np.where(judged, found + (low - 1), 0) if low != 1 else found
    evaluated = np.flatnonzero(wanted)
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
        q, score, rel, doc, judged = q.take(kept), score.take(kept), rel.take(kept), run_doc.take(kept), \
            judged.take(kept)
    else:
        doc = run_doc
    jq = index.take(qrels_q)
    mine = np.flatnonzero(jq >= 0)
    return Joined([name for name, _ in named], q, score, rel, doc, jq.take(mine), qrels_rel.take(mine), judged,
                  int((in_qrels & ~in_run).sum()))
