"""trec_eval 10.0's measures (``MEASURES``; ``MEASURES_9``: trec_eval 9.x's recall points) over
:class:`~torchmetrics_lite.cli.trec_eval.lists.Lists`, every query at once (numpy alone). Each
function returns one float64 array per printed value (``P`` one per cut-off), computed in the order of operations
of trec_eval's ``m_<name>.c`` (written here from their documented definitions), so values agree bit for bit.
The gain-based measures (``ndcg``, ``G``, ``rbp``...) are in :mod:`~torchmetrics_lite.cli.trec_eval.gains`.
"""
from __future__ import annotations

from typing import Callable, Dict, List

import numpy as np

from torchmetrics_lite.cli.trec_eval.gains import GAIN_MEASURES
from torchmetrics_lite.cli.trec_eval.lists import (
    NONPOOL,
    UNJUDGED,
    Lists,
    divide,
    lround,
    p_powers,
    seg_cumsum,
    seg_cumsum_float,
    seg_suffix_max,
)
from torchmetrics_lite.cli.trec_eval.names import Selected

MIN_GEO_MEAN = 0.00001
INFAP_EPSILON = 0.00001
Values = List[np.ndarray]


def _precision_sum(x: Lists, k: "int | None" = None) -> np.ndarray:
    """The precisions at the relevant documents, added in rank order (within the first ``k``)."""
    cum = x.cached("precision_cum", lambda: seg_cumsum_float(np.where(x.isrel, x.cumrel / x.ranks, 0.0), x))
    return x.at_cut(cum, x.n_ret if k is None else np.full(x.nq, k))


def _map(x: Lists, s: Selected, n: int) -> Values:
    return [divide(_precision_sum(x), x.num_rel)]


def _gm_map(x: Lists, s: Selected, n: int) -> Values:
    ap = np.where(x.num_rel_ret > 0, divide(_precision_sum(x), x.num_rel), 0.0)
    return [np.log(np.maximum(ap, MIN_GEO_MEAN))]


def _rprec(x: Lists, s: Selected, n: int) -> Values:
    return [divide(x.at_cut(x.cumrel, x.num_rel.astype(np.int64)), x.num_rel)]


def _bpref_terms(x: Lists) -> np.ndarray:
    return x.cached("bpref", lambda: _bpref_sum(x))


def _bpref_sum(x: Lists) -> np.ndarray:
    judged_nonrel = (x.rel >= 0) & (x.rel < x.level)
    before = seg_cumsum(judged_nonrel.astype(np.int64), x.q, x.start) - judged_nonrel
    r = x.num_rel.take(x.q)
    term = np.ones(x.q.size)
    some = (before > 0) & (r > 0)  # r > 0 wherever a relevant document is (the positions summed)
    term[some] = 1.0 - np.minimum(before, r)[some] / np.minimum(x.num_nonrel.take(x.q), r)[some]
    return x.sum(term, (x.rel >= 0) & (x.rel >= x.level))


def _bpref(x: Lists, s: Selected, n: int) -> Values:
    return [divide(_bpref_terms(x), x.num_rel)]


def _gm_bpref(x: Lists, s: Selected, n: int) -> Values:
    return [np.log(np.maximum(divide(_bpref_terms(x), x.num_rel), MIN_GEO_MEAN))]


def _recip_rank(x: Lists, s: Selected, n: int) -> Values:
    return [divide(np.ones(x.nq), x.first_rel_rank().astype(np.float64))]


def recall_cut(point: float, num_rel: np.ndarray, version: int = 10) -> np.ndarray:
    """The relevant document a recall point stands for: trec_eval 10.0 rounds ``point * R`` to the nearest
    (``lround``); trec_eval 9.x (pytrec_eval) adds 0.9 and truncates, so ``0.25 * 10`` is 3 in 10.0 and 3 in 9.x
    but ``0.14 * 10`` is 1 in 10.0 and 2 in 9.x.

    >>> recall_cut(0.3, np.array([4.0, 10.0])), recall_cut(0.3, np.array([4.0, 10.0]), version=9)
    (array([1, 3]), array([2, 3]))
    """
    if version == 9:
        return (np.float64(point) * num_rel + 0.9).astype(np.int64)
    return lround(np.float64(point) * num_rel)


