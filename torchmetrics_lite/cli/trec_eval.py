"""The ``trec_eval`` subcommand: trec_eval 10.0's arguments (getopt: ``-q -c -M100 -l2 -m all_trec -m P.5,10
-Z file -R format ...``), its evaluation and its output, byte for byte (numpy alone, no torch).

The pipeline is the package's: read (:mod:`~torchmetrics_lite.cli.files`), join
(:mod:`~torchmetrics_lite.cli.join`: queries in ``strcmp`` order), rank (trec_eval's order: descending score,
ties by descending docid), then :mod:`~torchmetrics_lite.cli.trec_measures` and
:func:`~torchmetrics_lite.cli.output.write_trec_eval`. ``--trec-version 9`` follows trec_eval 9.x (pytrec_eval)
where the two differ: the recall points of ``iprec_at_recall`` and ``11pt_avg``, scores read as float32.
"""
from __future__ import annotations

import getopt
import sys
from typing import Dict, List, NamedTuple, Optional, Sequence, TextIO, Tuple

import numpy as np

from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.files import TREC_EVAL_RUN_SHAPE, Column, Shape, read_qrels, read_run, read_table
from torchmetrics_lite.cli.ids import Vocab
from torchmetrics_lite.cli.join import Joined, join
from torchmetrics_lite.cli.output import write_trec_eval
from torchmetrics_lite.cli.rank import _docid_order
from torchmetrics_lite.cli.trec_lists import NONPOOL, UNJUDGED, Lists
from torchmetrics_lite.cli.trec_measures import MEASURES, MEASURES_9, relstring
from torchmetrics_lite.cli.trec_names import Selected, c_atol, select

USAGE = """Usage: trec_eval [-h] [-q] {-m measure}* trec_rel_file trec_top_file
   -h: Give full help information, including other options
   -q: In addition to summary evaluation, give evaluation for each query
   -m: calculate and print measures indicated by 'measure'
       ('-m all_qrels' prints all qrels measures, '-m official' is default)
"""
HELP = USAGE + """
torchmetrics_lite's trec_eval: trec_eval 10.0's options, measures and output.
   -v, --version       print the version and exit
   -q                  also print each query's values
   -m measure[.params] measures or nicknames: official (default), all_trec, set, all_prefs, prefs, qrels_jg
   -c                  average over every query of the qrels (a query missing from the run counts as 0)
   -l<num>             lowest relevance level that counts as relevant (default 1)
   -n                  no summary
   -N<num>             number of documents in the collection (utility)
   -M<num>             evaluate at most num documents per query
   -J                  evaluate only the judged documents
   -R format           qrels (default), prefs, qrels_prefs, qrels_jg
   -Z file             print z-scores from the means and deviations in file (qid measure mean stddev)
   -D level[.qid]      accepted for compatibility; prints no debugging output
   --full-precision    print values with every digit (repr) instead of %6.4f
   --float32-scores    read scores as float32 (trec_eval 9.x, pytrec_eval) instead of double (trec_eval 10.0)
   --trec-version V    10 (default): trec_eval 10.0's rules, whose test outputs this command reproduces;
                       9: trec_eval 9.x's, as pytrec_eval computes: iprec_at_recall and 11pt_avg place a
                       recall point at (long)(point * num_rel + 0.9) (10.0: lround(point * num_rel)), and
                       scores are read as float32 (--float32-scores). In both, a judged query missing from the
                       run is left out (without -c) as in 9.x: 10.0 evaluates it against another query's results
"""
VERSION = "10.0 (torchmetrics_lite)"
_SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
_LONG = ["help", "version", "query_eval_wanted", "measure=", "complete_rel_info_wanted", "level_for_rel=",
         "nosummary", "Debug_level=", "Judged_docs_only", "Number_docs_in_coll=", "Max_retrieved_per_topic=",
         "Rel_info_format=", "Results_format=", "Output_old_results_format", "Zscore=", "full-precision",
         "float32-scores", "trec-version="]
TREC_VERSIONS = ("9", "10")
MISSING_ZSCORE = -1000000.0


