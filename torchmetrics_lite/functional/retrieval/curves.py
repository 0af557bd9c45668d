"""Retrieval precision-recall curves over the cut-off ``k = 1 .. max_k``, and the recall at a fixed precision.

One ranking of every query at once (the family's ranking: one sort of packed (query, score) keys, cut into tie
groups), then, per query, the expected number of relevant items in the top ``k`` for every ``k``: a tie group
of ``n`` items with ``r`` relevant ones, ``a`` items above it, adds ``r/n`` per rank ``a+1 .. a+n`` (the
expectation over random orders of tied scores; McSherry and Najork, 2008), written as two entries of a
``(queries, max_k + 1)`` difference table (one ``bincount`` / ``index_add_``) and two cumulative sums. No loop
over queries or cut-offs.
"""
from __future__ import annotations

from typing import Callable, Optional, Tuple, Union

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_retrieval_inputs, check_retrieval_options
from torchmetrics_lite._checks.retrieval_curves import check_curve_options, check_min_precision
from torchmetrics_lite.functional.retrieval._kernels import Ranked
from torchmetrics_lite.functional.retrieval._torch_kernels import RELEVANT, _rank

__all__ = ["retrieval_precision_recall_curve", "retrieval_recall_at_fixed_precision"]

Curves = Tuple[Tensor, Tensor, Tensor, Tensor]  # hits (Q, K), n_items (Q,), n_rel (Q,), k (K,)
Aggregation = Union[str, Callable[..., Tensor]]


def _hits(r: Ranked, k: int) -> Tensor:
    """``(Q, k)`` expected relevant items in the top ``1 .. k`` of each query (in ``r.xp.real``: float64, float32
    on a device without it). A group adds ``r/n`` (times the item weight ``1/n`` of the torch layout) from rank
    ``a+1`` on and takes it back after rank ``a+n``: two entries of the difference table."""
    xp = r.xp
    step = xp.floating(r.r) / xp.floating(r.gsize)
    if r.weight is not None:
        step = step * r.weight
    step = xp.where((r.above < k) & (r.r > 0), step, 0.0)
    width = k + 1
    row = r.gq * width
    ids = xp.concatenate([row + xp.minimum(r.above, k), row + xp.minimum(r.above + r.gsize, k)])
    table = xp.segment_sum(xp.concatenate([step, -step]), ids, int(r.n_queries) * width)
    return xp.tensor(xp.cumsum(xp.cumsum(table.reshape(-1, width)[:, :k], 1), 1), r.n_items)


def _curves(preds: Tensor, target: Tensor, indexes: Optional[Tensor], mask: Optional[Tensor], *,
            max_k: Optional[int], ties: str, ignore_index: Optional[int], validate_args: bool) -> Curves:
    """Checked inputs -> the per-query expected hits ``(Q, K)``, items and relevant items of each query id
    (``K = max_k``, or the longest query's length)."""
    preds, target, indexes, mask = check_retrieval_inputs(preds, target, indexes, mask, validate_args)
    r = _rank(preds, target, indexes, mask, ties=ties, ignore_index=ignore_index, validate_args=validate_args,
              cut=max_k)
    n_items = torch.as_tensor(r.n_items).to(preds.device)
    n_rel = torch.as_tensor(r.n_rel).to(preds.device)
    k = max_k if max_k is not None else int(n_items.max()) if n_items.numel() else 0
    return _hits(r, k).to(preds.device), n_items, n_rel, torch.arange(1, k + 1, device=preds.device)


def _aggregate(values: Tensor, aggregation: Aggregation) -> Tensor:
    """Per cut-off over the counted queries ``(Q, K) -> (K,)``; ``nan`` where no query counts."""
    if values.shape[0] == 0:
        return torch.full(values.shape[1:], float("nan"), dtype=values.dtype, device=values.device)
    if callable(aggregation):
        return aggregation(values, dim=0)
    if aggregation == "mean":
        return values.mean(0)
    return getattr(torch, aggregation)(values, dim=0).values  # median (the lower one), min, max


