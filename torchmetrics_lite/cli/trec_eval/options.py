"""trec_eval 10.0's arguments (GNU getopt: ``-q -c -M100 -l2 -m all_trec -m P.5,10 -Z file -R format ...``),
its usage and help text."""
from __future__ import annotations

import getopt
import sys
from typing import Dict, List, NamedTuple, Optional, Sequence

from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.trec_eval.names import c_atol

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
