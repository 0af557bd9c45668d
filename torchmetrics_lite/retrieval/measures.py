"""The retrieval modules (documented in :mod:`torchmetrics_lite.retrieval`)."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch  # noqa: F401 (the examples use it)

from torchmetrics_lite._checks import check_bool, check_choice, check_retrieval_options
from torchmetrics_lite.functional.retrieval._doc_args import fill_doc
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
)
from torchmetrics_lite.retrieval._base import _RetrievalMetric

__all__ = [
    "RetrievalNormalizedDCG",
    "RetrievalMAP",
    "RetrievalMRR",
    "RetrievalPrecision",
    "RetrievalRecall",
    "RetrievalHitRate",
    "RetrievalRPrecision",
    "RetrievalDCG",
    "RetrievalFallOut",
    "RetrievalAUROC",
]


@fill_doc
class RetrievalNormalizedDCG(_RetrievalMetric):
    """Mean NDCG@k over queries (:func:`~torchmetrics_lite.functional.retrieval_normalized_dcg`).

    {update_retrieval}

    Args:
        {k_retrieval}
        {gain}
        {ties}
        {empty_module}
        {ignore_index_retrieval}
        {aggregation}
        {keep_per_query}
        {kwargs_retrieval}

    {sections_retrieval_module}

    References:
        Järvelin and Kekäläinen, TOIS 2002; McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> m = RetrievalNormalizedDCG(k=3)
        >>> m.update(torch.tensor([0.9, 0.2, 0.5]), torch.tensor([1, 2, 0]), torch.tensor([7, 7, 7]))
        >>> m.update(torch.tensor([0.1, 0.4]), torch.tensor([0, 0]), torch.tensor([8, 8]))  # no relevant item
        >>> round(m.compute().item(), 4)  # ((1 + 2/2) / (2 + 1/log2(3)) + 0) / 2: query 8 counts as 0
        0.3801
    """

    measure = staticmethod(NDCG)

    def __init__(self, *, k: Optional[int] = None, gain: str = "linear", ties: str = "average",
                 empty: str = "zero", ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        check_retrieval_options(gain=gain)
        self.gain = gain
        super().__init__(k=k, ties=ties, empty=empty, ignore_index=ignore_index, **kwargs)

    def measure_options(self) -> Dict[str, Any]:
        return {"k": self.k, "gain": self.gain}


@fill_doc
class RetrievalMAP(_RetrievalMetric):
    """Mean average precision at ``k`` (:func:`~torchmetrics_lite.functional.retrieval_average_precision`).

    {update_retrieval}

    Args:
        {k_retrieval}
        {normalize_ap}
        {ties}
        {empty_module}
        {ignore_index_retrieval}
        {aggregation}
        {keep_per_query}
        {kwargs_retrieval}

    {sections_retrieval_module}

    References:
        trec_eval's ``map`` / ``map_cut_k``; McSherry and Najork, ECIR 2008 (ties).

    ``normalize="retrieved"`` divides each query's AP@k by its relevant items in the top ``k`` (torchmetrics'
    ``RetrievalMAP(top_k=k)``; a query with none there scores 0) instead of all its relevant items
    (``"relevant"``, the default: trec_eval's ``map_cut``).

    Examples:
        >>> m = RetrievalMAP()
        >>> m.update(torch.tensor([[0.9, 0.8, 0.7, 0.6]]), torch.tensor([[1, 0, 1, 0]]))  # dense: one query
        >>> f"{m.compute().item():.4f}"
        '0.8333'
        >>> m = RetrievalMAP(k=2, normalize="retrieved")  # torchmetrics' RetrievalMAP(top_k=2)
        >>> m.update(torch.tensor([[0.4, 0.3, 0.2, 0.1]]), torch.tensor([[0, 1, 0, 1]]))
        >>> m.compute().item()  # P@2 over the 1 relevant item in the top 2 (0.25 with the default)
        0.5
    """

    measure = staticmethod(AVERAGE_PRECISION)
    def measure_options(self) -> Dict[str, Any]:
        return {"k": self.k, "normalize": self.normalize}
    _torchmetrics_hints = {"top_k": "torchmetrics' AP@k divides by the relevant items in the top k, trec_eval's "
                           "(our default) by all the query's relevant items: for torchmetrics' number write "
                           "`RetrievalMAP(k={value!r}, normalize=\"retrieved\")`"}

    def __init__(self, *, k: Optional[int] = None, normalize: str = "relevant", ties: str = "average",
                 empty: str = "zero", ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        check_choice("normalize", normalize, ("relevant", "retrieved"))
        self.normalize = normalize
        _RetrievalMetric.__init__(self, k=k, ties=ties, empty=empty, ignore_index=ignore_index, **kwargs)


@fill_doc
class RetrievalMRR(_RetrievalMetric):
    """Mean reciprocal rank at ``k`` (:func:`~torchmetrics_lite.functional.retrieval_reciprocal_rank`).

    {update_retrieval}

    Args:
        {k_retrieval}
        {ties}
        {empty_module}
        {ignore_index_retrieval}
        {aggregation}
        {keep_per_query}
        {kwargs_retrieval}

    {sections_retrieval_module}

    References:
        trec_eval's ``recip_rank``; McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> m = RetrievalMRR()
        >>> m.update(torch.tensor([[0.2, 0.9, 0.4], [0.3, 0.1, 0.5]]), torch.tensor([[1, 0, 1], [0, 1, 0]]))
        >>> f"{m.compute().item():.4f}"  # (1/2 + 1/3) / 2
        '0.4167'
    """

    measure = staticmethod(RECIPROCAL_RANK)


@fill_doc
class RetrievalPrecision(_RetrievalMetric):
    """Mean precision at ``k`` (:func:`~torchmetrics_lite.functional.retrieval_precision`).

    {update_retrieval}

    Args:
        {k_retrieval}
        {adaptive_k}
        {ties}
        {empty_module}
        {ignore_index_retrieval}
        {aggregation}
        {keep_per_query}
        {kwargs_retrieval}

    {sections_retrieval_module}

    References:
        trec_eval's ``P_k``; McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> m = RetrievalPrecision(k=2)
        >>> m.update(torch.tensor([[0.2, 0.9, 0.4, 0.1]]), torch.tensor([[1, 0, 1, 0]]))
        >>> m.compute().item()
        0.5
        >>> m = RetrievalPrecision(k=4, adaptive_k=True)  # a query of 2 items is divided by 2, not 4
        >>> m.update(torch.tensor([0.2, 0.9]), torch.tensor([1, 0]), indexes=torch.tensor([0, 0]))
        >>> m.compute().item()
        0.5
    """

    measure = staticmethod(PRECISION)
    def measure_options(self) -> Dict[str, Any]:
        return {"k": self.k, "adaptive_k": self.adaptive_k}

    def __init__(self, *, k: Optional[int] = None, adaptive_k: bool = False, ties: str = "average",
                 empty: str = "zero", ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        check_bool("adaptive_k", adaptive_k)
        self.adaptive_k = adaptive_k
        _RetrievalMetric.__init__(self, k=k, ties=ties, empty=empty, ignore_index=ignore_index, **kwargs)


@fill_doc
class RetrievalRecall(_RetrievalMetric):
    """Mean recall at ``k`` (:func:`~torchmetrics_lite.functional.retrieval_recall`).

    {update_retrieval}

    Args:
        {k_retrieval}
        {ties}
        {empty_module}
        {ignore_index_retrieval}
        {aggregation}
        {keep_per_query}
        {kwargs_retrieval}

    {sections_retrieval_module}

    References:
        trec_eval's ``recall_k``; McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> m = RetrievalRecall(k=3)
        >>> m.update(torch.tensor([[0.2, 0.9, 0.4, 0.1]]), torch.tensor([[1, 0, 1, 0]]))
        >>> m.compute().item()
        1.0
    """

    measure = staticmethod(RECALL)


@fill_doc
class RetrievalHitRate(_RetrievalMetric):
    """Mean hit rate at ``k`` (:func:`~torchmetrics_lite.functional.retrieval_hit_rate`).

    {update_retrieval}

    Args:
        {k_retrieval}
        {ties}
        {empty_module}
        {ignore_index_retrieval}
        {aggregation}
        {keep_per_query}
        {kwargs_retrieval}

    {sections_retrieval_module}

    References:
        trec_eval's ``success_k``; McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> m = RetrievalHitRate(k=1)
        >>> m.update(torch.tensor([[0.2, 0.9, 0.4], [0.3, 0.1, 0.5]]), torch.tensor([[1, 0, 1], [0, 0, 1]]))
        >>> m.compute().item()
        0.5
    """

    measure = staticmethod(HIT_RATE)


@fill_doc
class RetrievalRPrecision(_RetrievalMetric):
    """Mean R-precision (:func:`~torchmetrics_lite.functional.retrieval_r_precision`); it has no ``k``.

    {update_retrieval}

    Args:
        {ties}
        {empty_module}
        {ignore_index_retrieval}
        {aggregation}
        {keep_per_query}
        {kwargs_retrieval}

    {sections_retrieval_module}

    References:
        trec_eval's ``Rprec``; McSherry and Najork, ECIR 2008 (ties).

    Examples:
        >>> m = RetrievalRPrecision()
        >>> m.update(torch.tensor([[0.2, 0.9, 0.4, 0.1]]), torch.tensor([[1, 0, 1, 0]]))
        >>> m.compute().item()
        0.5
    """

    measure = staticmethod(R_PRECISION)

    def __init__(self, *, ties: str = "average", empty: str = "zero", ignore_index: Optional[int] = None,
                 **kwargs: Any) -> None:
        super().__init__(ties=ties, empty=empty, ignore_index=ignore_index, **kwargs)

    def measure_options(self) -> Dict[str, Any]:
        return {}


@fill_doc
class RetrievalDCG(_RetrievalMetric):
    """Mean DCG@k over queries, without normalisation (:func:`~torchmetrics_lite.functional.retrieval_dcg`).

    {update_retrieval}

    Args:
        {k_retrieval}
        {gain}
        {ties}
        {empty_module}
        {ignore_index_retrieval}
        {aggregation}
        {keep_per_query}
        {kwargs_retrieval}

    {sections_retrieval_module}

    References:
        Järvelin and Kekäläinen, TOIS 2002; scikit-learn's ``dcg_score``.

    Examples:
        >>> m = RetrievalDCG()
        >>> m.update(torch.tensor([[0.9, 0.5, 0.7]]), torch.tensor([[3, 1, 0]]))
        >>> m.compute().item()  # 3 / log2(2) + 1 / log2(4)
        3.5
    """

    measure = staticmethod(DCG)
    def measure_options(self) -> Dict[str, Any]:
        return {"k": self.k, "gain": self.gain}

    def __init__(self, *, k: Optional[int] = None, gain: str = "linear", ties: str = "average",
                 empty: str = "zero", ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        check_retrieval_options(gain=gain)
        self.gain = gain
        super().__init__(k=k, ties=ties, empty=empty, ignore_index=ignore_index, **kwargs)


@fill_doc
class RetrievalFallOut(_RetrievalMetric):
    """Mean fall-out at ``k`` (:func:`~torchmetrics_lite.functional.retrieval_fall_out`); lower is better.

    {update_retrieval}

    Here a query is empty when it has no NON-RELEVANT item; the default ``empty="one"`` counts it as 1, as
    torchmetrics' ``RetrievalFallOut`` (``empty_target_action="pos"``).

    Args:
        {k_retrieval}
        {ties}
        {empty_module}
        {ignore_index_retrieval}
        {aggregation}
        {keep_per_query}
        {kwargs_retrieval}

    {sections_retrieval_module}

    References:
        torchmetrics' ``RetrievalFallOut``.

    Examples:
        >>> m = RetrievalFallOut(k=2)
        >>> m.update(torch.tensor([[0.9, 0.8, 0.7, 0.6]]), torch.tensor([[1, 0, 1, 0]]))
        >>> m.compute().item()
        0.5
    """

    measure = staticmethod(FALL_OUT)
    need = "a non-relevant item (target == 0)"
    higher_is_better = False

    def __init__(self, *, k: Optional[int] = None, ties: str = "average", empty: str = "one",
                 ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(k=k, ties=ties, empty=empty, ignore_index=ignore_index, **kwargs)


@fill_doc
class RetrievalAUROC(_RetrievalMetric):
    """Mean per-query AUROC of the top ``k`` items (:func:`~torchmetrics_lite.functional.retrieval_auroc`);
    ``max_fpr``: the McClish-standardized partial AUROC.

    {update_retrieval}

    A query without a relevant or without a non-relevant item is empty (``"zero"``: 0, as torchmetrics); one
    whose top ``k`` lacks either gives 0, as torchmetrics. Scores tied across the cut-off: the expectation over
    which of them a random order puts in the top ``k`` (``ties="average"``) or input order (``"order"``).

    Args:
        {k_retrieval}
        {max_fpr_retrieval}
        {ties}
        {empty_module}
        {ignore_index_retrieval}
        {aggregation}
        {keep_per_query}
        {kwargs_retrieval}

    {sections_retrieval_module}

    References:
        Hanley and McNeil, Radiology 1982; McClish, Medical Decision Making 1989 (``max_fpr``); torchmetrics'
        ``RetrievalAUROC``.

    Examples:
        >>> m = RetrievalAUROC()
        >>> m.update(torch.tensor([[0.9, 0.5, 0.5, 0.1]]), torch.tensor([[1, 1, 0, 0]]))
        >>> m.compute().item()
        0.875
        >>> m = RetrievalAUROC(k=3, max_fpr=0.5)  # torchmetrics' RetrievalAUROC(top_k=3, max_fpr=0.5)
        >>> m.update(torch.tensor([0.9, 0.8, 0.7, 0.6]), torch.tensor([1, 0, 1, 1]), torch.tensor([0, 0, 0, 0]))
        >>> round(m.compute().item(), 4)  # top 3: R, N, R; ROC area over [0, 1/2] is 1/4: (1 + 1/3) / 2
        0.6667
    """

    measure = staticmethod(AUROC)
    need = "a relevant (target > 0) and a non-relevant item"

    def __init__(self, *, k: Optional[int] = None, max_fpr: Optional[float] = None, ties: str = "average",
                 empty: str = "zero", ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        check_retrieval_options(max_fpr=max_fpr)
        self.max_fpr = max_fpr
        super().__init__(k=k, ties=ties, empty=empty, ignore_index=ignore_index, **kwargs)

    def measure_options(self) -> Dict[str, Any]:
        return {"k": self.k, "max_fpr": self.max_fpr}
