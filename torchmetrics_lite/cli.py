"""Command line: ``python -m torchmetrics_lite`` (installed as ``tml-eval``).

``retrieval QRELS RUN -m ndcg@10 map mrr P@5 recall@100 Rprec [--per-query] [--ties average|docid]``
    TREC files: qrels lines ``qid iter docid rel`` and run lines ``qid Q0 docid rank score tag`` (or without the
    tag: 5 columns), whitespace separated, blank lines skipped; ``-`` reads standard input, a name ending in
    ``.gz`` is gunzipped. Measures as trec_eval writes them too: ``-m ndcg_cut_10 -m map`` (repeated),
    ``-m map ndcg@10`` (several after one flag, before or after the file names), ``-m map,P@5`` and
    ``-m P.5,10`` (comma lists; a bare number is another cut-off of the measure before it). Prints
    trec_eval-style lines ``measure <TAB> qid <TAB> value``: ``num_q`` then the mean of each measure over the
    queries (``all``), after one line per query and measure with ``--per-query``. As trec_eval: a query is
    evaluated when it is in both files, a query with no relevant document counts as 0 (``--empty skip`` leaves
    it out of the mean), documents missing from the qrels are non-relevant, relevant documents the run does not
    retrieve still count (recall, AP and R-precision denominators, the ideal DCG), relevance ``<= 0`` is
    non-relevant (gain 0), and the rank column is ignored (the score orders).

    Tied scores: the default ``--ties average`` is the library's rule, the expected value over every order of the
    tied documents, so a value never depends on document names. It DIFFERS from trec_eval, which breaks ties by
    descending docid; ``--ties docid`` reproduces trec_eval's order exactly (then every measure equals
    trec_eval's). Scores are ranked once for all measures, with numpy alone (no torch import).

``classify FILE.csv --preds COL --target COL -m auroc ap f1 accuracy precision recall [--threshold T]``
    A CSV file with a header row; ``target`` holds 0/1 labels. Threshold measures count ``preds > T`` on
    probabilities in [0, 1]; real-valued scores need ``--from-logits`` (threshold on ``sigmoid(preds)``).
    Prints ``measure <TAB> value`` lines.

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

Exit codes: 0 success; 1 unreadable, empty or malformed input (the message names the file and line) or values a
measure rejects (naming the command-line flag to change); 2 usage errors (unknown measure, bad options, a
missing file name).
"""
from __future__ import annotations

import argparse
import math
import os
import re
import sys
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, TextIO, Tuple

import numpy as np

from torchmetrics_lite._trec_files import EXIT_USAGE, CliError, Qrels, Run, decode, read_bytes, read_qrels, read_run
from torchmetrics_lite._trec_ids import Vocab
from torchmetrics_lite._trec_rank import join, ranking

__all__ = ["main", "CliError", "parse_measure", "split_measures", "read_qrels", "read_run", "read_csv_columns",
           "retrieval_values", "classify_values"]


# ---------------------------------------------------------------------------------------------- measures
class Measure(NamedTuple):
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
    k = int(match.group("k")) if match and match.group("k") is not None else None
    if k is not None and cut == "none":
        raise CliError(f"measure {token!r} takes no cut-off", EXIT_USAGE)
    if k is None and cut == "required":
        raise CliError(f"measure {token!r} needs a cut-off, e.g. {token}@10", EXIT_USAGE)
    if k is not None and k < 1:
        raise CliError(f"measure {token!r}: the cut-off must be a positive integer", EXIT_USAGE)
    return Measure(token, function, k)


def split_measures(tokens: Sequence[str]) -> List[str]:
    """Measure names from ``-m`` values: comma lists are split, and a bare number after a comma is another
    cut-off of the measure before it (trec_eval's ``P.5,10``).

    >>> split_measures(["map,ndcg@10", "P.5,10", "P_20"])
    ['map', 'ndcg@10', 'P.5', 'P.10', 'P_20']
    """
    out: List[str] = []
    for token in tokens:
        stem = None
        for piece in filter(None, token.split(",")):
            if piece.isdecimal() and stem is not None:
                out.append(stem + piece)
                continue
            out.append(piece)
            match = re.fullmatch(r"(.*?[@_.])\d+", piece)
            stem = match.group(1) if match else None
    return out