def _curve_from_values(curves: Curves, adaptive_k: bool, empty: str,
                       aggregation: Aggregation = "mean") -> Tuple[Tensor, Tensor]:
    """The aggregated precision and recall curves ``(K,)`` from the per-query hits (the empty rule applied)."""
    hits, n_items, n_rel, k = curves
    present = n_items > 0
    blank = present & (n_rel == 0)
    if empty == "error" and bool(blank.any()):
        raise ValueError(f"Expected `target` to hold {RELEVANT} in every query, got {int(blank.sum())} "
                         "query(ies) without one; pass empty='skip', 'zero' or 'one' to allow them")
    den = k.to(hits.dtype).expand_as(hits)
    if adaptive_k:
        den = torch.minimum(den, n_items[:, None].to(hits.dtype))
    precision = hits / torch.clamp(den, min=1)
    recall = hits / torch.clamp(n_rel, min=1)[:, None].to(hits.dtype)
    if empty in ("zero", "one"):
        fill = 0.0 if empty == "zero" else 1.0
        precision = torch.where(blank[:, None], fill, precision)
        recall = torch.where(blank[:, None], fill, recall)
        counted = present
    else:
        counted = present & ~blank
    return _aggregate(precision[counted], aggregation), _aggregate(recall[counted], aggregation)


def retrieval_precision_recall_curve(preds: Tensor, target: Tensor, max_k: Optional[int] = None,
                                     adaptive_k: bool = False, *, indexes: Optional[Tensor] = None,
                                     mask: Optional[Tensor] = None, ties: str = "average", empty: str = "zero",
                                     ignore_index: Optional[int] = None,
                                     validate_args: bool = True) -> Tuple[Tensor, Tensor, Tensor]:
    """Precision and recall in the top ``k`` for ``k = 1 .. max_k``, averaged over queries.

    For a query with ``R`` relevant items (``target > 0``) and ``n`` items, ``hits(k)`` relevant items in its
    top ``k``: ``recall(k) = hits(k) / R`` and ``precision(k) = hits(k) / k`` (past the end of the list the
    hits stop growing and ``k`` keeps counting, as torchmetrics), or ``hits(k) / min(k, n)`` with
    ``adaptive_k``. Ties (``"average"``): a tie group of ``m`` items with ``r`` relevant adds ``r/m`` per rank
    inside the cut-off (the expectation over random orders of tied scores; torchmetrics orders them as
    ``torch.topk`` happens to). One query (a 1-D pair) gives torchmetrics' ``retrieval_precision_recall_curve``
    exactly (without ties); several give the mean curve over the counted queries, as the module.

    Args:
        preds: Scores, used by their order only. Dense ``(queries, items)`` (a 1-D tensor is one query), or
            flat 1-D with ``indexes``.
        target: Relevance grades of ``preds``' shape, non-negative; an item is relevant when ``target > 0``.
        max_k: The last cut-off (a positive int); ``None``: the longest query's number of items.
        adaptive_k: Divide precision by ``min(k, n)`` instead of ``k`` (torchmetrics' ``adaptive_k``).
        indexes: Flat input only: the integer query id of each item.
        mask: Dense input only: bool, ``True`` at real items.
        ties: ``"average"`` (default) or ``"order"`` (tied items in input order).
        empty: A query without a relevant item: ``"zero"`` (default: both curves 0, as torchmetrics'
            ``empty_target_action="neg"``), ``"one"``, ``"skip"`` (left out) or ``"error"``.
        ignore_index: Items whose target equals it are dropped first.
        validate_args: Check the values (NaN scores, negative grades; a host sync).

    Returns:
        ``(precision, recall, top_k)``: float64 ``(K,)`` curves (float32 on a device without float64) and the
        int64 cut-offs ``1 .. K`` (with ``adaptive_k``, ``min(k, n)`` for the longest query ``n``, as
        torchmetrics' functional form). No counted query (every query skipped): ``nan`` curves.

    Raises:
        ValueError: ``max_k`` not a positive int or ``None``; ``adaptive_k`` not a bool; the errors of the
            retrieval functions (shapes, NaN scores, negative grades); ``empty="error"`` with a query without a
            relevant item.
        TypeError: A non-tensor input, non-integer ``indexes`` or a non-bool ``mask``.

    References:
        torchmetrics ``retrieval_precision_recall_curve``; McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> precision, recall, top_k = retrieval_precision_recall_curve(
        ...     torch.tensor([0.2, 0.3, 0.5]), torch.tensor([1, 0, 1]), max_k=2)
        >>> precision, recall, top_k
        (tensor([1.0000, 0.5000], dtype=torch.float64), tensor([0.5000, 0.5000], dtype=torch.float64), tensor([1, 2]))
    """
    check_curve_options(max_k, adaptive_k)
    check_retrieval_options(ties=ties, empty=empty, ignore_index=ignore_index)
    curves = _curves(preds, target, indexes, mask, max_k=max_k, ties=ties, ignore_index=ignore_index,
                     validate_args=validate_args)
    precision, recall = _curve_from_values(curves, adaptive_k, empty)
    top_k = curves[3]
    if adaptive_k and curves[1].numel():
        top_k = torch.clamp(top_k, max=int(curves[1].max()))
    return precision, recall, top_k


