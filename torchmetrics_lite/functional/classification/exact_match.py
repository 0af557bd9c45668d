"""Exact match (subset accuracy): the fraction of samples whose every label (multilabel) or every position
(multiclass inputs with extra dimensions, ``(N, ...)``) is right.

Unlike the other classification metrics it needs per-sample statistics (a sample is right only if all of its
labels are), so it cannot be read from the confusion matrices: its state is the pair ``(correct,
total)`` of (weighted) sample counts, and it shares no ``stats_key`` with them. Conventions:
:mod:`torchmetrics_lite.functional.classification`.
"""
from __future__ import annotations

import math
from typing import Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_labels,
    check_multiclass_inputs,
    check_multilabel_inputs,
    check_no_nan,
    check_sample_weight,
    check_samplewise,
    check_weighted_update,
    check_zero_division,
    fused_multiclass_checks,
)
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import (
    _bits_argmax,
    _fixed_counts,
    _numpy_exact_match,
    _positive,
    _safe_divide,
    _warn_empty,
)
from torchmetrics_lite.functional.classification.multiclass import _multiclass_config
from torchmetrics_lite.functional.classification.multilabel import _multilabel_config

__all__ = ["multilabel_exact_match", "multiclass_exact_match"]


def _exact_match_counts(right: Tensor, weight: Optional[Tensor], samples: Optional[int] = None) -> Dict[str, Tensor]:
    """``{"correct", "total"}`` of (M, S) per-position outcomes: int64 sample counts, or float64 sums of the (M,)
    ``weight``; ``samples`` (torchmetrics' ``multidim_average="samplewise"``): the M rows are that many samples'
    rows, sample-major, and the counts are (samples,) rows, one per sample."""
    correct = right.all(dim=1)
    if samples is not None:
        per_sample = correct.reshape(samples, -1)
        return {"correct": per_sample.sum(1), "total": torch.full((samples,), per_sample.shape[1],
                                                                  device=correct.device, dtype=torch.int64)}
    if weight is None:
        return {"correct": correct.sum(), "total": torch.tensor(correct.shape[0], device=correct.device)}
    w = weight.to(float_dtype(weight.device))
    return {"correct": (w * correct).sum(), "total": w.sum()}


def _multilabel_exact_match_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, num_labels: int,
                                  cut: float, from_logits: bool, ignore_index: Optional[int], validate_args: bool,
                                  weighted: Optional[bool] = None, multidim_average: str = "global"
                                  ) -> Dict[str, Tensor]:
    """``{"correct", "total"}`` of one batch: int64 sample counts, or float64 sums of ``weight`` (``weighted``: a
    module's fixed choice, see ``_fixed_counts``); ``multidim_average="samplewise"``: one row per sample (the
    positions of its extra dimensions whose every label is right, and their number)."""
    if weighted is not None:
        check_weighted_update(weighted, weight)
    samples = preds.shape[0] if check_samplewise(multidim_average, "preds", preds, 3, weight) else None
    return _fixed_counts(_multilabel_exact_match_counts(preds, target, num_labels, cut, from_logits, ignore_index,
                                                        validate_args, weight, samples), weighted)


def _multilabel_exact_match_counts(preds: Tensor, target: Tensor, num_labels: int, cut: float, from_logits: bool,
                                   ignore_index: Optional[int], validate_args: bool,
                                   weight: Optional[Tensor], samples: Optional[int] = None) -> Dict[str, Tensor]:
    preds, target, weight = check_multilabel_inputs(preds, target, num_labels=num_labels, from_logits=from_logits,
                                                    ignore_index=ignore_index, validate_args=validate_args,
                                                    weight=weight)
    right = _positive(preds, cut) == target.to(dtype=torch.int64)
    if ignore_index is not None:
        right = right | (target == ignore_index)
    return _exact_match_counts(right, weight, samples)


def _multilabel_exact_match_from_stats(state: Dict[str, Tensor], *, zero_division: float = 0.0) -> Tensor:
    return _safe_divide(state["correct"], state["total"], zero_division)


@fill_doc
def multilabel_exact_match(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5, *,
                           from_logits: bool = False, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                           multidim_average: str = "global", validate_args: bool = True,
                           weight: Optional[Tensor] = None) -> Tensor:
    """Exact match ``#{samples with every label right} / #{samples}`` (scikit-learn's multilabel
    ``accuracy_score``). Inputs ``(N, L, ...)``: each position of the extra dimensions is a sample (torchmetrics);
    with ``multidim_average="samplewise"`` the value is per sample, the fraction of its positions whose every
    label is right, ``(N,)``.

    Args:
        multidim_average: ``"global"`` (default) or torchmetrics' ``"samplewise"`` (inputs with at least 3
            dimensions; no ``weight``).
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        {from_logits}
        ignore_index: label entries whose target equals it count as right (torchmetrics' rule); the sample
            still counts.
        {zero_division}
        {validate_args}
        {weight_multilabel}

    Returns:
        A float64 scalar (``(N,)`` samplewise); no sample gives ``zero_division``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``accuracy_score`` on label indicators (subset accuracy).

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[1, 0], [1, 1], [0, 1]]), torch.tensor([[1, 0], [0, 1], [0, 1]])
        >>> round(multilabel_exact_match(preds, target, 2).item(), 4)
        0.6667
    """
    cut = _multilabel_config(num_labels, threshold, from_logits, ignore_index)
    zd = check_zero_division(zero_division)
    stats = _multilabel_exact_match_stats(preds, target, weight, num_labels=num_labels, cut=cut,
                                          from_logits=from_logits, ignore_index=ignore_index,
                                          validate_args=validate_args, multidim_average=multidim_average)
    _warn_empty(stats, target)
    return _multilabel_exact_match_from_stats(stats, zero_division=zd)