# ------------------------------------------------------------------------------------------- retrieval
def _kernels() -> Dict[str, Callable[..., Any]]:
    from torchmetrics_lite.functional.retrieval import _kernels as K

    return {"retrieval_normalized_dcg": K.ndcg_values, "retrieval_average_precision": K.average_precision_values,
            "retrieval_reciprocal_rank": K.reciprocal_rank_values, "retrieval_precision": K.precision_values,
            "retrieval_recall": K.recall_values, "retrieval_hit_rate": K.hit_rate_values,
            "retrieval_r_precision": K.r_precision_values}


def retrieval_values(qrels: Qrels, run: Run, measures: Sequence[Measure], queries: Vocab, docs: Vocab, *,
                     ties: str = "average", empty: str = "zero") -> Tuple[List[str], Dict[str, np.ndarray]]:
    """Per-query float64 values (in the order of the returned query ids) of each measure, trec_eval's way; the
    run is ranked once for all measures.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "qrels"), "w") as f:
    ...     _ = f.write("1 0 a 1\\n1 0 b 0\\n1 0 z 2\\n2 0 c 1\\n")
    >>> with open(os.path.join(folder, "run"), "w") as f:
    ...     _ = f.write("1 Q0 a 1 0.9 t\\n1 Q0 b 2 0.8 t\\n2 Q0 c 2 0.1 t\\n2 Q0 d 1 0.5 t\\n3 Q0 e 1 1.0 t\\n")
    >>> queries, docs = Vocab(), Vocab()
    >>> qrels = read_qrels(os.path.join(folder, "qrels"), queries, docs)
    >>> run = read_run(os.path.join(folder, "run"), queries, docs)
    >>> m = [parse_measure(t, "retrieval") for t in ("recall@10", "mrr", "P@5")]
    >>> qids, values = retrieval_values(qrels, run, m, queries, docs)  # "z" is relevant, not retrieved: recall 1/2
    >>> qids, [values[x.label].tolist() for x in m]
    (['1', '2'], [[0.5, 1.0], [1.0, 0.5], [0.2, 0.2]])
    """
    joined = join(qrels, run, queries, docs)
    ranked = ranking(joined, ties)
    kernels = _kernels()
    blank = ranked.n_rel == 0
    out = {}
    for m in measures:
        options = {} if m.function == "retrieval_r_precision" else {"k": m.k}
        values = kernels[m.function](ranked, **options).values
        out[m.label] = np.where(blank, 0.0 if empty == "zero" else math.nan, values)
    return joined.qids, out


def _mean(values: np.ndarray) -> float:
    counted = values[~np.isnan(values)]
    return float(counted.mean()) if counted.size else math.nan


def _run_retrieval(args: argparse.Namespace, out: TextIO) -> int:
    measures = _dedupe([parse_measure(t, "retrieval") for t in split_measures(args.measures)])
    qrels_path, run_path = args.files
    if qrels_path == run_path == "-":
        raise CliError("only one of the two files can be standard input ('-')", EXIT_USAGE)
    queries, docs = Vocab(), Vocab()
    qrels, run = read_qrels(qrels_path, queries, docs), read_run(run_path, queries, docs)
    qids, values = retrieval_values(qrels, run, measures, queries, docs, ties=args.ties, empty=args.empty)
    width, digits = max(22, *(len(m.label) for m in measures)), args.digits
    lines = []
    if args.per_query:
        columns = [values[m.label].tolist() for m in measures]
        for i, q in enumerate(qids):
            for m, col in zip(measures, columns):
                lines.append(f"{m.label:<{width}}\t{q}\t{col[i]:.{digits}f}\n")
    lines.append(f"{'num_q':<{width}}\tall\t{len(qids)}\n")
    for m in measures:
        lines.append(f"{m.label:<{width}}\tall\t{_mean(values[m.label]):.{digits}f}\n")
    out.write("".join(lines))
    return 0


