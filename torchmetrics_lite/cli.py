"""Command line: ``python -m torchmetrics_lite`` (installed as ``tml-eval``).

``retrieval QRELS RUN -m ndcg@10 map mrr P@5 recall@100 Rprec [--per-query]``
    TREC files: qrels lines ``qid iter docid rel`` and run lines ``qid Q0 docid rank score tag`` (whitespace
    separated; blank lines skipped). Prints trec_eval-style lines ``measure <TAB> qid <TAB> value``: ``num_q``
    then the mean of each measure over the queries (``all``), after one line per query and measure with
    ``--per-query``. As trec_eval: a query is evaluated when it is in both files (queries with no relevant
    document count as 0, ``--empty skip`` leaves them out), documents missing from the qrels are non-relevant,
    relevant documents the run does not retrieve still count (recall, AP and R-precision denominators, the ideal
    DCG), relevance ``<= 0`` is non-relevant (gain 0), and the rank column is ignored (the score orders).
    Tied scores: ``--ties average`` (default, the library's rule: the expected value over random orders of the
    tied documents) or ``--ties docid`` (trec_eval's rule: ties broken by descending docid; then every measure
    equals trec_eval's).

``classify FILE.csv --preds COL --target COL -m auroc ap f1 accuracy precision recall [--threshold T]``
    A CSV file with a header row; ``target`` holds 0/1 labels. Threshold measures count ``preds > T``
    (probabilities, or real scores with ``--from-logits``). Prints ``measure <TAB> value`` lines.

Measures (case-insensitive; a cut-off as ``@k``, or trec_eval's ``_k``/``.k``):

====================  ==================================  ===========================================
measure               trec_eval / pytrec_eval name         function (torchmetrics_lite.functional)
====================  ==================================  ===========================================
``ndcg``, ``ndcg@k``  ``ndcg``, ``ndcg_cut_k``             ``retrieval_normalized_dcg`` (linear gain)
``map``, ``map@k``    ``map``, ``map_cut_k``               ``retrieval_average_precision``
``mrr``, ``mrr@k``    ``recip_rank``                       ``retrieval_reciprocal_rank``
``P@k``               ``P_k``                              ``retrieval_precision``
``recall@k``          ``recall_k``                         ``retrieval_recall``
``success@k``         ``success_k``                        ``retrieval_hit_rate`` (also ``hit_rate@k``)
``Rprec``             ``Rprec``                            ``retrieval_r_precision``
``auroc``, ``ap``     (classify)                           ``binary_auroc``, ``binary_average_precision``
``f1``, ``accuracy``  (classify)                           ``binary_f1_score``, ``binary_accuracy``
``precision``         (classify)                           ``binary_precision``, ``binary_recall``
====================  ==================================  ===========================================

Exit codes: 0 success, 1 unreadable or malformed input (the message names the file and line), 2 usage errors
(unknown measure, bad options).
"""
from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, TextIO, Tuple

import numpy as np
import torch
from torch import Tensor

__all__ = ["main", "CliError", "parse_measure", "read_qrels", "read_run", "read_csv_columns", "retrieval_values",
           "classify_values"]

EXIT_DATA, EXIT_USAGE = 1, 2


class CliError(Exception):
    """An error reported to the user as ``tml-eval: error: <message>`` with exit code ``code``."""

    def __init__(self, message: str, code: int = EXIT_DATA) -> None:
        super().__init__(message)
        self.code = code


# ---------------------------------------------------------------------------------------------- measures
@dataclass(frozen=True)
class Measure:
    label: str  # as the user wrote it (printed as such)
    function: str  # name in torchmetrics_lite.functional
    k: Optional[int]  # cut-off (None: none, or whole list)