class Options(NamedTuple):
    measures: List[str]
    query: bool
    complete: bool
    level: int
    summary: bool
    docs_in_coll: int
    max_docs: int
    judged_only: bool
    rel_format: str
    zscores: Optional[str]
    debug_query: Optional[str]
    full_precision: bool
    float32: bool
    files: List[str]
    version: int = 10


def parse_args(argv: Sequence[str]) -> Optional[Options]:
    """trec_eval's options (GNU getopt: options and files in any order); None after ``-h`` / ``-v``."""
    try:
        pairs, files = getopt.gnu_getopt(list(argv), _SHORT, _LONG)
    except getopt.GetoptError as e:
        raise CliError(f"trec_eval: {e}\n{USAGE}".rstrip(), 1) from None
    o: Dict[str, object] = {"measures": [], "query": False, "complete": False, "level": 1, "summary": True,
                            "docs_in_coll": 0, "max_docs": sys.maxsize, "judged_only": False, "rel_format": "qrels",
                            "zscores": None, "debug_query": None, "full_precision": False, "float32": False,
                            "version": 10}
    flags = {"-q": "query", "--query_eval_wanted": "query", "-c": "complete", "--complete_rel_info_wanted": "complete",
             "-J": "judged_only", "--Judged_docs_only": "judged_only", "--full-precision": "full_precision",
             "--float32-scores": "float32"}
    numbers = {"-l": "level", "--level_for_rel": "level", "-N": "docs_in_coll", "--Number_docs_in_coll": "docs_in_coll",
               "-M": "max_docs", "--Max_retrieved_per_topic": "max_docs"}
    for flag, value in pairs:
        if flag in ("-h", "--help"):
            sys.stdout.write(HELP)
            return None
        if flag in ("-v", "--version"):
            sys.stderr.write(f"trec_eval version {VERSION}\n")
            return None
        if flag in flags:
            o[flags[flag]] = True
        elif flag in numbers:
            o[numbers[flag]] = c_atol(value)
        elif flag in ("-m", "--measure"):
            o["measures"].append(value)  # type: ignore[attr-defined]
        elif flag in ("-n", "--nosummary"):
            o["summary"] = False
        elif flag in ("-R", "--Rel_info_format"):
            o["rel_format"] = value
        elif flag in ("-T", "--Results_format") and value != "trec_results":
            raise CliError(f"trec_eval: Illegal retrieval results format '{value}'", 2)
        elif flag in ("-Z", "--Zscore"):
            o["zscores"] = value
        elif flag in ("-D", "--Debug_level"):
            o["debug_query"] = value.partition(".")[2] or None
        elif flag == "--trec-version":
            o["version"] = _version(value)
    if o["version"] == 9:
        o["float32"] = True  # trec_eval 9.x reads scores as C floats
    if len(files) != 2:
        raise CliError(USAGE.rstrip(), 1)
    return Options(files=files, **o)  # type: ignore[arg-type]


def _version(value: str) -> int:
    if value not in TREC_VERSIONS:
        raise CliError(f"trec_eval: --trec-version must be one of {', '.join(TREC_VERSIONS)} (the trec_eval whose "
                       f"rules to follow), got {value!r}", 1)
    return int(value)


