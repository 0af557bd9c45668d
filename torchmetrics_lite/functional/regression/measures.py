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
    check_sample_weight,
    rmse_multioutput,
)
from torchmetrics_lite.functional.regression import _kernels as _impl
from torchmetrics_lite.functional.regression._doc_args import fill_doc
from torchmetrics_lite.functional.regression._kernels import COUNT, M2, MEAN, WEIGHT

__all__ = [
    "mean_squared_error", "root_mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error",
    "r2_score", "explained_variance", "fold_moments",
]

MAPE_EPS = _impl.MAPE_EPS  # scikit-learn's floor on ``|target|`` in MAPE: ``numpy.finfo(numpy.float64).eps``
State = Dict[str, Tensor]


# ------------------------------------------------------------------------------------------- error sums
def _error_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, kind: str,
                 num_outputs: Optional[int] = None, validate_args: bool = True) -> State:
    """Checked error sums of one batch (the module's ``batch_stats``): ``sum_error`` ``(d,)`` float64 and the
    int64 sample count ``total``, or, for a weighted batch, the float64 weight sum ``sum_weight`` instead. The
    NaN check reads the sums (NaN in, NaN out)."""
    p, t = check_regression_inputs(preds, target, num_outputs=num_outputs)
    w = check_sample_weight(weight, tuple(t.shape[:1]), validate_args=validate_args,
                            device=t.device)
    sums, denominator = _impl.error_sums(p, t, kind, w)
    if validate_args:
        check_regression_values(p, t, sums)
    return {"sum_error": sums, "total" if w is None else "sum_weight": denominator}


def _average_outputs(per_output: Tensor, multioutput: str) -> Tensor:
    return per_output if multioutput == "raw_values" else per_output.mean()


def _mean_error_from_stats(state: State, *, multioutput: str, root: bool = False) -> Tensor:
    """``sum_error / (total + sum_weight)`` per output (``nan`` with no sample or no weight), square-rooted
    for RMSE, then averaged. A state holds either denominator or both (unweighted samples weigh 1)."""
    per_output = state["sum_error"] / _impl.present_sum(state, "total", "sum_weight")
    return _average_outputs(per_output.sqrt() if root else per_output, multioutput)


def mean_squared_error(preds: Tensor, target: Tensor, *, weight: Optional[Tensor] = None, squared: bool = True,
                       multioutput: Optional[str] = None, validate_args: bool = True) -> Tensor:
    """Mean squared error per output, float64.

    ``MSE = sum_i w_i (target_i - preds_i)² / sum_i w_i`` (``w_i = 1`` without weights), per output column.

    Args:
        preds: real tensor ``(N,)`` or ``(N, d)``, any real dtype (converted exactly to float64).
        target: real tensor of the same shape.
        weight: optional ``(N,)`` non-negative sample weights, one per row (scikit-learn's ``sample_weight``).
        squared: ``False`` returns the root mean squared error (torchmetrics' switch; same as
            :func:`root_mean_squared_error`).
        multioutput: ``"raw_values"`` (``(d,)``) or ``"uniform_average"`` (scalar, the mean over outputs).
            ``None`` (default): ``"uniform_average"``, except for the RMSE (``squared=False``) of ``(N, d)``
            input with ``d > 1``, where it must be given: torchmetrics pools the ``d`` columns into one RMSE
            (``sqrt`` of the overall MSE) and scikit-learn averages the per-output RMSEs.
        validate_args: check for NaN in the inputs and negative or NaN weights (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor, or ``(d,)`` with ``multioutput="raw_values"``. Empty input (or a
        zero weight sum) gives ``nan``.

    Raises:
        TypeError: an input is not a tensor or has a bool or complex dtype.
        ValueError: shapes differ or are not 1-D/2-D, ``weight`` is not ``(N,)``, a bad ``multioutput``,
            ``squared=False`` of ``(N, d > 1)`` input without ``multioutput``, or (with ``validate_args``) NaN
            input or a negative weight.

    References:
        scikit-learn ``mean_squared_error`` (with ``sample_weight``); torchmetrics ``mean_squared_error``.

    Examples:
        >>> mean_squared_error(torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0])).item()
        0.375
        >>> mean_squared_error(torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0]),
        ...                    weight=torch.tensor([1.0, 1.0, 1.0, 0.0])).item()  # the last sample weighs 0
        0.16666666666666666
    """
    if multioutput is None:
        multioutput = rmse_multioutput(preds, squared)
    check_multioutput(multioutput, weighted=False)
    stats = _error_stats(preds, target, weight, kind="squared", validate_args=validate_args)
    return _mean_error_from_stats(stats, multioutput=multioutput, root=not squared)