# canonical name -> (function, cut-off: "required" | "optional" | "none")
_RETRIEVAL = {
    "ndcg": ("retrieval_normalized_dcg", "optional"),
    "map": ("retrieval_average_precision", "optional"),
    "mrr": ("retrieval_reciprocal_rank", "optional"),
    "p": ("retrieval_precision", "required"),
    "recall": ("retrieval_recall", "required"),
    "success": ("retrieval_hit_rate", "required"),
    "rprec": ("retrieval_r_precision", "none"),
}
_RETRIEVAL_ALIASES = {"ndcg_cut": "ndcg", "map_cut": "map", "recip_rank": "mrr", "precision": "p",
                      "hit_rate": "success", "r_precision": "rprec"}
_CLASSIFY = {
    "auroc": ("binary_auroc", "none"),
    "ap": ("binary_average_precision", "none"),
    "f1": ("binary_f1_score", "none"),
    "accuracy": ("binary_accuracy", "none"),
    "precision": ("binary_precision", "none"),
    "recall": ("binary_recall", "none"),
}
_CLASSIFY_ALIASES = {"average_precision": "ap", "acc": "accuracy", "f1_score": "f1", "roc_auc": "auroc"}
_TABLES = {
    "retrieval": (_RETRIEVAL, _RETRIEVAL_ALIASES, "ndcg[@k], map[@k], mrr[@k], P@k, recall@k, success@k, Rprec"),
    "classify": (_CLASSIFY, _CLASSIFY_ALIASES, "auroc, ap, f1, accuracy, precision, recall"),
}
_MEASURE_RE = re.compile(r"(?P<name>[A-Za-z][A-Za-z0-9_]*?)(?:[@_.](?P<k>\d+))?")


def parse_measure(token: str, kind: str) -> Measure:
    """Parse one measure name of a ``kind`` (``"retrieval"`` or ``"classify"``); unknown names raise ``CliError``.

    >>> parse_measure("ndcg_cut_10", "retrieval")
    Measure(label='ndcg_cut_10', function='retrieval_normalized_dcg', k=10)
    >>> parse_measure("P@5", "retrieval").k
    5
    """
    table, aliases, known = _TABLES[kind]
    match = _MEASURE_RE.fullmatch(token)
    name = match.group("name").lower() if match else ""
    name = aliases.get(name, name)
    if name not in table:
        raise CliError(f"unknown {kind} measure {token!r} (known: {known})", EXIT_USAGE)
    function, cut = table[name]
    k = int(match.group("k")) if match and match.group("k") is not None else None  # type: ignore[union-attr]
    if k is not None and cut == "none":
        raise CliError(f"measure {token!r} takes no cut-off", EXIT_USAGE)
    if k is None and cut == "required":
        raise CliError(f"measure {token!r} needs a cut-off, e.g. {token}@10", EXIT_USAGE)
    if k is not None and k < 1:
        raise CliError(f"measure {token!r}: the cut-off must be a positive integer", EXIT_USAGE)
    return Measure(token, function, k)


def _function(measure: Measure) -> Callable[..., Tensor]:
    import torchmetrics_lite.functional as F

    fn = getattr(F, measure.function, None)
    if fn is None:
        raise CliError(f"measure {measure.label!r} needs torchmetrics_lite.functional.{measure.function}, "
                       "which this installation does not provide", EXIT_USAGE)
    return fn


# --------------------------------------------------------------------------------------------- reading
def _lines(path: str) -> List[str]:
    try:
        with open(path, encoding="utf-8-sig") as f:  # a byte order mark is not part of the first field
            return f.read().splitlines()
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise CliError(f"cannot read {path}: not UTF-8 text (byte {e.start})") from None


