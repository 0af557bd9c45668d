"""Errors relative to the target's spread: the relative squared error and the normalised RMSE, over the R²
moments (``[count, W, mean, M2]`` of the target and residual columns, merged with Chan's formula, so a long
float32 stream of large-offset targets keeps its digits) plus, for the range, the target's per-column min and max.
"""
from __future__ import annotations

from typing import Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_bool, check_choice, check_regression_inputs
from torchmetrics_lite.functional.regression._kernels import M2, MEAN, WEIGHT, column_extremes
from torchmetrics_lite.functional.regression.measures import _moment_stats

__all__ = ["relative_squared_error", "normalized_root_mean_squared_error"]

State = Dict[str, Tensor]
NORMALIZATIONS = ("mean", "range", "std", "l2")


def _sums(mom: Tensor) -> tuple:
    """Per output: the weight sum, the residual sum of squares and the target's centred sum of squares."""
    d = mom.shape[1] // 2
    return mom[WEIGHT, :d], mom[M2, d:] + mom[WEIGHT, d:] * mom[MEAN, d:].square(), mom[M2, :d]


def _rse_stats(preds: Tensor, target: Tensor, *, num_outputs: Optional[int] = None,
               validate_args: bool = True) -> State:
    return _moment_stats(preds, target, num_outputs=num_outputs, validate_args=validate_args)


def _rse_from_stats(state: State, *, squared: bool = True) -> Tensor:
    w, ss_res, ss_tot = _sums(state["moments"])
    rse = torch.where(ss_res == 0, 0.0, torch.where(ss_tot == 0, 1.0, ss_res / ss_tot))  # 1 - R², finite
    rse = rse if squared else rse.sqrt()
    return torch.where(w > 0, rse, float("nan")).mean()


def relative_squared_error(preds: Tensor, target: Tensor, squared: bool = True, *,
                           validate_args: bool = True) -> Tensor:
    """Relative squared error ``sum_i (y_i - ŷ_i)² / sum_i (y_i - ȳ)²`` per output column (``1 - R²``), its square
    root with ``squared=False``, averaged over outputs; float64.

    A constant target column follows :func:`r2_score`'s finite rule: 0.0 for a perfect prediction, 1.0 otherwise
    (torchmetrics divides by ``finfo.eps`` there).

    Args:
        preds: real tensor ``(N,)`` or ``(N, d)``.
        target: real tensor of the same shape.
        squared: ``False`` returns the root relative squared error.
        validate_args: check for NaN (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor; ``nan`` for empty input.

    Raises:
        TypeError: an input is not a real tensor, or ``squared`` is not a bool.
        ValueError: shapes differ or are not 1-D/2-D, or (``validate_args``) NaN input.

    References:
        scikit-learn ``1 - r2_score(..., multioutput="raw_values")``; torchmetrics ``relative_squared_error``.

    Examples:
        >>> relative_squared_error(torch.tensor([1.0, 2.0, 4.0]), torch.tensor([1.0, 2.0, 3.0])).item()  # 1 / 2
        0.5
    """
    check_bool("squared", squared)
    return _rse_from_stats(_rse_stats(preds, target, validate_args=validate_args), squared=squared)


def _nrmse_stats(preds: Tensor, target: Tensor, *, num_outputs: Optional[int] = None,
                 validate_args: bool = True) -> State:
    stats = _moment_stats(preds, target, num_outputs=num_outputs, validate_args=validate_args)
    stats["target_min"], stats["target_max"] = column_extremes(target).unbind(0)
    return stats


def _nrmse_from_stats(state: State, *, normalization: str = "mean") -> Tensor:
    mom = state["moments"]
    d = mom.shape[1] // 2
    w, ss_res, ss_tot = _sums(mom)
    rmse = (ss_res / w).sqrt()
    if normalization == "mean":
        denom = mom[MEAN, :d]
    elif normalization == "std":
        denom = (ss_tot / w).sqrt()
    elif normalization == "l2":
        denom = (ss_tot + w * mom[MEAN, :d].square()).sqrt()
    else:
        denom = state["target_max"] - state["target_min"]
    value = rmse / denom
    return value[0] if d == 1 else value


def normalized_root_mean_squared_error(preds: Tensor, target: Tensor, normalization: str = "mean",
                                       num_outputs: int = 1, *, validate_args: bool = True) -> Tensor:
    """Normalised root mean squared error ``sqrt(mean_i (y_i - ŷ_i)²) / s`` per output column, float64, with the
    scale ``s`` of the target column: its mean (``"mean"``), ``max - min`` (``"range"``), population standard
    deviation (``"std"``) or Euclidean norm (``"l2"``).

    Args:
        preds: real tensor ``(N,)`` or ``(N, num_outputs)``.
        target: real tensor of the same shape.
        normalization: ``"mean"`` (default), ``"range"``, ``"std"`` or ``"l2"``.
        num_outputs: the number of output columns ``d``.
        validate_args: check for NaN (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor for one output, else the ``(d,)`` per-output values (torchmetrics'
        shapes); a zero scale gives ``inf`` (or ``nan`` for a perfect prediction); empty input gives ``nan``.

    Raises:
        TypeError: an input is not a real tensor.
        ValueError: shapes differ, a column count other than ``num_outputs``, a bad ``normalization``, or
            (``validate_args``) NaN input.

    References:
        torchmetrics ``normalized_root_mean_squared_error``.

    Examples:
        >>> value = normalized_root_mean_squared_error(torch.tensor([1.0, 1.0]), torch.tensor([1.0, 3.0]), "range")
        >>> round(value.item(), 12)  # sqrt(2) / 2; the last bit of the float64 sum depends on the CPU's SIMD
        0.707106781187
    """
    check_choice("normalization", normalization, NORMALIZATIONS)
    check_regression_inputs(preds, target, num_outputs=num_outputs)
    stats = _nrmse_stats(preds, target, num_outputs=num_outputs, validate_args=validate_args)
    return _nrmse_from_stats(stats, normalization=normalization)
