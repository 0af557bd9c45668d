"""Stateful regression metrics: thin modules over :mod:`torchmetrics_lite.functional.regression`.

``update(preds, target)`` takes ``(N,)`` tensors (``num_outputs=1``) or ``(N, num_outputs)`` tensors.

States (all float64, on the inputs' device):

* MSE / RMSE / MAE / MAPE: per-output error sums (``sum`` states) and an int64 sample count. Memory O(d).
* R² / explained variance: one *fold* state ``moments`` ``(3, 2d)`` holding ``[n, mean, M2]`` of the target
  and residual columns, merged with Chan's parallel formula
  (:func:`~torchmetrics_lite.functional.regression.fold_moments`)
  when batches are merged, when metrics are merged (``merge_state``) and across ranks (one all-gather of every
  rank's moments, then one fold). Memory O(d), whatever the number of batches or samples, and no raw sum of
  squares anywhere, so a float32 stream of large-offset targets keeps every digit.

``MeanSquaredError``/``RootMeanSquaredError`` (the same statistics) and ``R2Score``/``ExplainedVariance``
(the same moments) declare equal ``stats_key``\\ s, so a ``MetricCollection`` computes each batch's
statistics once for both.

Unlike torchmetrics (which returns per-output values when ``num_outputs > 1``), ``multioutput`` defaults to
``"uniform_average"`` as in scikit-learn; pass ``multioutput="raw_values"`` for the ``(d,)`` values.
"""
from __future__ import annotations

from typing import Any, Dict

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_adjusted, check_multioutput, check_positive_int
from torchmetrics_lite.functional.regression._kernels import fold_pair
from torchmetrics_lite.functional.regression.measures import (
    _error_stats,
    _explained_variance_from_stats,
    _mean_error_from_stats,
    _moment_stats_checked,
    _r2_score_from_stats,
    fold_moments,
)
from torchmetrics_lite.metric import Fold, Metric

__all__ = [
    "MeanSquaredError", "RootMeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
    "R2Score", "ExplainedVariance",
]


def _init_outputs(metric: Metric, num_outputs: int, multioutput: str, *, weighted: bool) -> None:
    check_positive_int("num_outputs", num_outputs)
    check_multioutput(multioutput, weighted=weighted)
    metric.num_outputs = num_outputs
    metric.multioutput = multioutput


