"""The ``trec_eval`` subcommand's run: its arguments (:mod:`~torchmetrics_lite.cli.trec_eval.options`), then
for ``-R qrels`` read, join (queries in ``strcmp`` order), rank, evaluate
(:mod:`~torchmetrics_lite.cli.trec_eval.evaluate`) and print
(:func:`~torchmetrics_lite.cli.trec_eval.output.write_trec_eval`); the other relevance formats in
:mod:`~torchmetrics_lite.cli.trec_eval.formats`."""
from __future__ import annotations

import sys
from typing import Sequence, TextIO

import numpy as np

from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.files import TREC_EVAL_RUN_SHAPE, read_qrels, read_run
from torchmetrics_lite.cli.ids import Vocab
from torchmetrics_lite.cli.join import join
from torchmetrics_lite.cli.trec_eval.evaluate import evaluate, float32_scores, ranked_lists, zscores
from torchmetrics_lite.cli.trec_eval.lists import NONPOOL
from torchmetrics_lite.cli.trec_eval.measures import relstring
from torchmetrics_lite.cli.trec_eval.names import c_atol, select
from torchmetrics_lite.cli.trec_eval.options import parse_args
from torchmetrics_lite.cli.trec_eval.output import write_trec_eval


def run_trec_eval(argv: Sequence[str], out: TextIO) -> int:
    """``python -m torchmetrics_lite trec_eval ARGS``: evaluate and print as trec_eval 10.0 does."""
    options = parse_args(argv)
    if options is None:
        return 0
    selected = select(options.measures)
    if options.rel_format != "qrels":
        from torchmetrics_lite.cli.trec_eval.formats import run_rel_format

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
