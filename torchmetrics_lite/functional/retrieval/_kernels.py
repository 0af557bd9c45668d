"""Every retrieval measure, written once over tie groups, for numpy arrays and torch tensors alike.

A ranking (made by ``_numpy_kernels.rank`` or ``_torch_kernels.rank``: one sort of packed (query, score) keys)
lists the items by query, then by descending score; :func:`build` cuts it into *tie groups*, the runs of equal
(query, score) (with ``ties="order"`` every item is a group of its own). A measure is then a few arithmetic
operations per group and one segment sum per query, written once over the array namespace ``xp``
(:mod:`torchmetrics_lite._xp`: :data:`~torchmetrics_lite._xp.NUMPY` or the torch namespace, which the ranking
carries as :attr:`Ranked.xp`): no padding to the longest query, no loop over queries.

Tie expectation (``ties="average"``, McSherry and Najork, ECIR 2008). A group holds the ranks ``a+1 .. a+n``
of its query; ``r`` of its items are relevant, ``h`` relevant items rank above it, ``m = clip(k - a, 0, n)``
of its ranks lie inside the cut-off ``k``. Under a uniformly random order of the group, each rank holds a
relevant item with probability ``r/n`` and, given that, ``(j-1)(r-1)/(n-1)`` relevant items are expected at
the ranks ``a+1 .. a+j-1``. By linearity, with ``D`` and ``H`` the prefix sums of ``1/log2(p+1)`` and
``1/p`` and ``S = H(a+m) - H(a)``, the group contributes

* ``r m / n`` expected hits (precision, recall, R-precision);
* ``(G/n) (D(a+m) - D(a))`` expected DCG, ``G`` the group's gain (scikit-learn's ``ndcg_score`` rule);
* ``(r/n) ((h+1) S + (r-1)/(n-1) (m - (a+1) S))`` to the sum of precisions at relevant ranks (AP);

and the first relevant item (RR, hit rate) lies in the first group with ``r > 0`` at its slot ``j`` with
probability ``C(n-j, r-1) / C(n, r)``. With ``n = 1`` each formula is the plain one.

AUROC with a cut-off ``k`` or a partial area ``max_fpr`` (:func:`_cut_auroc`) reads each query's ROC path in
counts: the groups above the *boundary group* (the one holding rank ``min(k, n)``) are straight segments whose
doubled areas are exact int64 prefix sums, and ONE ``searchsorted`` over the ascending key (query, non-relevant
items so far) finds where the path crosses ``max_fpr``; the boundary group adds one row per number ``j`` of its
relevant items in the top k, weighted by the hypergeometric ``C(r, j) C(n-r, m-j) / C(n, m)``.

The numpy ranking lists each group once (a data-dependent count). The torch ranking lists every item with its
group's values and a weight ``1/n`` (:attr:`Ranked.weight`), so the sums are the same and every shape is known
before the data: ``torch.compile`` traces it without a graph break and CUDA needs no host sync.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Optional

if TYPE_CHECKING:  # the command line runs these kernels on numpy alone: no import of the namespaces here
    from torchmetrics_lite._xp import Xp

A = Any  # a numpy array or a torch tensor, as the namespace in use


class Ranked(NamedTuple):
    xp: Xp
    rel: A  # (n,) grades >= 0 in ranked order (query ascending, score descending; any real dtype)
    q: A  # (n,) int64 query of each ranked item
    gstart: A  # (G,) int64 first ranked index of each tie group
    gsize: A  # (G,) int64 its size
    gq: A  # (G,) int64 its query
    above: A  # (G,) int64 items of its query ranked above it (a)
    r: A  # (G,) int64 relevant items in it
    h: A  # (G,) int64 relevant items of its query ranked above it
    n_items: A  # (Q,) int64
    n_rel: A  # (Q,) int64 items with grade > 0
    qstart: A  # (Q,) int64 first ranked index of each query
    n_queries: int
    ideal: Callable[["Ranked"], "Runs"]  # the runs of equal grades of each query's ideal order (by its ranking)
    # Static shapes (torch): one row per ITEM carrying its group's values, so no shape depends on the data.
    weight: Optional[A] = None  # (n,) 1 / group size: a group's term is spread evenly over its items
    within: Optional[A] = None  # (n,) int64 slot of the item in its group (j - 1)


class Runs(NamedTuple):
    """Runs of equal grades in each query's ideal order (grades descending): the ideal DCG's groups."""

    gq: A  # (R,) int64 query of each run
    above: A  # (R,) int64 items of the query in the runs before it
    size: A  # (R,) int64
    grade: A  # (R,) floating


class PerQuery(NamedTuple):
    values: A  # (Q,) floating, meaningful where n_items > 0 and support > 0
    n_items: A  # (Q,) int64
    support: A  # (Q,) int64 what the measure needs (relevant items; non-relevant ones for fall-out): 0 = empty


def build(xp: Xp, q: A, rel: A, new: Optional[A], n_items: A, ideal: Callable[[Ranked], Runs]) -> Ranked:
    """Tie groups of a ranked list: ``new`` flags the items that start a group (None: every item does); ``rel``
    holds no negative grade (the rankings clip them to 0, as trec_eval); ``ideal`` gives its ideal order's runs."""
    n = q.shape[0]
    ends = xp.cumsum0(n_items)
    qstart = ends[:-1]
    crel = xp.cumsum0(rel > 0)
    n_rel = xp.take(crel, ends[1:]) - xp.take(crel, qstart)
    if new is None:  # every item its own group: no gathers
        idx = xp.arange(n, q)
        item_qstart = xp.repeat(qstart, n_items)
        at = crel[:-1]
        return Ranked(xp, rel, q, idx, idx * 0 + 1, q, idx - item_qstart, crel[1:] - at, at - xp.take(crel,
                      item_qstart), n_items, n_rel, qstart, n_items.shape[0], ideal)
    gstart = xp.nonzero(new)
    gsize = gstart * 0
    if gstart.shape[0]:
        gsize[:-1] = gstart[1:] - gstart[:-1]
        gsize[-1] = n - gstart[-1]
    gq = xp.take(q, gstart)
    group_qstart = xp.take(qstart, gq)
    at = xp.take(crel, gstart)
    r = xp.take(crel, gstart + gsize) - at
    h = at - xp.take(crel, group_qstart)
    return Ranked(xp, rel, q, gstart, gsize, gq, gstart - group_qstart, r, h, n_items, n_rel, qstart,
                  n_items.shape[0], ideal)