class _ErrorSumMetric(Metric):
    """Per-output float64 error sum plus an int64 count; ``_kind`` picks the error term, ``_root`` the RMSE."""

    _kind = "squared"
    _root = False

    def __init__(self, *, num_outputs: int = 1, multioutput: str = "uniform_average", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _init_outputs(self, num_outputs, multioutput, weighted=False)
        self.add_state("sum_error", torch.zeros(num_outputs, dtype=torch.float64), reduce="sum")
        self.add_state("total", torch.zeros((), dtype=torch.int64), reduce="sum")
        self.stats_key = (f"regression_{self._kind}_error", num_outputs)

    def batch_stats(self, preds: Tensor, target: Tensor) -> Dict[str, Tensor]:
        return _error_stats(preds, target, self._kind, self.num_outputs, self.validate_args)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _mean_error_from_stats(state, self.multioutput, root=self._root)

    def _config(self) -> Dict[str, Any]:
        return {"num_outputs": self.num_outputs, "multioutput": self.multioutput}


class MeanSquaredError(_ErrorSumMetric):
    """Mean squared error ``(1/N) sum (preds - target)²`` (see
    :func:`~torchmetrics_lite.functional.mean_squared_error`); ``squared=False`` gives the RMSE (torchmetrics'
    switch, same as :class:`RootMeanSquaredError`). ``nan`` before any sample.

    >>> m = MeanSquaredError()
    >>> m.update(torch.tensor([2.5, 0.0]), torch.tensor([3.0, -0.5]))
    >>> m.update(torch.tensor([2.0, 8.0]), torch.tensor([2.0, 7.0]))
    >>> m.compute().item()
    0.375
    """

    def __init__(self, *, squared: bool = True, **kwargs: Any) -> None:
        if not isinstance(squared, bool):
            raise TypeError(f"Expected `squared` to be a bool, got {type(squared).__name__}")
        super().__init__(**kwargs)
        self._root = not squared

    def _config(self) -> Dict[str, Any]:
        return {"squared": not self._root, **super()._config()}


class RootMeanSquaredError(_ErrorSumMetric):
    """Root mean squared error per output, averaged over outputs after the root (scikit-learn's
    ``root_mean_squared_error``). ``nan`` before any sample.

    >>> m = RootMeanSquaredError()
    >>> m.update(torch.tensor([0.0, 0.0]), torch.tensor([3.0, 4.0]))
    >>> round(m.compute().item(), 4)
    3.5355
    """

    _root = True


class MeanAbsoluteError(_ErrorSumMetric):
    """Mean absolute error ``(1/N) sum |preds - target|``. ``nan`` before any sample.

    >>> m = MeanAbsoluteError()
    >>> m.update(torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0]))
    >>> m.compute().item()
    0.5
    """

    _kind = "absolute"


class MeanAbsolutePercentageError(_ErrorSumMetric):
    """Mean absolute percentage error ``(1/N) sum |preds - target| / max(|target|, eps)`` with scikit-learn's
    ``eps = finfo(float64).eps`` (see :func:`~torchmetrics_lite.functional.mean_absolute_percentage_error`).
    A fraction, not a percent. ``nan`` before any sample.

    >>> m = MeanAbsolutePercentageError()
    >>> m.update(torch.tensor([0.5, 3.0], dtype=torch.float64), torch.tensor([1.0, 2.0], dtype=torch.float64))
    >>> m.compute().item()
    0.5
    """

    _kind = "percentage"


class _MomentMetric(Metric):
    """The ``moments`` fold state ``(3, 2 * num_outputs)``: ``[n, mean, M2]`` of target and residual columns."""

    def __init__(self, *, num_outputs: int = 1, multioutput: str = "uniform_average", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _init_outputs(self, num_outputs, multioutput, weighted=True)
        self.add_state("moments", torch.zeros(3, 2 * num_outputs, dtype=torch.float64),
                       reduce=Fold(fold_moments, fold_pair))
        self.stats_key = ("regression_moments", num_outputs)

    def batch_stats(self, preds: Tensor, target: Tensor) -> Dict[str, Tensor]:
        return _moment_stats_checked(preds, target, self.num_outputs, self.validate_args)

    def _config(self) -> Dict[str, Any]:
        return {"num_outputs": self.num_outputs, "multioutput": self.multioutput}


class R2Score(_MomentMetric):
    """Coefficient of determination ``1 - SS_res / SS_tot``, optionally adjusted for ``adjusted = p``
    regressors: ``1 - (1 - R²)(n - 1)/(n - p - 1)`` (``compute`` raises ``ValueError`` when
    ``n - p - 1 <= 0``). Fewer than two samples give ``nan``. See
    :func:`~torchmetrics_lite.functional.r2_score` for the constant-target and multioutput rules.

    >>> m = R2Score()
    >>> m.update(torch.tensor([2.5, 0.0]), torch.tensor([3.0, -0.5]))
    >>> m.update(torch.tensor([2.0, 8.0]), torch.tensor([2.0, 7.0]))
    >>> round(m.compute().item(), 4)
    0.9486
    """

    def __init__(self, *, adjusted: int = 0, **kwargs: Any) -> None:
        check_adjusted(adjusted)
        super().__init__(**kwargs)
        self.adjusted = adjusted

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _r2_score_from_stats(state, self.multioutput, self.adjusted)

    def _config(self) -> Dict[str, Any]:
        return {"adjusted": self.adjusted, **super()._config()}


class ExplainedVariance(_MomentMetric):
    """Explained variance ``1 - Var(target - preds) / Var(target)`` per output (population variances).
    ``nan`` before any sample. See :func:`~torchmetrics_lite.functional.explained_variance`.

    >>> m = ExplainedVariance()
    >>> m.update(torch.tensor([2.5, 0.0]), torch.tensor([3.0, -0.5]))
    >>> m.update(torch.tensor([2.0, 8.0]), torch.tensor([2.0, 7.0]))
    >>> round(m.compute().item(), 4)
    0.9572
    """

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _explained_variance_from_stats(state, self.multioutput)