@fill_doc
def root_mean_squared_error(preds: Tensor, target: Tensor, *, weight: Optional[Tensor] = None,
                            multioutput: str = "uniform_average", validate_args: bool = True) -> Tensor:
    """Root mean squared error per output, float64.

    ``RMSE = sqrt(sum_i w_i (target_i - preds_i)² / sum_i w_i)`` per output; ``"uniform_average"`` averages
    the per-output roots, as scikit-learn's ``root_mean_squared_error``.

    Args:
        preds, target, weight, multioutput, validate_args: as :func:`mean_squared_error`.

    {sections_error}

    References:
        scikit-learn ``root_mean_squared_error``.

    Examples:
        >>> root_mean_squared_error(torch.tensor([[0.0, 1.0], [0.0, 1.0]]), torch.tensor([[3.0, 1.0], [4.0, 1.0]]),
        ...                         multioutput="raw_values")
        tensor([3.5355, 0.0000], dtype=torch.float64)
    """
    return mean_squared_error(preds, target, weight=weight, squared=False, multioutput=multioutput,
                              validate_args=validate_args)


@fill_doc
def mean_absolute_error(preds: Tensor, target: Tensor, *, weight: Optional[Tensor] = None,
                        multioutput: str = "uniform_average", validate_args: bool = True) -> Tensor:
    """Mean absolute error per output, float64.

    ``MAE = sum_i w_i |target_i - preds_i| / sum_i w_i`` per output column.

    Args:
        preds, target, weight, multioutput, validate_args: as :func:`mean_squared_error`.

    {sections_error}

    References:
        scikit-learn ``mean_absolute_error`` (with ``sample_weight``).

    Examples:
        >>> mean_absolute_error(torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0])).item()
        0.5
    """
    check_multioutput(multioutput, weighted=False)
    stats = _error_stats(preds, target, weight, kind="absolute", validate_args=validate_args)
    return _mean_error_from_stats(stats, multioutput=multioutput)


@fill_doc
def mean_absolute_percentage_error(preds: Tensor, target: Tensor, *, weight: Optional[Tensor] = None,
                                   multioutput: str = "uniform_average", validate_args: bool = True) -> Tensor:
    """Mean absolute percentage error per output, float64 (a fraction, not a percent: 0.1 means 10 %).

    ``MAPE = sum_i w_i |target_i - preds_i| / max(|target_i|, eps) / sum_i w_i`` with
    ``eps = numpy.finfo(numpy.float64).eps`` (scikit-learn's rule): a zero target with a non-zero error gives a
    huge but finite term, a zero target predicted exactly contributes 0.

    Args:
        preds, target, weight, multioutput, validate_args: as :func:`mean_squared_error`.

    {sections_error}

    References:
        scikit-learn ``mean_absolute_percentage_error`` (with ``sample_weight``).

    Examples:
        >>> round(mean_absolute_percentage_error(torch.tensor([0.9, 2.4]), torch.tensor([1.0, 2.0])).item(), 6)
        0.15
    """
    check_multioutput(multioutput, weighted=False)
    stats = _error_stats(preds, target, weight, kind="percentage", validate_args=validate_args)
    return _mean_error_from_stats(stats, multioutput=multioutput)