def _interpolated(x: Lists, points: tuple, version: int = 10) -> Values:
    """Interpolated precision at recall ``points``: the highest precision at or after the relevant document
    :func:`recall_cut` (the first one for 0; 0 past the last retrieved relevant document)."""
    at = np.flatnonzero(x.isrel)
    best = seg_suffix_max(x.cumrel.take(at) / x.ranks.take(at), x.q.take(at))
    first = np.cumsum(x.num_rel_ret.astype(np.int64)) - x.num_rel_ret.astype(np.int64)  # of each query in ``at``
    out = []
    for point in points:
        cut = recall_cut(point, x.num_rel, version)
        inside = (cut <= x.num_rel_ret) & (x.num_rel_ret > 0)
        index = np.clip(first + np.maximum(cut, 1) - 1, 0, max(best.size - 1, 0))
        out.append(np.where(inside, best.take(index) if best.size else 0.0, 0.0))
    return out


def _iprec(x: Lists, s: Selected, n: int, version: int = 10) -> Values:
    return _interpolated(x, s.params, version)


def _11pt(x: Lists, s: Selected, n: int, version: int = 10) -> Values:
    total = np.zeros(x.nq)
    for value in reversed(_interpolated(x, s.params, version)):  # trec_eval adds from the last point down
        total = total + value
    return [total / len(s.params)]


def _iprec_9(x: Lists, s: Selected, n: int) -> Values:
    return _iprec(x, s, n, 9)


def _11pt_9(x: Lists, s: Selected, n: int) -> Values:
    return _11pt(x, s, n, 9)


def _p(x: Lists, s: Selected, n: int) -> Values:
    return [x.at_cut(x.cumrel, k) / k for k in s.params]


def _recall(x: Lists, s: Selected, n: int) -> Values:
    return [divide(x.at_cut(x.cumrel, k), x.num_rel) for k in s.params]


def _infap(x: Lists, s: Selected, n: int) -> Values:
    judged_rel = (x.rel >= 0) & (x.rel >= x.level)
    nonrel = (x.rel >= 0) & (x.rel < x.level)
    rel_so_far = seg_cumsum(judged_rel.astype(np.int64), x.q, x.start).astype(np.float64)
    nonrel_so_far = seg_cumsum(nonrel.astype(np.int64), x.q, x.start).astype(np.float64)
    unjudged = x.rel == UNJUDGED
    unj_so_far = (seg_cumsum(unjudged.astype(np.int64), x.q, x.start) - unjudged).astype(np.float64)
    fj = x.pos.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((rel_so_far - 1 + nonrel_so_far + unj_so_far) / fj) * \
            ((rel_so_far - 1 + INFAP_EPSILON) / (rel_so_far - 1 + nonrel_so_far + 2 * INFAP_EPSILON))
    term = np.where(x.pos == 0, 1.0, term)
    return [divide(x.sum(term, judged_rel), x.num_rel)]


def _rprec_mult(x: Lists, s: Selected, n: int) -> Values:
    out = []
    for mult in s.params:
        cut = (np.float64(mult) * x.num_rel + 0.9).astype(np.int64)
        out.append(np.where(cut > 0, divide(x.at_cut(x.cumrel, cut), cut.astype(np.float64)), 0.0))
    return out


def _utility(x: Lists, s: Selected, n: int) -> Values:
    if len(s.params) != 4:
        raise_calc("utility", "trec_eval.calc_utility: improper number of coefficients")
    a, b, c, d = s.params
    ret, rel_ret, rel = x.n_ret.astype(np.float64), x.num_rel_ret, x.num_rel
    return [a * rel_ret + b * (ret - rel_ret) + c * (rel - rel_ret) + d * (n + rel_ret - ret - rel)]


def _bing(x: Lists, s: Selected, n: int) -> Values:
    before = (3 + x.pos - x.cumrel).astype(np.float64)  # 2 + the non-relevant documents above
    return [divide(x.sum(1.0 / np.log2(before), x.isrel), x.num_rel)]


def _map_cut(x: Lists, s: Selected, n: int) -> Values:
    return [divide(_precision_sum(x, k), x.num_rel) for k in s.params]


def _relative_p(x: Lists, s: Selected, n: int) -> Values:
    return [divide(x.at_cut(x.cumrel, k), np.minimum(k, x.num_rel)) for k in s.params]


def _success(x: Lists, s: Selected, n: int) -> Values:
    return [(x.at_cut(x.cumrel, k) > 0).astype(np.float64) for k in s.params]


def _set_p(x: Lists, s: Selected, n: int) -> Values:
    return [divide(x.num_rel_ret, x.n_ret.astype(np.float64))]


def _set_relative_p(x: Lists, s: Selected, n: int) -> Values:
    return [divide(x.num_rel_ret, np.minimum(x.n_ret, x.num_rel))]


def _set_recall(x: Lists, s: Selected, n: int) -> Values:
    return [divide(x.num_rel_ret, x.num_rel)]


def _set_map(x: Lists, s: Selected, n: int) -> Values:
    ok = (x.n_ret > 0) & (x.num_rel > 0)
    return [np.where(ok, divide(x.num_rel_ret * x.num_rel_ret, x.n_ret * x.num_rel), 0.0)]