def runs_of_sorted(xp: Xp, q: A, values: A, qstart: A) -> Runs:
    """The :class:`Runs` of ``values`` sorted descending within each query (items listed by query)."""
    n = q.shape[0]
    new = q != q  # all False, the right type and device
    if n:
        new[0] = True
        new[1:] = (q[1:] != q[:-1]) | (values[1:] != values[:-1])
    start = xp.nonzero(new)
    size = start * 0
    if n:
        size[:-1] = start[1:] - start[:-1]
        size[-1] = n - start[-1]
    gq = xp.take(q, start)
    return Runs(gq, start - xp.take(qstart, gq), size, xp.floating(xp.take(values, start)))


# ------------------------------------------------------------------------------------------- helpers
def table_span(xp: Xp, n: int, k: Optional[int], *counts: A) -> int:
    """A length ``>= 1 + min(k, the largest count)`` (``k=None``: the largest count) of the prefix tables:
    exactly that where the counts read back for free (numpy), else from ``n``, the number of items (torch)."""
    longest = max(xp.upper_bound(c, n) for c in counts)
    return 1 + (longest if k is None else min(k, longest))


def prefix_table(xp: Xp, term: str, n: int, k: Optional[int], *counts: A) -> A:
    """Prefix sums ``T[i] = sum_{p=1..i} t(p)`` of ``t(p) = 1/log2(p+1)`` (``"discount"``) or ``1/p``
    (``"reciprocal"``) for ``i`` up to :func:`table_span` (in ``xp.real``)."""
    pos = xp.floating(xp.arange(table_span(xp, n, k, *counts) - 1, counts[0])) + 1.0
    return xp.cumsum0(1.0 / xp.log2(pos + 1.0) if term == "discount" else 1.0 / pos)