def _files_and_measures(args: argparse.Namespace) -> None:
    """``-m map qrels run``: argparse gives every word after ``-m`` to it; the trailing words that are not
    measure names (or are existing files) are the missing file names."""
    while len(args.files) < (2 if args.command == "retrieval" else 1) and args.measures:
        last = args.measures[-1]
        try:
            for piece in split_measures([last]):
                parse_measure(piece, args.command)
            is_measure = True
        except CliError:
            is_measure = False
        if is_measure and not (last == "-" or os.path.exists(last)):
            break
        args.files.insert(0, args.measures.pop())


# ------------------------------------------------------------------------------------------- classify
def read_csv_columns(path: str, preds: str, target: str) -> Tuple[Any, Any, List[int]]:
    """Float64 scores, int64 0/1 labels (torch tensors) and the line of each row, from two columns of a CSV
    file with a header row."""
    import csv

    import torch

    rows = csv.reader(decode(path, read_bytes(path)).splitlines())
    header = next(rows, None)
    if header is None:
        raise CliError(f"{path}: empty file (expected a header row)")
    cols = []
    for name in (preds, target):
        if name not in header:
            raise CliError(f"{path}: no column {name!r} (columns: {', '.join(header)})")
        cols.append(header.index(name))
    scores, labels, lines = [], [], []
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
        lines.append(no)
    if not scores:
        raise CliError(f"{path}: no data rows")
    return torch.tensor(scores, dtype=torch.float64), torch.tensor(labels, dtype=torch.int64), lines


def _function(measure: Measure) -> Callable[..., Any]:
    import torchmetrics_lite.functional as F

    fn = getattr(F, measure.function, None)
    if fn is None:
        raise CliError(f"measure {measure.label!r} needs torchmetrics_lite.functional.{measure.function}, "
                       "which this installation does not provide", EXIT_USAGE)
    return fn


_THRESHOLD_FREE = ("binary_auroc", "binary_average_precision")


def classify_values(preds: Any, target: Any, measures: Sequence[Measure], *, threshold: float = 0.5,
                    from_logits: bool = False) -> Dict[str, float]:
    """Each measure on float64 scores and 0/1 labels; a value a measure rejects is a :class:`CliError` that
    names the command-line flag (``--from-logits``), not the Python argument."""
    out = {}
    for m in measures:
        fn = _function(m)
        kwargs = {} if m.function in _THRESHOLD_FREE else {"threshold": threshold, "from_logits": from_logits}
        try:
            out[m.label] = float(fn(preds, target, **kwargs))
        except ValueError as e:
            message = str(e).replace("from_logits=True", "--from-logits").replace("`threshold`", "--threshold")
            raise CliError(f"{m.label}: {message}") from None
    return out


def _run_classify(args: argparse.Namespace, out: TextIO) -> int:
    measures = _dedupe([parse_measure(t, "classify") for t in split_measures(args.measures)])
    if len(args.files) != 1:
        raise CliError(f"classify takes one CSV file, got {len(args.files)}: {' '.join(args.files) or '(none)'}",
                       EXIT_USAGE)
    path = args.files[0]
    preds, target, lines = read_csv_columns(path, args.preds, args.target)
    if not args.from_logits and any(m.function not in _THRESHOLD_FREE for m in measures):
        outside = ((preds < 0) | (preds > 1)).nonzero()
        if outside.numel():
            i = int(outside[0])
            raise CliError(f"{path}:{lines[i]}: column {args.preds!r}: {preds[i].item()!r} is not a probability in "
                           "[0, 1]; pass --from-logits for real-valued scores (threshold on sigmoid(preds))")
    values = classify_values(preds, target, measures, threshold=args.threshold, from_logits=args.from_logits)
    width = max(22, *(len(m.label) for m in measures))
    out.write(f"{'num_rows':<{width}}\t{preds.numel()}\n")
    for label, value in values.items():
        out.write(f"{label:<{width}}\t{value:.{args.digits}f}\n")
    return 0