def run_trec_eval(argv: Sequence[str], out: TextIO) -> int:
    """``python -m torchmetrics_lite trec_eval ARGS``: evaluate and print as trec_eval 10.0 does."""
    options = parse_args(argv)
    if options is None:
        return 0
    selected = select(options.measures)
    if options.rel_format != "qrels":
        from torchmetrics_lite.cli.trec_formats import run_rel_format

        return run_rel_format(options, selected, out)
    queries, docs = Vocab(), Vocab()
    qrels_path, run_path = options.files
    qrels = read_qrels(qrels_path, queries, docs)
    run = read_run(run_path, queries, docs, TREC_EVAL_RUN_SHAPE)
    if options.float32:
        run = run._replace(score=float32_scores(run.score))
    try:
        joined = join(qrels, run, queries, docs, order="bytes", keep="qrels" if options.complete else "both",
                      repeats="warn")
    except CliError as e:
        if "no query" in str(e):
            raise CliError("trec_eval: No queries with both results and relevance info", 7) from None
        raise
    dense = options.level <= NONPOOL or any(c_atol(name) == NONPOOL for s in selected if s.kind == "p_pair"
                                             for name, _ in s.params)
    lists, bogus = ranked_lists(joined, options, dense)
    if not options.complete and options.version == 10:
        _warn_unretrieved(joined.unretrieved)
    values = evaluate(lists, selected, options.docs_in_coll, bogus, options.version)
    strings = {s.labels[0]: relstring(lists, s.params[0]) for s in selected if s.kind == "relstring"}
    for label in strings:
        for i in np.flatnonzero(bogus).tolist():
            strings[label][i] = ""
    if options.zscores is not None:
        values = zscores(values, joined.qids, options.zscores)
    write_trec_eval(out, selected, joined.qids, values, strings, run.tag, options)
    return 0


def _warn_unretrieved(missing: int) -> None:
    """Where trec_eval 10.0 would evaluate a judged query missing from the run against another query's results,
    say on stderr that it is left out (trec_eval 9.x's rule, and trec_eval's help text)."""
    if missing:
        sys.stderr.write(f"trec_eval: warning: {missing} judged quer{'y has' if missing == 1 else 'ies have'} no "
                         "results in the run: left out, as trec_eval 9.x does (trec_eval 10.0 evaluates each against "
                         "another query's results); -c counts them as 0\n")


def float32_scores(score: np.ndarray) -> np.ndarray:
    """``--float32-scores``: the scores as C's ``float`` holds them (trec_eval 9.x): beyond its range ``inf``,
    silently (no NumPy overflow warning)."""
    with np.errstate(over="ignore"):
        return score.astype(np.float32).astype(np.float64)


def ranked_lists(joined: Joined, options: Options, dense: bool = False) -> Tuple[Lists, np.ndarray]:
    """The retrieved documents in trec_eval's rank order (``-M``, ``-J`` applied), kept sparse (the documents in
    the qrels; all with ``dense``), and which queries have no document in the run (``-c``: trec_eval ranks one
    placeholder document, not in the qrels, for them)."""
    nq = len(joined.qids)
    rel_all = np.where(joined.judged, np.where(joined.rel >= 0, joined.rel, UNJUDGED), NONPOOL)
    n_ret = np.bincount(joined.q, minlength=nq)
    bogus = n_ret == 0  # -c: trec_eval ranks a placeholder document, not in the qrels, for these queries
    n_ret = np.maximum(n_ret, bogus)
    if options.judged_only or dense:  # every document's rank is needed: the full ranking
        q, pos, rel = _full_ranking(joined, rel_all, bogus)
        if options.judged_only:  # the judged documents, ranked again among themselves
            q, rel = q[rel >= 0], rel[rel >= 0]
            n_ret = np.bincount(q, minlength=nq)
            pos = np.arange(q.size) - np.repeat(np.cumsum(n_ret) - n_ret, n_ret)
    else:  # the documents in the qrels, with their rank in the full ranking
        order = _docid_order(joined)
        seen = np.flatnonzero(joined.judged)
        if order is None:
            rank = seen - (np.cumsum(n_ret - bogus) - (n_ret - bogus)).take(joined.q.take(seen))
        else:
            inverse = np.empty(order.size, dtype=np.int64)
            inverse[order] = np.arange(order.size)
            rank = inverse.take(seen) - (np.cumsum(n_ret - bogus) - (n_ret - bogus)).take(joined.q.take(seen))
        by_rank = np.argsort(joined.q.take(seen) * (int(n_ret.max(initial=0)) + 1) + rank, kind="stable")
        q, pos, rel = joined.q.take(seen).take(by_rank), rank.take(by_rank), rel_all.take(seen).take(by_rank)
    keep = pos < options.max_docs
    n_ret = np.minimum(n_ret, options.max_docs)
    if not dense:
        keep &= rel != NONPOOL
    q, pos, rel = q[keep], pos[keep], rel[keep]
    judged = np.flatnonzero(joined.judged_rel >= 0)
    levels = max(int(joined.judged_rel.max(initial=0)) + 1, 1)
    counts = np.bincount(joined.judged_q.take(judged) * levels + joined.judged_rel.take(judged),
                         minlength=nq * levels).reshape(nq, levels)
    return Lists(q, pos, rel.astype(np.int64), n_ret, counts, options.level), bogus