def _slots(r: Ranked, cut: Any) -> A:
    """Ranks of each group inside the cut-off (an int, one value per group, or None: the whole list)."""
    return r.gsize if cut is None else r.xp.clip(cut - r.above, r.gsize)


def _div(num: A, den: A, xp: Xp) -> A:
    """``num / den`` with 0 / 0 = 0 for the non-negative counts ``den`` (those queries are empty anyway)."""
    return num / xp.floating(xp.where(den > 0, den, 1))


def _group_sum(r: Ranked, term: A) -> A:
    """Per-query sums of one term per tie group."""
    return r.xp.segment_sum(term if r.weight is None else term * r.weight, r.gq, r.n_queries)


def _hits(r: Ranked, cut: Any) -> A:
    """Expected relevant items per query at the ranks inside the cut-off."""
    xp = r.xp
    return _group_sum(r, xp.floating(r.r * _slots(r, cut)) / xp.floating(r.gsize))


# ------------------------------------------------------------------------------------------ measures
def dcg_values(r: Ranked, k: Optional[int] = None, gain: str = "linear", normalize: bool = False) -> PerQuery:
    """DCG@k per query, each item of a tie group getting the group's mean gain; ``normalize``: divided by the
    DCG@k of the query's ideal order (its runs of equal grades, :attr:`Ranked.ideal`), NDCG@k (:data:`ndcg_values`).
    """
    xp = r.xp
    ideal = r.ideal(r) if normalize else None  # in the command line: also relevant documents not retrieved
    extents = (r.n_items,) if ideal is None else (r.n_items, ideal.above + ideal.size)
    disc = prefix_table(xp, "discount", r.q.shape[0], k, *extents)  # prefix sums of 1 / log2(rank + 1)
    rel = xp.floating(r.rel)
    g = xp.cumsum0(rel if gain == "linear" else xp.exp2(rel) - 1.0)
    group_gain = xp.take(g, r.gstart + r.gsize) - xp.take(g, r.gstart)
    m = r.gsize if k is None else xp.clip(k - r.above, r.gsize)  # the group's ranks inside the cut-off
    lo = xp.minimum(r.above, disc.shape[0] - 1)  # a group below the cut-off has m = 0: lo = hi
    term = group_gain / xp.floating(r.gsize) * (xp.take(disc, lo + m) - xp.take(disc, lo))
    dcg = xp.segment_sum(term if r.weight is None else term * r.weight, r.gq, r.n_queries)
    if ideal is None:
        return PerQuery(dcg, r.n_items, r.n_rel)
    m = ideal.size if k is None else xp.clip(k - ideal.above, ideal.size)
    lo = xp.minimum(ideal.above, disc.shape[0] - 1)
    grade = xp.floating(ideal.grade)
    gains = grade if gain == "linear" else xp.exp2(grade) - 1.0
    idcg = xp.segment_sum(gains * (xp.take(disc, lo + m) - xp.take(disc, lo)), ideal.gq, r.n_queries)
    return PerQuery(dcg / xp.where(idcg > 0, idcg, 1.0), r.n_items, r.n_rel)  # IDCG < 1 for grades < 1


#: NDCG@k: :func:`dcg_values` over the ideal order's DCG@k (a partial: no frame of its own).
ndcg_values = partial(dcg_values, normalize=True)


def _precision_sum(xp: Xp, table: A, n: A, rr: A, a: A, h: A, m: A) -> A:
    """Expected sum of the precisions at the relevant ranks among the first ``m`` slots of a group of ``n``
    items at ranks ``a+1 ..`` holding ``rr`` relevant items, ``h`` relevant items above it (all floating but
    the int64 ``a`` and ``m`` that index the prefix-sum ``table`` of ``1/p``)."""
    lo = xp.minimum(a, table.shape[0] - 1)  # a group below the cut-off has m = 0: lo = hi
    s = xp.take(table, lo + m) - xp.take(table, lo)
    pairs = (rr - 1.0) / xp.where(n > 1.0, n - 1.0, 1.0) * (xp.floating(m) - (xp.floating(a) + 1.0) * s)
    return rr / n * ((h + 1.0) * s + pairs)


