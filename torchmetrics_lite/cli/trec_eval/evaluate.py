"""What every relevance format of ``trec_eval`` shares: the scores as read (``--float32-scores``), the run in
trec_eval's rank order (``ranked_lists``), the per-query values of the selected measures (``evaluate``) and their
z-scores (``-Z``). Numpy alone."""
from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np

from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.files import Column, Shape, read_table
from torchmetrics_lite.cli.ids import Vocab
from torchmetrics_lite.cli.join import Joined
from torchmetrics_lite.cli.rank import _docid_order
from torchmetrics_lite.cli.trec_eval.lists import NONPOOL, UNJUDGED, Lists
from torchmetrics_lite.cli.trec_eval.measures import MEASURES, MEASURES_9
from torchmetrics_lite.cli.trec_eval.names import Selected
from torchmetrics_lite.cli.trec_eval.options import Options

MISSING_ZSCORE = -1000000.0


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
