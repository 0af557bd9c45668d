"""The retrieval curve modules: precision-recall over the cut-offs, and the recall at a fixed precision
(documented in :mod:`torchmetrics_lite.retrieval`)."""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_retrieval_aggregation, check_retrieval_inputs, check_retrieval_options
from torchmetrics_lite._checks.retrieval import flat_retrieval_rows
from torchmetrics_lite._checks.retrieval_curves import check_curve_options, check_min_precision
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.retrieval._doc_args import fill_doc
from torchmetrics_lite.functional.retrieval.curves import Aggregation, _curve_from_values, _curves, _recall_at_precision
from torchmetrics_lite.metric import Metric

__all__ = ["RetrievalPrecisionRecallCurve", "RetrievalRecallAtFixedPrecision"]


def _check_options(max_k: Optional[int], adaptive_k: bool, ties: str, empty: str, ignore_index: Optional[int],
                   aggregation: Aggregation) -> None:
    check_curve_options(max_k, adaptive_k)
    check_retrieval_options(ties=ties, empty=empty, ignore_index=ignore_index)
    check_retrieval_aggregation(aggregation)


def _add_rows(metric: Metric) -> None:
    """Declare the kept rows (``cat`` states: scores, grades with NaN at dropped rows, query ids)."""
    metric.add_state("preds", torch.zeros(0, dtype=torch.float32), reduce="cat")
    metric.add_state("target", torch.zeros(0, dtype=torch.float64), reduce="cat")
    metric.add_state("indexes", torch.zeros(0, dtype=torch.int64), reduce="cat")


def _rows(metric: Any, preds: Tensor, target: Tensor, indexes: Optional[Tensor]) -> Dict[str, Tensor]:
    """Checked flat rows of one batch (``indexes`` required: a query may span batches and ranks)."""
    if indexes is None:
        raise ValueError(f"Expected `indexes` (the query id of each item) in {type(metric).__name__}.update, "
                         "got None: the curves group flat rows by query at compute")
    fast = None if metric.ignore_index is not None else \
        flat_retrieval_rows(preds, target, indexes, metric.validate_args)
    if fast is not None:  # the common batch, checked in one frame; bool/integer grades converted by the state copy
        return {"preds": fast[0], "target": fast[1], "indexes": fast[2].to(torch.int64)}
    preds, target, checked, _ = check_retrieval_inputs(preds, target, indexes, None, metric.validate_args)
    assert checked is not None
    keep = None if metric.ignore_index is None else target != metric.ignore_index
    if metric.validate_args:
        from torchmetrics_lite._checks import check_retrieval_values

        check_retrieval_values(preds, target, keep)
    target = target.to(float_dtype(target.device))
    if keep is not None:
        target = torch.where(keep, target, float("nan"))  # dropped at compute: no host sync here
    return {"preds": preds, "target": target, "indexes": checked.to(torch.int64)}


def _curve_of_state(metric: Any, state: Dict[str, Tensor]) -> Tuple[Tensor, Tensor, Tensor]:
    preds, target, indexes = state["preds"], state["target"], state["indexes"]
    if not target.is_floating_point():  # a batch's bool/integer grades (forward), as the state would hold them
        target = target.to(float_dtype(target.device))
    kept = ~torch.isnan(target)
    if not bool(kept.all()):
        preds, target, indexes = preds[kept], target[kept], indexes[kept]
    curves = _curves(preds, target, indexes, None, max_k=metric.max_k, ties=metric.ties, ignore_index=None,
                     validate_args=False)
    precision, recall = _curve_from_values(curves, metric.adaptive_k, metric.empty, metric.aggregation)
    return precision, recall, curves[3]


