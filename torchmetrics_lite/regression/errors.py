"""The pooled regression error modules (documented in :mod:`torchmetrics_lite.functional.regression.errors`):
float64 sums and int64 counts, so any batch split, ``merge_state`` and a sync give the one-shot value."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch

from torchmetrics_lite._checks import check_keep_sequence_dim, check_minkowski_p, check_tweedie_power
from torchmetrics_lite.functional.regression.errors import (
    _crps_stats,
    _csi_from_stats,
    _csi_stats,
    _log_cosh_from_stats,
    _log_cosh_stats,
    _mean_from_stats,
    _minkowski_from_stats,
    _minkowski_stats,
    _msle_stats,
    _smape_stats,
    _tweedie_stats,
    _wmape_from_stats,
    _wmape_stats,
)
from torchmetrics_lite.metric import Metric
from torchmetrics_lite.regression.measures import _init_outputs

__all__ = [
    "MeanSquaredLogError", "LogCoshError", "MinkowskiDistance", "TweedieDevianceScore",
    "WeightedMeanAbsolutePercentageError", "SymmetricMeanAbsolutePercentageError", "CriticalSuccessIndex",
    "ContinuousRankedProbabilityScore",
]


def _sum_states(metric: Metric, *, shape: tuple = (), count: bool = True) -> None:
    metric.add_state("sum_error", torch.zeros(shape, dtype=torch.float64), reduce="sum")
    if count:
        metric.add_state("total", torch.zeros((), dtype=torch.int64), reduce="sum")


class _MeanError(Metric):
    """A float64 term sum over an int64 element count; ``stats_fn`` names the term."""

    value_fn = staticmethod(_mean_from_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"validate_args": self.validate_args}

    higher_is_better = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _sum_states(self)


class MeanSquaredLogError(_MeanError):
    """Mean squared logarithmic error ``mean((log1p(preds) - log1p(target))²)`` over every element, streamed; see
    :func:`~torchmetrics_lite.functional.mean_squared_log_error`.

    ``update(preds, target)``: real tensors of one shape, every value > -1.

    Args:
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor; ``nan`` before any element.

    Raises:
        TypeError, ValueError: bad batches, as the function (the state left unchanged).

    References:
        scikit-learn ``mean_squared_log_error``; torchmetrics ``MeanSquaredLogError``.

    Examples:
        >>> m = MeanSquaredLogError()
        >>> m.update(torch.tensor([0.0]), torch.tensor([0.0]))
        >>> m.update(torch.tensor([3.0]), torch.tensor([1.0]))
        >>> round(m.compute().item(), 6)
        0.240227
    """

    stats_fn = staticmethod(_msle_stats)


class LogCoshError(Metric):
    """Log-cosh error ``mean_i log cosh(preds_i - target_i)`` per output column, streamed; see
    :func:`~torchmetrics_lite.functional.log_cosh_error`.

    ``update(preds, target)``: ``(N,)`` or ``(N, num_outputs)`` real tensors.

    Args:
        num_outputs: the number of output columns ``d``.
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor for one output, else ``(d,)``; ``nan`` before any sample.

    Raises:
        TypeError, ValueError: a bad ``num_outputs``; bad batches, as the function.

    References:
        torchmetrics ``LogCoshError``.

    Examples:
        >>> m = LogCoshError(num_outputs=2)
        >>> m.update(torch.tensor([[0.0, 1.0]]), torch.tensor([[0.0, 1.0]]))
        >>> m.compute()
        tensor([0., 0.], dtype=torch.float64)
    """

    stats_fn = staticmethod(_log_cosh_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"num_outputs": self.num_outputs, "validate_args": self.validate_args}

    value_fn = staticmethod(_log_cosh_from_stats)
    higher_is_better = False

    def __init__(self, num_outputs: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _init_outputs(self, num_outputs, "raw_values", weighted=False)
        _sum_states(self, shape=(num_outputs,))


class MinkowskiDistance(Metric):
    """Minkowski distance ``(sum |preds - targets|^p)^(1/p)`` over every element of every batch; see
    :func:`~torchmetrics_lite.functional.minkowski_distance`.

    ``update(preds, targets)``: real tensors of one shape.

    Args:
        p: the order, a number ``>= 1``.
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor; 0 before any element.

    Raises:
        ValueError: ``p < 1``; bad batches, as the function.

    References:
        scipy ``scipy.spatial.distance.minkowski``; torchmetrics ``MinkowskiDistance``.

    Examples:
        >>> m = MinkowskiDistance(3)
        >>> m.update(torch.tensor([0.0, 1.0]), torch.tensor([2.0, 1.0]))
        >>> m.compute().item()
        2.0
    """

    stats_fn = staticmethod(_minkowski_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"p": self.p, "validate_args": self.validate_args}

    value_fn = staticmethod(_minkowski_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"p": self.p}

    higher_is_better = False

    def __init__(self, p: float, **kwargs: Any) -> None:
        check_minkowski_p(p)
        super().__init__(**kwargs)
        self.p = p
        _sum_states(self, count=False)


class TweedieDevianceScore(_MeanError):
    """Mean Tweedie deviance of ``preds`` (predicted means) from ``targets``, streamed; see
    :func:`~torchmetrics_lite.functional.tweedie_deviance_score` for the terms and domains.

    ``update(preds, targets)``: real tensors of one shape.

    Args:
        power: the Tweedie power, outside ``(0, 1)`` (0: squared error, 1: Poisson, 2: Gamma).
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor; ``nan`` before any element.

    Raises:
        ValueError: ``0 < power < 1``; bad batches, as the function.

    References:
        scikit-learn ``mean_tweedie_deviance``; torchmetrics ``TweedieDevianceScore``.

    Examples:
        >>> m = TweedieDevianceScore(power=1)
        >>> m.update(torch.tensor([2.0]), torch.tensor([1.0]))
        >>> round(m.compute().item(), 6)
        0.613706
    """

    stats_fn = staticmethod(_tweedie_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"power": self.power, "validate_args": self.validate_args}

    def __init__(self, power: float = 0.0, **kwargs: Any) -> None:
        check_tweedie_power(power)
        super().__init__(**kwargs)
        self.power = power


class WeightedMeanAbsolutePercentageError(Metric):
    """Weighted MAPE ``sum |target - preds| / max(sum |target|, 1.17e-6)`` over every element, streamed; see
    :func:`~torchmetrics_lite.functional.weighted_mean_absolute_percentage_error`.

    ``update(preds, target)``: real tensors of one shape.

    Args:
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor; 0 before any element.

    Raises:
        TypeError, ValueError: bad batches, as the function.

    References:
        torchmetrics ``WeightedMeanAbsolutePercentageError``.

    Examples:
        >>> m = WeightedMeanAbsolutePercentageError()
        >>> m.update(torch.tensor([1.0, 3.0]), torch.tensor([2.0, 2.0]))
        >>> m.compute().item()
        0.5
    """

    stats_fn = staticmethod(_wmape_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"validate_args": self.validate_args}

    value_fn = staticmethod(_wmape_from_stats)
    higher_is_better = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _sum_states(self, count=False)
        self.add_state("sum_scale", torch.zeros((), dtype=torch.float64), reduce="sum")


class SymmetricMeanAbsolutePercentageError(_MeanError):
    """Symmetric MAPE ``mean(2 |target - preds| / max(|target| + |preds|, 1.17e-6))`` over every element, streamed;
    see :func:`~torchmetrics_lite.functional.symmetric_mean_absolute_percentage_error`.

    ``update(preds, target)``: real tensors of one shape.

    Args:
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor; ``nan`` before any element.

    Raises:
        TypeError, ValueError: bad batches, as the function.

    References:
        torchmetrics ``SymmetricMeanAbsolutePercentageError``.

    Examples:
        >>> m = SymmetricMeanAbsolutePercentageError()
        >>> m.update(torch.tensor([1.0, 3.0]), torch.tensor([3.0, 3.0]))
        >>> m.compute().item()
        0.5
    """

    stats_fn = staticmethod(_smape_stats)


class CriticalSuccessIndex(Metric):
    """Critical success index ``hits / (hits + misses + false alarms)`` of the events ``>= threshold``, streamed
    (int64 counts); see :func:`~torchmetrics_lite.functional.critical_success_index`.

    ``update(preds, target)``: real tensors of one shape. With ``keep_sequence_dim`` each index of that
    dimension is one sequence with its own score, and ``compute()`` returns the scores of every sequence seen,
    in order (``cat`` states).

    Args:
        threshold: the event threshold.
        keep_sequence_dim: ``None`` or the sequence dimension of every batch.
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor (or one score per sequence); 0 without any event.

    Raises:
        ValueError: a bad ``keep_sequence_dim``; bad batches, as the function.

    References:
        torchmetrics ``CriticalSuccessIndex``.

    Examples:
        >>> m = CriticalSuccessIndex(0.5)
        >>> m.update(torch.tensor([0.9, 0.8]), torch.tensor([1.0, 0.0]))
        >>> m.update(torch.tensor([0.1, 0.7]), torch.tensor([1.0, 1.0]))
        >>> m.compute().item()
        0.5
    """

    stats_fn = staticmethod(_csi_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"threshold": self.threshold, "keep_sequence_dim": self.keep_sequence_dim,
                "validate_args": self.validate_args}

    value_fn = staticmethod(_csi_from_stats)
    higher_is_better = True

    def __init__(self, threshold: float, keep_sequence_dim: Optional[int] = None, **kwargs: Any) -> None:
        check_keep_sequence_dim(keep_sequence_dim, 64)
        super().__init__(**kwargs)
        self.threshold = threshold
        self.keep_sequence_dim = keep_sequence_dim
        shape, reduce = ((), "sum") if keep_sequence_dim is None else ((0,), "cat")
        for name in ("hits", "misses", "false_alarms"):
            self.add_state(name, torch.zeros(shape, dtype=torch.int64), reduce=reduce)


class ContinuousRankedProbabilityScore(_MeanError):
    """Continuous ranked probability score of an ensemble forecast, streamed; see
    :func:`~torchmetrics_lite.functional.continuous_ranked_probability_score`.

    ``update(preds, target)``: ``preds`` ``(N, m)`` ensemble members (``m >= 2``), ``target`` ``(N,)``.

    Args:
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor; ``nan`` before any sample.

    Raises:
        TypeError, ValueError: bad batches, as the function.

    References:
        Gneiting & Raftery (2007); torchmetrics ``ContinuousRankedProbabilityScore``.

    Examples:
        >>> m = ContinuousRankedProbabilityScore()
        >>> m.update(torch.tensor([[0.0, 2.0]]), torch.tensor([1.0]))
        >>> m.compute().item()
        0.5
    """

    stats_fn = staticmethod(_crps_stats)