def _full_ranking(joined: Joined, rel_all: np.ndarray, bogus: np.ndarray) -> Tuple[np.ndarray, ...]:
    """``(q, pos, rel)`` of every retrieved document in rank order, with ``-c``'s placeholder documents."""
    nq = len(joined.qids)
    order = _docid_order(joined)
    q = joined.q if order is None else joined.q.take(order)
    rel = rel_all if order is None else rel_all.take(order)
    if bogus.any():
        q = np.concatenate([q, np.flatnonzero(bogus)])
        rel = np.concatenate([rel, np.full(int(bogus.sum()), NONPOOL)])
        by_q = np.argsort(q, kind="stable")
        q, rel = q.take(by_q), rel.take(by_q)
    n_ret = np.bincount(q, minlength=nq)
    return q, np.arange(q.size) - np.repeat(np.cumsum(n_ret) - n_ret, n_ret), rel


def evaluate(lists: Lists, selected: List[Selected], docs_in_coll: int, bogus: np.ndarray,
             version: int = 10) -> Dict[str, np.ndarray]:
    """Per-query float64 values of every printed name (``P_5``...), by trec_eval ``version`` 10 or 9's measures;
    for ``-c``'s placeholder queries, ``num_ret``, ``utility``, ``unj`` and ``rbp_resid`` are 0, as trec_eval
    sets them."""
    out: Dict[str, np.ndarray] = {}
    table = MEASURES_9 if version == 9 else MEASURES
    for s in selected:
        function = table.get(s.name)
        if function is None and s.kind not in ("runid", "num_q", "relstring"):
            needs = "-R qrels_jg" if s.name.endswith("avgjg") else "-R prefs or -R qrels_prefs"
            raise CliError(f"trec_eval: measure '{s.name}' needs {needs}\n"
                           f"trec_eval: Can't calculate measure '{s.name}'", 4)
        if function is None:
            continue
        for label, value in zip(s.labels, function(lists, s, docs_in_coll)):
            if bogus.any() and s.name in ("num_ret", "utility", "unj", "rbp_resid"):
                value = np.where(bogus, 0.0, value)
            out[label] = value
    return out


def zscores(values: Dict[str, np.ndarray], qids: List[str], path: str) -> Dict[str, np.ndarray]:
    """Each value as ``(value - mean) / stddev`` from ``path``'s lines ``qid measure mean stddev``; 0 where the
    deviation is 0 and the value is the mean, -1000000 where the file has no line for it (trec_eval's rule)."""
    table = read_table(path, Shape(((4, 4),), "4"), "qid measure mean stddev",
                       (Column(0, "id", "query id"), Column(1, "id", "measure"), Column(2, "float", "mean"),
                        Column(3, "float", "stddev")))
    qv, mv = Vocab(), Vocab()
    qv.add(table.columns[0])
    mv.add(table.columns[1])
    lookup = {(q, m): (mean, std) for q, m, mean, std in zip(
        qv.names(qv.codes()[0]), mv.names(mv.codes()[0]), table.columns[2].tolist(), table.columns[3].tolist())}
    out = {}
    for label, value in values.items():
        z = np.empty(len(qids))
        for i, (q, v) in enumerate(zip(qids, value.tolist())):
            mean, std = lookup.get((q, label), (None, 0.0))
            z[i] = MISSING_ZSCORE if mean is None else (v - mean) / std if std else 0.0 if v == mean else MISSING_ZSCORE
        out[label] = z
    return out
