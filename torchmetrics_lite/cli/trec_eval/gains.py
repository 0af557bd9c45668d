"""trec_eval's gain-based measures (numpy alone): ``ndcg``, ``ndcg_cut``, ``ndcg_rel``, ``Rndcg``, ``G``,
``dcg``, ``ideal_dcg``, ``rbp``.

Gains: a judged level's gain is the level itself, unless ``-m ndcg.1=3,2=9`` names it (the name is read with
``atol``: ``rbp.p=0.95`` also sets level 0's gain to 0.95, as trec_eval does). The ideal ranking of a query holds
its judgements sorted by gain, highest first; DCG discounts rank ``i`` (1-based) by ``log2(i + 1)``. Sums are
added in rank order, as trec_eval's loops add them, so values agree bit for bit.
"""
from __future__ import annotations

from typing import Callable, Dict, List, NamedTuple, Tuple

import numpy as np

from torchmetrics_lite.cli.trec_eval.lists import Lists, divide, p_powers, seg_cumsum_exact, seg_cumsum_float
from torchmetrics_lite.cli.trec_eval.names import Selected, c_atol

Values = List[np.ndarray]


class Ideal(NamedTuple):
    """The positive part of each query's ideal ranking, flat: ``gain``, ``q``, ``pos`` per ideal document,
    ``start``/``size`` per query, ``cum`` (inclusive DCG sums) and ``total`` (the ideal DCG)."""

    gain: np.ndarray
    q: np.ndarray
    pos: np.ndarray
    start: np.ndarray
    size: np.ndarray
    cum: np.ndarray
    total: np.ndarray


def _pairs(s: Selected) -> List[Tuple[int, float]]:
    return [(c_atol(name), value) for name, value in s.params]


def level_gains(x: Lists, s: Selected) -> Tuple[np.ndarray, np.ndarray]:
    """``(levels, gains)``: every level with a gain (judged levels ``0 ..`` and the named ones), and its gain."""
    pairs = _pairs(s)
    levels = sorted(set(range(x.counts.shape[1])) | {level for level, _ in pairs})
    named: Dict[int, float] = {}
    for level, gain in pairs:
        named.setdefault(level, gain)  # the first one named wins, as trec_eval's lookup
    return np.array(levels, dtype=np.int64), np.array([named.get(v, float(v)) for v in levels], dtype=np.float64)


def doc_gains(x: Lists, s: Selected) -> np.ndarray:
    """The gain of each retrieved document (0 for a level without a gain: not judged)."""
    return x.cached(("gains", s.params), lambda: _doc_gains(x, s))


def _doc_gains(x: Lists, s: Selected) -> np.ndarray:
    if not s.params:  # the level itself
        return np.maximum(x.rel, 0).astype(np.float64)
    levels, gains = level_gains(x, s)
    out = np.zeros(x.rel.size, dtype=np.float64)
    if x.rel.size and levels.size:
        at = np.clip(np.searchsorted(levels, x.rel), 0, levels.size - 1)
        hit = levels.take(at) == x.rel
        out[hit] = gains.take(at)[hit]
    return out


def _level_counts(x: Lists, levels: np.ndarray) -> np.ndarray:
    """Judgements of each query at each of ``levels`` (0 for levels not judged)."""
    out = np.zeros((x.nq, levels.size), dtype=np.int64)
    inside = (levels >= 0) & (levels < x.counts.shape[1])
    out[:, inside] = x.counts[:, levels[inside]]
    return out


def ideal(x: Lists, s: Selected) -> Ideal:
    return x.cached(("ideal", s.params), lambda: _ideal(x, s))


def _ideal(x: Lists, s: Selected) -> Ideal:
    levels, gains = level_gains(x, s)
    order = np.argsort(-gains, kind="stable")
    order = order[gains.take(order) > 0]
    counts = _level_counts(x, levels)[:, order]
    size = counts.sum(axis=1)
    gain = np.repeat(np.tile(gains.take(order), x.nq), counts.ravel())
    q = np.repeat(np.arange(x.nq), size)
    start = np.cumsum(size) - size
    pos = np.arange(gain.size) - start.take(q)
    disc = gain / np.log2(pos + 2.0)
    cum = seg_cumsum_exact(disc, q, pos, start, size)
    total = np.bincount(q, weights=disc, minlength=x.nq)
    return Ideal(gain, q, pos, start, size, cum, total)


