"""Calibration metrics: Brier score and binned calibration error (ECE, RMS calibration error, MCE).

Probabilities are used as given (nothing is squashed): binary ``preds`` ``(N,)`` are the probabilities of the
positive class, multiclass ``preds`` ``(N, C)`` hold one probability per class (rows are not renormalised).

**Binning.** ``n_bins`` equal-width bins on [0, 1]: bin ``i`` (0-based) holds the confidences in
``(i/n_bins, (i+1)/n_bins]``; the first bin also holds 0. Boundaries are the correctly rounded float64 values
``i / n_bins`` and confidences are compared in float64. Per bin the statistics are the sample count, the sum
of confidences and the sum of accuracies (``sum`` states in the modules); with ``weight`` (one non-negative
value per sample) each sample counts with its weight: the bin's weight sum replaces its count, and the sums are
weighted. With ``p_b = count_b / N``,
``gap_b = |mean accuracy_b - mean confidence_b|`` over the non-empty bins:

* ``norm="l1"``: expected calibration error ``ECE = sum_b p_b gap_b``;
* ``norm="l2"``: RMS calibration error ``sqrt(sum_b p_b gap_b²)``;
* ``norm="max"``: maximum calibration error ``MCE = max_b gap_b``.

Binary: the confidence is ``preds`` and the accuracy the target (0/1), i.e. the reliability of the positive
class probability (torchmetrics' convention). Multiclass: the confidence is the top-1 probability and the
accuracy whether the top-1 class (the first one among tied maxima) equals the target. No sample gives ``nan``.

On a device without float64 (Apple MPS, :func:`~torchmetrics_lite.metric.float_dtype`) the sums and values are
float32 (about 7 significant digits; 1e7 samples in 1e3 or 1e4 updates: ECE and Brier within 4e-6 of the float64
values, ``python -m benchmarks.float32_streams``); the bins are the same as in float64 (exact integer binning of
float32 confidences, :func:`_bin_index_float32`) and the counts stay exact int64.

References: Naeini, Cooper & Hauskrecht, "Obtaining well calibrated probabilities using Bayesian binning",
AAAI 2015; Guo et al., "On calibration of modern neural networks", ICML 2017; Brier, "Verification of
forecasts expressed in terms of probability", Monthly Weather Review 78(1), 1950.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite import _compat
from torchmetrics_lite._checks import (
    check_binary_prob_inputs,
    check_choice,
    check_multiclass_prob_inputs,
    check_positive_int,
    check_rank_ignore_index,
    check_sample_weight,
    drop_ignored,
)
from torchmetrics_lite._checks.calibration import LOGITS_HINT
from torchmetrics_lite._xp import Xp, namespace, torch_namespace
from torchmetrics_lite.functional.regression._kernels import NUMPY_MAX_ELEMENTS, present_sum

__all__ = [
    "binary_brier_score", "multiclass_brier_score", "binary_calibration_error", "multiclass_calibration_error",
]

NORMS = ("l1", "l2", "max")
State = Dict[str, Tensor]
Batch = Tuple[Tensor, Tensor, Optional[Tensor]]


# ------------------------------------------------------------------------------------------------- Brier
# The statistics run in numpy on zero-copy views of small CPU batches and in torch elsewhere (the choice and
# the shared arithmetic: :mod:`~torchmetrics_lite.functional.regression._kernels`).
def _brier_stats(total: Tensor, n: int, weight: Optional[Tensor]) -> State:
    """``sum_score`` with the int64 count ``total``, or with the float64 weight sum ``sum_weight``."""
    if weight is None:
        return {"sum_score": total, "total": torch.full((), n, dtype=torch.int64, device=total.device)}
    return {"sum_score": total, "sum_weight": weight.to(dtype=total.dtype, device=total.device).sum()}


def _binary_brier_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None) -> State:
    """``sum_i w_i (preds_i - target_i)²`` in float64 (the conversion of either input is exact) and the count
    or weight sum."""
    xp = namespace(preds, NUMPY_MAX_ELEMENTS)
    err = xp.subtract(xp.asarray(preds), xp.asarray(target))
    w = None if weight is None else xp.floating(xp.asarray(weight))
    total = xp.vecdot(err, err) if w is None else xp.vecdot(err, err * w)
    return _brier_stats(xp.tensor(total, preds), err.shape[0], weight)


def _multiclass_brier_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None) -> State:
    """``sum_i w_i sum_c (preds_ic - [target_i = c])²`` in float64 (one float64 copy of ``preds`` minus the
    one-hot target, then dot products) and the count or weight sum."""
    xp = namespace(preds, NUMPY_MAX_ELEMENTS)
    p, t = xp.asarray(preds), xp.asarray(target)
    diff = xp.subtract(p, t[:, None] == xp.arange(p.shape[1], p))
    if weight is None:
        flat = diff.reshape(-1)
        total = xp.vecdot(flat, flat)
    else:
        total = xp.vecdot(diff, diff) @ xp.floating(xp.asarray(weight))
    return _brier_stats(xp.tensor(total, preds), p.shape[0], weight)


def _brier_from_stats(state: State) -> Tensor:
    return state["sum_score"] / present_sum(state, "total", "sum_weight")


def _binary_checked(preds: Tensor, target: Tensor, weight: Optional[Tensor], validate_args: bool,
                    hint: str = "") -> Batch:
    p, t = check_binary_prob_inputs(preds, target, validate_args=validate_args, **({"hint": hint} if hint else {}))
    return p, t, check_sample_weight(weight, tuple(p.shape[:1]), validate_args=validate_args,
                            device=p.device)


def _multiclass_checked(preds: Tensor, target: Tensor, weight: Optional[Tensor], num_classes: Optional[int],
                        validate_args: bool, hint: str = "") -> Batch:
    p, t = check_multiclass_prob_inputs(preds, target, num_classes=num_classes, validate_args=validate_args,
                                        **({"hint": hint} if hint else {}))
    return p, t, check_sample_weight(weight, tuple(p.shape[:1]), validate_args=validate_args,
                            device=p.device)


def _binary_brier_score_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *,
                              validate_args: bool = True) -> State:
    """Checked statistics of one binary batch (the function's and the module's first step)."""
    return _binary_brier_stats(*_binary_checked(preds, target, weight, validate_args))


def _multiclass_brier_score_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *,
                                  num_classes: Optional[int] = None, validate_args: bool = True) -> State:
    """Checked statistics of one multiclass batch (the function's and the module's first step)."""
    return _multiclass_brier_stats(*_multiclass_checked(preds, target, weight, num_classes, validate_args))


def _squashed(preds: Any, from_logits: bool, squash: Callable[[Tensor], Tensor]) -> Any:
    """``from_logits``: floating scores through ``squash`` (a sigmoid / softmax) in their own dtype, as torchmetrics
    squashes them; anything else passes to the checks, which report it."""
    return squash(preds) if from_logits and isinstance(preds, Tensor) and preds.is_floating_point() else preds


def _binary_calibration_error_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, n_bins: int,
                                    validate_args: bool = True, ignore_index: Optional[int] = None,
                                    from_logits: bool = False) -> State:
    """Checked bin statistics of one binary batch (the function's and the module's first step); the samples
    whose target is ``ignore_index`` are dropped first; ``from_logits``: a sigmoid of the scores first."""
    preds, target, weight = drop_ignored(preds, target, weight, ignore_index, rows=False)
    preds = _squashed(preds, from_logits, torch.sigmoid)
    p, t, w = _binary_checked(preds, target, weight, validate_args, LOGITS_HINT)
    return _binary_bin_stats(p, t, n_bins, w)


def _multiclass_calibration_error_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *,
                                        n_bins: int, num_classes: Optional[int] = None,
                                        validate_args: bool = True, ignore_index: Optional[int] = None,
                                        from_logits: bool = False) -> State:
    """Checked bin statistics of one multiclass batch (the function's and the module's first step); the rows
    whose target is ``ignore_index`` are dropped first; ``from_logits``: a softmax over the classes first."""
    preds, target, weight = drop_ignored(preds, target, weight, ignore_index, rows=True)
    preds = _squashed(preds, from_logits, lambda x: x.softmax(1) if x.dim() == 2 else x)
    p, t, w = _multiclass_checked(preds, target, weight, num_classes, validate_args, LOGITS_HINT)
    return _multiclass_bin_stats(p, t, n_bins, w)


def binary_brier_score(preds: Tensor, target: Tensor, *, weight: Optional[Tensor] = None,
                       validate_args: bool = True) -> Tensor:
    """Binary Brier score, float64; in [0, 1], lower is better.

    ``BS = sum_i w_i (preds_i - target_i)² / sum_i w_i`` (``w_i = 1`` without weights).

    Args:
        preds: ``(N,)`` floating probabilities of the positive class, in [0, 1] (used as given).
        target: ``(N,)`` integer or bool labels in {0, 1}.
        weight: optional ``(N,)`` non-negative sample weights (scikit-learn's ``sample_weight``).
        validate_args: check the value ranges, NaN and the weights' signs (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor; ``nan`` for no sample (or a zero weight sum).

    Raises:
        TypeError: non-tensor input, non-floating ``preds`` or non-integer ``target``.
        ValueError: wrong shapes, and (with ``validate_args``) ``preds`` outside [0, 1] or NaN, ``target``
            outside {0, 1}, a negative weight.

    References:
        Brier, "Verification of forecasts expressed in terms of probability", Monthly Weather Review 78(1),
        1950; scikit-learn ``brier_score_loss(target, preds, sample_weight=weight)`` (which halves the
        two-column sum for binary input, giving this value).

    Examples:
        >>> preds = torch.tensor([0.1, 0.9, 0.8, 0.3], dtype=torch.float64)
        >>> round(binary_brier_score(preds, torch.tensor([0, 1, 1, 0])).item(), 6)
        0.0375
    """
    return _brier_from_stats(_binary_brier_score_stats(preds, target, weight, validate_args=validate_args))


def multiclass_brier_score(preds: Tensor, target: Tensor, *, num_classes: Optional[int] = None,
                           weight: Optional[Tensor] = None, validate_args: bool = True) -> Tensor:
    """Multiclass Brier score, float64; in [0, 2], lower is better.

    ``BS = sum_i w_i sum_c (preds_ic - [target_i = c])² / sum_i w_i``: the squared error of each probability
    vector against the one-hot target, summed over classes, averaged over samples. This is scikit-learn's
    ``brier_score_loss(target, preds, scale_by_half=False)``, its default for three or more classes
    (scikit-learn halves it by default for two columns; we never do).

    Args:
        preds: ``(N, C)`` floating probabilities in [0, 1] (rows used as given, not renormalised).
        target: ``(N,)`` integer class indices in [0, C).
        num_classes: optional; checked against ``C``.
        weight: optional ``(N,)`` non-negative sample weights.
        validate_args: check the value ranges, NaN and the weights' signs (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor; ``nan`` for no sample.

    Raises:
        TypeError, ValueError: as :func:`binary_brier_score`; ``ValueError`` also when ``C`` differs from
            ``num_classes`` or is below 2.

    References:
        Brier (1950); scikit-learn ``brier_score_loss``.

    Examples:
        >>> preds = torch.tensor([[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.2, 0.2, 0.6]], dtype=torch.float64)
        >>> round(multiclass_brier_score(preds, torch.tensor([0, 1, 2])).item(), 6)  # (0.06 + 0.14 + 0.24) / 3
        0.146667
    """
    if num_classes is not None:
        check_positive_int("num_classes", num_classes)
    stats = _multiclass_brier_score_stats(preds, target, weight, num_classes=num_classes, validate_args=validate_args)
    return _brier_from_stats(stats)


# ------------------------------------------------------------------------------------- calibration error
def _bin_index(xp: Xp, confidence: Any, n_bins: int) -> Any:
    """Bin of each confidence: ``i`` with ``i/n < c <= (i+1)/n`` against the correctly rounded float64
    boundaries ``i/n`` (``c <= 1/n`` gives 0), by a binary search in float64. float32 confidences take an exact
    shortcut: ``c * n`` is exact in float64 (a 24-bit significand times an integer below 2**28), and no float32
    lies between ``i/n`` and its float64 rounding (a float32 ``c != i/n`` is at least ``c 2**-25 / n`` away from
    it, more than the rounding's ``2**-53 i/n``), so ``ceil(c n) - 1`` is the bin, 2x faster than the search. A
    device without float64 reads the same bins from the float32 bits (:func:`_bin_index_float32`). Unchecked
    input: ``c < 0`` goes to bin 0, ``c > 1``, inf and NaN to the last bin, as the search."""
    if xp.real is torch.float32:  # a device without float64
        return _bin_index_float32(xp.floating(confidence), n_bins)
    if confidence.itemsize == 4 and n_bins < 2**28:  # float32 (numpy views float16/bfloat16 as float32)
        idx = xp.ceil(confidence, n_bins)
        idx -= 1
        return xp.minimum(xp.maximum(idx, 0), n_bins - 1)
    edges = xp.floating(xp.arange(n_bins - 1, confidence) + 1) / n_bins  # i / n, correctly rounded
    return xp.searchsorted(edges, xp.floating(confidence))


def _bins(xp: Xp, confidence: Any, accuracy: Any, n_bins: int, weight: Optional[Any], like: Tensor) -> State:
    """Per-bin count (or weight sum), confidence sum and accuracy sum in ``xp.real`` (``index_add_`` into
    ``n_bins`` slots in torch: static shapes, ``torch.compile``)."""
    idx = _bin_index(xp, confidence, n_bins)
    if weight is None:
        count = {"bin_count": xp.tensor(xp.bincount(idx, n_bins), like)}
    else:
        weight = xp.floating(weight)
        count = {"bin_weight": xp.tensor(xp.segment_sum(weight, idx, n_bins), like)}
        confidence, accuracy = confidence * weight, accuracy * weight  # promoted to xp.real exactly
    return {
        **count,
        "bin_confidence": xp.tensor(xp.segment_sum(confidence, idx, n_bins), like),
        "bin_accuracy": xp.tensor(xp.segment_sum(accuracy, idx, n_bins), like),
    }


def _bin_index_float32(confidence: Tensor, n_bins: int) -> Tensor:
    """The bins of float32 confidences without a float64 tensor (a device without float64), equal to the float64
    search's: ``ceil(c n) - 1`` clamped to ``[0, n - 1]`` (see :func:`_bin_index` for why that is the
    float64 rule), computed exactly in int64 from the bits of ``c = m 2**-s`` (``m`` its 24-bit significand).
    Comparing float32 ``c`` with float32 boundaries instead would move every ``c`` equal to a boundary rounded
    up (``float32(0.1) > 0.1``) into the bin below. Unchecked input: ``c < 0`` goes to bin 0, ``c > 1``, inf and
    NaN to the last bin, as the search."""
    bits = confidence.view(torch.int32).to(torch.int64)
    biased = (bits >> 23) & 0xFF  # the biased exponent; 0 for zero and subnormals, which have no hidden bit
    significand = (bits & 0x7FFFFF) | ((biased > 0).to(torch.int64) << 23)
    shift = (150 - biased.clamp_min(1)).clamp(0, 62)  # c = significand * 2**-shift (a larger shift: c n < 1)
    ceil = -((-(significand * n_bins)) >> shift)  # an arithmetic shift floors, so this is ceil(c n)
    return torch.where(bits < 0, 0, (ceil - 1).clamp(0, n_bins - 1))


def _bin_stats(confidence: Tensor, accuracy: Tensor, n_bins: int, weight: Optional[Tensor]) -> State:
    xp = namespace(confidence)  # numpy's search and bincount win at every size
    return _bins(xp, xp.asarray(confidence), xp.asarray(accuracy), n_bins,
                 None if weight is None else xp.asarray(weight), confidence)


def _binary_bin_stats(preds: Tensor, target: Tensor, n_bins: int, weight: Optional[Tensor] = None) -> State:
    """Per-bin count (int64; ``bin_weight``, the float64 weight sum, for a weighted batch), confidence sum and
    accuracy sum (float64, weighted) of one batch."""
    return _bin_stats(preds, target, n_bins, weight)


def _multiclass_bin_stats(preds: Tensor, target: Tensor, n_bins: int, weight: Optional[Tensor] = None) -> State:
    """As :func:`_binary_bin_stats` with the top-1 probability (first maximal class) and its correctness."""
    confidence, predicted = preds.max(dim=1)  # one call for both (numpy's row-wise max is slow for small C)
    return _bin_stats(confidence, predicted == target, n_bins, weight)


def _calibration_error_from_stats(state: State, norm: str) -> Tensor:
    """ECE / RMS / MCE from the bins; a state holds ``bin_count``, ``bin_weight`` or both (unweighted samples
    weigh 1), and ``bin_confidence``/``bin_accuracy`` sums."""
    count = present_sum(state, "bin_count", "bin_weight")
    total = count.sum()
    gap = (state["bin_accuracy"] - state["bin_confidence"]).abs()  # = count_b * gap_b
    safe = torch_namespace().divisor(count)
    if norm == "l1":
        value = gap.sum() / total
    elif norm == "l2":
        value = (gap.square() / safe).sum().div(total).sqrt()
    else:
        value = (gap / safe).max()
    return torch.where(total > 0, value, float("nan"))


def _check_binning(n_bins: int, norm: str) -> None:
    check_positive_int("n_bins", n_bins)
    check_choice("norm", norm, NORMS)


def binary_calibration_error(preds: Tensor, target: Tensor, *, n_bins: int = 15, norm: str = "l1",
                             weight: Optional[Tensor] = None, ignore_index: Optional[int] = None,
                             validate_args: bool = True, from_logits: bool = False) -> Tensor:
    """Binned calibration error of binary probabilities, float64 (the module docstring has the bins and norms).

    ``ECE = sum_b (W_b / W) |acc_b - conf_b|`` (``norm="l1"``), ``sqrt(sum_b (W_b / W) |acc_b - conf_b|²)``
    (``"l2"``) or ``max_b |acc_b - conf_b|`` (``"max"``), over the non-empty bins, with ``W_b`` the bin's
    count (or weight sum), ``acc_b`` its (weighted) fraction of positives and ``conf_b`` its mean predicted
    probability.

    Args:
        preds: ``(N,)`` floating probabilities of the positive class, in [0, 1].
        target: ``(N,)`` integer or bool labels in {0, 1}.
        n_bins: number of equal-width bins (default 15, as torchmetrics).
        norm: ``"l1"`` (ECE), ``"l2"`` (RMS calibration error) or ``"max"`` (MCE).
        ignore_index: samples whose target equals it are left out (torchmetrics' ``ignore_index``).
        weight: optional ``(N,)`` non-negative sample weights (weighted bin counts and sums).
        validate_args: check the value ranges, NaN and the weights' signs (a host sync).
        from_logits: ``preds`` are logits: a sigmoid in their own dtype comes first, as torchmetrics squashes scores
            outside [0, 1] (default ``False``: used as given).

    Returns:
        A float64 (MPS: float32) 0-d tensor; ``nan`` for no sample (or a zero weight sum).

    Raises:
        TypeError, ValueError: as :func:`binary_brier_score`; ``ValueError`` also for a bad ``n_bins`` or
            ``norm``.

    References:
        Naeini, Cooper & Hauskrecht, AAAI 2015 (ECE, MCE); torchmetrics ``binary_calibration_error``.

    Examples:
        >>> preds = torch.tensor([0.25, 0.25, 0.75, 0.75], dtype=torch.float64)
        >>> binary_calibration_error(preds, torch.tensor([0, 0, 1, 0]), n_bins=2).item()  # |0 - .25|/2 + |.5 - .75|/2
        0.25
    """
    _check_binning(n_bins, norm)
    stats = _binary_calibration_error_stats(preds, target, weight, n_bins=n_bins, validate_args=validate_args,
                                            from_logits=from_logits,
                                            ignore_index=check_rank_ignore_index(ignore_index))
    return _calibration_error_from_stats(stats, norm)


def multiclass_calibration_error(preds: Tensor, target: Tensor, *, num_classes: Optional[int] = None, n_bins: int = 15,
                                 norm: str = "l1", weight: Optional[Tensor] = None,
                                 ignore_index: Optional[int] = None, validate_args: bool = True,
                                 from_logits: bool = False) -> Tensor:
    """Binned top-1 calibration error of multiclass probabilities, float64 (the module docstring has the rules).

    As :func:`binary_calibration_error` with the confidence the top-1 probability and the accuracy whether the
    top-1 class (the first among tied maxima) is the target.

    Args:
        preds: ``(N, C)`` floating probabilities in [0, 1].
        target: ``(N,)`` integer class indices in [0, C).
        num_classes: optional; checked against ``C``.
        n_bins, norm, weight, ignore_index, validate_args: as :func:`binary_calibration_error`.
        from_logits: ``preds`` are logits: a softmax over the classes (in their own dtype) comes first, as
            torchmetrics softmaxes scores outside [0, 1] (default ``False``: used as given).

    Returns:
        A float64 (MPS: float32) 0-d tensor; ``nan`` for no sample.

    Raises:
        TypeError, ValueError: as :func:`multiclass_brier_score`; ``ValueError`` also for a bad ``n_bins`` or
            ``norm``.

    References:
        Guo et al., "On calibration of modern neural networks", ICML 2017; torchmetrics
        ``multiclass_calibration_error``.

    Examples:
        >>> preds = torch.tensor([[0.9, 0.1], [0.6, 0.4], [0.3, 0.7]], dtype=torch.float64)
        >>> round(multiclass_calibration_error(preds, torch.tensor([0, 1, 1]), n_bins=10, norm="max").item(), 6)
        0.6
    """
    _check_binning(n_bins, norm)
    if num_classes is not None:
        check_positive_int("num_classes", num_classes)
    stats = _multiclass_calibration_error_stats(preds, target, weight, n_bins=n_bins, num_classes=num_classes,
                                                validate_args=validate_args, from_logits=from_logits,
                                                ignore_index=check_rank_ignore_index(ignore_index))
    return _calibration_error_from_stats(stats, norm)


_compat.advise_exports(globals())  # torchmetrics' arguments get the classes' advice (see _compat.advise)
