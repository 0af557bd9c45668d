"""Stateful calibration metrics over :mod:`torchmetrics_lite.functional.calibration`.

States are sums (float64, int64 counts; float32 sums on a device without float64), so streaming, merging and
syncing are exact additions:

* Brier scores: the sum of per-sample Brier terms, the count of unweighted samples and the weight sum of
  weighted ones (``update(preds, target, weight=None)``; the mean's denominator is their sum).
* Calibration errors: per bin, the count (int64) and the weight sum (float64) of its samples, the (weighted)
  confidence sum and accuracy sum (``n_bins`` each). The
  ``norm`` only enters ``compute``, so metrics with the same binning share their statistics in a
  ``MetricCollection`` (equal ``stats_key``): ECE, RMS error and MCE from one pass.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch

from torchmetrics_lite._checks import (
    check_positive_int,
    check_rank_ignore_index,
    warn_binary_logits,
    warn_multiclass_logits,
)
from torchmetrics_lite.functional.calibration import (
    _binary_brier_score_stats,
    _binary_calibration_error_stats,
    _brier_from_stats,
    _calibration_error_from_stats,
    _check_binning,
    _multiclass_brier_score_stats,
    _multiclass_calibration_error_stats,
)
from torchmetrics_lite.metric import Metric

__all__ = ["BinaryBrierScore", "MulticlassBrierScore", "BinaryCalibrationError", "MulticlassCalibrationError"]


def _add_brier_states(metric: Metric) -> None:
    metric.add_state("sum_score", torch.zeros((), dtype=torch.float64), reduce="sum")
    metric.add_state("total", torch.zeros((), dtype=torch.int64), reduce="sum")
    metric.add_state("sum_weight", torch.zeros((), dtype=torch.float64), reduce="sum")


def _add_bin_states(metric: Metric, n_bins: int) -> None:
    metric.add_state("bin_count", torch.zeros(n_bins, dtype=torch.int64), reduce="sum")
    metric.add_state("bin_weight", torch.zeros(n_bins, dtype=torch.float64), reduce="sum")
    metric.add_state("bin_confidence", torch.zeros(n_bins, dtype=torch.float64), reduce="sum")
    metric.add_state("bin_accuracy", torch.zeros(n_bins, dtype=torch.float64), reduce="sum")


class BinaryBrierScore(Metric):
    """Binary Brier score ``sum_i w_i (preds_i - target_i)² / sum_i w_i`` (``w_i = 1`` without weights),
    streamed; see :func:`~torchmetrics_lite.functional.binary_brier_score`.

    ``update(preds, target, weight=None)``: ``preds`` ``(N,)`` probabilities in [0, 1], ``target`` ``(N,)``
    labels in {0, 1}, ``weight`` an optional ``(N,)`` non-negative tensor.

    Args:
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s ``validate_args``, ``process_group``,
            ``sync_on_compute``.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor in [0, 1]; ``nan`` before any sample.

    Raises:
        TypeError, ValueError: bad batches in ``update`` (the state is left unchanged).

    References:
        Brier (1950); scikit-learn ``brier_score_loss``.

    Examples:
        >>> m = BinaryBrierScore()
        >>> m.update(torch.tensor([0.1, 0.9], dtype=torch.float64), torch.tensor([0, 1]))
        >>> m.update(torch.tensor([0.8, 0.3], dtype=torch.float64), torch.tensor([1, 0]))
        >>> round(m.compute().item(), 6)
        0.0375
    """

    higher_is_better = False
    is_differentiable = False

    stats_key = ("binary_brier",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _add_brier_states(self)

    stats_fn = staticmethod(_binary_brier_score_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"validate_args": self.validate_args}

    value_fn = staticmethod(_brier_from_stats)


class MulticlassBrierScore(Metric):
    """Multiclass Brier score ``sum_i w_i sum_c (preds_ic - [target_i = c])² / sum_i w_i``, streamed; see
    :func:`~torchmetrics_lite.functional.multiclass_brier_score`.

    ``update(preds, target, weight=None)``: ``preds`` ``(N, C)`` probabilities, ``target`` ``(N,)`` class
    indices, ``weight`` an optional ``(N,)`` non-negative tensor.

    Args:
        num_classes: ``C``.
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor in [0, 2]; ``nan`` before any sample.

    Raises:
        TypeError, ValueError: a bad ``num_classes``; bad batches in ``update``.

    References:
        Brier (1950); scikit-learn ``brier_score_loss(..., scale_by_half=False)``.

    Examples:
        >>> m = MulticlassBrierScore(num_classes=3)
        >>> m.update(torch.tensor([[0.8, 0.1, 0.1], [0.2, 0.7, 0.1]], dtype=torch.float64), torch.tensor([0, 1]))
        >>> round(m.compute().item(), 6)  # (0.06 + 0.14) / 2
        0.1
    """

    higher_is_better = False
    is_differentiable = False

    def __init__(self, num_classes: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_classes", num_classes)
        self.num_classes = num_classes
        _add_brier_states(self)
        self.stats_key = ("multiclass_brier", num_classes)

    stats_fn = staticmethod(_multiclass_brier_score_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "validate_args": self.validate_args}

    value_fn = staticmethod(_brier_from_stats)


class BinaryCalibrationError(Metric):
    """Binned calibration error of binary probabilities: ``norm="l1"`` (ECE, default)
    ``sum_b (W_b / W) |acc_b - conf_b|``, ``"l2"`` (RMS) or ``"max"`` (MCE) over ``n_bins`` equal-width bins
    ``(i/n, (i+1)/n]`` (the first also holds 0); see :func:`~torchmetrics_lite.functional.binary_calibration_error`.

    ``update(preds, target, weight=None)`` as :class:`BinaryBrierScore` (weights: weighted bin counts and sums).

    Args:
        n_bins: number of bins (default 15, as torchmetrics).
        norm: ``"l1" | "l2" | "max"``.
        ignore_index: samples whose target equals it are left out (torchmetrics' ``ignore_index``).
        from_logits: ``preds`` are logits: each batch goes through a sigmoid (multiclass: a softmax) in its own
            dtype first, as torchmetrics squashes scores outside [0, 1] (default ``False``: used as given).
        kwargs: :class:`~torchmetrics_lite.metric.Metric`'s options.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor; ``nan`` before any sample.

    Raises:
        TypeError, ValueError: a bad ``n_bins`` or ``norm``; bad batches in ``update``.

    References:
        Naeini, Cooper & Hauskrecht (AAAI 2015); torchmetrics ``BinaryCalibrationError``.

    Examples:
        >>> m = BinaryCalibrationError(n_bins=2)
        >>> m.update(torch.tensor([0.25, 0.25], dtype=torch.float64), torch.tensor([0, 0]))
        >>> m.update(torch.tensor([0.75, 0.75], dtype=torch.float64), torch.tensor([1, 0]))
        >>> m.compute().item()
        0.25
    """

    higher_is_better = False
    is_differentiable = False

    def __init__(self, n_bins: int = 15, norm: str = "l1", *, ignore_index: Optional[int] = None,
                 from_logits: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _check_binning(n_bins, norm)
        self.n_bins, self.norm, self.from_logits = n_bins, norm, bool(from_logits)
        self.ignore_index = check_rank_ignore_index(ignore_index)
        _add_bin_states(self, n_bins)
        self.stats_key = ("binary_calibration_bins", n_bins, ignore_index, self.from_logits)

    stats_fn = staticmethod(_binary_calibration_error_stats)
    check_accepted = warn_binary_logits

    def stats_options(self) -> Dict[str, Any]:
        return {"n_bins": self.n_bins, "validate_args": self.validate_args, "ignore_index": self.ignore_index,
                "from_logits": self.from_logits}

    value_fn = staticmethod(_calibration_error_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"norm": self.norm}



class MulticlassCalibrationError(Metric):
    """Binned top-1 calibration error of multiclass probabilities (confidence = the largest probability,
    accuracy = whether its class, the first among ties, is the target); the formulas of
    :class:`BinaryCalibrationError`; see :func:`~torchmetrics_lite.functional.multiclass_calibration_error`.

    ``update(preds, target, weight=None)`` as :class:`MulticlassBrierScore`.

    Args:
        num_classes: ``C``.
        n_bins, norm, ignore_index, from_logits, kwargs: as :class:`BinaryCalibrationError`.

    Returns:
        ``compute()``: a float64 (MPS: float32) 0-d tensor; ``nan`` before any sample.

    Raises:
        TypeError, ValueError: bad options; bad batches in ``update``.

    References:
        Guo et al., ICML 2017; torchmetrics ``MulticlassCalibrationError``.

    Examples:
        >>> m = MulticlassCalibrationError(num_classes=2, n_bins=10, norm="max")
        >>> m.update(torch.tensor([[0.9, 0.1], [0.6, 0.4], [0.3, 0.7]], dtype=torch.float64), torch.tensor([0, 1, 1]))
        >>> round(m.compute().item(), 6)
        0.6
    """

    higher_is_better = False
    is_differentiable = False

    def __init__(self, num_classes: int, n_bins: int = 15, norm: str = "l1", *, ignore_index: Optional[int] = None,
                 from_logits: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_classes", num_classes)
        _check_binning(n_bins, norm)
        self.num_classes, self.n_bins, self.norm = num_classes, n_bins, norm
        self.ignore_index, self.from_logits = check_rank_ignore_index(ignore_index), bool(from_logits)
        _add_bin_states(self, n_bins)
        self.stats_key = ("multiclass_calibration_bins", num_classes, n_bins, ignore_index, self.from_logits)

    stats_fn = staticmethod(_multiclass_calibration_error_stats)
    check_accepted = warn_multiclass_logits

    def stats_options(self) -> Dict[str, Any]:
        return {"n_bins": self.n_bins, "num_classes": self.num_classes, "validate_args": self.validate_args,
                "ignore_index": self.ignore_index, "from_logits": self.from_logits}

    value_fn = staticmethod(_calibration_error_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"norm": self.norm}


