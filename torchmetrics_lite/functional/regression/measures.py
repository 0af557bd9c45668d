"""The public regression functions (conventions in :mod:`torchmetrics_lite.functional.regression`)."""
from __future__ import annotations

from typing import Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_adjusted,
    check_multioutput,
    check_regression_inputs,
    check_regression_values,
)
from torchmetrics_lite.functional.regression import _kernels as _impl

__all__ = [
    "mean_squared_error", "root_mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error",
    "r2_score", "explained_variance", "fold_moments",
]

MAPE_EPS = _impl.MAPE_EPS  # scikit-learn's floor on ``|target|`` in MAPE: ``numpy.finfo(numpy.float64).eps``
State = Dict[str, Tensor]


# ------------------------------------------------------------------------------------------- error sums
def _error_sum_stats(preds: Tensor, target: Tensor, kind: str, backend: Optional[str] = None) -> State:
    """Per-output float64 sums ``(d,)`` of one error term over a ``(N,)`` or ``(N, d)`` batch of any real dtypes
    (:func:`~torchmetrics_lite.functional.regression._kernels.error_sums`), and the int64 count."""
    return {"sum_error": _impl.error_sums(preds, target, kind, backend),
            "total": torch.full((), target.shape[0], dtype=torch.int64, device=target.device)}


def _error_stats(preds: Tensor, target: Tensor, kind: str, num_outputs: Optional[int], validate_args: bool) -> State:
    """Checked error sums of one batch (the module's ``batch_stats``); the NaN check reads the sums (NaN in,
    NaN out)."""
    p, t = check_regression_inputs(preds, target, num_outputs=num_outputs)
    stats = _error_sum_stats(p, t, kind)
    if validate_args:
        check_regression_values(p, t, stats["sum_error"])
    return stats


def _average_outputs(per_output: Tensor, multioutput: str) -> Tensor:
    return per_output if multioutput == "raw_values" else per_output.mean()


def _mean_error_from_stats(state: State, multioutput: str, root: bool = False) -> Tensor:
    """``sum_error / total`` per output (``nan`` with no sample), square-rooted for RMSE, then averaged."""
    per_output = state["sum_error"] / state["total"]
    return _average_outputs(per_output.sqrt() if root else per_output, multioutput)


def mean_squared_error(preds: Tensor, target: Tensor, *, squared: bool = True,
                       multioutput: str = "uniform_average", validate_args: bool = True) -> Tensor:
    """Mean squared error ``(1/N) sum_i (preds_i - target_i)²`` per output, float64.

    Args:
        preds, target: real tensors of the same shape ``(N,)`` or ``(N, d)``.
        squared: ``False`` returns the root mean squared error (torchmetrics' switch; same as
            :func:`root_mean_squared_error`).
        multioutput: ``"raw_values"`` (``(d,)``) or ``"uniform_average"`` (scalar).
        validate_args: reject NaN (a host sync).

    Empty input gives ``nan``. Reference: scikit-learn ``mean_squared_error``.

    >>> mean_squared_error(torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0])).item()
    0.375
    """
    check_multioutput(multioutput, weighted=False)
    stats = _error_stats(preds, target, "squared", None, validate_args)
    return _mean_error_from_stats(stats, multioutput, root=not squared)


def root_mean_squared_error(preds: Tensor, target: Tensor, *, multioutput: str = "uniform_average",
                            validate_args: bool = True) -> Tensor:
    """Root mean squared error ``sqrt((1/N) sum_i (preds_i - target_i)²)`` per output; ``"uniform_average"``
    averages the per-output roots (scikit-learn's ``root_mean_squared_error``). Empty input gives ``nan``.

    >>> root_mean_squared_error(torch.tensor([[0.0, 1.0], [0.0, 1.0]]), torch.tensor([[3.0, 1.0], [4.0, 1.0]]),
    ...                         multioutput="raw_values")
    tensor([3.5355, 0.0000], dtype=torch.float64)
    """
    return mean_squared_error(preds, target, squared=False, multioutput=multioutput, validate_args=validate_args)


