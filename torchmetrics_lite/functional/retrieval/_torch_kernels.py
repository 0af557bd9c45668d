"""Retrieval internals shared by :mod:`torchmetrics_lite.functional.retrieval` and the modules.

Two paths give the same values: on CPU, :func:`_measure_values` ranks a padded ``(queries, items)`` block row
by row (dense input, or flat input that fits one) with the kernels of ``_numpy_kernels``; elsewhere (CUDA,
or flat queries too uneven for a block) the generic flat path below runs.

Generic flat path: ``_flatten`` turns dense ``(queries, items)`` or flat ``(preds, target, indexes)`` input into one
flat list of items with compact query ids; ``_rank`` groups it with ONE segmented sort by (query, -score) and marks
the tie groups; each ``_x_values`` turns the ranked list into per-query values with segment sums (no loop over
queries); ``_retrieval_stats`` applies the empty-query rule and sums, ``_retrieval_from_stats`` divides.

Tie expectation (``ties="average"``, McSherry and Najork, ECIR 2008). A tie group holds the ranks
``a+1 .. a+n`` of its query, ``r`` of its items are relevant and ``h`` relevant items rank above it. Under a
uniformly random order of the group, the rank ``a+j`` holds a relevant item with probability ``r/n`` and,
given that, ``(j-1)(r-1)/(n-1)`` relevant items are expected at ranks ``a+1 .. a+j-1``. By linearity every
measure that is a sum over ranks is a sum over those slots: expected hits ``r/n``; expected precision at a
relevant rank ``(r/n)(h + 1 + (j-1)(r-1)/(n-1))/(a+j)``; NDCG's expected gain ``G/n`` (``G`` the group's gain,
scikit-learn's rule). The first relevant item (RR, hit rate) lies in the first group with ``r > 0`` at slot
``j`` with probability ``C(n-j, r-1)/C(n, r)``. ``ties="order"`` makes every item its own group (``n = 1``),
which reduces each formula to the plain one in input order (stable sort).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, NamedTuple, Optional

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite import _backend
from torchmetrics_lite._checks import check_retrieval_values
from torchmetrics_lite._sort import segment_argsort
from torchmetrics_lite.functional.retrieval import _numpy_kernels as dense

F64 = torch.float64


class Flat(NamedTuple):
    preds: Tensor  # (n,) scores
    target: Tensor  # (n,) relevance (the input's dtype; _rank makes it float64)
    qid: Tensor  # (n,) int64 query ids in [0, n_queries)
    n_queries: int
    dense: bool  # the queries are the rows of a dense block: reduction="none" returns one value per row


class Ranked(NamedTuple):
    q: Tensor  # (n,) query of each ranked item (ascending)
    rel: Tensor  # (n,) float64 target in ranked order
    pos: Tensor  # (n,) float64 rank within the query, 1-based
    within: Tensor  # (n,) float64 slot in the tie group, 0-based (j - 1)
    gn: Tensor  # (n,) float64 size of the item's tie group
    gid: Tensor  # (n,) int64 tie group id
    gstart: Tensor  # (G,) int64 first ranked index of each group
    starts: Tensor  # (Q,) int64 first ranked index of each query
    n_items: Tensor  # (Q,) int64
    n_queries: int
    tied: bool  # some tie group holds several items (else gid = gstart = arange(n), within = 0, gn = 1)


class PerQuery(NamedTuple):
    values: Tensor  # (Q,) float64, meaningful where n_items > 0 and n_rel > 0
    n_items: Tensor  # (Q,) int64
    n_rel: Tensor  # (Q,) int64 items with target > 0


# ------------------------------------------------------------------------------------ flatten and rank
def _compact_ids(indexes: Tensor) -> tuple:
    """Query ids as ``[0, Q)``: a shift when the ids span a small range (absent ids become empty queries),
    else ``torch.unique``. Order of ids is kept, so per-query output is in ascending id order."""
    n = indexes.numel()
    if n == 0:
        return indexes.to(torch.int64), 0
    lo, hi = (v.item() for v in torch.aminmax(indexes))
    if hi - lo < 4 * n + 1024:
        ids = indexes.to(torch.int64)
        return (ids - lo if lo else ids), hi - lo + 1
    uniq, inverse = torch.unique(indexes, return_inverse=True)
    return inverse, uniq.numel()


def _flatten(preds: Tensor, target: Tensor, indexes: Optional[Tensor], mask: Optional[Tensor],
             ignore_index: Optional[int], validate_args: bool) -> Flat:
    """Checked inputs -> one flat item list; masked and ``ignore_index`` items dropped."""
    dense = indexes is None
    if dense:
        if preds.dim() == 1:
            preds, target = preds[None], target[None]
            mask = None if mask is None else mask[None]
        n_queries, n_cols = preds.shape
        qid = torch.arange(n_queries, device=preds.device)[:, None].expand(n_queries, n_cols).reshape(-1)
        preds, target = preds.reshape(-1), target.reshape(-1)
        mask = None if mask is None else mask.reshape(-1)
    keep = mask
    if ignore_index is not None:
        keep = (target != ignore_index) if keep is None else keep & (target != ignore_index)
    if keep is not None:
        preds, target = preds[keep], target[keep]
        qid = qid[keep] if dense else indexes[keep]
    elif not dense:
        qid = indexes
    if validate_args:
        check_retrieval_values(preds, target)
    if not dense:
        qid, n_queries = _compact_ids(qid)
    return Flat(preds, target, qid, n_queries, dense)


def _use_numpy(x: Tensor) -> bool:
    """CPU tensors gather and segment-sum through numpy (several times faster than torch's CPU kernels)."""
    return _backend.use_numpy(x)


def _take(x: Tensor, index: Tensor) -> Tensor:
    """``x[index]``."""
    if _use_numpy(x):
        return torch.from_numpy(x.detach().numpy().take(index.numpy()))
    return x[index]


def _segment_sum(values: Tensor, starts: Tensor, lengths: Tensor) -> Tensor:
    """Sums of the contiguous segments ``values[starts[i] : starts[i] + lengths[i]]`` (0 when empty)."""
    out = torch.zeros(lengths.numel(), dtype=values.dtype, device=values.device)
    if values.numel() == 0:
        return out
    if _use_numpy(values):
        nonempty = lengths > 0
        out[nonempty] = torch.from_numpy(np.add.reduceat(values.detach().numpy(), starts[nonempty].numpy()))
        return out
    seg = torch.repeat_interleave(torch.arange(lengths.numel(), device=values.device), lengths)
    return out.index_add_(0, seg, values)


def _rank(flat: Flat, ties: str) -> Ranked:
    """One segmented sort by (query, -score); tie groups are runs of equal (query, score)."""
    n, n_queries, device = flat.preds.numel(), flat.n_queries, flat.preds.device
    perm = segment_argsort(flat.qid, flat.preds, n_segments=n_queries, descending=True, stable=ties == "order")
    perm = perm.to(device)
    q, rel = _take(flat.qid, perm), _take(flat.target.to(F64), perm)
    n_items = torch.bincount(q, minlength=n_queries)
    starts = torch.cumsum(n_items, 0) - n_items
    idx = torch.arange(n, device=device)
    pos = (idx - _take(starts, q)).to(F64) + 1.0
    if ties == "average" and n > 0:
        s = _take(flat.preds, perm)
        new = torch.ones(n, dtype=torch.bool, device=device)
        new[1:] = (q[1:] != q[:-1]) | (s[1:] != s[:-1])
        if not bool(new.all()):
            return _tie_groups(q, rel, pos, new, idx, starts, n_items, n_queries)
    zero = torch.zeros(n, dtype=F64, device=device)  # every item is its own group
    return Ranked(q, rel, pos, zero, zero + 1.0, idx, idx, starts, n_items, n_queries, False)


def _tie_groups(q: Tensor, rel: Tensor, pos: Tensor, new: Tensor, idx: Tensor, starts: Tensor, n_items: Tensor,
                n_queries: int) -> Ranked:
    n = q.numel()
    gstart = torch.nonzero(new).squeeze(1)
    gid = torch.cumsum(new, 0) - 1
    gsize = torch.diff(gstart, append=gstart.new_tensor([n]))
    within = (idx - _take(gstart, gid)).to(F64)
    return Ranked(q, rel, pos, within, _take(gsize, gid).to(F64), gid, gstart, starts, n_items, n_queries, True)


def _relevant_counts(r: Ranked) -> tuple:
    """Per item: relevant items in its tie group (``r``) and above the group in its query (``h``); per query:
    relevant items."""
    c = torch.zeros(r.q.numel() + 1, dtype=torch.int64, device=r.q.device)
    torch.cumsum(r.rel > 0, 0, out=c[1:])
    n_rel = _take(c, r.starts + r.n_items) - _take(c, r.starts)
    if not r.tied:
        return (r.rel > 0).to(F64), (c[:-1] - _take(_take(c, r.starts), r.q)).to(F64), n_rel
    gend = torch.cat([r.gstart[1:], r.gstart.new_tensor([r.q.numel()])])
    at_start = _take(c, r.gstart)
    in_group = _take(_take(c, gend) - at_start, r.gid)
    above = _take(at_start - _take(c, _take(r.starts, _take(r.q, r.gstart))), r.gid)
    return in_group.to(F64), above.to(F64), n_rel


def _query_sum(r: Ranked, term: Tensor, keep: Optional[Tensor] = None) -> Tensor:
    """Per-query sums of ``term`` (times the 0/1 float ``keep``)."""
    return _segment_sum(term if keep is None else term * keep, r.starts, r.n_items)


def _in_k(r: Ranked, k: Optional[int]) -> Optional[Tensor]:
    """1.0 at ranks <= k, else 0.0 (ranks are whole numbers)."""
    return None if k is None else torch.clamp(k + 1.0 - r.pos, 0.0, 1.0)


def _safe_div(num: Tensor, den: Tensor) -> Tensor:
    """``num / den`` with 0 / 0 = 0 for the non-negative counts ``den`` (those queries are empty anyway)."""
    return num / torch.clamp(den, min=1).to(F64)


# ------------------------------------------------------------------------------------ per-query values
def _gains(rel: Tensor, gain: str) -> Tensor:
    return rel if gain == "linear" else torch.exp2(rel) - 1.0


def _ndcg_values(r: Ranked, k: Optional[int] = None, gain: str = "linear") -> PerQuery:
    g = _gains(r.rel, gain)
    if r.tied:  # the items of a tie group share its mean gain
        gend = torch.cat([r.gstart[1:], r.gstart.new_tensor([r.q.numel()])])
        g = _take(_segment_sum(g, r.gstart, gend - r.gstart), r.gid) / r.gn
    disc = 1.0 / torch.log2(r.pos + 1.0)
    keep = _in_k(r, k)
    dcg = _query_sum(r, g * disc, keep)
    ideal = segment_argsort(r.q, r.rel, n_segments=r.n_queries, descending=True).to(r.q.device)
    ideal_gain = _gains(_take(r.rel, ideal), gain)
    idcg = _query_sum(r, ideal_gain * disc, keep)
    n_rel = _query_sum(r, (r.rel > 0).to(F64)).to(torch.int64)
    return PerQuery(dcg / torch.where(idcg > 0, idcg, 1.0), r.n_items, n_rel)  # IDCG may be < 1 (grades < 1)


def _average_precision_values(r: Ranked, k: Optional[int] = None) -> PerQuery:
    rg, hg, n_rel = _relevant_counts(r)
    pairs = r.within * (rg - 1.0) / torch.clamp(r.gn - 1.0, min=1.0)
    term = (rg / r.gn) * (hg + 1.0 + pairs) / r.pos
    return PerQuery(_safe_div(_query_sum(r, term, _in_k(r, k)), n_rel), r.n_items, n_rel)


def _expected_hits(r: Ranked, keep: Optional[Tensor]) -> tuple:
    rg, _, n_rel = _relevant_counts(r)
    return _query_sum(r, rg / r.gn, keep), n_rel


def _precision_values(r: Ranked, k: Optional[int] = None) -> PerQuery:
    hits, n_rel = _expected_hits(r, _in_k(r, k))
    return PerQuery(_safe_div(hits, r.n_items if k is None else torch.full_like(r.n_items, k)), r.n_items, n_rel)


def _recall_values(r: Ranked, k: Optional[int] = None) -> PerQuery:
    hits, n_rel = _expected_hits(r, _in_k(r, k))
    return PerQuery(_safe_div(hits, n_rel), r.n_items, n_rel)


def _r_precision_values(r: Ranked) -> PerQuery:
    rg, _, n_rel = _relevant_counts(r)
    hits = _query_sum(r, rg / r.gn, torch.clamp(_take(n_rel, r.q).to(F64) + 1.0 - r.pos, 0.0, 1.0))
    return PerQuery(_safe_div(hits, n_rel), r.n_items, n_rel)


def _first_relevant(r: Ranked, k: Optional[int]) -> tuple:
    """Items at the slots of each query's first relevant tie group, the probability that the first relevant
    item sits at that slot, and per-query relevant counts."""
    rg, hg, n_rel = _relevant_counts(r)
    sel = (hg == 0) & (rg > 0) & (r.within < r.gn - rg + 1)
    if k is not None:
        sel &= r.pos <= k
    sel = torch.nonzero(sel).squeeze(1)
    n, rr, j = _take(r.gn, sel), _take(rg, sel), _take(r.within, sel) + 1.0
    lg = torch.lgamma
    logp = (lg(n - j + 1) - lg(rr) - lg(n - j - rr + 2)) - (lg(n + 1) - lg(rr + 1) - lg(n - rr + 1))
    return sel, torch.exp(logp), n_rel


def _reciprocal_rank_values(r: Ranked, k: Optional[int] = None) -> PerQuery:
    sel, prob, n_rel = _first_relevant(r, k)
    out = torch.zeros(r.n_queries, dtype=F64, device=r.q.device)
    out.index_add_(0, _take(r.q, sel), prob / _take(r.pos, sel))
    return PerQuery(out, r.n_items, n_rel)


def _hit_rate_values(r: Ranked, k: Optional[int] = None) -> PerQuery:
    sel, prob, n_rel = _first_relevant(r, k)
    out = torch.zeros(r.n_queries, dtype=F64, device=r.q.device)
    out.index_add_(0, _take(r.q, sel), prob)
    return PerQuery(out, r.n_items, n_rel)


# ------------------------------------------------------------------------------------------- reduction
_FILL = {"zero": 0.0, "one": 1.0}


def _counted(pq: PerQuery, empty: str) -> tuple:
    """(values with the empty rule applied, counted mask, queries without a relevant item)."""
    present = pq.n_items > 0
    blank = present & (pq.n_rel == 0)
    if empty == "error" and bool(blank.any()):
        raise ValueError(
            f"Expected `target` to hold a relevant item (target > 0) in every query, got {int(blank.sum())} "
            "query(ies) without one; pass empty='skip', 'zero' or 'one' to allow them"
        )
    if empty in _FILL:
        return torch.where(blank, _FILL[empty], pq.values), present, blank
    return pq.values, present & ~blank, blank


def _retrieval_stats(pq: PerQuery, empty: str) -> Dict[str, Tensor]:
    """Sum of the counted per-query values, number counted, number skipped (``empty="skip"`` only)."""
    values, counted, blank = _counted(pq, empty)
    skipped = blank.sum() if empty == "skip" else torch.zeros((), dtype=torch.int64, device=blank.device)
    return {"value_sum": torch.where(counted, values, 0.0).sum(), "n_queries": counted.sum(), "n_skipped": skipped}


def _retrieval_from_stats(stats: Dict[str, Tensor]) -> Tensor:
    """Mean over counted queries (``nan`` when there is none)."""
    return stats["value_sum"] / stats["n_queries"].to(F64)


def _per_query(pq: PerQuery, empty: str, dense: bool) -> Tensor:
    """``reduction="none"``: one value per dense row (``nan`` for a skipped or item-less row), or per flat
    query id present, in ascending id order (``nan`` for a skipped one)."""
    values, counted, _ = _counted(pq, empty)
    values = torch.where(counted, values, float("nan"))
    return values if dense else values[pq.n_items > 0]


# ------------------------------------------------------------------------------------------ dispatch
class Measure(NamedTuple):
    flat: Callable[..., PerQuery]  # per-query values of a Ranked flat list (any device)
    dense: Callable[..., "dense.PerQueryNp"]  # the same from a ranked CPU block (_numpy_kernels)


NDCG = Measure(_ndcg_values, dense.ndcg_values)
AVERAGE_PRECISION = Measure(_average_precision_values, dense.average_precision_values)
RECIPROCAL_RANK = Measure(_reciprocal_rank_values, dense.reciprocal_rank_values)
PRECISION = Measure(_precision_values, dense.precision_values)
RECALL = Measure(_recall_values, dense.recall_values)
HIT_RATE = Measure(_hit_rate_values, dense.hit_rate_values)
R_PRECISION = Measure(_r_precision_values, dense.r_precision_values)


def _from_block(measure: Measure, block: "dense.Block", options: Dict[str, Any]) -> PerQuery:
    values, n_items, n_rel = measure.dense(block, **options)
    return PerQuery(torch.from_numpy(values), torch.from_numpy(n_items), torch.from_numpy(n_rel))


def _measure_values(measure: Measure, preds: Tensor, target: Tensor, indexes: Optional[Tensor],
                    mask: Optional[Tensor], *, ties: str, ignore_index: Optional[int], validate_args: bool,
                    options: Dict[str, Any]) -> tuple:
    """Checked inputs -> (per-query values, dense?). CPU: the block path; else the generic flat path."""
    if indexes is None and _use_numpy(preds):
        return _from_block(measure, dense.dense_block(preds, target, mask, ignore_index, validate_args, ties),
                           options), True
    flat = _flatten(preds, target, indexes, mask, ignore_index, validate_args)
    if _use_numpy(flat.preds):
        block = dense.flat_block(flat.preds, flat.target, flat.qid, flat.n_queries, ties)
        if block is not None:
            return _from_block(measure, block, options), flat.dense
    return measure.flat(_rank(flat, ties), **options), flat.dense