def read_qrels(path: str) -> Dict[str, Dict[str, int]]:
    """TREC qrels ``qid iter docid rel`` -> ``{qid: {docid: rel}}``."""
    qrels: Dict[str, Dict[str, int]] = {}
    for no, line in enumerate(_lines(path), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 4:
            raise CliError(f"{path}:{no}: expected 4 fields 'qid iter docid rel', got {len(parts)}")
        qid, _, doc, rel = parts
        try:
            value = int(rel)
        except ValueError:
            raise CliError(f"{path}:{no}: relevance {rel!r} is not an integer") from None
        docs = qrels.setdefault(qid, {})
        if doc in docs:
            raise CliError(f"{path}:{no}: document {doc!r} is judged twice for query {qid!r}")
        docs[doc] = value
    return qrels


def read_run(path: str) -> Dict[str, Dict[str, float]]:
    """TREC run ``qid Q0 docid rank score tag`` -> ``{qid: {docid: score}}`` (the rank column is ignored)."""
    run: Dict[str, Dict[str, float]] = {}
    for no, line in enumerate(_lines(path), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 6:
            raise CliError(f"{path}:{no}: expected 6 fields 'qid Q0 docid rank score tag', got {len(parts)}")
        qid, _, doc, _, score, _ = parts
        try:
            value = float(score)
        except ValueError:
            value = math.nan
        if math.isnan(value):
            raise CliError(f"{path}:{no}: score {score!r} is not a number")
        docs = run.setdefault(qid, {})
        if doc in docs:
            raise CliError(f"{path}:{no}: document {doc!r} is retrieved twice for query {qid!r}")
        docs[doc] = value
    return run


def read_csv_columns(path: str, preds: str, target: str) -> Tuple[Tensor, Tensor]:
    """Float64 scores and int64 0/1 labels from two columns of a CSV file with a header row."""
    import csv

    rows = csv.reader(_lines(path))
    header = next(rows, None)
    if header is None:
        raise CliError(f"{path}: empty file (expected a header row)")
    cols = []
    for name in (preds, target):
        if name not in header:
            raise CliError(f"{path}: no column {name!r} (columns: {', '.join(header)})")
        cols.append(header.index(name))
    scores, labels = [], []
    for row in rows:
        no = rows.line_num
        if not row:
            continue
        if len(row) != len(header):
            raise CliError(f"{path}:{no}: expected {len(header)} fields, got {len(row)}")
        raw_score, raw_label = row[cols[0]].strip(), row[cols[1]].strip()
        try:
            score = float(raw_score)
        except ValueError:
            score = math.nan
        if math.isnan(score):
            raise CliError(f"{path}:{no}: column {preds!r}: {raw_score!r} is not a number")
        label = {"0": 0, "1": 1, "0.0": 0, "1.0": 1, "false": 0, "true": 1}.get(raw_label.lower())
        if label is None:
            raise CliError(f"{path}:{no}: column {target!r}: {raw_label!r} is not a 0/1 label")
        scores.append(score)
        labels.append(label)
    if not scores:
        raise CliError(f"{path}: no data rows")
    return torch.tensor(scores, dtype=torch.float64), torch.tensor(labels, dtype=torch.int64)


# ------------------------------------------------------------------------------------------- retrieval
def _natural_key(qid: str) -> Tuple[int, int, str]:
    # isdecimal, not isdigit: int() rejects digits such as '²'; the id itself breaks ties such as '7' / '07'
    return (0, int(qid), qid) if qid.isdecimal() else (1, 0, qid)


def _flat_retrieval(qrels: Dict[str, Dict[str, int]], run: Dict[str, Dict[str, float]], qids: List[str],
                    length: int, ties: str) -> Tuple[Tensor, Tensor, Tensor]:
    """Flat (preds, target, indexes). Per query: the retrieved documents (preds > 1), fillers up to ``length``
    items (preds 1, non-relevant), then the unretrieved relevant documents (preds 0): with every cut-off at most
    ``length`` they count in the denominators and never in the top k, as in trec_eval."""
    rel_parts, pred_parts, sizes = [], [], []
    for q in qids:
        docs, judged = run[q], qrels[q]
        if ties == "docid":  # trec_eval: score descending, then docid descending
            ranked = sorted(docs.items(), key=lambda d: (d[1], d[0]), reverse=True)
            order = np.arange(len(ranked), 0, -1, dtype=np.float64)  # distinct, descending
        else:
            ranked = list(docs.items())
            order = np.array([s for _, s in ranked], dtype=np.float64)
        missing = [max(r, 0) for d, r in judged.items() if r > 0 and d not in docs]
        rel = [max(judged.get(d, 0), 0) for d, _ in ranked]
        rel_parts.append(np.array(rel + [0] * (length - len(ranked)) + missing, dtype=np.int64))
        pred_parts.append(order)
        sizes.append((len(ranked), length - len(ranked), len(missing)))
    retrieved = np.concatenate(pred_parts)
    if ties != "docid":  # global dense ranks keep each query's order and ties, and leave room below
        retrieved = np.unique(retrieved, return_inverse=True)[1].astype(np.float64).reshape(-1)
    preds, at = [], 0
    for n, fill, miss in sizes:
        preds.append(np.concatenate([retrieved[at : at + n] + 2.0, np.ones(fill), np.zeros(miss)]))
        at += n
    counts = np.array([sum(s) for s in sizes], dtype=np.int64)
    indexes = np.repeat(np.arange(len(qids), dtype=np.int64), counts)
    return torch.from_numpy(np.concatenate(preds)), torch.from_numpy(np.concatenate(rel_parts)), \
        torch.from_numpy(indexes)


def retrieval_values(qrels: Dict[str, Dict[str, int]], run: Dict[str, Dict[str, float]],
                     measures: Sequence[Measure], *, ties: str = "average",
                     empty: str = "zero") -> Tuple[List[str], Dict[str, Tensor]]:
    """Per-query values (float64, in the order of the returned query ids) of each measure, trec_eval's way.

    >>> qrels = {"1": {"a": 1, "b": 0, "z": 2}, "2": {"c": 1}}
    >>> run = {"1": {"a": 0.9, "b": 0.8}, "2": {"c": 0.1, "d": 0.5}, "3": {"e": 1.0}}  # "3" has no qrels
    >>> m = [parse_measure(t, "retrieval") for t in ("recall@10", "mrr", "P@5")]
    >>> qids, values = retrieval_values(qrels, run, m)  # "z" is relevant but never retrieved: recall 1/2
    >>> qids, [values[x.label].tolist() for x in m]
    (['1', '2'], [[0.5, 1.0], [1.0, 0.5], [0.2, 0.2]])
    """
    qids = sorted(set(run) & set(qrels), key=_natural_key)
    if not qids:
        raise CliError("no query of the run has judgements in the qrels")
    n_rel = max(sum(r > 0 for r in qrels[q].values()) for q in qids)
    length = max(max(len(run[q]) for q in qids), n_rel, 1)
    preds, target, indexes = _flat_retrieval(qrels, run, qids, length, ties)
    out = {}
    for m in measures:
        fn = _function(m)
        options = {} if m.function == "retrieval_r_precision" else {"k": min(m.k or length, length)}
        values = fn(preds, target, indexes, ties="order" if ties == "docid" else "average", empty=empty,
                    reduction="none", **options)
        if m.function == "retrieval_precision" and m.k is not None and m.k > length:
            values = values * (length / m.k)  # P@k divides by k; nothing relevant ranks past `length`
        out[m.label] = values.to(torch.float64)
    return qids, out


def _mean(values: Tensor) -> float:
    counted = values[~torch.isnan(values)]
    return counted.mean().item() if counted.numel() else math.nan


def _run_retrieval(args: argparse.Namespace, out: TextIO) -> int:
    measures = _dedupe([parse_measure(t, "retrieval") for t in args.measures])
    qrels, run = read_qrels(args.qrels), read_run(args.run)
    qids, values = retrieval_values(qrels, run, measures, ties=args.ties, empty=args.empty)
    width, digits = max(22, *(len(m.label) for m in measures)), args.digits
    if args.per_query:
        for i, q in enumerate(qids):
            for m in measures:
                out.write(f"{m.label:<{width}}\t{q}\t{values[m.label][i].item():.{digits}f}\n")
    out.write(f"{'num_q':<{width}}\tall\t{len(qids)}\n")
    for m in measures:
        out.write(f"{m.label:<{width}}\tall\t{_mean(values[m.label]):.{digits}f}\n")
    return 0


# ------------------------------------------------------------------------------------------- classify
def classify_values(preds: Tensor, target: Tensor, measures: Sequence[Measure], *, threshold: float = 0.5,
                    from_logits: bool = False) -> Dict[str, float]:
    out = {}
    for m in measures:
        fn = _function(m)
        kwargs = {} if m.function.startswith(("binary_auroc", "binary_average")) else \
            {"threshold": threshold, "from_logits": from_logits}
        try:
            out[m.label] = float(fn(preds, target, **kwargs))
        except ValueError as e:
            raise CliError(f"{m.label}: {e}") from None
    return out


def _run_classify(args: argparse.Namespace, out: TextIO) -> int:
    measures = _dedupe([parse_measure(t, "classify") for t in args.measures])
    preds, target = read_csv_columns(args.file, args.preds, args.target)
    values = classify_values(preds, target, measures, threshold=args.threshold, from_logits=args.from_logits)
    width = max(22, *(len(m.label) for m in measures))
    out.write(f"{'num_rows':<{width}}\t{preds.numel()}\n")
    for label, value in values.items():
        out.write(f"{label:<{width}}\t{value:.{args.digits}f}\n")
    return 0


def _dedupe(measures: List[Measure]) -> List[Measure]:
    return list({m.label: m for m in measures}.values())


# ----------------------------------------------------------------------------------------------- main
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tml-eval", description="Exact evaluation metrics from files.",
                                     epilog="Exit codes: 0 ok, 1 unreadable or malformed input, 2 usage error.")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("retrieval", help="TREC qrels + run -> trec_eval-style measures")
    r.add_argument("qrels", help="qrels file: qid iter docid rel")
    r.add_argument("run", help="run file: qid Q0 docid rank score tag")
    r.add_argument("-m", "--measures", nargs="+", required=True, metavar="M",
                   help="ndcg[@k] map[@k] mrr[@k] P@k recall@k success@k Rprec (or trec_eval names: ndcg_cut_10)")
    r.add_argument("-q", "--per-query", action="store_true", help="also print one line per query and measure")
    r.add_argument("--ties", choices=("average", "docid"), default="average",
                   help="tied scores: expected value over random orders (default), or trec_eval's docid order")
    r.add_argument("--empty", choices=("zero", "skip"), default="zero",
                   help="a query with no relevant document counts as 0 (trec_eval, default) or is left out")
    r.set_defaults(handler=_run_retrieval)
    c = sub.add_parser("classify", help="CSV scores + 0/1 labels -> binary classification measures")
    c.add_argument("file", help="CSV file with a header row")
    c.add_argument("--preds", required=True, help="column of scores (probabilities, or logits with --from-logits)")
    c.add_argument("--target", required=True, help="column of 0/1 labels")
    c.add_argument("-m", "--measures", nargs="+", required=True, metavar="M",
                   help="auroc ap f1 accuracy precision recall")
    c.add_argument("--threshold", type=float, default=0.5, help="positive when preds > threshold (default 0.5)")
    c.add_argument("--from-logits", action="store_true", help="preds are real scores: threshold on sigmoid(preds)")
    c.set_defaults(handler=_run_classify)
    for p in (r, c):
        p.add_argument("--digits", type=int, default=4, choices=range(0, 18), metavar="N",
                       help="decimals printed (default 4)")
    return parser


def main(argv: Optional[Sequence[str]] = None, *, stdout: Optional[TextIO] = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 bad input, 2 usage error)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2), already printed
        return int(e.code or 0)
    try:
        return args.handler(args, stdout if stdout is not None else sys.stdout)
    except CliError as e:
        print(f"tml-eval: error: {e}", file=sys.stderr)
        return e.code
