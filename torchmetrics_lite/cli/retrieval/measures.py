"""Stage 5 of the command line: the measures of ``retrieval`` (their names as users write them, and their
per-query values from the ranking; numpy alone, no torch)."""
from __future__ import annotations

import math
import re
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from torchmetrics_lite.cli.errors import EXIT_USAGE, CliError
from torchmetrics_lite.cli.files import Qrels, Run, read_qrels, read_run  # noqa: F401  (read_*: the doctest)
from torchmetrics_lite.cli.ids import Vocab
from torchmetrics_lite.cli.join import join
from torchmetrics_lite.cli.rank import ranking
from torchmetrics_lite.cli.trec_eval.names import TABLE as TREC_TABLE

# trec_eval's default cut-offs of a measure named without one (``-m ndcg_cut``: ndcg_cut_5 ... ndcg_cut_1000)
_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_DEFAULT_CUTS = {"ndcg_cut": _CUTS, "map_cut": _CUTS, "p": _CUTS, "recall": _CUTS, "success": (1, 5, 10)}


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
        hint = ""
        if kind == "retrieval" and match and match.group("name") in TREC_TABLE:
            hint = f"; {match.group('name')} is trec_eval's: `tml-eval trec_eval -m {token} QRELS RUN` evaluates it"
        raise CliError(f"unknown {kind} measure {token!r} (known: {known}){hint}", EXIT_USAGE)
    function, cut = table[name]
    k = int(match.group("k")) if match and match.group("k") is not None else None
    if k is not None and cut == "none":
        raise CliError(f"measure {token!r} takes no cut-off", EXIT_USAGE)
    if k is None and cut == "required":
        raise CliError(f"measure {token!r} needs a cut-off, e.g. {token}@10", EXIT_USAGE)
    if k is not None and k < 1:
        raise CliError(f"measure {token!r}: the cut-off must be a positive integer", EXIT_USAGE)
    return Measure(token, function, k)


def parse_measures(tokens: Sequence[str], kind: str) -> List[Measure]:
    """The measures of ``-m`` values (:func:`split_measures`, then :func:`parse_measure`); a ``retrieval``
    measure that trec_eval evaluates at default cut-offs when named without one (``ndcg_cut``, ``map_cut``,
    ``P``, ``recall``, ``success``) gets those cut-offs, named as trec_eval names them.

    >>> [m.label for m in parse_measures(["success", "ndcg_cut.10,23.4"], "retrieval")]
    ['success_1', 'success_5', 'success_10', 'ndcg_cut.10', 'ndcg_cut.23']
    """
    out: List[Measure] = []
    for token in split_measures(tokens):
        cuts = _DEFAULT_CUTS.get(token.lower()) if kind == "retrieval" else None
        out += [parse_measure(name, kind) for name in ([f"{token}_{k}" for k in cuts] if cuts else [token])]
    return dedupe(out)


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
            if stem is not None and re.fullmatch(r"\d+(\.\d*)?", piece):  # trec_eval reads 23.4 as 23 (atol)
                out.append(stem + piece.split(".")[0])
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


def mean(values: np.ndarray) -> float:
    counted = values[~np.isnan(values)]
    return float(counted.mean()) if counted.size else math.nan


def dedupe(measures: List[Measure]) -> List[Measure]:
    return list({m.label: m for m in measures}.values())