def _recall_at_precision(precision: Tensor, recall: Tensor, min_precision: float) -> Tuple[Tensor, Tensor]:
    """torchmetrics' rule: the largest recall among the cut-offs whose precision is at least ``min_precision``
    and, among equal recalls, the largest ``k``; ``(0.0, K)`` when none qualifies or the best recall is 0."""
    k = precision.shape[0]
    last = torch.tensor(k, device=recall.device)
    if k == 0 or bool(torch.isnan(recall).all()):  # no query counted
        return torch.full((), float("nan"), dtype=recall.dtype, device=recall.device), last
    ok = precision >= min_precision
    best = torch.where(ok, recall, float("-inf")).max()
    if not bool(best > 0):  # none qualifies (-inf) or the best recall is 0
        return torch.zeros((), dtype=recall.dtype, device=recall.device), last
    at = torch.nonzero(ok & (recall == best)).max()
    return best, at + 1


def retrieval_recall_at_fixed_precision(preds: Tensor, target: Tensor, min_precision: float = 0.0,
                                        max_k: Optional[int] = None, adaptive_k: bool = False, *,
                                        indexes: Optional[Tensor] = None, mask: Optional[Tensor] = None,
                                        ties: str = "average", empty: str = "zero",
                                        ignore_index: Optional[int] = None,
                                        validate_args: bool = True) -> Tuple[Tensor, Tensor]:
    """The largest mean recall over the cut-offs whose mean precision is at least ``min_precision``, and that
    cut-off (torchmetrics' ``RetrievalRecallAtFixedPrecision``, as a function).

    Reads the curves of :func:`retrieval_precision_recall_curve`. Among cut-offs with the same recall the
    largest ``k`` is returned; when no cut-off reaches ``min_precision``, or the best recall is 0, the result is
    ``(0.0, K)`` (torchmetrics' rule).

    Args:
        preds, target, max_k, adaptive_k, indexes, mask, ties, empty, ignore_index, validate_args: as
            :func:`retrieval_precision_recall_curve`.
        min_precision: The precision floor, in ``[0, 1]``.

    Returns:
        ``(recall, k)``: a float64 0-d tensor and an int64 0-d tensor; ``(nan, K)`` when no query counts.

    Raises:
        ValueError: ``min_precision`` outside ``[0, 1]``; the errors of :func:`retrieval_precision_recall_curve`.

    References:
        torchmetrics ``RetrievalRecallAtFixedPrecision``.

    Examples:
        >>> preds = torch.tensor([0.9, 0.8, 0.7, 0.6, 0.5])
        >>> target = torch.tensor([1, 0, 1, 1, 0])
        >>> retrieval_recall_at_fixed_precision(preds, target, min_precision=0.7)  # k=4: precision 0.75
        (tensor(1., dtype=torch.float64), tensor(4))
    """
    check_min_precision(min_precision)
    precision, recall, _ = retrieval_precision_recall_curve(
        preds, target, max_k, adaptive_k, indexes=indexes, mask=mask, ties=ties, empty=empty,
        ignore_index=ignore_index, validate_args=validate_args)
    return _recall_at_precision(precision, recall, min_precision)