def mean_absolute_error(preds: Tensor, target: Tensor, *, multioutput: str = "uniform_average",
                        validate_args: bool = True) -> Tensor:
    """Mean absolute error ``(1/N) sum_i |preds_i - target_i|`` per output, float64; empty input gives ``nan``.

    >>> mean_absolute_error(torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0])).item()
    0.5
    """
    check_multioutput(multioutput, weighted=False)
    return _mean_error_from_stats(_error_stats(preds, target, "absolute", None, validate_args), multioutput)


def mean_absolute_percentage_error(preds: Tensor, target: Tensor, *, multioutput: str = "uniform_average",
                                   validate_args: bool = True) -> Tensor:
    """Mean absolute percentage error ``(1/N) sum_i |preds_i - target_i| / max(|target_i|, eps)`` per output.

    ``eps = numpy.finfo(numpy.float64).eps`` (scikit-learn's rule), so a zero target with a non-zero error gives
    a huge but finite term, and a zero target predicted exactly contributes 0. A fraction, not a percent
    (0.1 means 10 %). Empty input gives ``nan``.

    >>> round(mean_absolute_percentage_error(torch.tensor([0.9, 2.4]), torch.tensor([1.0, 2.0])).item(), 6)
    0.15
    """
    check_multioutput(multioutput, weighted=False)
    return _mean_error_from_stats(_error_stats(preds, target, "percentage", None, validate_args), multioutput)


# ---------------------------------------------------------------------------------------------- moments
def fold_moments(stack: Tensor) -> Tensor:
    """Merge a stack ``(k, 3, m)`` of ``[n, mean, M2]`` rows into one ``(3, m)`` (Chan et al.'s formula).

    ``n = sum n_i``, ``mean = r + sum n_i (mean_i - r) / n`` with ``r`` the first non-empty part's mean (so an
    empty part is an exact identity on either side), ``M2 = sum M2_i + sum n_i (mean_i - mean)²``. For k = 2
    this is the pairwise update of Chan, Golub & LeVeque; it is associative up to rounding. Counts travel as
    float64 (exact below 2**53 samples). This is the ``reduce`` of the R² / explained-variance fold state.

    >>> a, b = _impl.moment_rows(torch.tensor([[1.0, 2.0]], dtype=torch.float64)), _impl.moment_rows(
    ...     torch.tensor([[6.0]], dtype=torch.float64))
    >>> fold_moments(torch.stack([a, b])).flatten().tolist()  # n, mean, M2 of [1, 2, 6]
    [3.0, 3.0, 14.0]
    """
    n_i, mean_i, m2_i = stack.unbind(1)
    n = n_i.sum(0)
    first = (n_i > 0).to(torch.uint8).argmax(0, keepdim=True)  # first non-empty part of each column
    ref = mean_i.gather(0, first)[0]
    mean = ref + (n_i * (mean_i - ref)).sum(0) / n.clamp_min(1)
    m2 = m2_i.sum(0) + (n_i * (mean_i - mean).square()).sum(0)
    return torch.stack([n, mean, m2])



def _moment_stats(preds: Tensor, target: Tensor, backend: Optional[str] = None) -> State:
    """``moments`` ``(3, 2d)``: ``[n, mean, M2]`` of the target columns, then of the residual columns
    (:func:`~torchmetrics_lite.functional.regression._kernels.moments`)."""
    return {"moments": _impl.moments(preds, target, backend)}


def _moment_stats_checked(preds: Tensor, target: Tensor, num_outputs: Optional[int], validate_args: bool) -> State:
    """Checked moments of one batch (the module's ``batch_stats``); the NaN check reads the means (NaN in, NaN out)."""
    p, t = check_regression_inputs(preds, target, num_outputs=num_outputs)
    stats = _moment_stats(p, t)
    if validate_args:
        check_regression_values(p, t, stats["moments"])
    return stats


