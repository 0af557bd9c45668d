"""The relative squared error and normalised RMSE modules (documented in
:mod:`torchmetrics_lite.functional.regression.normalized`): the R² moment fold state, plus the target's
per-column min and max for the NRMSE's range."""
from __future__ import annotations

from typing import Any, Dict

import torch

from torchmetrics_lite._checks import check_bool, check_choice, check_positive_int
from torchmetrics_lite.functional.regression._kernels import fold_pair
from torchmetrics_lite.functional.regression.measures import fold_moments
from torchmetrics_lite.functional.regression.normalized import (
    NORMALIZATIONS,
    _nrmse_from_stats,
    _nrmse_stats,
    _rse_from_stats,
    _rse_stats,
)
from torchmetrics_lite.metric import Fold, Metric

__all__ = ["RelativeSquaredError", "NormalizedRootMeanSquaredError"]


def _moment_state(metric: Any, num_outputs: int) -> None:
    check_positive_int("num_outputs", num_outputs)
    metric.num_outputs = num_outputs
    metric.add_state("moments", torch.zeros(4, 2 * num_outputs, dtype=torch.float64),
                     reduce=Fold(fold_moments, fold_pair))


class RelativeSquaredError(Metric):
    """Relative squared error ``sum (y - ŷ)² / sum (y - ȳ)²`` per output (``1 - R²``), its root with
    ``squared=False``, averaged over outputs; streamed through R²'s moments (Chan's merge). See
    :func:`~torchmetrics_lite.functional.relative_squared_error`.

    ``update(preds, target)``: ``(N,)`` or ``(N, num_outputs)`` real tensors.

    Args:
        num_outputs: the number of output columns ``d``.
        squared: ``False`` gives the root relative squared error.
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor; ``nan`` before any sample.

    Raises:
        TypeError, ValueError: bad options; bad batches, as the function.

    References:
        scikit-learn ``r2_score``; torchmetrics ``RelativeSquaredError``.

    Examples:
        >>> m = RelativeSquaredError()
        >>> m.update(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0]))
        >>> m.update(torch.tensor([4.0]), torch.tensor([3.0]))
        >>> m.compute().item()
        0.5
    """

    stats_fn = staticmethod(_rse_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"num_outputs": self.num_outputs, "validate_args": self.validate_args}

    value_fn = staticmethod(_rse_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"squared": self.squared}

    higher_is_better = False

    def __init__(self, num_outputs: int = 1, squared: bool = True, **kwargs: Any) -> None:
        check_bool("squared", squared)
        super().__init__(**kwargs)
        _moment_state(self, num_outputs)
        self.squared = squared
        self.stats_key = ("regression_moments", num_outputs)


class NormalizedRootMeanSquaredError(Metric):
    """Normalised RMSE ``sqrt(mean (y - ŷ)²) / s`` per output, ``s`` the target column's mean, range, standard
    deviation or Euclidean norm, streamed (R²'s moments, the target's min and max). See
    :func:`~torchmetrics_lite.functional.normalized_root_mean_squared_error`.

    ``update(preds, target)``: ``(N,)`` or ``(N, num_outputs)`` real tensors.

    Args:
        normalization: ``"mean"`` (default), ``"range"``, ``"std"`` or ``"l2"``.
        num_outputs: the number of output columns ``d``.
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor for one output, else ``(d,)``; ``nan`` before any sample.

    Raises:
        ValueError: a bad option; bad batches, as the function.

    References:
        torchmetrics ``NormalizedRootMeanSquaredError``.

    Examples:
        >>> m = NormalizedRootMeanSquaredError(normalization="range")
        >>> m.update(torch.tensor([1.0]), torch.tensor([1.0]))
        >>> m.update(torch.tensor([1.0]), torch.tensor([3.0]))
        >>> round(m.compute().item(), 12)
        0.707106781187
    """

    stats_fn = staticmethod(_nrmse_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"num_outputs": self.num_outputs, "validate_args": self.validate_args}

    value_fn = staticmethod(_nrmse_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"normalization": self.normalization}

    higher_is_better = False

    def __init__(self, normalization: str = "mean", num_outputs: int = 1, **kwargs: Any) -> None:
        check_choice("normalization", normalization, NORMALIZATIONS)
        super().__init__(**kwargs)
        _moment_state(self, num_outputs)
        self.normalization = normalization
        self.add_state("target_min", torch.full((num_outputs,), float("inf"), dtype=torch.float64), reduce="min")
        self.add_state("target_max", torch.full((num_outputs,), float("-inf"), dtype=torch.float64), reduce="max")