def _multiclass_exact_match_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, num_classes: int,
                                  ignore_index: Optional[int], validate_args: bool,
                                  weighted: Optional[bool] = None, multidim_average: str = "global"
                                  ) -> Dict[str, Tensor]:
    """``{"correct", "total"}`` of one batch of (N, ...) labels or (N, C, ...) scores: a sample is right when the
    predicted label (``argmax``) of every position of it is its target or ``ignore_index`` (``weighted``: a
    module's fixed choice, see ``_fixed_counts``); ``multidim_average="samplewise"``: one row per sample (1 when
    it is right, of 1)."""
    if weighted is not None:
        check_weighted_update(weighted, weight)
    samplewise = check_samplewise(multidim_average, "target", target, 2, weight)
    return _fixed_counts(_multiclass_exact_match_counts(preds, target, num_classes, ignore_index, validate_args,
                                                        weight, samplewise), weighted)


def _multiclass_exact_match_counts(preds: Tensor, target: Tensor, num_classes: int, ignore_index: Optional[int],
                                   validate_args: bool, weight: Optional[Tensor],
                                   samplewise: bool = False) -> Dict[str, Tensor]:
    checked, flat, _ = check_multiclass_inputs(preds, target, num_classes=num_classes, top_k=1,
                                               ignore_index=ignore_index, validate_args=validate_args)
    n = target.shape[0] if target.dim() else 1
    weight = check_sample_weight(weight, (n,), validate_args=validate_args)
    fused = validate_args and fused_multiclass_checks(1, ignore_index, flat, None)  # the count checks nothing here
    if weight is None and ignore_index is None and not samplewise:
        counts = _numpy_exact_match(checked, flat, n, num_classes, fused)
        if counts is not None:
            return {"correct": counts[0], "total": counts[1]}
    if fused:
        check_labels("target", flat, num_classes)
    labels = _bits_argmax(checked) if checked.dim() == 2 else checked
    if labels is None:  # scores the bits could not read (they saw no NaN where they could)
        if fused:
            check_no_nan("preds", checked)
        labels = checked.max(dim=1).indices if checked.is_cpu else checked.argmax(dim=1)  # as _multiclass_labels
    right = labels == flat
    if ignore_index is not None:
        right = right | (flat == ignore_index)
    rows = right.reshape(n, math.prod(target.shape[1:]))
    return _exact_match_counts(rows, weight, n if samplewise else None)


@fill_doc
def multiclass_exact_match(preds: Tensor, target: Tensor, num_classes: int, *, ignore_index: Optional[int] = None,
                           zero_division: float = 0.0, multidim_average: str = "global", validate_args: bool = True,
                           weight: Optional[Tensor] = None) -> Tensor:
    """Exact match ``#{samples with every position right} / #{samples}`` of multiclass inputs with extra
    dimensions (a sequence of labels per sample, as in tagging or segmentation); with (N,) targets it is the
    accuracy. ``multidim_average="samplewise"``: per sample, 1 when every position is right, else 0, ``(N,)``.

    Args:
        multidim_average: ``"global"`` (default) or torchmetrics' ``"samplewise"`` (targets with at least 2
            dimensions; no ``weight``).
        preds: labels (N, ...) (integer) or scores (N, C, ...) (floating; ``argmax`` over the class axis 1).
        {target_multiclass}
        {num_classes}
        ignore_index: positions whose target equals it count as right (torchmetrics' rule); the sample still
            counts.
        {zero_division}
        {validate_args}
        weight: optional non-negative, finite sample weights (N,), one per sample (scikit-learn's
            ``sample_weight``). Counts become float64 sums of weights.

    Returns:
        A float64 scalar (``(N,)`` samplewise); no sample gives ``zero_division``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        torchmetrics' ``multiclass_exact_match``.

    Examples:
        >>> import torch
        >>> target = torch.tensor([[0, 1, 2], [1, 1, 0]])
        >>> preds = torch.tensor([[0, 1, 2], [1, 0, 0]])  # the second sample has one wrong position
        >>> multiclass_exact_match(preds, target, 3)
        tensor(0.5000, dtype=torch.float64)
    """
    _multiclass_config(num_classes, 1, ignore_index)
    zd = check_zero_division(zero_division)
    stats = _multiclass_exact_match_stats(preds, target, weight, num_classes=num_classes, ignore_index=ignore_index,
                                          validate_args=validate_args, multidim_average=multidim_average)
    _warn_empty(stats, target)
    return _multilabel_exact_match_from_stats(stats, zero_division=zd)
