"""The regression modules (documented in :mod:`torchmetrics_lite.regression`)."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch

from torchmetrics_lite._checks import (
    check_adjusted,
    check_bool,
    check_multioutput,
    check_positive_int,
    error_multioutput,
)
from torchmetrics_lite.functional.regression._doc_args import fill_doc
from torchmetrics_lite.functional.regression._kernels import fold_pair
from torchmetrics_lite.functional.regression.measures import (
    _error_stats,
    _explained_variance_from_stats,
    _mean_error_from_stats,
    _moment_stats,
    _r2_score_from_stats,
    fold_moments,
)
from torchmetrics_lite.metric import Fold, Metric

__all__ = [
    "MeanSquaredError", "RootMeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
    "R2Score", "ExplainedVariance",
]


def _init_outputs(metric: Any, num_outputs: int, multioutput: str, *, weighted: bool) -> None:
    check_positive_int("num_outputs", num_outputs)
    check_multioutput(multioutput, weighted=weighted)
    metric.num_outputs = num_outputs
    metric.multioutput = multioutput


class _ErrorSumMetric(Metric):
    """Per-output float64 error sum plus an int64 count (and a float64 weight sum for weighted batches);
    ``kind`` (an option of the statistics) picks the error term, ``root`` (one of the value) the RMSE."""

    stats_fn = staticmethod(_error_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"kind": self.kind, "num_outputs": self.num_outputs, "validate_args": self.validate_args}

    value_fn = staticmethod(_mean_error_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"multioutput": self.multioutput, "root": self.root}

    kind = "squared"
    root = False
    higher_is_better = False
    is_differentiable = False

    def __init__(self, *, num_outputs: int = 1, multioutput: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_outputs", num_outputs)
        _init_outputs(self, num_outputs, error_multioutput(type(self).__name__, num_outputs, multioutput),
                      weighted=False)
        self.add_state("sum_error", torch.zeros(num_outputs, dtype=torch.float64), reduce="sum")
        self.add_state("total", torch.zeros((), dtype=torch.int64), reduce="sum")
        self.add_state("sum_weight", torch.zeros((), dtype=torch.float64), reduce="sum")
        self.stats_key = (f"regression_{self.kind}_error", num_outputs)


class MeanSquaredError(_ErrorSumMetric):
    """Mean squared error ``sum_i w_i (target_i - preds_i)² / sum_i w_i`` per output (``w_i = 1`` unless
    ``update`` gets ``weight``), streamed; see :func:`~torchmetrics_lite.functional.mean_squared_error`.

    ``update(preds, target, weight=None)``: ``preds`` and ``target`` ``(N,)`` or ``(N, num_outputs)``, any real
    dtype; ``weight`` an optional ``(N,)`` non-negative tensor (scikit-learn's ``sample_weight``; weighted and
    unweighted batches mix, an unweighted sample weighing 1).

    Args:
        squared: ``False`` gives the RMSE (torchmetrics' switch, same as :class:`RootMeanSquaredError`).
        num_outputs: number of output columns ``d``.
        multioutput: ``"uniform_average"`` (the mean over outputs, scikit-learn's) or ``"raw_values"`` (``(d,)``,
            torchmetrics'); required when ``num_outputs > 1`` (the two libraries differ there), else the mean.
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s ``validate_args``, ``process_group``,
            ``sync_on_compute``.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor (or ``(d,)``); ``nan`` before any sample or with zero weight.

    Raises:
        TypeError, ValueError: bad options here; bad batches in ``update`` as the functional form (the state
            is left unchanged).

    References:
        scikit-learn ``mean_squared_error``; torchmetrics ``MeanSquaredError``.

    Examples:
        >>> m = MeanSquaredError()
        >>> m.update(torch.tensor([2.5, 0.0]), torch.tensor([3.0, -0.5]))
        >>> m.update(torch.tensor([2.0, 8.0]), torch.tensor([2.0, 7.0]))
        >>> m.compute().item()
        0.375
        >>> m.update(torch.tensor([0.0]), torch.tensor([1.0]), weight=torch.tensor([4.0]))  # (1.5 + 4) / (4 + 4)
        >>> m.compute().item()
        0.6875
    """

    def __init__(self, *, squared: bool = True, **kwargs: Any) -> None:
        check_bool("squared", squared, show_value=False)
        super().__init__(**kwargs)
        self.root = not squared


@fill_doc
class RootMeanSquaredError(_ErrorSumMetric):
    """Root mean squared error ``sqrt(sum_i w_i (target_i - preds_i)² / sum_i w_i)`` per output, averaged over
    outputs after the root (scikit-learn's ``root_mean_squared_error``); see
    :func:`~torchmetrics_lite.functional.root_mean_squared_error`.

    ``update(preds, target, weight=None)`` as :class:`MeanSquaredError`.

    Args:
        num_outputs, multioutput, kwargs: as :class:`MeanSquaredError`.

    {sections_error_module}

    References:
        scikit-learn ``root_mean_squared_error``.

    Examples:
        >>> m = RootMeanSquaredError()
        >>> m.update(torch.tensor([0.0, 0.0]), torch.tensor([3.0, 4.0]))
        >>> round(m.compute().item(), 4)
        3.5355
    """

    root = True


@fill_doc
class MeanAbsoluteError(_ErrorSumMetric):
    """Mean absolute error ``sum_i w_i |target_i - preds_i| / sum_i w_i`` per output; see
    :func:`~torchmetrics_lite.functional.mean_absolute_error`.

    ``update(preds, target, weight=None)`` as :class:`MeanSquaredError`.

    Args:
        num_outputs, multioutput, kwargs: as :class:`MeanSquaredError`.

    {sections_error_module}

    References:
        scikit-learn ``mean_absolute_error``.

    Examples:
        >>> m = MeanAbsoluteError()
        >>> m.update(torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0]))
        >>> m.compute().item()
        0.5
    """

    kind = "absolute"


@fill_doc
class MeanAbsolutePercentageError(_ErrorSumMetric):
    """Mean absolute percentage error ``sum_i w_i |target_i - preds_i| / max(|target_i|, eps) / sum_i w_i``
    with scikit-learn's ``eps = finfo(float64).eps``; a fraction, not a percent; see
    :func:`~torchmetrics_lite.functional.mean_absolute_percentage_error`.

    ``update(preds, target, weight=None)`` as :class:`MeanSquaredError`.

    Args:
        num_outputs, multioutput, kwargs: as :class:`MeanSquaredError`.

    {sections_error_module}

    References:
        scikit-learn ``mean_absolute_percentage_error``.

    Examples:
        >>> m = MeanAbsolutePercentageError()
        >>> m.update(torch.tensor([0.5, 3.0], dtype=torch.float64), torch.tensor([1.0, 2.0], dtype=torch.float64))
        >>> m.compute().item()
        0.5
    """

    kind = "percentage"


class _MomentMetric(Metric):
    """The ``moments`` fold state ``(4, 2 * num_outputs)``: ``[count, W, mean, M2]`` of target and residual
    columns."""

    higher_is_better = True
    is_differentiable = False
    stats_fn = staticmethod(_moment_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"num_outputs": self.num_outputs, "validate_args": self.validate_args}

    def __init__(self, *, num_outputs: int = 1, multioutput: str = "uniform_average", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _init_outputs(self, num_outputs, multioutput, weighted=True)
        self.add_state("moments", torch.zeros(4, 2 * num_outputs, dtype=torch.float64),
                       reduce=Fold(fold_moments, fold_pair))
        self.stats_key = ("regression_moments", num_outputs)


class R2Score(_MomentMetric):
    """Coefficient of determination ``1 - sum_i w_i (y_i - ŷ_i)² / sum_i w_i (y_i - ȳ)²`` per output, optionally
    adjusted for ``adjusted = p`` regressors: ``1 - (1 - R²)(n - 1)/(n - p - 1)`` with ``n`` the sample count.
    See :func:`~torchmetrics_lite.functional.r2_score` for the constant-target and multioutput rules.

    ``update(preds, target, weight=None)`` as :class:`MeanSquaredError`; the moments merge with the weighted
    Chan formula, exact on long float32 streams of large-offset targets.

    Args:
        adjusted: number of regressors ``p`` (0: plain R²).
        num_outputs: number of output columns ``d``.
        multioutput: ``"uniform_average"`` (default), ``"raw_values"`` or ``"variance_weighted"``.
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor (or ``(d,)``); fewer than two samples give ``nan``,
        and so do weights that are all zero (scikit-learn raises); batches with all-zero weights among others
        change nothing.

    Raises:
        TypeError, ValueError: bad options or batches; ``compute`` raises ``ValueError`` when
            ``n - p - 1 <= 0`` (``nan`` instead with ``validate_args=False``).

    References:
        scikit-learn ``r2_score``; torchmetrics ``R2Score``; Chan, Golub & LeVeque (1983).

    Examples:
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

    value_fn = staticmethod(_r2_score_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"multioutput": self.multioutput, "adjusted": self.adjusted, "validate_args": self.validate_args}



class ExplainedVariance(_MomentMetric):
    """Explained variance ``1 - Var_w(target - preds) / Var_w(target)`` per output (weighted population
    variances); see :func:`~torchmetrics_lite.functional.explained_variance`.

    ``update(preds, target, weight=None)`` as :class:`R2Score`.

    Args:
        num_outputs, multioutput, kwargs: as :class:`R2Score`.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor (or ``(d,)``); ``nan`` before any sample.

    Raises:
        TypeError, ValueError: bad options or batches.

    References:
        scikit-learn ``explained_variance_score``; torchmetrics ``ExplainedVariance``.

    Examples:
        >>> m = ExplainedVariance()
        >>> m.update(torch.tensor([2.5, 0.0]), torch.tensor([3.0, -0.5]))
        >>> m.update(torch.tensor([2.0, 8.0]), torch.tensor([2.0, 7.0]))
        >>> round(m.compute().item(), 4)
        0.9572
    """

    value_fn = staticmethod(_explained_variance_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"multioutput": self.multioutput}

