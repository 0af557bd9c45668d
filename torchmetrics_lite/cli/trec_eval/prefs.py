"""trec_eval's preference judgements (``-R prefs``, ``-R qrels_prefs``) and the ``all_prefs`` measures, numpy
alone (no torch).

Input: ``prefs`` lines ``qid jg jsg docno rel_level`` (judgement group, judgement sub-group); ``qrels_prefs``
reads qrels ``qid iter docno rel`` as prefs with ``jg = iter`` and one sub-group. Within a sub-group every
document is preferred to each document of a lower ``rel_level``; ``rel_level > 0`` is relevant, ``0`` not.

Per query (trec_eval's ``form_prefs_counts``): the run is ranked by score, ties by ascending docno; the judged
documents get a "docid rank": ``0 .. njr-1`` for the retrieved ones in rank order, then ``njr .. nj-1`` for the
others in docno order. A judgement group with one sub-group is a set of equivalence classes (every pair of
its lines with different levels is a preference, counted with multiplicity); one with several sub-groups is a
preference array over the documents, closed under transitivity. A preference ``A > B`` is *fulfilled* when
``rank(A) < rank(B)``; it is *retrieved* when both are retrieved, *implied* when one is, *not occurring* when
neither is. The measures (their documentation in trec_eval's ``m_prefs_*.c``) are ratios of these counts,
summed over groups (``simp``), averaged over groups (``avgjg``), over document pairs (``pair``: the counts
array summed over groups), or with the nonrelevant documents of each group set to R (``avgjg_Rnonrel``,
trec_eval's recalculation reproduced as it computes it).

Loops: one Python iteration per evaluated query and per judgement group of that query (few: users or
assessors), each vectorised over the group's pairs of lines or documents (quadratic, as the measures are).
"""
from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, TextIO, Tuple

import numpy as np

from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.files import TREC_EVAL_RUN_SHAPE, Column, Shape, read_run, read_table
from torchmetrics_lite.cli.ids import Vocab
from torchmetrics_lite.cli.trec_eval.evaluate import float32_scores, zscores
from torchmetrics_lite.cli.trec_eval.names import Selected
from torchmetrics_lite.cli.trec_eval.output import write_trec_eval

PREFS_SHAPE = Shape(((5, 5),), "5")
_PREFS = (Column(0, "id", "query id"), Column(1, "id", "judgement group"), Column(2, "id", "judgement sub-group"),
          Column(3, "id", "document id"), Column(4, "float", "rel_level"))
_QRELS_PREFS = (Column(0, "id", "query id"), Column(1, "id", "judgement group"), Column(2, "id", "document id"),
                Column(3, "float", "relevance"))
# per judgement group: fulfilled / possible retrieved, implied, not occurring; relevant and nonrelevant counts;
# (fulfilled, possible) of avgjg_Rnonrel and avgjg_Rnonrel_ret
_FIELDS = ("ful_ret", "poss_ret", "ful_imp", "poss_imp", "notoccur", "rel", "rel_ret", "nonrel", "nonrel_ret",
           "rn_ful", "rn_poss", "rnr_ful", "rnr_poss")
MEASURES = ("prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
            "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
            "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp")


class Judgements(NamedTuple):
    q: np.ndarray  # query code (byte order of the ids)
    jg: np.ndarray  # judgement group code (byte order)
    jsg: np.ndarray  # judgement sub-group code (byte order)
    doc: np.ndarray  # document code (byte order)
    level: np.ndarray  # float64 rel_level


def _codes(ids: np.ndarray) -> np.ndarray:
    v = Vocab()
    v.add(ids)
    return v.codes()[0]