def _explained_fraction(num: Tensor, den: Tensor, multioutput: str) -> Tensor:
    """``1 - num/den`` per output with scikit-learn's finite rules, then the multioutput average."""
    scores = torch.where(num == 0, 1.0, torch.where(den == 0, 0.0, 1 - num / den))
    if multioutput == "raw_values":
        return scores
    if multioutput == "variance_weighted":
        total = den.sum()
        return torch.where(total > 0, (scores * den).sum() / total, scores.mean())
    return scores.mean()


def _r2_score_from_stats(state: State, multioutput: str, adjusted: int = 0) -> Tensor:
    mom = state["moments"]
    d = mom.shape[1] // 2
    n = mom[0, 0]
    ss_res = mom[2, d:] + n * mom[1, d:].square()  # sum e² = M2(e) + n mean(e)²
    score = torch.where(n >= 2, _explained_fraction(ss_res, mom[2, :d], multioutput), float("nan"))
    if adjusted:
        n_int = int(n)  # host sync, only for the adjusted score
        if n_int < 2:
            return score  # already nan
        if n_int - adjusted - 1 <= 0:
            raise ValueError(f"Expected `adjusted` to be less than n - 1 = {n_int - 1} (n - adjusted - 1 > 0), "
                             f"got adjusted={adjusted} with n={n_int}")
        score = 1 - (1 - score) * (n_int - 1) / (n_int - adjusted - 1)
    return score


def r2_score(preds: Tensor, target: Tensor, *, adjusted: int = 0, multioutput: str = "uniform_average",
             validate_args: bool = True) -> Tensor:
    """Coefficient of determination ``R² = 1 - sum (y - ŷ)² / sum (y - mean(y))²`` per output, float64.

    Args:
        preds, target: real tensors of the same shape ``(N,)`` or ``(N, d)``.
        adjusted: number of regressors ``p``; non-zero gives the adjusted R²
            ``1 - (1 - R²)(n - 1)/(n - p - 1)``, applied to the averaged score (or to each raw score). It raises
            ``ValueError`` when ``n - p - 1 <= 0`` (with ``n >= 2``; fewer samples give ``nan`` as for R²).
        multioutput: ``"raw_values" | "uniform_average" | "variance_weighted"``.
        validate_args: reject NaN (a host sync).

    Fewer than two samples give ``nan`` (scikit-learn's rule); constant targets follow the module rules above.
    Reference: scikit-learn ``r2_score``. Worked example: n = 100, R² = 0.8, p = 2 gives
    ``1 - 0.2 * 99 / 97 = 0.7959``.

    >>> target = torch.arange(100, dtype=torch.float64)
    >>> preds = target + torch.tensor([1.0, -1.0]).repeat(50) * (0.2 * 83325 / 100) ** 0.5  # SS_tot = 83325
    >>> round(r2_score(preds, target).item(), 4)
    0.8
    >>> round(r2_score(preds, target, adjusted=2).item(), 4)
    0.7959
    """
    check_multioutput(multioutput, weighted=True)
    check_adjusted(adjusted)
    return _r2_score_from_stats(_moment_stats_checked(preds, target, None, validate_args), multioutput, adjusted)


def _explained_variance_from_stats(state: State, multioutput: str) -> Tensor:
    mom = state["moments"]
    d = mom.shape[1] // 2
    score = _explained_fraction(mom[2, d:], mom[2, :d], multioutput)
    return torch.where(mom[0, 0] > 0, score, float("nan"))


def explained_variance(preds: Tensor, target: Tensor, *, multioutput: str = "uniform_average",
                       validate_args: bool = True) -> Tensor:
    """Explained variance ``1 - Var(y - ŷ) / Var(y)`` per output (population variances), float64.

    Unlike R² it ignores a constant bias of the predictions. Empty input gives ``nan``; a single sample
    gives 1.0 (0/0 counts as perfect, as in scikit-learn). Reference: scikit-learn ``explained_variance_score``.

    >>> explained_variance(torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0])).item()
    0.9571734475374732
    """
    check_multioutput(multioutput, weighted=True)
    return _explained_variance_from_stats(_moment_stats_checked(preds, target, None, validate_args), multioutput)
