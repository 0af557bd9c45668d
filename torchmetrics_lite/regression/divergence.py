"""The row-wise measure modules (documented in :mod:`torchmetrics_lite.functional.regression.divergence`):
``reduction="sum"``/``"mean"`` keep a float64 sum and an int64 row count; ``"none"``/``None`` keep the rows
(``cat``)."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch

from torchmetrics_lite._checks import check_bool, check_reduction
from torchmetrics_lite.functional.regression.divergence import (
    _cosine_from_stats,
    _cosine_settle,
    _cosine_stats,
    _js_stats,
    _kl_stats,
    _rows_from_stats,
)
from torchmetrics_lite.metric import Metric

__all__ = ["CosineSimilarity", "KLDivergence", "JensenShannonDivergence"]


class _RowMeasure(Metric):
    value_fn = staticmethod(_rows_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"reduction": self.reduction}

    def __init__(self, reduction: Optional[str], **kwargs: Any) -> None:
        check_reduction(reduction)
        super().__init__(**kwargs)
        self.reduction = reduction
        if reduction in ("none", None):
            self.add_state("measures", torch.zeros(0, dtype=torch.float64), reduce="cat")
        else:
            self.add_state("sum_measure", torch.zeros((), dtype=torch.float64), reduce="sum")
            self.add_state("total", torch.zeros((), dtype=torch.int64), reduce="sum")


class CosineSimilarity(_RowMeasure):
    """Cosine similarity of each row of ``preds`` and ``target`` ``(N, d)``, summed, averaged or kept; see
    :func:`~torchmetrics_lite.functional.cosine_similarity`.

    ``update(preds, target)``: real ``(N, d)`` tensors (``d`` may change between batches).

    ``update`` checks the batch (shapes, one NaN probe) and appends its rows, as torchmetrics keeps its inputs
    (float32, or float64 once a float64 or integer batch comes: every input kept exactly); the float64 row values
    are computed once :attr:`~torchmetrics_lite.metric.Metric.settle_numel` (``2**20``) row elements are pending,
    when a batch brings another row length ``d``, and before the state is read (``compute``, the sync,
    ``merge_state``, ``state_dict``), into a float64 sum and count (or, with ``reduction="none"``, the rows in
    order): one row kernel per settle instead of one per step, in bounded memory, with no host sync. Rows settle at
    the same values whenever they settle; the sum of the rows is rounded per settle (without a settle before
    ``compute``, the streamed value is the one-shot function's to the bit). A wrapper (``Running``,
    ``MinMaxMetric``, ``BootStrapper``...) settles every batch.

    Args:
        reduction: ``"sum"`` (torchmetrics' default), ``"mean"``, or ``"none"`` / ``None`` (every row, in order).
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor, or the ``(N,)`` rows.

    Raises:
        ValueError: a bad ``reduction``; bad batches, as the function.

    References:
        torchmetrics ``CosineSimilarity``.

    Examples:
        >>> m = CosineSimilarity(reduction="mean")
        >>> m.update(torch.tensor([[1.0, 0.0]]), torch.tensor([[0.0, 1.0]]))
        >>> m.update(torch.tensor([[1.0, 1.0]]), torch.tensor([[2.0, 2.0]]))
        >>> round(m.compute().item(), 6)
        0.5
    """

    stats_fn = staticmethod(_cosine_stats)
    value_fn = staticmethod(_cosine_from_stats)
    settle_fn = staticmethod(_cosine_settle)

    def stats_options(self) -> Dict[str, Any]:
        return {"validate_args": self.validate_args}

    higher_is_better = True

    def __init__(self, reduction: Optional[str] = "sum", **kwargs: Any) -> None:
        super().__init__(reduction, **kwargs)
        for name in ("preds", "target"):  # float32, promoted by float64 rows (integers come as float64: exact)
            self.add_state(name, torch.zeros((0, 0), dtype=torch.float32), reduce="cat", pending=True)


class KLDivergence(_RowMeasure):
    """Kullback-Leibler divergence ``KL(p_i || q_i)`` of each row, averaged, summed or kept; see
    :func:`~torchmetrics_lite.functional.kl_divergence`.

    ``update(p, q)``: real ``(N, d)`` tensors (non-negative weights, each row normalised, or log-probabilities).

    Args:
        log_prob: the inputs are log-probabilities.
        reduction: ``"mean"`` (torchmetrics' default), ``"sum"``, or ``"none"`` / ``None`` (every row).
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor, or the ``(N,)`` rows.

    Raises:
        TypeError, ValueError: bad options; bad batches, as the function.

    References:
        scipy ``scipy.stats.entropy``; torchmetrics ``KLDivergence``.

    Examples:
        >>> m = KLDivergence()
        >>> m.update(torch.tensor([[0.5, 0.5]]), torch.tensor([[0.25, 0.75]]))
        >>> round(m.compute().item(), 6)
        0.143841
    """

    stats_fn = staticmethod(_kl_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"log_prob": self.log_prob, "reduction": self.reduction, "validate_args": self.validate_args}

    higher_is_better = False

    def __init__(self, log_prob: bool = False, reduction: Optional[str] = "mean", **kwargs: Any) -> None:
        check_bool("log_prob", log_prob)
        super().__init__(reduction, **kwargs)
        self.log_prob = log_prob


class JensenShannonDivergence(_RowMeasure):
    """Jensen-Shannon divergence of each row (natural log), averaged, summed or kept; see
    :func:`~torchmetrics_lite.functional.jensen_shannon_divergence`.

    ``update(p, q)``: real ``(N, d)`` tensors, as :class:`KLDivergence`.

    Args:
        log_prob: the inputs are log-probabilities.
        reduction: ``"mean"`` (torchmetrics' default), ``"sum"``, or ``"none"`` / ``None`` (every row).
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor, or the ``(N,)`` rows.

    Raises:
        TypeError, ValueError: bad options; bad batches, as the function.

    References:
        scipy ``scipy.spatial.distance.jensenshannon`` (squared); torchmetrics ``JensenShannonDivergence``.

    Examples:
        >>> m = JensenShannonDivergence()
        >>> m.update(torch.tensor([[1.0, 0.0]]), torch.tensor([[0.0, 1.0]]))
        >>> round(m.compute().item(), 6)
        0.693147
    """

    stats_fn = staticmethod(_js_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"log_prob": self.log_prob, "reduction": self.reduction, "validate_args": self.validate_args}

    higher_is_better = False

    def __init__(self, log_prob: bool = False, reduction: Optional[str] = "mean", **kwargs: Any) -> None:
        check_bool("log_prob", log_prob)
        super().__init__(reduction, **kwargs)
        self.log_prob = log_prob