def read_judgements(path: str, rel_format: str, queries: Vocab, docs: Vocab) -> Tuple[int, int, np.ndarray,
                                                                                     np.ndarray, np.ndarray]:
    """``(query part, document part, jg codes, jsg codes, levels)`` of a prefs or qrels_prefs file."""
    if rel_format == "prefs":
        t = read_table(path, PREFS_SHAPE, "qid jg jsg docno rel_level", _PREFS)
        q, jg, jsg, doc, level = t.columns
        return queries.add(q), docs.add(doc), _codes(jg), _codes(jsg), level
    t = read_table(path, Shape(((4, 4),), "4"), "qid iter docno rel", _QRELS_PREFS)
    q, jg, doc, level = t.columns
    return queries.add(q), docs.add(doc), _codes(jg), np.zeros(q.size, dtype=np.int64), level


def run_prefs(options: Any, selected: List[Selected], out: TextIO) -> int:
    """``-R prefs`` / ``-R qrels_prefs``: the ``all_prefs`` measures of the queries in both files."""
    other = [s.name for s in selected if s.name not in MEASURES and s.kind not in ("runid", "num_q")]
    if other:
        raise CliError(f"trec_eval: measure '{other[0]}' needs -R qrels (with -R {options.rel_format}: the "
                       f"all_prefs measures)\ntrec_eval: Can't calculate measure '{other[0]}'", 4)
    if options.complete:
        raise CliError(f"trec_eval: -c is not supported with -R {options.rel_format} (the preference measures of "
                       "queries without results are not defined here); leave out -c", 2)
    queries, docs = Vocab(), Vocab()
    prefs_path, run_path = options.files
    qp, dp, jg, jsg, level = read_judgements(prefs_path, options.rel_format, queries, docs)
    run = read_run(run_path, queries, docs, TREC_EVAL_RUN_SHAPE)
    if options.float32:
        score = float32_scores(run.score)
    else:
        score = run.score
    q_codes, d_codes = queries.codes(), docs.codes()
    judged = Judgements(q_codes[qp], jg, jsg, d_codes[dp], level)
    rq, rd = q_codes[run.q], d_codes[run.doc]
    evaluated = np.intersect1d(judged.q, rq)  # byte order: trec_eval's strcmp order
    if not evaluated.size:
        raise CliError("trec_eval: No queries with both results and relevance info", 7)
    qids = queries.names(evaluated)
    by_j, by_r = np.argsort(judged.q, kind="stable"), np.argsort(rq, kind="stable")
    j_sorted, r_sorted = judged.q.take(by_j), rq.take(by_r)
    rows = []
    for code, qid in zip(evaluated.tolist(), qids):  # one iteration per query (see the module docstring)
        a, b = np.searchsorted(j_sorted, [code, code + 1])
        c, d = np.searchsorted(r_sorted, [code, code + 1])
        mine = by_j[a:b]
        sub = Judgements(judged.q.take(mine), judged.jg.take(mine), judged.jsg.take(mine), judged.doc.take(mine),
                         judged.level.take(mine))
        rows.append(query_values(sub, rd.take(by_r[c:d]), score.take(by_r[c:d]), options.max_docs, qid, docs))
    values = {name: np.array([row[name] for row in rows], dtype=np.float64) for name in MEASURES}
    if options.zscores is not None:
        values = zscores(values, qids, options.zscores)
    write_trec_eval(out, selected, qids, values, {}, run.tag, options)
    return 0


def docid_ranks(judged: Judgements, run_doc: np.ndarray, run_score: np.ndarray, max_docs: int, qid: str,
                docs: Vocab) -> Tuple[np.ndarray, int, int]:
    """``(rank of each judgement line, num_judged_ret, num_judged)``: retrieved judged documents ``0..njr-1``
    in rank order (score descending, ties by ascending docno; at most ``max_docs`` ranked), the others after
    them in docno order."""
    order = np.lexsort((run_doc, -run_score))[:max_docs]
    ranked = run_doc.take(order)
    unique_ranked = np.unique(ranked)
    if unique_ranked.size < ranked.size:
        twice = np.sort(ranked)
        dup = twice[:-1][twice[1:] == twice[:-1]][:1]
        raise CliError(f"trec_eval.form_prefs_counts: duplicate docs {docs.names(dup)[0]} in query '{qid}'")
    judged_docs = np.unique(judged.doc)
    ret = ranked[np.isin(ranked, judged_docs)]
    njr, nj = ret.size, judged_docs.size
    rank_of = np.empty(nj, dtype=np.int64)
    is_ret = np.zeros(nj, dtype=bool)
    at = np.searchsorted(judged_docs, ret)
    rank_of[at] = np.arange(njr)
    is_ret[at] = True
    rank_of[~is_ret] = njr + np.arange(nj - njr)
    return rank_of.take(np.searchsorted(judged_docs, judged.doc)), njr, nj