def average_precision_values(r: Ranked, k: Optional[int] = None, normalize: str = "relevant") -> PerQuery:
    """AP@k: the sum of the precisions at the relevant ranks ``<= k`` divided by the query's relevant items
    (``normalize="relevant"``, trec_eval's ``map_cut``) or by the relevant items in the top k
    (``"retrieved"``, torchmetrics; see :func:`_retrieved_ap`)."""
    xp = r.xp
    table = prefix_table(xp, "reciprocal", r.q.shape[0], k, r.n_items)
    if normalize == "retrieved" and k is not None:
        return _retrieved_ap(r, k, table)
    term = _precision_sum(xp, table, xp.floating(r.gsize), xp.floating(r.r), r.above, xp.floating(r.h), _slots(r, k))
    return PerQuery(_div(_group_sum(r, term), r.n_rel, xp), r.n_items, r.n_rel)


def _retrieved_ap(r: Ranked, k: int, table: A) -> PerQuery:
    """AP@k divided by the relevant items in the top k (0 when there is none), exact under ``ties="average"``.

    Only the boundary group (the one holding rank ``min(k, n)``) makes that count random: given that ``j`` of
    its ``r`` relevant items fall among its ``m`` slots in the top k (probability ``C(r, j) C(n-r, m-j) /
    C(n, m)``, :func:`_cut_rows`), the ``j`` sit uniformly in those slots, so the boundary's expected term is
    the AP term of a group of ``m`` items holding ``j`` relevant ones, and the divisor ``h + j`` is fixed. The
    value is ``sum_j P(j) (S + T(j)) / (h + j)``, ``S`` the terms of the groups above the boundary."""
    xp = r.xp
    n_items = xp.take(r.n_items, r.gq)
    cut = xp.minimum(n_items, k)
    end = r.above + r.gsize
    whole = xp.where(end < cut, r.gsize, 0)  # the groups wholly in the top k (the others add 0)
    above = _group_sum(r, _precision_sum(xp, table, xp.floating(r.gsize), xp.floating(r.r), r.above,
                                         xp.floating(r.h), whole))  # (Q,)
    rows = _cut_rows(r, (r.above < cut) & (end >= cut), cut - r.above)
    m = xp.where(rows.keep, rows.j + rows.rest, 0)  # the torch layout's non-rows read no table entry
    jf = xp.floating(rows.j)
    term = _precision_sum(xp, table, xp.floating(xp.where(m > 0, m, 1)), jf, rows.hn + rows.hp,
                          xp.floating(rows.hp), m)
    hits = rows.hp + rows.j
    value = (xp.take(above, rows.q) + term) / xp.floating(xp.where(hits > 0, hits, 1))
    value = xp.where(rows.keep & (hits > 0), value * rows.prob, 0.0 * value)
    return PerQuery(xp.segment_sum(value, rows.q, r.n_queries), r.n_items, r.n_rel)


def precision_values(r: Ranked, k: Optional[int] = None, adaptive_k: bool = False) -> PerQuery:
    """Hits in the top ``k`` over ``k`` (``adaptive_k``: over ``min(k, n)``, torchmetrics' option; ``k=None``:
    over the query's ``n`` items)."""
    xp = r.xp
    den = r.n_items if k is None else (xp.minimum(r.n_items, k) if adaptive_k else r.n_items * 0 + k)
    return PerQuery(_div(_hits(r, k), den, xp), r.n_items, r.n_rel)


def recall_values(r: Ranked, k: Optional[int] = None) -> PerQuery:
    return PerQuery(_div(_hits(r, k), r.n_rel, r.xp), r.n_items, r.n_rel)


