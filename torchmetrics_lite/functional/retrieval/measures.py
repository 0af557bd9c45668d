"""The public retrieval functions (conventions in :mod:`torchmetrics_lite.functional.retrieval`).

Every docstring's shared Args/Returns/Raises text comes from :data:`_ARGS` (one place), inserted where a
docstring says ``{sections}``.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, TypeVar

from torch import Tensor

from torchmetrics_lite import _compat
from torchmetrics_lite._checks import (
    check_bool,
    check_choice,
    check_query_weight,
    check_retrieval_inputs,
    check_retrieval_options,
)
from torchmetrics_lite.functional.retrieval._doc_args import fill_doc
from torchmetrics_lite.functional.retrieval._streaming import _retrieval_batch_stats, _retrieval_value
from torchmetrics_lite.functional.retrieval._torch_kernels import (
    AUROC,
    AVERAGE_PRECISION,
    DCG,
    FALL_OUT,
    HIT_RATE,
    NDCG,
    PRECISION,
    R_PRECISION,
    RECALL,
    RECIPROCAL_RANK,
    RELEVANT,
    Measure,
    _rank,
    _reduce,
    _weighted_mean,
)

F = TypeVar("F", bound=Callable[..., Any])

__all__ = [
    "retrieval_normalized_dcg",
    "retrieval_average_precision",
    "retrieval_reciprocal_rank",
    "retrieval_precision",
    "retrieval_recall",
    "retrieval_hit_rate",
    "retrieval_r_precision",
    "retrieval_dcg",
    "retrieval_fall_out",
    "retrieval_auroc",
]
NON_RELEVANT = "a non-relevant item (target == 0)"
BOTH = "a relevant (target > 0) and a non-relevant item"


def _evaluate(measure: Measure, preds: Any, target: Any, indexes: Any, mask: Any, *,
              ties: str, empty: str, ignore_index: Optional[int], reduction: str, validate_args: bool,
              need: str = RELEVANT, weight: Any = None, **options: Any) -> Tensor:
    """Check the options, then dense input takes the module's two steps (``reduction="none"``: the per-query
    values its statistics keep); flat input is whole here, so it is ranked and reduced at once. A per-query
    ``weight`` (dense input only, checked before anything runs) reads the kept per-query values instead of the
    second step: their weighted mean."""
    check_retrieval_options(k=options.get("k"), ties=ties, empty=empty, ignore_index=ignore_index,
                            reduction=reduction, gain=options.get("gain", "linear"), max_fpr=options.get("max_fpr"))
    if weight is not None:
        preds, target, indexes, mask = check_retrieval_inputs(preds, target, indexes, mask, validate_args)
        weight = check_query_weight(weight, preds, indexes, reduction, validate_args)
    keep = reduction == "none" or weight is not None
    if indexes is None:
        stats = _retrieval_batch_stats(preds, target, None, mask, measure=measure, measure_options=options, ties=ties,
                                       empty=empty, ignore_index=ignore_index, validate_args=validate_args,
                                       keep=keep, need=need)
    else:
        preds, target, indexes, mask = check_retrieval_inputs(preds, target, indexes, mask, validate_args)
        ranked = _rank(preds, target, indexes, mask, ties=ties, ignore_index=ignore_index,
                       validate_args=validate_args, cut=options.get("k"))
        stats = _reduce(measure(ranked, **options), empty, need, dense=False, keep=keep)
    if weight is not None:
        return _weighted_mean(stats["query_values"], weight)
    if keep:
        return stats["query_values"]
    return _retrieval_value(stats, measure=measure, measure_options=options, ties=ties, empty=empty, need=need)


@fill_doc
def retrieval_normalized_dcg(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                             mask: Optional[Tensor] = None, weight: Optional[Tensor] = None, k: Optional[int] = None,
                             gain: str = "linear", ties: str = "average", empty: str = "zero",
                             ignore_index: Optional[int] = None, reduction: str = "mean",
                             validate_args: bool = True) -> Tensor:
    """Normalized discounted cumulative gain at ``k``: ``DCG@k / IDCG@k`` per query, averaged over queries.

    ``DCG@k = sum_{rank p <= k} gain(rel_p) / log2(p + 1)`` with ``gain="linear"`` (``rel``, as trec_eval and
    scikit-learn) or ``"exponential"`` (``2^rel - 1``); ``IDCG@k`` is the DCG@k of the ideal order of ALL the
    query's items (not only the top k). Ties (``"average"``): each item of a tie group gets the group's mean
    gain (scikit-learn's ``ndcg_score``). A query whose grades are all 0 has no relevant item (``empty``).

    {weight_rule}

    Args:
        {preds_retrieval}
        {target_retrieval}
        {indexes}
        {mask}
        {weight_query}
        {k_retrieval}
        {gain}
        {ties}
        {empty}
        {ignore_index_retrieval}
        {reduction}
        {validate_args_retrieval}

    {sections_retrieval_weighted}

    References:
        Järvelin and Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 2002;
        McSherry and Najork, "Computing information retrieval performance measures efficiently in the
        presence of tied scores", ECIR 2008.

    Examples:
        >>> import torch
        >>> rel = torch.tensor([3, 2, 3, 0, 1, 2])  # relevance in the returned order
        >>> scores = torch.arange(6, 0, -1).float()
        >>> round(retrieval_normalized_dcg(scores, rel).item(), 4)
        0.9608
        >>> round(retrieval_normalized_dcg(scores, rel, k=3).item(), 4)
        0.9778
        >>> round(retrieval_normalized_dcg(scores, rel, gain="exponential").item(), 4)
        0.9488
        >>> # per-query weights, as sklearn.metrics.ndcg_score(y_true, y_score, sample_weight=w)
        >>> rows, hits = torch.tensor([[0.9, 0.5, 0.1], [0.9, 0.5, 0.1]]), torch.tensor([[1, 0, 0], [0, 0, 1]])
        >>> retrieval_normalized_dcg(rows, hits, reduction="none")  # 1 and 1 / log2(4)
        tensor([1.0000, 0.5000], dtype=torch.float64)
        >>> retrieval_normalized_dcg(rows, hits, weight=torch.tensor([3.0, 1.0]))  # (3 * 1 + 1 * 0.5) / 4
        tensor(0.8750, dtype=torch.float64)
    """
    return _evaluate(NDCG, preds, target, indexes, mask, k=k, gain=gain, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args, weight=weight)


@fill_doc
def retrieval_average_precision(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                                mask: Optional[Tensor] = None, k: Optional[int] = None,
                                normalize: str = "relevant", ties: str = "average", empty: str = "zero",
                                ignore_index: Optional[int] = None, reduction: str = "mean",
                                validate_args: bool = True) -> Tensor:
    """Average precision at ``k`` (trec_eval's ``map_cut_k``; its mean over queries is MAP@k).

    ``AP@k = (1 / R) * sum_{relevant at rank p <= k} P@p`` with ``R`` the query's number of relevant items (not
    the number retrieved). Ties (``"average"``): the exact expectation over random orders of each tie group, in
    closed form per group. A query with ``R = 0`` follows ``empty``.

    ``normalize="retrieved"`` divides by the relevant items in the top ``k`` instead (torchmetrics'
    ``retrieval_average_precision(top_k=k)``); a query with relevant items but none in the top ``k`` then
    scores 0, as in torchmetrics. Under ties that is the exact expectation of the ratio over random orders.
    With ``k=None`` (or ``k`` at least the query's length) both give the same value.

    Args:
        {preds_retrieval}
        {target_retrieval}
        {indexes}
        {mask}
        {k_retrieval}
        {normalize_ap}
        {ties}
        {empty}
        {ignore_index_retrieval}
        {reduction}
        {validate_args_retrieval}

    {sections_retrieval}

    References:
        Voorhees and Harman (eds.), "TREC: Experiment and Evaluation in Information Retrieval", 2005 (trec_eval's
        ``map``); McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> import torch
        >>> scores = torch.tensor([0.9, 0.8, 0.7, 0.6])
        >>> hits = torch.tensor([1, 0, 1, 0])  # R, N, R, N
        >>> f"{retrieval_average_precision(scores, hits).item():.6f}  {(1 + 2 / 3) / 2:.6f}"
        '0.833333  0.833333'
        >>> # all tied: the mean of AP over the 6 placements of the 2 relevant items
        >>> f"{retrieval_average_precision(torch.zeros(4), hits).item():.4f}"
        '0.6806'
        >>> ranked = torch.tensor([0, 1, 0, 1])  # in ranked order: P@2 = 1/2 at the one relevant item in the top 2
        >>> scores = torch.tensor([0.4, 0.3, 0.2, 0.1])
        >>> retrieval_average_precision(scores, ranked, k=2).item()  # (1/2) / 2 relevant items
        0.25
        >>> retrieval_average_precision(scores, ranked, k=2, normalize="retrieved").item()  # torchmetrics' number
        0.5
    """
    check_choice("normalize", normalize, ("relevant", "retrieved"))
    return _evaluate(AVERAGE_PRECISION, preds, target, indexes, mask, k=k, normalize=normalize, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


@fill_doc
def retrieval_reciprocal_rank(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                              mask: Optional[Tensor] = None, k: Optional[int] = None, ties: str = "average",
                              empty: str = "zero", ignore_index: Optional[int] = None, reduction: str = "mean",
                              validate_args: bool = True) -> Tensor:
    """Reciprocal rank at ``k``: ``1 / p`` for the rank ``p`` of the first relevant item, 0 when ``p > k``.

    trec_eval's ``recip_rank``; its mean over queries is MRR. Ties (``"average"``): with ``r`` relevant items
    among the ``n`` tied at ranks ``a+1 .. a+n`` (the first group holding one), the first relevant item is at
    ``a+j`` with probability ``C(n-j, r-1) / C(n, r)``. A query without a relevant item follows ``empty``.

    Args:
        {preds_retrieval}
        {target_retrieval}
        {indexes}
        {mask}
        {k_retrieval}
        {ties}
        {empty}
        {ignore_index_retrieval}
        {reduction}
        {validate_args_retrieval}

    {sections_retrieval}

    References:
        Voorhees, "The TREC-8 question answering track report", TREC 1999; McSherry and Najork, ECIR 2008.

    Examples:
        >>> import torch
        >>> retrieval_reciprocal_rank(torch.tensor([0.2, 0.9, 0.4]), torch.tensor([1, 0, 1])).item()
        0.5
    """
    return _evaluate(RECIPROCAL_RANK, preds, target, indexes, mask, k=k, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


@fill_doc
def retrieval_precision(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                        mask: Optional[Tensor] = None, k: Optional[int] = None, adaptive_k: bool = False,
                        ties: str = "average", empty: str = "zero", ignore_index: Optional[int] = None,
                        reduction: str = "mean", validate_args: bool = True) -> Tensor:
    """Precision at ``k``: relevant items among the top ``k``, divided by ``k``.

    As trec_eval's ``P_k`` the division is by ``k`` even when the query has fewer items; ``k=None`` divides by
    the query's number of items; ``adaptive_k=True`` divides a query of ``n < k`` items by ``n`` (torchmetrics'
    ``adaptive_k``). Ties (``"average"``): a tie group of ``n`` items with ``r`` relevant adds ``r/n`` per rank
    inside the cut-off. A query without a relevant item follows ``empty``.

    Args:
        {preds_retrieval}
        {target_retrieval}
        {indexes}
        {mask}
        {k_retrieval}
        {adaptive_k}
        {ties}
        {empty}
        {ignore_index_retrieval}
        {reduction}
        {validate_args_retrieval}

    {sections_retrieval}

    References:
        trec_eval's ``P`` measure; McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> import torch
        >>> retrieval_precision(torch.tensor([0.2, 0.9, 0.4, 0.1]), torch.tensor([1, 0, 1, 0]), k=2).item()
        0.5
        >>> retrieval_precision(torch.tensor([0.2, 0.9]), torch.tensor([1, 0]), k=4).item()  # 1 / 4
        0.25
        >>> retrieval_precision(torch.tensor([0.2, 0.9]), torch.tensor([1, 0]), k=4, adaptive_k=True).item()
        0.5
    """
    check_bool("adaptive_k", adaptive_k)
    return _evaluate(PRECISION, preds, target, indexes, mask, k=k, adaptive_k=adaptive_k, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


@fill_doc
def retrieval_recall(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                     mask: Optional[Tensor] = None, k: Optional[int] = None, ties: str = "average",
                     empty: str = "zero", ignore_index: Optional[int] = None, reduction: str = "mean",
                     validate_args: bool = True) -> Tensor:
    """Recall at ``k``: relevant items among the top ``k`` divided by the query's relevant items ``R``.

    trec_eval's ``recall_k``. Ties as :func:`retrieval_precision`. A query with ``R = 0`` follows ``empty``.

    Args:
        {preds_retrieval}
        {target_retrieval}
        {indexes}
        {mask}
        {k_retrieval}
        {ties}
        {empty}
        {ignore_index_retrieval}
        {reduction}
        {validate_args_retrieval}

    {sections_retrieval}

    References:
        trec_eval's ``recall`` measure; McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> import torch
        >>> retrieval_recall(torch.tensor([0.2, 0.9, 0.4, 0.1]), torch.tensor([1, 0, 1, 0]), k=2).item()
        0.5
    """
    return _evaluate(RECALL, preds, target, indexes, mask, k=k, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


@fill_doc
def retrieval_hit_rate(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                       mask: Optional[Tensor] = None, k: Optional[int] = None, ties: str = "average",
                       empty: str = "zero", ignore_index: Optional[int] = None, reduction: str = "mean",
                       validate_args: bool = True) -> Tensor:
    """Hit rate at ``k``: 1 when a relevant item ranks within the top ``k``, else 0.

    trec_eval's ``success_k``. Ties (``"average"``): the probability of a hit, ``1 - C(n-r, m) / C(n, m)`` for
    a tie group of ``n`` items (``r`` relevant) cut after ``m`` of its ranks. A query without a relevant item
    follows ``empty``.

    Args:
        {preds_retrieval}
        {target_retrieval}
        {indexes}
        {mask}
        {k_retrieval}
        {ties}
        {empty}
        {ignore_index_retrieval}
        {reduction}
        {validate_args_retrieval}

    {sections_retrieval}

    References:
        trec_eval's ``success`` measure; McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> import torch
        >>> round(retrieval_hit_rate(torch.tensor([0.5, 0.5, 0.5, 0.1]), torch.tensor([1, 0, 0, 0]), k=1).item(), 4)
        0.3333
    """
    return _evaluate(HIT_RATE, preds, target, indexes, mask, k=k, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


@fill_doc
def retrieval_r_precision(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                          mask: Optional[Tensor] = None, ties: str = "average", empty: str = "zero",
                          ignore_index: Optional[int] = None, reduction: str = "mean",
                          validate_args: bool = True) -> Tensor:
    """R-precision: precision at ``R``, the query's number of relevant items.

    trec_eval's ``Rprec`` (it has no ``k``). Ties as :func:`retrieval_precision`. A query with ``R = 0``
    follows ``empty``.

    Args:
        {preds_retrieval}
        {target_retrieval}
        {indexes}
        {mask}
        {ties}
        {empty}
        {ignore_index_retrieval}
        {reduction}
        {validate_args_retrieval}

    {sections_retrieval}

    References:
        Buckley and Voorhees, "Evaluating evaluation measure stability", SIGIR 2000 (trec_eval's ``Rprec``);
        McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> import torch
        >>> retrieval_r_precision(torch.tensor([0.2, 0.9, 0.4, 0.1]), torch.tensor([1, 0, 1, 0])).item()
        0.5
    """
    return _evaluate(R_PRECISION, preds, target, indexes, mask, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


@fill_doc
def retrieval_dcg(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                  mask: Optional[Tensor] = None, weight: Optional[Tensor] = None, k: Optional[int] = None,
                  gain: str = "linear", ties: str = "average", empty: str = "zero", ignore_index: Optional[int] = None,
                  reduction: str = "mean", validate_args: bool = True) -> Tensor:
    """Discounted cumulative gain at ``k``, without normalisation (torchmetrics has no such metric).

    ``DCG@k = sum_{rank p <= k} gain(rel_p) / log2(p + 1)`` with ``gain="linear"`` (``rel``) or
    ``"exponential"`` (``2^rel - 1``); scikit-learn's ``dcg_score``. Ties (``"average"``): each item of a tie
    group gets the group's mean gain. A query without a relevant item (DCG 0) follows ``empty``.

    {weight_rule}

    Args:
        {preds_retrieval}
        {target_retrieval}
        {indexes}
        {mask}
        {weight_query}
        {k_retrieval}
        {gain}
        {ties}
        {empty}
        {ignore_index_retrieval}
        {reduction}
        {validate_args_retrieval}

    {sections_retrieval_weighted}

    References:
        Järvelin and Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 2002.

    Examples:
        >>> import torch
        >>> round(retrieval_dcg(torch.tensor([0.9, 0.5, 0.7]), torch.tensor([3, 1, 0])).item(), 4)  # 3 + 1/2
        3.5
        >>> # per-query weights, as sklearn.metrics.dcg_score(y_true, y_score, sample_weight=w)
        >>> rows, grades = torch.tensor([[0.9, 0.5, 0.7], [0.1, 0.2, 0.3]]), torch.tensor([[3, 1, 0], [0, 0, 2]])
        >>> retrieval_dcg(rows, grades, weight=torch.tensor([1, 3]))  # (1 * 3.5 + 3 * 2) / 4
        tensor(2.3750, dtype=torch.float64)
        >>> retrieval_dcg(rows, grades, weight=torch.tensor([0.0, 0.0]))  # no weight at all: nan
        tensor(nan, dtype=torch.float64)
    """
    return _evaluate(DCG, preds, target, indexes, mask, k=k, gain=gain, ties=ties, empty=empty,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args, weight=weight)


@fill_doc
def retrieval_fall_out(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                       mask: Optional[Tensor] = None, k: Optional[int] = None, ties: str = "average",
                       empty: str = "one", ignore_index: Optional[int] = None, reduction: str = "mean",
                       validate_args: bool = True) -> Tensor:
    """Fall-out at ``k``: non-relevant items in the top ``k`` over all the query's non-relevant items.

    ``FO@k = (min(k, n) - hits@k) / (n - R)`` (lower is better). Ties (``"average"``): the expected count, as
    :func:`retrieval_precision`. Here a query is *empty* when it has NO NON-RELEVANT item, and the default
    ``empty="one"`` counts it as 1, as torchmetrics' ``RetrievalFallOut`` (``empty_target_action="pos"``);
    ``"zero"`` counts it as 0.

    Args:
        {preds_retrieval}
        {target_retrieval}
        {indexes}
        {mask}
        {k_retrieval}
        {ties}
        {empty}
        {ignore_index_retrieval}
        {reduction}
        {validate_args_retrieval}

    {sections_retrieval}

    References:
        Salton and McGill, "Introduction to Modern Information Retrieval", 1983 (fallout); torchmetrics'
        ``RetrievalFallOut``.

    Examples:
        >>> import torch
        >>> retrieval_fall_out(torch.tensor([0.9, 0.8, 0.7, 0.6]), torch.tensor([1, 0, 1, 0]), k=2).item()
        0.5
    """
    return _evaluate(FALL_OUT, preds, target, indexes, mask, k=k, ties=ties, empty=empty, need=NON_RELEVANT,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


@fill_doc
def retrieval_auroc(preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None, *,
                    mask: Optional[Tensor] = None, k: Optional[int] = None, max_fpr: Optional[float] = None,
                    ties: str = "average", empty: str = "zero", ignore_index: Optional[int] = None,
                    reduction: str = "mean", validate_args: bool = True) -> Tensor:
    """Area under the ROC curve of each query's top ``k`` items, averaged over queries.

    ``AUROC = #{(i, j): i relevant, j not, i ranked above j} / (P N)`` over the top ``k`` items (``P`` relevant
    and ``N`` non-relevant among them; ``k=None``: all), as torchmetrics' ``RetrievalAUROC(top_k=k)``. With
    ``max_fpr = t``: the area ``A`` under the ROC curve (a tie group is one straight segment) over
    ``[0, t]``, standardized as ``(1 + (A - t^2/2) / (t - t^2/2)) / 2`` (McClish 1989), 1 for a perfect and
    1/2 for a random ranking, exactly scikit-learn's ``roc_auc_score(max_fpr=t)`` on the top ``k`` items.

    Ties (``"average"``): inside the top ``k`` a tied (relevant, non-relevant) pair counts 1/2 (mid-ranks, the
    ROC segment through the tie, as scikit-learn); when scores tie across the cut-off, the value is the
    expectation over which of the tied items a uniformly random order puts in the top ``k`` (torchmetrics takes
    whichever ``torch.topk`` returns). ``"order"``: input order breaks every tie. Empty rules: a query without a
    relevant or without a non-relevant item follows ``empty`` (torchmetrics gives such a query 0, as the
    default ``"zero"``); a query that has both but whose top ``k`` lacks one gives 0, as torchmetrics.

    Args:
        {preds_retrieval}
        {target_retrieval}
        {indexes}
        {mask}
        {k_retrieval}
        {max_fpr_retrieval}
        {ties}
        {empty}
        {ignore_index_retrieval}
        {reduction}
        {validate_args_retrieval}

    {sections_retrieval}

    References:
        Hanley and McNeil, "The meaning and use of the area under a ROC curve", Radiology 1982; McClish,
        "Analyzing a portion of the ROC curve", Medical Decision Making 1989; torchmetrics' ``RetrievalAUROC``.

    Examples:
        >>> import torch
        >>> retrieval_auroc(torch.tensor([0.9, 0.5, 0.5, 0.1]), torch.tensor([1, 1, 0, 0])).item()  # (2 + 1.5) / 4
        0.875
        >>> scores, hits = torch.tensor([0.9, 0.8, 0.7, 0.6, 0.5]), torch.tensor([1, 0, 1, 0, 1])
        >>> round(retrieval_auroc(scores, hits, k=3).item(), 4)  # top 3: R, N, R -> 1 of 2 pairs in order
        0.5
        >>> # ROC area 1/6 over [0, 1/2], standardized: (1 + (1/6 - 1/8) / (1/2 - 1/8)) / 2 = 5/9
        >>> round(retrieval_auroc(scores, hits, max_fpr=0.5).item(), 4)
        0.5556
    """
    return _evaluate(AUROC, preds, target, indexes, mask, k=k, max_fpr=max_fpr, ties=ties, empty=empty, need=BOTH,
                     ignore_index=ignore_index, reduction=reduction, validate_args=validate_args)


_compat.advise_exports(globals())  # torchmetrics' arguments get the classes' advice (see _compat.advise)