def query_values(judged: Judgements, run_doc: np.ndarray, run_score: np.ndarray, max_docs: int, qid: str,
                 docs: Vocab) -> Dict[str, float]:
    """The 14 ``all_prefs`` values of one query."""
    rank, njr, nj = docid_ranks(judged, run_doc, run_score, max_docs, qid, docs)
    order = np.lexsort((rank, -judged.level, judged.jsg, judged.jg))  # jg, jsg, level descending, rank
    jg, jsg, level, rank = judged.jg.take(order), judged.jsg.take(order), judged.level.take(order), rank.take(order)
    counts = np.zeros((nj, nj), dtype=np.uint16)  # over groups: prefs of doc i over doc j (C unsigned short)
    bounds = np.flatnonzero(np.concatenate([[True], jg[1:] != jg[:-1], [True]]))
    groups = []
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist()):  # one iteration per judgement group
        if np.unique(jsg[lo:hi]).size > 1:
            groups.append(_array_group(jsg[lo:hi], level[lo:hi], rank[lo:hi], njr, nj, counts, qid))
        else:
            groups.append(_ec_group(level[lo:hi], rank[lo:hi], njr, counts, qid))
    g = {name: np.array([row[k] for row in groups], dtype=np.float64) for k, name in enumerate(_FIELDS)}
    return _measures(g, counts, njr)


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def _avg_over_groups(ful: np.ndarray, poss: np.ndarray, skip_empty: bool) -> float:
    """trec_eval's ``sum(ful/poss) / num_jgs`` when the sum is positive, else 0: groups without a possible
    preference add nothing (``skip_empty``) or a NaN that makes the query 0 (the Rnonrel measures)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        ratios = ful / poss
    if skip_empty:
        ratios = np.where(poss > 0, ratios, 0.0)
    total = 0.0
    for r in ratios.tolist():  # in group order, as trec_eval adds
        total += r
    return total / ful.size if total > 0.0 else 0.0


def _pair(counts: np.ndarray, njr: int) -> Tuple[float, float, float]:
    """prefs_pair, prefs_pair_ret, prefs_pair_imp: the share of each document pair's preferences (summed over
    groups) that its higher-ranked document fulfils, averaged over the pairs with a preference (pairs of two
    unretrieved documents count as 0 in prefs_pair, are left out of the others)."""
    i, j = np.triu_indices(counts.shape[0], 1)  # row by row, as trec_eval's loops
    fwd, back = counts[i, j].astype(np.int64), counts[j, i].astype(np.int64)
    has = (fwd + back) > 0
    share = fwd / np.maximum(fwd + back, 1)
    both, one = has & (j < njr), has & (i < njr) & (j >= njr)
    total_ret = 0.0
    for v in share[both].tolist():  # trec_eval adds the retrieved pairs first, then those with one retrieved
        total_ret += v
    total = total_ret
    for v in share[one].tolist():
        total += v
    n_all, n_ret, n_imp = int(has.sum()), int(both.sum()), int(both.sum() + one.sum())
    return _ratio(total, n_all), _ratio(total_ret, n_ret), _ratio(total, n_imp)


def _measures(g: Dict[str, np.ndarray], counts: np.ndarray, njr: int) -> Dict[str, float]:
    ful_all = g["ful_ret"] + g["ful_imp"]
    poss_imp = g["poss_ret"] + g["poss_imp"]
    poss_all = poss_imp + g["notoccur"]
    pair, pair_ret, pair_imp = _pair(counts, njr)
    return {
        "prefs_num_prefs_poss": float(poss_all.sum()), "prefs_num_prefs_ful": float(ful_all.sum()),
        "prefs_num_prefs_ful_ret": float(g["ful_ret"].sum()),
        "prefs_simp": _ratio(ful_all.sum(), poss_all.sum()), "prefs_pair": pair,
        "prefs_avgjg": _avg_over_groups(ful_all, poss_all, True),
        "prefs_avgjg_Rnonrel": _avg_over_groups(g["rn_ful"], g["rn_poss"], False),
        "prefs_simp_ret": _ratio(g["ful_ret"].sum(), g["poss_ret"].sum()), "prefs_pair_ret": pair_ret,
        "prefs_avgjg_ret": _avg_over_groups(g["ful_ret"], g["poss_ret"], True),
        "prefs_avgjg_Rnonrel_ret": _avg_over_groups(g["rnr_ful"], g["rnr_poss"], False),
        "prefs_simp_imp": _ratio(ful_all.sum(), poss_imp.sum()), "prefs_pair_imp": pair_imp,
        "prefs_avgjg_imp": _avg_over_groups(ful_all, poss_imp, True),
    }


def _categories(ri: np.ndarray, rj: np.ndarray, njr: int) -> List[int]:
    """``ful_ret, poss_ret, ful_imp, poss_imp, notoccur`` of the preferences ``ri > rj`` (docid ranks)."""
    ret_i, ret_j, ful = ri < njr, rj < njr, ri < rj
    both, one = ret_i & ret_j, ret_i ^ ret_j
    return [int((both & ful).sum()), int(both.sum()), int((one & ful).sum()), int(one.sum()),
            int((~(ret_i | ret_j)).sum())]


def _recount(ri: np.ndarray, rj: np.ndarray, njr: int) -> Tuple[int, int]:
    """trec_eval's recalculation: (fulfilled: ``ri < rj`` and ``ri`` retrieved, possible: all pairs)."""
    return int(((ri < rj) & (ri < njr)).sum()), int(ri.size)