def _dedupe(measures: List[Measure]) -> List[Measure]:
    return list({m.label: m for m in measures}.values())


# ----------------------------------------------------------------------------------------------- main
_TIES_HELP = ("tied scores: 'average' (default) is the expected value over every order of the tied documents, "
              "which DIFFERS from trec_eval; 'docid' breaks ties by descending docid as trec_eval does and "
              "reproduces its values exactly")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tml-eval", description="Exact evaluation metrics from files.",
                                     epilog="Exit codes: 0 ok, 1 unreadable, empty or malformed input, 2 usage error.")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("retrieval", help="TREC qrels + run -> trec_eval-style measures",
                       description="TREC qrels + run -> trec_eval-style measures. The default --ties average "
                       "differs from trec_eval's tie order; --ties docid reproduces trec_eval exactly.")
    r.add_argument("files", nargs="*", metavar="QRELS RUN",
                   help="qrels file (qid iter docid rel) and run file (qid Q0 docid rank score [tag]); "
                   "'-' reads standard input, *.gz is gunzipped")
    r.add_argument("-m", "--measures", nargs="+", action="extend", required=True, metavar="M",
                   help="ndcg[@k] map[@k] mrr[@k] P@k recall@k success@k Rprec, or trec_eval names (ndcg_cut_10, "
                   "P.5,10); repeatable, several per flag, comma lists")
    r.add_argument("-q", "--per-query", action="store_true", help="also print one line per query and measure")
    r.add_argument("--ties", choices=("average", "docid"), default="average", help=_TIES_HELP)
    r.add_argument("--empty", choices=("zero", "skip"), default="zero",
                   help="a query with no relevant document counts as 0 (trec_eval, default) or is left out")
    r.set_defaults(handler=_run_retrieval)
    c = sub.add_parser("classify", help="CSV scores + 0/1 labels -> binary classification measures")
    c.add_argument("files", nargs="*", metavar="FILE", help="CSV file with a header row ('-': standard input)")
    c.add_argument("--preds", required=True, help="column of scores (probabilities, or logits with --from-logits)")
    c.add_argument("--target", required=True, help="column of 0/1 labels")
    c.add_argument("-m", "--measures", nargs="+", action="extend", required=True, metavar="M",
                   help="auroc ap f1 accuracy precision recall (repeatable, comma lists)")
    c.add_argument("--threshold", type=float, default=0.5, help="positive when preds > threshold (default 0.5)")
    c.add_argument("--from-logits", action="store_true", help="preds are real scores: threshold on sigmoid(preds)")
    c.set_defaults(handler=_run_classify)
    for p in (r, c):
        p.add_argument("--digits", type=int, default=4, choices=range(0, 18), metavar="N",
                       help="decimals printed (default 4)")
    return parser


def main(argv: Optional[Sequence[str]] = None, *, stdout: Optional[TextIO] = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 bad input, 2 usage error)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2), already printed
        return int(e.code or 0)
    try:
        _files_and_measures(args)
        if args.command == "retrieval" and len(args.files) != 2:
            print("usage: tml-eval retrieval QRELS RUN -m M [M ...]", file=sys.stderr)
            raise CliError(f"retrieval takes two files, QRELS and RUN, got {len(args.files)}: "
                           f"{' '.join(args.files) or '(none)'}", EXIT_USAGE)
        return args.handler(args, stdout if stdout is not None else sys.stdout)
    except CliError as e:
        print(f"tml-eval: error: {e}", file=sys.stderr)
        return e.code