# ---------------------------------------------------------------------------------------------- moments
def fold_moments(stack: Tensor) -> Tensor:
    """Merge a stack ``(k, 4, m)`` of moment states into one ``(4, m)`` (the weighted Chan formula).

    A moment state holds, per column, the rows ``[count, W, mean, M2]``: the sample count, the weight sum
    ``W = sum w`` (the count without weights), the weighted mean and ``M2 = sum w (x - mean)²``. The fold:
    ``count = sum count_i``, ``W = sum W_i``, ``mean = r + sum W_i (mean_i - r) / W`` with ``r`` the first part's
    mean with weight (so an empty part is an exact identity on either side), ``M2 = sum M2_i + sum W_i (mean_i -
    mean)²``. For k = 2 this is the pairwise update of Chan, Golub & LeVeque (weighted: West); it is
    associative up to rounding. Counts travel as float64 (exact below 2**53 samples). This is the ``reduce`` of
    the R² / explained-variance fold state.

    Args:
        stack: float64 ``(k, 4, m)``, ``k >= 1``.

    Returns:
        The merged float64 ``(4, m)`` state.

    References:
        Chan, Golub & LeVeque, "Algorithms for computing the sample variance: analysis and recommendations",
        The American Statistician 37(3), 1983; West, "Updating mean and variance estimates: an improved
        method", Communications of the ACM 22(9), 1979.

    Examples:
        >>> from torchmetrics_lite._xp import torch_namespace
        >>> from torchmetrics_lite.functional.regression import _kernels
        >>> xp = torch_namespace(torch.float64)
        >>> a = _kernels.moment_rows(xp, torch.tensor([[1.0, 2.0]], dtype=torch.float64))
        >>> b = _kernels.moment_rows(xp, torch.tensor([[6.0]], dtype=torch.float64))
        >>> fold_moments(torch.stack([a, b])).flatten().tolist()  # count, W, mean, M2 of [1, 2, 6]
        [3.0, 3.0, 3.0, 14.0]
    """
    return _impl.fold_stack(stack)



def _moment_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, num_outputs: Optional[int] = None,
                  validate_args: bool = True) -> State:
    """Checked moments of one batch (the module's ``batch_stats``): ``moments`` ``(4, 2d)``, rows ``[count, W,
    mean, M2]`` of the target columns, then of the residual columns. The NaN check reads the means."""
    p, t = check_regression_inputs(preds, target, num_outputs=num_outputs)
    w = check_sample_weight(weight, tuple(t.shape[:1]), validate_args=validate_args,
                            device=t.device)
    stats = {"moments": _impl.moments(p, t, w)}
    if validate_args:
        check_regression_values(p, t, stats["moments"])  # NaN in, NaN means and M2 out
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


def _r2_score_from_stats(state: State, *, multioutput: str, adjusted: int = 0, validate_args: bool = True) -> Tensor:
    mom = state["moments"]
    d = mom.shape[1] // 2
    n = mom[COUNT, 0]
    ss_res = mom[M2, d:] + mom[WEIGHT, d:] * mom[MEAN, d:].square()  # sum w e² = M2(e) + W mean(e)²
    defined = (n >= 2) & (mom[WEIGHT, 0] > 0)  # all-zero weights: nan (scikit-learn raises)
    score = torch.where(defined, _explained_fraction(ss_res, mom[M2, :d], multioutput), float("nan"))
    if not adjusted:
        return score
    if validate_args:
        n_int = int(n)  # host sync, only for the adjusted score's check
        if n_int >= 2 and n_int - adjusted - 1 <= 0:
            raise ValueError(f"Expected `adjusted` to be less than n - 1 = {n_int - 1} (n - adjusted - 1 > 0), "
                             f"got adjusted={adjusted} with n={n_int}")
    dof = n - adjusted - 1
    return torch.where(dof > 0, 1 - (1 - score) * (n - 1) / dof, float("nan"))


