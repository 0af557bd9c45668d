"""The command line's entry point: the arguments of each subcommand, then the pipeline of
:mod:`torchmetrics_lite.cli` (read, join, rank, measure, print)."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence, TextIO

from torchmetrics_lite.cli.classify import run_classify
from torchmetrics_lite.cli.errors import EXIT_DATA, EXIT_USAGE, CliError
from torchmetrics_lite.cli.files import read_qrels, read_run
from torchmetrics_lite.cli.ids import Vocab
from torchmetrics_lite.cli.retrieval.measures import parse_measure, parse_measures, retrieval_values, split_measures
from torchmetrics_lite.cli.retrieval.output import write_retrieval

OUT_OF_MEMORY = ("out of memory (the input needs more memory than the process may use; memory grows linearly "
                 "with the files' bytes: free memory, raise the limit, or split the run by query)")


def _run_retrieval(args: argparse.Namespace, out: TextIO) -> int:
    measures = parse_measures(args.measures, "retrieval")
    qrels_path, run_path = args.files
    if qrels_path == run_path == "-":
        raise CliError("only one of the two files can be standard input ('-')", EXIT_USAGE)
    queries, docs = Vocab(), Vocab()
    qrels, run = read_qrels(qrels_path, queries, docs), read_run(run_path, queries, docs)
    qids, values = retrieval_values(qrels, run, measures, queries, docs, ties=args.ties, empty=args.empty)
    write_retrieval(out, qids, [m.label for m in measures], values, per_query=args.per_query, digits=args.digits)
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


_TIES_HELP = ("tied scores: 'average' (default) is the expected value over every order of the tied documents, "
              "which DIFFERS from trec_eval; 'docid' breaks ties by descending docid as trec_eval does and "
              "reproduces its values exactly")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tml-eval", description="Exact evaluation metrics from files.",
                                     epilog="Exit codes: 0 ok, 1 unreadable, empty or malformed input, 2 usage error.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("trec_eval", add_help=False, help="trec_eval 10.0's own arguments and output, byte for byte "
                   "(python -m torchmetrics_lite trec_eval -h)")
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
    c.set_defaults(handler=run_classify)
    for p in (r, c):
        p.add_argument("--digits", type=int, default=4, choices=range(0, 18), metavar="N",
                       help="decimals printed (default 4)")
    return parser


def main(argv: Optional[Sequence[str]] = None, *, stdout: Optional[TextIO] = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 bad input, 2 usage error; ``trec_eval``: its
    own codes)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["trec_eval"]:
        from torchmetrics_lite.cli.trec_eval.command import run_trec_eval

        try:
            return run_trec_eval([str(a) for a in args_list[1:]], stdout if stdout is not None else sys.stdout)
        except CliError as e:
            message = str(e)
            print(message if message.startswith(("trec_eval", "Usage")) else f"trec_eval: {message}",
                  file=sys.stderr)
            return e.code
        except MemoryError:
            print(f"trec_eval: {OUT_OF_MEMORY}", file=sys.stderr)
            return EXIT_DATA
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
    except MemoryError:
        print(f"tml-eval: error: {OUT_OF_MEMORY}", file=sys.stderr)
        return EXIT_DATA
