"""The public retrieval functions (conventions in :mod:`torchmetrics_lite.functional.retrieval`)."""
from __future__ import annotations

from typing import Any, Optional

from torch import Tensor

from torchmetrics_lite._checks import check_retrieval_inputs, check_retrieval_options
from torchmetrics_lite.functional.retrieval._torch_kernels import (
    AVERAGE_PRECISION,
    HIT_RATE,
    NDCG,
    PRECISION,
    R_PRECISION,
    RECALL,
    RECIPROCAL_RANK,
    Measure,
    _measure_values,
    _per_query,
    _retrieval_from_stats,
    _retrieval_stats,
)

__all__ = [
    "retrieval_normalized_dcg",
    "retrieval_average_precision",
    "retrieval_reciprocal_rank",
    "retrieval_precision",
    "retrieval_recall",
    "retrieval_hit_rate",
    "retrieval_r_precision",
]


def _evaluate(measure: Measure, preds: Any, target: Any, indexes: Any, mask: Any, *,
              ties: str, empty: str, ignore_index: Optional[int], reduction: str, validate_args: bool,
              **options: Any) -> Tensor:
    check_retrieval_options(k=options.get("k"), ties=ties, empty=empty, ignore_index=ignore_index,
                            reduction=reduction, gain=options.get("gain", "linear"))
    pq, dense = _measure_values(measure, *check_retrieval_inputs(preds, target, indexes, mask, validate_args),
                                ties=ties, ignore_index=ignore_index, validate_args=validate_args, options=options)
    if reduction == "none":
        return _per_query(pq, empty, dense)
    return _retrieval_from_stats(_retrieval_stats(pq, empty))


