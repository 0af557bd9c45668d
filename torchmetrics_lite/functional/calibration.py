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

import functools
from typing import Dict, Optional

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_binary_prob_inputs,
    check_choice,
    check_multiclass_prob_inputs,
    check_positive_int,
)
from torchmetrics_lite.functional.regression._kernels import host, use_numpy

__all__ = [
    "binary_brier_score", "multiclass_brier_score", "binary_calibration_error", "multiclass_calibration_error",
]

NORMS = ("l1", "l2", "max")
State = Dict[str, Tensor]


# ------------------------------------------------------------------------------------------------- Brier
# Each statistic runs in numpy on zero-copy views of CPU tensors and in torch elsewhere (see
# :mod:`~torchmetrics_lite.functional.regression._kernels`: a torch call's dispatch costs more than the arithmetic
# of a batch); ``backend="torch"`` forces the torch path (the tests compare the two on CPU).
def _brier_stats(total: Tensor, n: int) -> State:
    return {"sum_score": total, "total": torch.full((), n, dtype=torch.int64, device=total.device)}


def _binary_brier_stats(preds: Tensor, target: Tensor, backend: Optional[str] = None) -> State:
    """``sum (preds - target)²`` in float64 (the conversion of either input is exact) and the count."""
    if use_numpy(preds, backend):
        err = np.subtract(host(preds), host(target), dtype=np.float64)
        return _brier_stats(torch.from_numpy(np.asarray(np.vecdot(err, err))), err.shape[0])
    err = preds.to(torch.float64) - target.to(torch.float64)
    return _brier_stats(torch.dot(err, err), err.shape[0])


def _multiclass_brier_stats(preds: Tensor, target: Tensor, backend: Optional[str] = None) -> State:
    """``sum_i sum_c (preds_ic - [target_i = c])²`` in float64 (one float64 copy of ``preds``, minus one at
    each target, then one dot product) and the count."""
    n = preds.shape[0]
    if use_numpy(preds, backend):
        diff = host(preds).astype(np.float64)
        diff[np.arange(n), host(target)] -= 1.0
        flat = diff.reshape(-1)
        return _brier_stats(torch.from_numpy(np.asarray(np.vecdot(flat, flat))), n)
    diff = preds.to(torch.float64, copy=True)
    diff[torch.arange(n, device=preds.device), target] -= 1.0
    flat = diff.view(-1)
    return _brier_stats(torch.dot(flat, flat), n)


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
@functools.lru_cache(maxsize=None)
def _inner_edges(n_bins: int) -> np.ndarray:
    """The ``n_bins - 1`` inner boundaries ``i / n_bins``, correctly rounded float64 (cached, read-only)."""
    edges = np.arange(1, n_bins, dtype=np.float64) / n_bins
    edges.flags.writeable = False
    return edges


@functools.lru_cache(maxsize=64)
def _inner_edges_tensor(n_bins: int, device: torch.device) -> Tensor:
    return torch.tensor(_inner_edges(n_bins), dtype=torch.float64, device=device)


def _bin_index_numpy(confidence: np.ndarray, n_bins: int) -> np.ndarray:
    """Bin of each confidence: ``i`` with ``edges[i-1] < c <= edges[i]`` (``c <= 1/n`` gives 0), compared in
    float64. float32 confidences take an exact shortcut: ``c * n`` is exact in float64 (a 24-bit significand
    times an integer below 2**28), and no float32 lies between ``i/n`` and its float64 rounding (a float32
    ``c != i/n`` is at least ``c 2**-25 / n`` away from it, more than the rounding's ``2**-53 i/n``), so
    ``ceil(c n) - 1`` is the bin, 2x faster than the binary search (which float64 confidences take)."""
    if confidence.dtype != np.float32 or n_bins >= 2**28:
        return np.searchsorted(_inner_edges(n_bins), confidence)  # left: edges[i-1] < c <= edges[i]
    idx = np.ceil(np.multiply(confidence, n_bins, dtype=np.float64)).astype(np.intp)
    idx -= 1
    np.maximum(idx, 0, out=idx)  # c = 0 (and, unchecked, c < 0) -> bin 0
    return np.minimum(idx, n_bins - 1, out=idx)  # unchecked c > 1 or NaN -> the last bin, as the search


def _bins_numpy(confidence: np.ndarray, accuracy: np.ndarray, n_bins: int) -> State:
    idx = _bin_index_numpy(confidence, n_bins)
    return {
        "bin_count": torch.from_numpy(np.bincount(idx, minlength=n_bins)),
        "bin_confidence": torch.from_numpy(np.bincount(idx, confidence, n_bins)),  # float64 sums
        "bin_accuracy": torch.from_numpy(np.bincount(idx, accuracy, n_bins)),
    }


def _bins_torch(confidence: Tensor, accuracy: Tensor, n_bins: int) -> State:
    conf = confidence.to(torch.float64)
    idx = torch.bucketize(conf, _inner_edges_tensor(n_bins, conf.device), right=False)
    sums = conf.new_zeros(2, n_bins).index_add_(1, idx, torch.stack([conf, accuracy.to(torch.float64)]))
    return {"bin_count": torch.bincount(idx, minlength=n_bins), "bin_confidence": sums[0], "bin_accuracy": sums[1]}


def _binary_bin_stats(preds: Tensor, target: Tensor, n_bins: int, backend: Optional[str] = None) -> State:
    """Per-bin count (int64), confidence sum and accuracy sum (float64) of one batch."""
    if use_numpy(preds, backend, max_elements=None):  # numpy's search and bincount win at every size
        return _bins_numpy(host(preds), host(target), n_bins)
    return _bins_torch(preds, target, n_bins)


def _multiclass_bin_stats(preds: Tensor, target: Tensor, n_bins: int, backend: Optional[str] = None) -> State:
    """As :func:`_binary_bin_stats` with the top-1 probability (first maximal class) and its correctness."""
    confidence, predicted = preds.max(dim=1)  # one call for both (numpy's row-wise max is slow for small C)
    correct = predicted == target
    if use_numpy(preds, backend, max_elements=None):
        return _bins_numpy(host(confidence), host(correct), n_bins)
    return _bins_torch(confidence, correct, n_bins)


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