def _rnonrel(direct: Tuple[int, int], R: int, N: int, rel_ret: int, rel: int,
             recalc: Any) -> Tuple[int, int]:
    """(fulfilled, possible) with the nonrelevant documents set to R: ``R - N`` fulfilled preferences added per
    relevant document when ``R >= N``, else recalculated on the first R nonrelevant documents."""
    if R >= N:
        return direct[0] + rel_ret * (R - N), direct[1] + rel * (R - N)
    return recalc()


def _ec_group(level: np.ndarray, rank: np.ndarray, njr: int, counts: np.ndarray, qid: str) -> List[int]:
    """The counts of a group with one sub-group: equivalence classes of equal ``level`` (lines sorted by level
    descending, then rank); every pair of lines of different levels is a preference (with multiplicity)."""
    a, b = np.nonzero(level[:, None] > level[None, :])
    ri, rj = rank.take(a), rank.take(b)
    if (ri == rj).any():
        raise CliError(f"trec_eval.form_prefs_counts: query '{qid}': a document occurs with different rel_level "
                       "in the same judgement sub-group")
    np.add.at(counts, (ri, rj), 1)
    rel, ret = level > 0.0, rank < njr
    n_rel, n_rel_ret = int(rel.sum()), int((rel & ret).sum())
    n_nonrel, n_nonrel_ret = int((~rel).sum()), int((~rel & ret).sum())
    cats = _categories(ri, rj, njr)
    last = level == level[-1]  # the lowest class: its first R lines stand for the nonrelevant documents
    upper = ~last.take(a) & ~last.take(b)

    def recalc(R: int, retrieved_only: bool) -> Tuple[int, int]:
        keep = upper & (ri < njr) & (rj < njr) if retrieved_only else upper
        f1, p1 = _recount(ri[keep], rj[keep], njr)
        nonrel = rank[last]
        if R > nonrel.size and (not retrieved_only or (nonrel < njr).all()):  # trec_eval reads past its class
            raise CliError(f"trec_eval: query '{qid}': prefs_avgjg_Rnonrel is undefined in trec_eval when a group "
                           f"has more relevant documents ({R}) than its lowest level ({nonrel.size})")
        nonrel = nonrel[:R]
        lines = rank
        if retrieved_only:
            nonrel, lines = nonrel[nonrel < njr], rank[rank < njr]
        f2, p2 = _recount(np.repeat(lines, nonrel.size), np.tile(nonrel, lines.size), njr)
        return f1 + f2, p1 + p2

    rn = _rnonrel((cats[0] + cats[2], cats[1] + cats[3] + cats[4]), n_rel, n_nonrel, n_rel_ret, n_rel,
                  lambda: recalc(n_rel, False))
    rnr = _rnonrel((cats[0], cats[1]), n_rel_ret, n_nonrel_ret, n_rel_ret, n_rel,
                   lambda: recalc(n_rel_ret, True))
    return cats + [n_rel, n_rel_ret, n_nonrel, n_nonrel_ret, *rn, *rnr]