def retrieval_normalized_dcg(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                             mask: Optional[Tensor] = None, k: Optional[int] = None, gain: str = "linear",
                             ties: str = "average", empty: str = "zero", ignore_index: Optional[int] = None,
                             reduction: str = "mean", validate_args: bool = True) -> Tensor:
    """Normalized discounted cumulative gain at ``k``: ``DCG@k / IDCG@k``.

    ``DCG@k = sum_{rank p <= k} gain(rel_p) / log2(p + 1)`` with ``gain="linear"`` (``rel``, as trec_eval and
    scikit-learn) or ``"exponential"`` (``2^rel - 1``). ``IDCG@k`` is the DCG@k of the ideal order of ALL the
    query's items (not only the top k). ``ties="average"``: the items of a tie group each get the group's
    mean gain (scikit-learn's ``ndcg_score``). A query whose targets are all 0 has no relevant item
    (``empty`` rule). Shapes and other arguments: see the module docstring.

    Reference: Jarvelin and Kekalainen, "Cumulated gain-based evaluation of IR techniques", TOIS 2002.

    >>> import torch
    >>> rel = torch.tensor([3, 2, 3, 0, 1, 2])  # relevance in the returned order
    >>> scores = torch.arange(6, 0, -1).float()
    >>> round(retrieval_normalized_dcg(scores, rel).item(), 4)
    0.9608
    >>> round(retrieval_normalized_dcg(scores, rel, k=3).item(), 4)
    0.9778
    >>> round(retrieval_normalized_dcg(scores, rel, gain="exponential").item(), 4)
    0.9488
    """
    return _evaluate(NDCG, preds, target, indexes, mask, k=k, gain=gain, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


def retrieval_average_precision(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                                mask: Optional[Tensor] = None, k: Optional[int] = None, ties: str = "average",
                                empty: str = "zero", ignore_index: Optional[int] = None, reduction: str = "mean",
                                validate_args: bool = True) -> Tensor:
    """Average precision at ``k`` (trec_eval's ``map_cut_k``; the mean over queries is MAP@k).

    ``AP@k = (1 / R) * sum_{relevant at rank p <= k} P@p`` where ``R`` is the query's number of relevant
    items (not the number retrieved). ``ties="average"``: the exact expectation over random orders of tied
    items (McSherry and Najork 2008). Shapes and other arguments: see the module docstring.

    >>> import torch
    >>> scores = torch.tensor([0.9, 0.8, 0.7, 0.6])
    >>> hits = torch.tensor([1, 0, 1, 0])  # R, N, R, N
    >>> f"{retrieval_average_precision(scores, hits).item():.6f}  {(1 + 2 / 3) / 2:.6f}"
    '0.833333  0.833333'
    >>> # all tied: the mean of AP over the 6 placements of the 2 relevant items
    >>> f"{retrieval_average_precision(torch.zeros(4), hits).item():.4f}"
    '0.6806'
    """
    return _evaluate(AVERAGE_PRECISION, preds, target, indexes, mask, k=k, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


def retrieval_reciprocal_rank(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                              mask: Optional[Tensor] = None, k: Optional[int] = None, ties: str = "average",
                              empty: str = "zero", ignore_index: Optional[int] = None, reduction: str = "mean",
                              validate_args: bool = True) -> Tensor:
    """Reciprocal rank at ``k``: ``1 / p`` for the rank ``p`` of the first relevant item, 0 when ``p > k``
    (trec_eval's ``recip_rank``; the mean over queries is MRR). ``ties="average"``: with ``r`` relevant items
    among the ``n`` tied at ranks ``a+1 .. a+n``, the first one is at ``a+j`` with probability
    ``C(n-j, r-1) / C(n, r)``. Shapes and other arguments: see the module docstring.

    >>> import torch
    >>> retrieval_reciprocal_rank(torch.tensor([0.2, 0.9, 0.4]), torch.tensor([1, 0, 1])).item()
    0.5
    """
    return _evaluate(RECIPROCAL_RANK, preds, target, indexes, mask, k=k, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


def retrieval_precision(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                        mask: Optional[Tensor] = None, k: Optional[int] = None, ties: str = "average",
                        empty: str = "zero", ignore_index: Optional[int] = None, reduction: str = "mean",
                        validate_args: bool = True) -> Tensor:
    """Precision at ``k``: relevant items among the top ``k``, divided by ``k`` even when the query has fewer
    items (trec_eval's ``P_k``); ``k=None``: divided by the query's number of items. ``ties="average"``: a
    tie group of ``n`` items with ``r`` relevant contributes ``r/n`` per rank inside the cut-off. Shapes and
    other arguments: see the module docstring.

    >>> import torch
    >>> retrieval_precision(torch.tensor([0.2, 0.9, 0.4, 0.1]), torch.tensor([1, 0, 1, 0]), k=2).item()
    0.5
    """
    return _evaluate(PRECISION, preds, target, indexes, mask, k=k, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


def retrieval_recall(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                     mask: Optional[Tensor] = None, k: Optional[int] = None, ties: str = "average",
                     empty: str = "zero", ignore_index: Optional[int] = None, reduction: str = "mean",
                     validate_args: bool = True) -> Tensor:
    """Recall at ``k``: relevant items among the top ``k`` divided by the query's relevant items
    (trec_eval's ``recall_k``). Ties as :func:`retrieval_precision`. Shapes and other arguments: see the
    module docstring.

    >>> import torch
    >>> retrieval_recall(torch.tensor([0.2, 0.9, 0.4, 0.1]), torch.tensor([1, 0, 1, 0]), k=2).item()
    0.5
    """
    return _evaluate(RECALL, preds, target, indexes, mask, k=k, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


def retrieval_hit_rate(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                       mask: Optional[Tensor] = None, k: Optional[int] = None, ties: str = "average",
                       empty: str = "zero", ignore_index: Optional[int] = None, reduction: str = "mean",
                       validate_args: bool = True) -> Tensor:
    """Hit rate at ``k``: 1 when a relevant item ranks within the top ``k``, else 0. ``ties="average"``: the
    probability of a hit, ``1 - C(n-r, m) / C(n, m)`` for a tie group of ``n`` items (``r`` relevant) cut after
    ``m`` of its ranks. Shapes and other arguments: see the module docstring.

    >>> import torch
    >>> round(retrieval_hit_rate(torch.tensor([0.5, 0.5, 0.5, 0.1]), torch.tensor([1, 0, 0, 0]), k=1).item(), 4)
    0.3333
    """
    return _evaluate(HIT_RATE, preds, target, indexes, mask, k=k, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


def retrieval_r_precision(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                          mask: Optional[Tensor] = None, ties: str = "average", empty: str = "zero",
                          ignore_index: Optional[int] = None, reduction: str = "mean",
                          validate_args: bool = True) -> Tensor:
    """R-precision: precision at ``R``, the query's number of relevant items (trec_eval's ``Rprec``). Ties as
    :func:`retrieval_precision`. Shapes and other arguments: see the module docstring.

    >>> import torch
    >>> retrieval_r_precision(torch.tensor([0.2, 0.9, 0.4, 0.1]), torch.tensor([1, 0, 1, 0])).item()
    0.5
    """
    return _evaluate(R_PRECISION, preds, target, indexes, mask, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)
