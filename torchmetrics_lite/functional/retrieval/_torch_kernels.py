"""The torch side of the retrieval kernels, the ranking dispatch and the empty-query rule.

The pipeline (:func:`~torchmetrics_lite.functional.retrieval._streaming._retrieval_batch_stats`): checked dense
``(queries, items)`` or flat ``(preds, target, indexes)`` input -> :func:`_rank` (one flat item list with compact
query ids, ranked by ONE sort: numpy's packed sort on CPU, :func:`rank` here on every other device and under
``torch.compile``; :func:`torchmetrics_lite._xp.namespace` chooses) -> a measure of
:mod:`~torchmetrics_lite.functional.retrieval._kernels` on the tie groups -> :func:`_reduce` (the empty-query
rule and the sums).
"""
from __future__ import annotations

from typing import Callable, Dict, NamedTuple, Optional

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._checks import check_retrieval_values
from torchmetrics_lite._xp import NUMPY, Xp, namespace
from torchmetrics_lite.functional.retrieval import _kernels as K
from torchmetrics_lite.functional.retrieval import _numpy_kernels

PerQuery = K.PerQuery
Measure = Callable[..., K.PerQuery]
NDCG: Measure = K.ndcg_values
AVERAGE_PRECISION: Measure = K.average_precision_values
RECIPROCAL_RANK: Measure = K.reciprocal_rank_values
PRECISION: Measure = K.precision_values
RECALL: Measure = K.recall_values
HIT_RATE: Measure = K.hit_rate_values
R_PRECISION: Measure = K.r_precision_values
DCG: Measure = K.dcg_values
FALL_OUT: Measure = K.fall_out_values
AUROC: Measure = K.auroc_values


class Flat(NamedTuple):
    preds: Tensor  # (n,) scores
    target: Tensor  # (n,) relevance (the input's dtype)
    qid: Tensor  # (n,) int64 query ids in [0, n_queries)
    n_queries: int
    valid: Optional[Tensor] = None  # (n,) bool: False at masked items kept in place (static shapes)


# ------------------------------------------------------------------------------------ flatten and rank
def _compact_ids(indexes: Tensor) -> tuple:
    """Query ids as ``[0, Q)``: a shift when the ids span a small range (absent ids become empty queries),
    else ``torch.unique``. Order of ids is kept, so per-query output is in ascending id order."""
    n = indexes.numel()
    if n == 0:
        return indexes.to(torch.int64), 0
    extremes = torch.aminmax(indexes)
    lo, hi = extremes.min.item(), extremes.max.item()
    if hi - lo < 4 * n + 1024:
        ids = indexes.to(torch.int64)
        return (ids - lo if lo else ids), hi - lo + 1
    uniq, inverse = torch.unique(indexes, return_inverse=True)
    return inverse, uniq.numel()


def _rank(preds: Tensor, target: Tensor, indexes: Optional[Tensor], mask: Optional[Tensor], *, ties: str,
          ignore_index: Optional[int], validate_args: bool, cut: Optional[int] = None) -> K.Ranked:
    """Checked inputs -> the ranking: one flat item list with compact query ids, ranked by ONE sort
    (numpy's packed sort on CPU, :func:`rank` on other devices and under ``torch.compile``; ``namespace``
    chooses, once). Masked and ``ignore_index`` items are dropped before the numpy sort; the torch ranking of dense
    input keeps them in place, flagged (every shape then follows the input's, as ``torch.compile`` needs).
    ``cut``: the measure reads only the ranks up to it (see :func:`_numpy_kernels.rank`)."""
    xp = namespace(preds)
    on_numpy = xp is NUMPY
    dense = indexes is None
    if dense:
        if preds.dim() == 1:
            preds, target = preds[None], target[None]
            mask = None if mask is None else mask[None]
        n_queries, n_cols = preds.shape
        qid = torch.arange(n_queries, device=preds.device)[:, None].expand(n_queries, n_cols).reshape(-1)
        preds, target = preds.reshape(-1), target.reshape(-1)
        mask = None if mask is None else mask.reshape(-1)
    else:
        assert indexes is not None
        qid = indexes
    keep = mask
    if ignore_index is not None:
        keep = (target != ignore_index) if keep is None else keep & (target != ignore_index)
    if validate_args:
        check_retrieval_values(preds, target, keep)
    if keep is not None and (on_numpy or not dense):
        preds, target, qid = preds[keep], target[keep], qid[keep]
        keep = None
    if not dense:
        qid, n_queries = _compact_ids(qid)
    if not on_numpy:
        return rank(xp, Flat(preds, target, qid, n_queries, keep), ties)
    full_rows = n_cols if dense and mask is None and ignore_index is None else 0
    target = target.detach()
    if target.dtype in (torch.bfloat16, torch.float16):
        target = target.float()  # exact
    return _numpy_kernels.rank(qid.numpy(), preds.numpy(force=True), target.numpy(), n_queries, ties, cut=cut,
                               row_length=full_rows)


# ------------------------------------------------------------------------------------------ torch ranking
def _ideal_runs(r: K.Ranked) -> K.Runs:
    """Grades sorted descending within each query (two chained stable sorts), one run per item (``r.rel`` is
    already in the kernel's floating dtype)."""
    by_value = torch.sort(r.rel, descending=True, stable=True).indices
    order = by_value[torch.sort(r.q[by_value], stable=True).indices]
    pos = torch.arange(r.q.numel(), device=r.q.device) - r.qstart[r.q]
    return K.Runs(r.q, pos, torch.ones_like(pos), r.rel[order])