def r_precision_values(r: Ranked) -> PerQuery:
    xp = r.xp
    return PerQuery(_div(_hits(r, xp.take(r.n_rel, r.gq)), r.n_rel, xp), r.n_items, r.n_rel)


def _first_relevant(r: Ranked, k: Optional[int]) -> tuple:
    """The slots that may hold each query's first relevant item (those of its first group with a relevant
    item, inside the cut-off): their query, rank and probability ``C(n-j, r-1) / C(n, r)``."""
    xp = r.xp
    if r.within is None:  # one row per group: expand the slots of the selected groups
        sel = xp.nonzero((r.h == 0) & (r.r > 0))
        n, rr, a = xp.take(r.gsize, sel), xp.take(r.r, sel), xp.take(r.above, sel)
        count = n - rr + 1
        if k is not None:
            count = xp.clip(k - a, count)
        rep = xp.repeat(xp.arange(sel.shape[0], sel), count)
        j = xp.arange(rep.shape[0], sel) - xp.take(xp.cumsum0(count)[:-1], rep) + 1
        q, n, rr, a = xp.take(xp.take(r.gq, sel), rep), xp.take(n, rep), xp.take(rr, rep), xp.take(a, rep)
        keep = None
    else:  # one row per item: each item is its group's slot j = within + 1; the others get probability 0
        q, n, rr, a, j = r.gq, r.gsize, r.r, r.above, r.within + 1
        count = n - rr + 1 if k is None else xp.clip(k - a, n - rr + 1)
        keep = (r.h == 0) & (rr > 0) & (j <= count)
        n, rr, j = xp.where(keep, n, 1), xp.where(keep, rr, 1), xp.where(keep, j, 1)  # finite logs
    n, rr, jf = xp.floating(n), xp.floating(rr), xp.floating(j)
    lg = xp.lgamma
    # C(n-j, r-1) / C(n, r) = r (n-j)! (n-r)! / ((n-j-r+1)! n!), as differences of nearby log-factorials
    logp = (lg(n - jf + 1.0) - lg(n + 1.0)) - (lg(n - jf - rr + 2.0) - lg(n - rr + 1.0)) + xp.log(rr)
    prob = xp.exp(logp)
    return q, xp.floating(a + j), prob if keep is None else xp.where(keep, prob, 0.0)


def reciprocal_rank_values(r: Ranked, k: Optional[int] = None) -> PerQuery:
    q, rank, prob = _first_relevant(r, k)
    return PerQuery(r.xp.segment_sum(prob / rank, q, r.n_queries), r.n_items, r.n_rel)


def hit_rate_values(r: Ranked, k: Optional[int] = None) -> PerQuery:
    q, _, prob = _first_relevant(r, k)
    return PerQuery(r.xp.segment_sum(prob, q, r.n_queries), r.n_items, r.n_rel)


def fall_out_values(r: Ranked, k: Optional[int] = None) -> PerQuery:
    """Non-relevant items in the top ``k`` over the query's non-relevant items (expected, under ties)."""
    xp = r.xp
    nonrel = r.n_items - r.n_rel
    ranks = r.n_items if k is None else xp.minimum(r.n_items, k)
    return PerQuery(_div(xp.floating(ranks) - _hits(r, k), nonrel, xp), r.n_items, nonrel)


def auroc_values(r: Ranked, k: Optional[int] = None, max_fpr: Optional[float] = None) -> PerQuery:
    """Per-query AUROC of the top ``k`` (``None``: every item), McClish-standardized partial AUROC over
    ``[0, max_fpr]`` when ``max_fpr`` is given (see :func:`_cut_auroc`). Without either: the share of
    (relevant, non-relevant) pairs ranked in order, a tie counting 1/2 (with ``ties="order"`` groups are single
    items, so no pair ties)."""
    if k is not None or max_fpr is not None:
        return _cut_auroc(r, k, max_fpr)
    xp = r.xp
    nonrel = r.n_items - r.n_rel
    tied_neg = r.gsize - r.r
    below = xp.take(nonrel, r.gq) - (r.above - r.h) - tied_neg
    pairs = _group_sum(r, xp.floating(r.r) * (xp.floating(below) + 0.5 * xp.floating(tied_neg)))
    return PerQuery(_div(pairs, r.n_rel * nonrel, xp), r.n_items, r.n_rel * nonrel)


