"""Calibration metrics: Brier score and binned calibration error (ECE, RMS calibration error, MCE).

Probabilities are used as given (nothing is squashed): binary ``preds`` ``(N,)`` are the probabilities of the
positive class, multiclass ``preds`` ``(N, C)`` hold one probability per class (rows are not renormalised).

**Binning.** ``n_bins`` equal-width bins on [0, 1]: bin ``i`` (0-based) holds the confidences in
``(i/n_bins, (i+1)/n_bins]``; the first bin also holds 0. Boundaries are the correctly rounded float64 values
``i / n_bins`` and confidences are compared in float64. Per bin the statistics are the sample count, the sum
of confidences and the sum of accuracies (``sum`` states in the modules). With ``p_b = count_b / N``,
``gap_b = |mean accuracy_b - mean confidence_b|`` over the non-empty bins:

* ``norm="l1"``: expected calibration error ``ECE = sum_b p_b gap_b``;
* ``norm="l2"``: RMS calibration error ``sqrt(sum_b p_b gap_b²)``;
* ``norm="max"``: maximum calibration error ``MCE = max_b gap_b``.

Binary: the confidence is ``preds`` and the accuracy the target (0/1), i.e. the reliability of the positive
class probability (torchmetrics' convention). Multiclass: the confidence is the top-1 probability and the
accuracy whether the top-1 class (the first one among tied maxima) equals the target. No sample gives ``nan``.

References: Naeini, Cooper & Hauskrecht, "Obtaining well calibrated probabilities using Bayesian binning",
AAAI 2015; Guo et al., "On calibration of modern neural networks", ICML 2017; Brier, "Verification of
forecasts expressed in terms of probability", Monthly Weather Review 78(1), 1950.
"""
from __future__ import annotations

from typing import Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_binary_prob_inputs, check_choice, check_multiclass_prob_inputs, check_positive_int,
)

__all__ = [
    "binary_brier_score", "multiclass_brier_score", "binary_calibration_error", "multiclass_calibration_error",
]

NORMS = ("l1", "l2", "max")
State = Dict[str, Tensor]


# ------------------------------------------------------------------------------------------------- Brier
def _brier_stats(per_sample: Tensor) -> State:
    n = torch.tensor(per_sample.shape[0], dtype=torch.int64, device=per_sample.device)
    return {"sum_score": per_sample.sum(), "total": n}


def _binary_brier_stats(preds: Tensor, target: Tensor) -> State:
    return _brier_stats((preds - target).square())


def _multiclass_brier_stats(preds: Tensor, target: Tensor) -> State:
    diff = preds.clone()
    diff[torch.arange(preds.shape[0], device=preds.device), target] -= 1.0
    return _brier_stats(diff.square().sum(1))


def _brier_from_stats(state: State) -> Tensor:
    return state["sum_score"] / state["total"]


