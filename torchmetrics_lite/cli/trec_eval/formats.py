"""trec_eval's other relevance formats (``-R``): ``qrels_jg`` (judgement groups: each user's qrels, the
measures averaged over a query's groups) and the preference formats ``prefs`` / ``qrels_prefs``
(:mod:`~torchmetrics_lite.cli.trec_eval.prefs`). Numpy alone."""
from __future__ import annotations

from typing import Any, Dict, List, TextIO

import numpy as np

from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.files import QRELS_SHAPE, TREC_EVAL_RUN_SHAPE, Column, Qrels, read_run, read_table
from torchmetrics_lite.cli.ids import Vocab
from torchmetrics_lite.cli.join import join
from torchmetrics_lite.cli.trec_eval.evaluate import evaluate, ranked_lists
from torchmetrics_lite.cli.trec_eval.names import Selected
from torchmetrics_lite.cli.trec_eval.output import write_trec_eval

_JG_COLUMNS = (Column(0, "id", "query id"), Column(1, "id", "judgement group"), Column(2, "id", "document id"),
               Column(3, "int", "relevance"))
_PER_GROUP = {"map_avgjg": "map", "P_avgjg": "P", "Rprec_mult_avgjg": "Rprec_mult"}


def run_rel_format(options: Any, selected: List[Selected], out: TextIO) -> int:
    if options.rel_format == "qrels_jg":
        return _run_qrels_jg(options, selected, out)
    if options.rel_format in ("prefs", "qrels_prefs"):
        from torchmetrics_lite.cli.trec_eval.prefs import run_prefs

        return run_prefs(options, selected, out)
    raise CliError(f"trec_eval: Illegal rel_format '{options.rel_format}'", 2)


def _groups(path: str, queries: Vocab, docs: Vocab) -> List[Qrels]:
    """The qrels of each judgement group (in ``strcmp`` order of the group names), as separate qrels."""
    table = read_table(path, QRELS_SHAPE, "qid jg docid rel", _JG_COLUMNS)
    q, jg, doc, rel = table.columns
    names = Vocab()
    names.add(jg)
    code = names.codes()[0]
    out = []
    for g in range(int(code.max(initial=-1)) + 1):
        mask = code == g
        out.append(Qrels(path, table.lines[mask], queries.add(q[mask]), docs.add(doc[mask]), rel[mask]))
    return out


def _run_qrels_jg(options: Any, selected: List[Selected], out: TextIO) -> int:
    queries, docs = Vocab(), Vocab()
    qrels_path, run_path = options.files
    groups = _groups(qrels_path, queries, docs)
    run = read_run(run_path, queries, docs, TREC_EVAL_RUN_SHAPE)
    other = [s.name for s in selected if s.name not in _PER_GROUP and s.kind not in ("runid", "num_q")]
    if other:
        raise CliError(f"trec_eval: measure '{other[0]}' needs -R qrels (with -R qrels_jg: map_avgjg, P_avgjg, "
                       "Rprec_mult_avgjg)\ntrec_eval: Can't calculate measure '" + other[0] + "'", 4)
    per_group = [Selected(_PER_GROUP[s.name], s.kind, s.params, s.labels) for s in selected if s.name in _PER_GROUP]
    results = []
    for qrels in groups:
        try:
            joined = join(qrels, run, queries, docs, order="bytes", keep="both", repeats="warn")
        except CliError as e:
            if "no query" not in str(e):
                raise
            continue  # no query of this group is in the run
        lists, bogus = ranked_lists(joined, options._replace(complete=False))
        results.append((joined.qids, evaluate(lists, per_group, options.docs_in_coll, bogus, options.version)))
    qids = sorted({q for names, _ in results for q in names}, key=lambda q: q.encode())
    if not qids:
        raise CliError("trec_eval: No queries with both results and relevance info", 7)
    index = {q: i for i, q in enumerate(qids)}
    values: Dict[str, np.ndarray] = {label: np.zeros(len(qids)) for s in per_group for label in s.labels}
    n_groups = np.zeros(len(qids))
    for names, group_values in results:
        at = np.array([index[q] for q in names], dtype=np.int64)
        n_groups[at] += 1
        for label, value in group_values.items():
            values[label][at] += value
    for label in values:
        values[label] = np.where(n_groups > 1, values[label] / np.maximum(n_groups, 1), values[label])
    write_trec_eval(out, selected, qids, values, {}, run.tag, options)
    return 0