class _CutRows(NamedTuple):
    """One row per (query, possible number ``j`` of relevant items the top k takes from its boundary group)."""

    q: A  # int64 query
    keep: A  # bool: a real row (the torch layout carries one row per item, most of them not rows)
    prob: A  # floating: hypergeometric probability of j (1 when the cut-off falls between groups)
    hn: A  # int64 non-relevant items above the boundary group (all in the top k)
    hp: A  # int64 relevant items above it
    j: A  # int64 relevant items of the boundary group in the top k
    rest: A  # int64 non-relevant items of the boundary group in the top k (m - j)


def _cut_rows(r: Ranked, final: A, m: A) -> _CutRows:
    """The boundary group of each query (the one holding rank ``min(k, n)``; ``m`` of its ranks are in the top
    k) and, for ``ties="average"``, every count ``j`` of its relevant items that a uniformly random order puts
    in the top k: ``P(j) = C(r, j) C(n - r, m - j) / C(n, m)``, ``j`` from ``lo = max(0, m - n + r)`` to
    ``hi = min(r, m)`` (at most ``n`` values)."""
    xp = r.xp
    if r.within is None:  # one row per group: expand the boundary groups' possible j
        sel = xp.nonzero(final)
        n, rr, a, h, m = (xp.take(x, sel) for x in (r.gsize, r.r, r.above, r.h, m))
        lo = xp.where(m - n + rr > 0, m - n + rr, 0)
        hi = xp.where(rr < m, rr, m)
        rep = xp.repeat(xp.arange(sel.shape[0], sel), hi - lo + 1)
        slot = xp.arange(rep.shape[0], sel) - xp.take(xp.cumsum0(hi - lo + 1)[:-1], rep)
        q, n, rr, a, h, m, lo, hi = (xp.take(x, rep) for x in (xp.take(r.gq, sel), n, rr, a, h, m, lo, hi))
        keep = slot >= 0
    else:  # one row per item: slot = the item's place in its group; rows past hi - lo are no rows
        n, rr, a, h, q, slot = r.gsize, r.r, r.above, r.h, r.gq, r.within
        lo = xp.where(m - n + rr > 0, m - n + rr, 0)
        hi = xp.where(rr < m, rr, m)
        keep = final & (slot <= hi - lo)
        m = xp.where(keep, m, 1)
    j = xp.where(keep, lo + slot, 0)
    nf, rf, mf, jf = xp.floating(n), xp.floating(rr), xp.floating(m), xp.floating(j)
    lg = xp.lgamma
    one = 1.0 + 0.0 * nf

    def log_choose(top: A, pick: A) -> A:  # log C(top, pick) for 0 <= pick <= top
        return lg(top + one) - lg(pick + one) - lg(top - pick + one)

    safe = keep & (hi > lo)  # several possible j: the boundary group is split by the cut-off
    nf, rf, mf, jf = (xp.where(safe, x, 0.0 * x) for x in (nf, rf, mf, jf))
    logp = log_choose(rf, jf) + log_choose(nf - rf, mf - jf) - log_choose(nf, mf)
    prob = xp.where(safe, xp.exp(logp), xp.where(keep, one, 0.0 * one))
    return _CutRows(q, keep, prob, a - h, h, j, m - j)