def binary_brier_score(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> Tensor:
    """Binary Brier score ``(1/N) sum_i (preds_i - target_i)²``, float64; in [0, 1], lower is better.

    Args:
        preds: ``(N,)`` floating probabilities of the positive class, in [0, 1].
        target: ``(N,)`` integer or bool labels in {0, 1}.
        validate_args: check the value ranges and NaN (a host sync).

    Equals scikit-learn's ``brier_score_loss(target, preds)`` (which halves the two-column sum for binary
    input). No sample gives ``nan``.

    >>> preds = torch.tensor([0.1, 0.9, 0.8, 0.3], dtype=torch.float64)
    >>> round(binary_brier_score(preds, torch.tensor([0, 1, 1, 0])).item(), 6)
    0.0375
    """
    p, t = check_binary_prob_inputs(preds, target, validate_args=validate_args)
    return _brier_from_stats(_binary_brier_stats(p, t))


def multiclass_brier_score(preds: Tensor, target: Tensor, *, num_classes: Optional[int] = None,
                           validate_args: bool = True) -> Tensor:
    """Multiclass Brier score ``(1/N) sum_i sum_c (preds_ic - [target_i = c])²``, float64; in [0, 2].

    The squared error of each probability vector against the one-hot target, summed over classes and
    averaged over samples: scikit-learn's ``brier_score_loss(target, preds, scale_by_half=False)``, which is
    its default for three or more classes (scikit-learn halves it by default for two columns; we never do).

    Args:
        preds: ``(N, C)`` floating probabilities in [0, 1].
        target: ``(N,)`` integer class indices in [0, C).
        num_classes: optional; checked against ``C``.
        validate_args: check the value ranges and NaN (a host sync).

    >>> preds = torch.tensor([[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.2, 0.2, 0.6]], dtype=torch.float64)
    >>> round(multiclass_brier_score(preds, torch.tensor([0, 1, 2])).item(), 6)  # (0.06 + 0.14 + 0.24) / 3
    0.146667
    """
    if num_classes is not None:
        check_positive_int("num_classes", num_classes)
    p, t = check_multiclass_prob_inputs(preds, target, num_classes=num_classes, validate_args=validate_args)
    return _brier_from_stats(_multiclass_brier_stats(p, t))


# ------------------------------------------------------------------------------------- calibration error
def _bin_stats(confidence: Tensor, accuracy: Tensor, n_bins: int) -> State:
    """Per-bin count (int64), confidence sum and accuracy sum (float64) of one batch."""
    inner = torch.arange(1, n_bins, dtype=torch.float64, device=confidence.device) / n_bins
    idx = torch.bucketize(confidence, inner, right=False)  # inner[i-1] < c <= inner[i]; c <= 1/n -> bin 0
    zeros = torch.zeros(n_bins, dtype=torch.float64, device=confidence.device)
    return {
        "bin_count": torch.bincount(idx, minlength=n_bins),
        "bin_confidence": zeros.index_add(0, idx, confidence),
        "bin_accuracy": zeros.index_add(0, idx, accuracy),
    }


def _binary_bin_stats(preds: Tensor, target: Tensor, n_bins: int) -> State:
    return _bin_stats(preds, target, n_bins)


def _multiclass_bin_stats(preds: Tensor, target: Tensor, n_bins: int) -> State:
    confidence, predicted = preds.max(dim=1)
    return _bin_stats(confidence, (predicted == target).to(torch.float64), n_bins)


def _calibration_error_from_stats(state: State, norm: str) -> Tensor:
    count = state["bin_count"]
    total = count.sum()
    gap = (state["bin_accuracy"] - state["bin_confidence"]).abs()  # = count_b * gap_b
    if norm == "l1":
        value = gap.sum() / total
    elif norm == "l2":
        value = (gap.square() / count.clamp_min(1)).sum().div(total).sqrt()
    else:
        value = (gap / count.clamp_min(1)).max()
    return torch.where(total > 0, value, float("nan"))


def _check_binning(n_bins: int, norm: str) -> None:
    check_positive_int("n_bins", n_bins)
    check_choice("norm", norm, NORMS)


def binary_calibration_error(preds: Tensor, target: Tensor, *, n_bins: int = 15, norm: str = "l1",
                             validate_args: bool = True) -> Tensor:
    """Binned calibration error of binary probabilities (the module docstring has the bins and norms).

    Args:
        preds: ``(N,)`` floating probabilities of the positive class, in [0, 1].
        target: ``(N,)`` integer or bool labels in {0, 1}.
        n_bins: number of equal-width bins (default 15, as torchmetrics).
        norm: ``"l1"`` (ECE), ``"l2"`` (RMS calibration error) or ``"max"`` (MCE).
        validate_args: check the value ranges and NaN (a host sync).

    >>> preds = torch.tensor([0.25, 0.25, 0.75, 0.75], dtype=torch.float64)
    >>> binary_calibration_error(preds, torch.tensor([0, 0, 1, 0]), n_bins=2).item()  # |0 - .25|/2 + |.5 - .75|/2
    0.25
    """
    _check_binning(n_bins, norm)
    p, t = check_binary_prob_inputs(preds, target, validate_args=validate_args)
    return _calibration_error_from_stats(_binary_bin_stats(p, t, n_bins), norm)


def multiclass_calibration_error(preds: Tensor, target: Tensor, *, num_classes: Optional[int] = None, n_bins: int = 15,
                                 norm: str = "l1", validate_args: bool = True) -> Tensor:
    """Binned top-1 calibration error of multiclass probabilities (the module docstring has the rules).

    Args:
        preds: ``(N, C)`` floating probabilities in [0, 1].
        target: ``(N,)`` integer class indices in [0, C).
        num_classes: optional; checked against ``C``.
        n_bins, norm, validate_args: as :func:`binary_calibration_error`.

    >>> preds = torch.tensor([[0.9, 0.1], [0.6, 0.4], [0.3, 0.7]], dtype=torch.float64)
    >>> round(multiclass_calibration_error(preds, torch.tensor([0, 1, 1]), n_bins=10, norm="max").item(), 6)
    0.6
    """
    _check_binning(n_bins, norm)
    if num_classes is not None:
        check_positive_int("num_classes", num_classes)
    p, t = check_multiclass_prob_inputs(preds, target, num_classes=num_classes, validate_args=validate_args)
    return _calibration_error_from_stats(_multiclass_bin_stats(p, t, n_bins), norm)