def _prefix(cum: np.ndarray, start: np.ndarray, size: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The inclusive sums ``cum`` after ``min(m, size)`` elements of each segment (0 for none)."""
    m = np.minimum(m, size)
    if not cum.size:
        return np.zeros(np.shape(m))
    return np.where(m > 0, cum.take(np.clip(start + m - 1, 0, cum.size - 1)), 0.0)


def _dcg_parts(x: Lists, s: Selected) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    return x.cached(("dcg", s.params), lambda: _dcg_parts_of(x, s))


def _dcg_cum(x: Lists, s: Selected) -> np.ndarray:
    """Each query's DCG after each rank (added in rank order)."""
    return x.cached(("dcg_cum", s.params), lambda: seg_cumsum_float(_dcg_parts(x, s)[1], x))


def _dcg_parts_of(x: Lists, s: Selected) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    gain = doc_gains(x, s)
    disc = gain / np.log2(x.pos + 2.0)
    return gain, disc, np.bincount(x.q, weights=disc, minlength=x.nq)


def _ndcg(x: Lists, s: Selected, n: int) -> Values:
    return [divide(_dcg_parts(x, s)[2], ideal(x, s).total)]


def _dcg(x: Lists, s: Selected, n: int) -> Values:
    return [_dcg_parts(x, s)[2]]


def _ideal_dcg(x: Lists, s: Selected, n: int) -> Values:
    return [ideal(x, s).total]


def _ndcg_cut(x: Lists, s: Selected, n: int) -> Values:
    plain = s._replace(params=())
    cum = _dcg_cum(x, plain)
    best = ideal(x, plain)
    out = []
    for k in s.params:
        dcg = x.at_cut(cum, k)
        out.append(divide(dcg, _prefix(best.cum, best.start, best.size, np.full(x.nq, k))))
    return out


def _ndcg_rel(x: Lists, s: Selected, n: int) -> Values:
    gain, disc, dcg = _dcg_parts(x, s)
    best = ideal(x, s)
    cum = _dcg_cum(x, s)
    at_rank = _prefix(best.cum, best.start.take(x.q), best.size.take(x.q), x.pos + 1)
    positive = gain > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        total = x.sum(cum / at_rank, positive)
        total = total + (best.size - x.sum(np.ones(x.q.size), positive)) * dcg / best.total
    return [np.where(total > 0, divide(total, best.size.astype(np.float64)), 0.0)]


def _rndcg(x: Lists, s: Selected, n: int) -> Values:
    gain, disc, dcg = _dcg_parts(x, s)
    best = ideal(x, s)
    cum = _dcg_cum(x, s)
    total, count = np.zeros(x.nq), np.zeros(x.nq)
    for g in np.unique(best.gain)[::-1]:  # each block of one positive gain ends where the ideal gain changes
        here = np.bincount(best.q, weights=best.gain == g, minlength=x.nq) > 0
        t = np.bincount(best.q, weights=best.gain >= g, minlength=x.nq).astype(np.int64)
        with np.errstate(divide="ignore", invalid="ignore"):
            term = x.at_cut(cum, t) / _prefix(best.cum, best.start, best.size, t)
        total = np.where(here, total + term, total)
        count = count + here
    tail = x.n_ret >= best.size + 2
    with np.errstate(divide="ignore", invalid="ignore"):
        total = np.where(tail & (best.total > 0), total + dcg / best.total, total)
        count = count + (tail & (best.total > 0))
        value = total / count
    return [np.where(x.num_rel > 0, value, 0.0)]


def _g(x: Lists, s: Selected, n: int) -> Values:
    """trec_eval's G: each document with a gain adds ``gain / log2(2 + cost - results)``, where ``results`` is
    the gain retrieved so far and ``cost`` the ideal gain so far, each ideal document counting at least 1
    (every rank past the ideal ranking counts 1: added in closed form, exact while the sums are integers)."""
    gain = doc_gains(x, s)
    best = ideal(x, s)
    cost = seg_cumsum_exact(np.maximum(best.gain, 1.0), best.q, best.pos, best.start, best.size)
    inside = np.minimum(x.pos + 1, best.size.take(x.q))
    sum_cost = _prefix(cost, best.start.take(x.q), best.size.take(x.q), inside) + (x.pos + 1 - inside)
    sum_results = seg_cumsum_float(gain, x)
    with np.errstate(divide="ignore"):
        term = gain / np.log2(2 + sum_cost - sum_results)
    results = x.sum(term, gain != 0)
    sum_ideal = np.bincount(best.q, weights=best.gain, minlength=x.nq)
    return [divide(results, sum_ideal)]


def _rbp(x: Lists, s: Selected, n: int) -> Values:
    p = 0.9
    for name, value in s.params:
        if name == "p":
            p = value
    levels, gains = level_gains(x, s)
    present = (levels < 0) | (levels < _levels_judged(x)[:, None]) | np.isin(levels, [lv for lv, _ in _pairs(s)])
    low = np.minimum(np.where(present, gains, 0.0).min(axis=1, initial=0.0), 0.0)
    high = np.maximum(np.where(present, gains, 0.0).max(axis=1, initial=0.0), 0.0)
    scale = (low < 0) | (high > 1)
    gain = doc_gains(x, s)
    lo, hi = low.take(x.q), high.take(x.q)
    gain = np.where(scale.take(x.q), (gain - lo) / np.where(hi > lo, hi - lo, 1.0), gain)
    weight = p_powers(p, x.width + 1).take(x.pos)
    return [(1.0 - p) * x.sum(gain * weight, gain != 0)]


def _levels_judged(x: Lists) -> np.ndarray:
    """trec_eval's ``num_rel_levels`` of each query: one past its highest judged level."""
    judged = x.counts > 0
    return np.where(judged.any(axis=1), x.counts.shape[1] - np.argmax(judged[:, ::-1], axis=1), 0)


GAIN_MEASURES: Dict[str, Callable[[Lists, Selected, int], Values]] = {
    "G": _g, "dcg": _dcg, "ideal_dcg": _ideal_dcg, "ndcg": _ndcg, "ndcg_rel": _ndcg_rel, "Rndcg": _rndcg,
    "ndcg_cut": _ndcg_cut, "rbp": _rbp,
}