def _roc_area(r: Ranked, inside: A, rows: _CutRows, f: A) -> A:
    """Area (in counts: non-relevant x relevant items) under the ROC path of each row's query up to ``f``
    non-relevant items, over the groups ``inside`` the top k above its boundary group (``f <= rows.hn``).

    The path of a query's groups is one run of an ascending int64 key (query, non-relevant items up to the
    group's end); ONE search finds the group where ``f`` falls, exact doubled int64 areas summed before it give
    the area of the groups passed, and the group's own straight segment is cut at ``f``."""
    xp = r.xp
    top = table_span(xp, r.q.shape[0], None, r.n_items)  # > every query's count of non-relevant items
    neg = r.gsize - r.r
    keys = r.gq * (top + 1) + xp.where(inside, r.above - r.h + neg, top)
    area2 = xp.where(inside, neg * (2 * r.h + r.r), 0)  # twice each inside group's trapezoid
    if r.within is not None:
        area2 = xp.where(r.within == 0, area2, 0)  # one row per item: count the group once
    c2 = xp.cumsum0(area2)
    at = xp.minimum(xp.searchsorted(keys, rows.q * (top + 1) + xp.ceil(f)), keys.shape[0] - 1)
    first = xp.minimum(xp.searchsorted(keys, rows.q * (top + 1)), keys.shape[0] - 1)
    dx, dy, y0 = xp.take(neg, at), xp.floating(xp.take(r.r, at)), xp.floating(xp.take(r.h, at))
    u = f - xp.floating(xp.take(r.above - r.h, at))  # 0 < u <= dx, or u = 0 when f = 0
    seg = u * (y0 + dy * u / (2.0 * xp.floating(xp.where(dx > 0, dx, 1))))
    return xp.floating(xp.take(c2, at) - xp.take(c2, first)) / 2.0 + xp.where(dx > 0, seg, 0.0 * seg)


def _cut_auroc(r: Ranked, k: Optional[int], max_fpr: Optional[float]) -> PerQuery:
    """AUROC of each query's top ``k`` items (torchmetrics' ``RetrievalAUROC(top_k=, max_fpr=)``).

    The top k holds the groups above the boundary group and ``m`` of its items; with ``ties="average"`` the
    value is the expectation over which of the boundary group's items a random order puts there
    (:func:`_cut_rows`). Each row's ROC runs through the groups (a group is one straight segment: a tied pair
    counts 1/2, as scikit-learn) then the boundary group's ``j`` relevant and ``m - j`` non-relevant items. The
    partial area up to ``t = max_fpr`` (``t = 1``: the whole area) is cut at ``f = t N`` non-relevant items,
    divided by ``P N``, and standardized: ``(1 + (A - t^2/2) / (t - t^2/2)) / 2`` (McClish 1989,
    scikit-learn's ``roc_auc_score(max_fpr=)``). A top k without a relevant or a non-relevant item gives 0, as
    torchmetrics."""
    xp = r.xp
    n_items = xp.take(r.n_items, r.gq)
    cut = n_items if k is None else xp.minimum(n_items, k)
    end = r.above + r.gsize
    rows = _cut_rows(r, (r.above < cut) & (end >= cut), cut - r.above)
    pos, neg = rows.hp + rows.j, rows.hn + rows.rest
    t = 1.0 if max_fpr is None else float(max_fpr)
    f = t * xp.floating(neg)
    hn = xp.floating(rows.hn)
    f_in = xp.where(f < hn, f, hn)
    area = _roc_area(r, end < cut, rows, f_in)
    u = f - f_in  # the part of the cut inside the boundary group's segment
    rest = xp.floating(xp.where(rows.rest > 0, rows.rest, 1))
    area = area + xp.where(rows.rest > 0, u * (xp.floating(rows.hp) + xp.floating(rows.j) * u / (2.0 * rest)), 0.0 * u)
    ok = rows.keep & (pos > 0) & (neg > 0)
    value = area / xp.floating(xp.where(ok, pos * neg, 1))
    if max_fpr is not None:
        value = 0.5 * (1.0 + (value / t - 0.5 * t) / (1.0 - 0.5 * t))  # (A - t^2/2) / (t - t^2/2)
    value = xp.where(ok, value * rows.prob, 0.0 * value)
    nonrel = r.n_items - r.n_rel
    return PerQuery(xp.segment_sum(value, rows.q, r.n_queries), r.n_items, r.n_rel * nonrel)