def r2_score(preds: Tensor, target: Tensor, *, weight: Optional[Tensor] = None, adjusted: int = 0,
             multioutput: str = "uniform_average", validate_args: bool = True) -> Tensor:
    """Coefficient of determination per output, float64.

    ``R² = 1 - sum_i w_i (y_i - ŷ_i)² / sum_i w_i (y_i - ȳ)²`` with ``ȳ`` the weighted mean of the target
    (``w_i = 1`` without weights), per output column; the adjusted score is ``1 - (1 - R²)(n - 1)/(n - p - 1)``
    with ``n`` the number of samples, applied to the averaged score (or to each raw score). Worked example:
    n = 100, R² = 0.8, p = 2 gives ``1 - 0.2 * 99 / 97 = 0.7959``.

    Args:
        preds: real tensor ``(N,)`` or ``(N, d)``.
        target: real tensor of the same shape.
        weight: optional ``(N,)`` non-negative sample weights (scikit-learn's ``sample_weight``).
        adjusted: number of regressors ``p``; non-zero gives the adjusted R².
        multioutput: ``"raw_values" | "uniform_average" | "variance_weighted"`` (the last weights each output
            by its target's variance).
        validate_args: check for NaN input and negative weights, and that ``n - p - 1 > 0`` (host syncs).

    Returns:
        A float64 (MPS: float32) 0-d tensor, or ``(d,)`` with ``multioutput="raw_values"``. Fewer than two samples give
        ``nan`` (scikit-learn's rule), and so do weights that are all zero (a zero weight sum, where
        scikit-learn raises a ``ValueError``; every weighted metric here gives ``nan``); weights that are zero in
        some batches only are fine. Constant targets follow scikit-learn's ``force_finite=True``: a perfect
        prediction scores 1.0, an imperfect one 0.0. With ``validate_args=False`` an adjusted score with
        ``n - p - 1 <= 0`` is ``nan`` instead of an error.

    Raises:
        TypeError, ValueError: as :func:`mean_squared_error`; ``ValueError`` also for ``n - p - 1 <= 0`` with
            ``n >= 2`` (``validate_args``) and for a negative ``adjusted``.

    References:
        scikit-learn ``r2_score`` (with ``sample_weight``); torchmetrics ``r2_score`` (``adjusted``).

    Examples:
        >>> target = torch.arange(100, dtype=torch.float64)
        >>> preds = target + torch.tensor([1.0, -1.0]).repeat(50) * (0.2 * 83325 / 100) ** 0.5  # SS_tot = 83325
        >>> round(r2_score(preds, target).item(), 4)
        0.8
        >>> round(r2_score(preds, target, adjusted=2).item(), 4)
        0.7959
    """
    check_multioutput(multioutput, weighted=True)
    check_adjusted(adjusted)
    stats = _moment_stats(preds, target, weight, validate_args=validate_args)
    return _r2_score_from_stats(stats, multioutput=multioutput, adjusted=adjusted, validate_args=validate_args)


def _explained_variance_from_stats(state: State, *, multioutput: str) -> Tensor:
    mom = state["moments"]
    d = mom.shape[1] // 2
    score = _explained_fraction(mom[M2, d:], mom[M2, :d], multioutput)
    return torch.where(mom[WEIGHT, 0] > 0, score, float("nan"))


def explained_variance(preds: Tensor, target: Tensor, *, weight: Optional[Tensor] = None,
                       multioutput: str = "uniform_average", validate_args: bool = True) -> Tensor:
    """Explained variance per output, float64.

    ``EV = 1 - Var_w(y - ŷ) / Var_w(y)`` with weighted population variances (``w_i = 1`` without weights).
    Unlike R² it ignores a constant bias of the predictions.

    Args:
        preds, target, weight, validate_args: as :func:`r2_score`.
        multioutput: ``"raw_values" | "uniform_average" | "variance_weighted"``.

    Returns:
        A float64 (MPS: float32) 0-d tensor, or ``(d,)`` with ``multioutput="raw_values"``. Empty input (or a
        zero weight sum) gives ``nan``; a single sample gives 1.0 (0/0 counts as perfect, as in scikit-learn);
        constant targets follow the rules of :func:`r2_score`.

    Raises:
        TypeError, ValueError: as :func:`mean_squared_error`.

    References:
        scikit-learn ``explained_variance_score`` (with ``sample_weight``).

    Examples:
        >>> explained_variance(torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0])).item()
        0.9571734475374732
    """
    check_multioutput(multioutput, weighted=True)
    stats = _moment_stats(preds, target, weight, validate_args=validate_args)
    return _explained_variance_from_stats(stats, multioutput=multioutput)