def _set_f(x: Lists, s: Selected, n: int) -> Values:
    beta = s.params[0]
    p, r = divide(x.num_rel_ret, x.n_ret.astype(np.float64)), divide(x.num_rel_ret, x.num_rel)
    ok = (x.n_ret > 0) & (x.num_rel > 0)
    return [np.where(ok, divide((beta + 1.0) * p * r, beta * p + r), 0.0)]


def _nonrel_judged(x: Lists, s: Selected, n: int) -> Values:
    return [x.sum(np.ones(x.q.size), (x.rel >= 0) & (x.rel < x.level))]


def _unj(x: Lists, s: Selected, n: int) -> Values:
    judged = seg_cumsum((x.rel >= 0).astype(np.int64), x.q, x.start)  # the others are unjudged
    return [(np.minimum(k, x.n_ret) - x.at_cut(judged, k)) / k for k in s.params]


def _rbp_resid(x: Lists, s: Selected, n: int) -> Values:
    """``p ** n_ret + (1 - p) * sum(p ** i)`` over the unjudged ranks ``i`` (added one at a time, over every
    rank: the only measure that reads the documents missing from the qrels)."""
    p = 0.9
    powers = p_powers(p, x.width + 1)
    q = np.repeat(np.arange(x.nq), x.n_ret)
    pos = np.arange(q.size) - np.repeat(np.cumsum(x.n_ret) - x.n_ret, x.n_ret)
    unjudged = np.ones(q.size, dtype=np.bool_)
    judged = x.rel >= 0
    unjudged[(np.cumsum(x.n_ret) - x.n_ret).take(x.q[judged]) + x.pos[judged]] = False
    total = np.bincount(q, weights=np.where(unjudged, powers.take(pos), 0.0), minlength=x.nq)
    some = np.bincount(q, weights=unjudged, minlength=x.nq) > 0
    return [np.where(some, powers.take(x.n_ret) + (1 - p) * total, 0.0)]


def raise_calc(name: str, why: str) -> None:
    from torchmetrics_lite.cli.errors import CliError

    raise CliError(f"{why}\ntrec_eval: Can't calculate measure '{name}'", 4)


def _counts(name: str) -> Callable[[Lists, Selected, int], Values]:
    def count(x: Lists, s: Selected, n: int) -> Values:
        return [{"num_ret": x.n_ret.astype(np.float64), "num_rel": x.num_rel, "num_rel_ret": x.num_rel_ret}[name]]
    return count


MEASURES: Dict[str, Callable[[Lists, Selected, int], Values]] = {
    "num_ret": _counts("num_ret"), "num_rel": _counts("num_rel"), "num_rel_ret": _counts("num_rel_ret"),
    "map": _map, "gm_map": _gm_map, "Rprec": _rprec, "bpref": _bpref, "recip_rank": _recip_rank,
    "iprec_at_recall": _iprec, "P": _p, "recall": _recall, "infAP": _infap, "gm_bpref": _gm_bpref,
    "Rprec_mult": _rprec_mult, "utility": _utility, "11pt_avg": _11pt, "binG": _bing, "map_cut": _map_cut,
    "relative_P": _relative_p, "success": _success, "set_P": _set_p, "set_relative_P": _set_relative_p,
    "set_recall": _set_recall, "set_map": _set_map, "set_F": _set_f, "num_nonrel_judged_ret": _nonrel_judged,
    "rbp_resid": _rbp_resid, "unj": _unj, **GAIN_MEASURES,
}
# ``--trec-version 9``: trec_eval 9.x's (pytrec_eval's) recall points; every other measure is the same in both
MEASURES_9: Dict[str, Callable[[Lists, Selected, int], Values]] = {
    **MEASURES, "iprec_at_recall": _iprec_9, "11pt_avg": _11pt_9,
}


def relstring(x: Lists, length: float) -> List[str]:
    """The first ``length`` relevance values of each query as text: 0-9, ``>`` above 9, ``-`` not in the qrels,
    ``.`` in the pool but unjudged, ``<`` other negative values."""
    n = max(int(length), 0)
    grid = np.full((x.nq, n), ord("-"), dtype=np.uint8)
    first = x.pos < n
    rel = x.rel[first]
    grid[x.q[first], x.pos[first]] = np.where(rel > 9, ord(">"), np.where(rel >= 0, 48 + np.clip(rel, 0, 9), np.where(
        rel == NONPOOL, ord("-"), np.where(rel == UNJUDGED, ord("."), ord("<")))))
    return [row[:min(n, int(r))].tobytes().decode("ascii") for row, r in zip(grid, x.n_ret.tolist())]