def _group_bounds(new: Tensor) -> tuple:
    """First and last index of the group of every item, from the group-start flags (cumulative max/min: no
    data-dependent shape)."""
    n = new.numel()
    idx = torch.arange(n, device=new.device)
    first = torch.cummax(torch.where(new, idx, 0), 0).values
    ends_here = torch.cat([new[1:], new.new_ones(1)])
    last = torch.flip(torch.cummin(torch.flip(torch.where(ends_here, idx, n), (0,)), 0).values, (0,))
    return idx, first, last


def rank(xp: Xp, flat: Flat, ties: str) -> K.Ranked:
    """Items ranked by two chained stable sorts (query, then -score; masked items last in their query), as
    one row per item carrying its tie group's values (:class:`~torchmetrics_lite.functional.retrieval._kernels.
    Ranked` with ``weight``): every shape is the input's, so it traces under ``torch.compile`` and runs on CUDA
    without a host sync. Values are in ``xp.real`` (the torch namespace of the device: float64, or float32 on a
    device without float64)."""
    dtype = xp.real
    by_value = torch.sort(flat.preds, descending=True, stable=True).indices
    seg = flat.qid[by_value]
    if flat.valid is not None:
        seg = seg * 2 + (~flat.valid[by_value]).to(seg.dtype)  # masked items after the real ones
    perm = by_value[torch.sort(seg, stable=True).indices]
    q = flat.qid[perm]
    rel = torch.clamp(flat.target[perm].to(dtype), min=0.0)  # < 0: validate_args=False only
    ok = None if flat.valid is None else flat.valid[perm]
    if ok is not None:
        rel = torch.where(ok, rel, 0.0)
    n, nq = q.numel(), flat.n_queries
    new = torch.ones(n, dtype=torch.bool, device=q.device)
    if ties == "average" and n > 1:
        s = flat.preds[perm]
        new[1:] = (q[1:] != q[:-1]) | (s[1:] != s[:-1])
        if ok is not None:
            new |= ~ok
    idx, first, last = _group_bounds(new)
    ones = torch.ones(n, dtype=torch.int64, device=q.device)
    counts = torch.zeros(nq, dtype=torch.int64, device=q.device).index_add_(0, q, ones)
    n_items = counts if ok is None else torch.zeros_like(counts).index_add_(0, q, ok.to(torch.int64))
    ends = xp.cumsum0(counts)
    qstart = ends[:-1]
    crel = xp.cumsum0(rel > 0)
    item_qstart = qstart[q]
    gsize = last - first + 1
    at = crel[first]
    return K.Ranked(xp, rel, q, first, gsize, q, first - item_qstart, crel[last + 1] - at,
                    at - crel[item_qstart], n_items, crel[ends[1:]] - crel[qstart], qstart, nq, _ideal_runs,
                    1.0 / gsize.to(dtype), idx - first)


# ------------------------------------------------------------------------------------------- reduction
_FILL = {"zero": 0.0, "one": 1.0}


RELEVANT = "a relevant item (target > 0)"


def _reduce(pq: PerQuery, empty: str, need: str = RELEVANT, *, dense: bool = True,
            keep: bool = False) -> Dict[str, Tensor]:
    """Per-query values (numpy or torch) -> the sum of the counted values (``empty`` applied), the number counted
    and the number skipped (``empty="skip"`` only); with ``keep`` also ``"query_values"``: one per dense row
    (``nan`` for a skipped or item-less row), or per flat query id present, in ascending id order."""
    if isinstance(pq.values, np.ndarray):
        pq = PerQuery(torch.from_numpy(pq.values), torch.from_numpy(pq.n_items), torch.from_numpy(pq.support))
    values, present = pq.values, pq.n_items > 0
    blank = present & (pq.support == 0)
    if empty == "error" and bool(blank.any()):
        raise ValueError(
            f"Expected `target` to hold {need} in every query, got {int(blank.sum())} "
            "query(ies) without one; pass empty='skip', 'zero' or 'one' to allow them"
        )
    if empty in _FILL:
        values, counted = torch.where(blank, _FILL[empty], values), present
    else:
        counted = present & ~blank
    skipped = blank.sum() if empty == "skip" else torch.zeros((), dtype=torch.int64, device=blank.device)
    stats = {"value_sum": torch.where(counted, values, 0.0).sum(), "n_queries": counted.sum(), "n_skipped": skipped}
    if keep:
        values = torch.where(counted, values, float("nan"))
        stats["query_values"] = values if dense else values[present]
    return stats


def _weighted_mean(values: Tensor, weight: Tensor) -> Tensor:
    """``sum(w_q v_q) / sum(w_q)`` over the counted queries: ``values`` from :func:`_reduce` with ``keep`` on dense
    input (one per row, ``nan`` where a query is skipped or has no item, so its weight counts nowhere), ``weight``
    one per row (checked). ``nan`` when no counted query has weight (scikit-learn's ``ZeroDivisionError``)."""
    counted = ~torch.isnan(values)
    w = torch.where(counted, weight.to(values.dtype), 0.0)
    return torch.where(counted, values, 0.0) @ w / w.sum()