@fill_doc
class RetrievalPrecisionRecallCurve(Metric):
    """Precision and recall in the top ``k`` for ``k = 1 .. max_k``, per query, aggregated over queries; see
    :func:`~torchmetrics_lite.functional.retrieval_precision_recall_curve`.

    ``update(preds, target, indexes)``: flat 1-D scores, non-negative grades (relevant: ``target > 0``) and
    integer query ids; the rows are kept (``cat`` states) and grouped by query at ``compute``, vectorised across
    queries (one ranking, one difference table). A query may span batches and ranks.

    Args:
        {max_k}
        {adaptive_k_curve}
        {ties_curve}
        {empty_curve}
        {ignore_index_retrieval}
        aggregation: Per cut-off over the counted queries: ``"mean"`` (default), ``"median"`` (the lower one),
            ``"min"``, ``"max"``, or a callable ``aggregation(values, dim=0)`` on the ``(queries, K)`` values.
        {kwargs_curve}

    Returns:
        ``compute()``: ``(precision, recall, top_k)``, float64 ``(K,)`` curves and the int64 cut-offs
        ``1 .. K`` (``K = max_k``, or the longest query's length); ``nan`` curves when no query counts
        (torchmetrics: zeros).

    Raises:
        ValueError: A bad option (at construction); in ``update``, missing ``indexes`` and the errors of the
            retrieval functions; in ``compute``, ``empty="error"`` with a query without a relevant item.
        TypeError: A non-tensor input or non-integer ``indexes``.

    References:
        torchmetrics ``RetrievalPrecisionRecallCurve``.

    Examples:
        >>> m = RetrievalPrecisionRecallCurve(max_k=2)
        >>> m.update(torch.tensor([0.9, 0.1, 0.8]), torch.tensor([1, 0, 0]), indexes=torch.tensor([0, 0, 1]))
        >>> m.update(torch.tensor([0.2]), torch.tensor([1]), indexes=torch.tensor([1]))
        >>> m.compute()  # query 0: P = [1, 1/2], R = [1, 1]; query 1: P = [0, 1/2], R = [0, 1]
        (tensor([0.5000, 0.5000], dtype=torch.float64), tensor([0.5000, 1.0000], dtype=torch.float64), tensor([1, 2]))
    """

    higher_is_better = True
    is_differentiable = False

    def __init__(self, max_k: Optional[int] = None, adaptive_k: bool = False, *, ties: str = "average",
                 empty: str = "zero", ignore_index: Optional[int] = None, aggregation: Aggregation = "mean",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _check_options(max_k, adaptive_k, ties, empty, ignore_index, aggregation)
        self.max_k, self.adaptive_k, self.ties, self.empty = max_k, adaptive_k, ties, empty
        self.ignore_index, self.aggregation = ignore_index, aggregation
        _add_rows(self)

    def batch_stats(self, preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None) -> Dict[str, Tensor]:
        return _rows(self, preds, target, indexes)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tuple[Tensor, Tensor, Tensor]:
        return _curve_of_state(self, state)


@fill_doc
class RetrievalRecallAtFixedPrecision(Metric):
    """The largest mean recall over the cut-offs ``k <= max_k`` whose mean precision is at least
    ``min_precision``, and that ``k`` (the largest among equal recalls; ``(0.0, K)`` when none qualifies or the
    best recall is 0, torchmetrics' rule), from the curves of :class:`RetrievalPrecisionRecallCurve`.

    ``update(preds, target, indexes)`` as :class:`RetrievalPrecisionRecallCurve`.

    Args:
        min_precision: The precision floor, in ``[0, 1]``.
        {max_k}
        {adaptive_k_curve}
        {ties_curve}
        {empty_curve}
        {ignore_index_retrieval}
        {kwargs_curve}

    Returns:
        ``compute()``: ``(recall, k)``, a float64 0-d tensor and an int64 0-d tensor; ``(nan, K)`` when no query
        counts.

    Raises:
        ValueError: ``min_precision`` outside ``[0, 1]``; the errors of :class:`RetrievalPrecisionRecallCurve`.
        TypeError: As :class:`RetrievalPrecisionRecallCurve`.

    References:
        torchmetrics ``RetrievalRecallAtFixedPrecision``.

    Examples:
        >>> m = RetrievalRecallAtFixedPrecision(min_precision=0.7)
        >>> m.update(torch.tensor([0.9, 0.8, 0.7, 0.6, 0.5]), torch.tensor([1, 0, 1, 1, 0]),
        ...          indexes=torch.zeros(5, dtype=torch.long))
        >>> m.compute()
        (tensor(1., dtype=torch.float64), tensor(4))
    """

    higher_is_better = True
    is_differentiable = False

    def __init__(self, min_precision: float = 0.0, max_k: Optional[int] = None, adaptive_k: bool = False, *,
                 ties: str = "average", empty: str = "zero", ignore_index: Optional[int] = None,
                 **kwargs: Any) -> None:
        check_min_precision(min_precision)
        super().__init__(**kwargs)
        _check_options(max_k, adaptive_k, ties, empty, ignore_index, "mean")
        self.max_k, self.adaptive_k, self.ties, self.empty = max_k, adaptive_k, ties, empty
        self.ignore_index, self.aggregation = ignore_index, "mean"
        _add_rows(self)
        self.min_precision = min_precision

    def batch_stats(self, preds: Tensor, target: Tensor, indexes: Optional[Tensor] = None) -> Dict[str, Tensor]:
        return _rows(self, preds, target, indexes)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tuple[Tensor, Tensor]:
        precision, recall, _ = _curve_of_state(self, state)
        return _recall_at_precision(precision, recall, self.min_precision)