def _closure(pa: np.ndarray) -> np.ndarray:
    """The transitive closure of the preference array (boolean matrix products until nothing changes)."""
    c = (pa | np.eye(pa.shape[0], dtype=bool)).astype(np.float64)
    while True:
        nxt = (c @ c) > 0
        if (nxt == (c > 0)).all():
            break
        c = nxt.astype(np.float64)
    out = c > 0
    np.fill_diagonal(out, False)
    return out


def _array_group(jsg: np.ndarray, level: np.ndarray, rank: np.ndarray, njr: int, nj: int, counts: np.ndarray,
                 qid: str) -> List[int]:
    """The counts of a group with several sub-groups: a preference array over the documents (within each
    sub-group, a document over each of lower level), closed under transitivity."""
    positive = np.bincount(rank, weights=level > 0.0, minlength=nj) > 0
    zero = np.bincount(rank, weights=level == 0.0, minlength=nj) > 0
    if (positive & zero).any():
        raise CliError(f"trec_eval.form_prefs_counts: query '{qid}': a document has both 0 and non-0 rel_level "
                       "in one judgement group")
    rel = np.full(nj, -1.0)  # each document's level: that of its last line (sorted order), -1 when absent
    docs, from_end = np.unique(rank[::-1], return_index=True)
    rel[docs] = level.take(rank.size - 1 - from_end)
    a, b = np.nonzero((jsg[:, None] == jsg[None, :]) & (level[:, None] > level[None, :]))
    pa = np.zeros((nj, nj), dtype=bool)
    pa[rank.take(a), rank.take(b)] = True
    pa = _closure(pa)
    if (pa & pa.T).any():
        raise CliError(f"trec_eval.form_prefs_counts: query '{qid}': inconsistent preferences in one judgement "
                       "group")
    counts += pa
    i, j = np.nonzero(pa)
    cats = _categories(i, j, njr)
    idx = np.arange(nj)
    n_rel, n_rel_ret = int((rel > 0.0).sum()), int((rel[:njr] > 0.0).sum())
    n_nonrel, n_nonrel_ret = int((rel == 0.0).sum()), int((rel[:njr] == 0.0).sum())

    def recalc(limit: int) -> Tuple[int, int]:
        nonrel = np.flatnonzero(rel[:limit] == 0.0)
        first = int(nonrel[n_rel]) if nonrel.size > n_rel else limit
        keep = ~((idx >= first) & (rel == 0.0)) & (idx < limit)
        ki, kj = np.nonzero(pa & keep[:, None] & keep[None, :])
        return _recount(ki, kj, njr)

    rn = _rnonrel((cats[0] + cats[2], cats[1] + cats[3] + cats[4]), n_rel, n_nonrel, n_rel_ret, n_rel,
                  lambda: recalc(nj))
    rnr = _rnonrel((cats[0], cats[1]), n_rel_ret, n_nonrel_ret, n_rel_ret, n_rel, lambda: recalc(njr))
    return cats + [n_rel, n_rel_ret, n_nonrel, n_nonrel_ret, *rn, *rnr]
