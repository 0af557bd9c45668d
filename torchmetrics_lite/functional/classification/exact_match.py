"""Multilabel exact match (subset accuracy): the fraction of samples whose every label is right.

Unlike the other classification metrics it needs per-sample statistics (a sample is right only if all of its
labels are), so it cannot be read from the per-label confusion matrices: its state is the pair ``(correct,
total)`` of (weighted) sample counts, and it shares no ``stats_key`` with them. Conventions:
:mod:`torchmetrics_lite.functional.classification`.
"""
from __future__ import annotations

from typing import Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_multilabel_inputs, check_weighted_update, check_zero_division
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import _fixed_counts, _positive, _safe_divide
from torchmetrics_lite.functional.classification.multilabel import _multilabel_config

__all__ = ["multilabel_exact_match"]


def _multilabel_exact_match_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, num_labels: int,
                                  cut: float, from_logits: bool, ignore_index: Optional[int], validate_args: bool,
                                  weighted: Optional[bool] = None) -> Dict[str, Tensor]:
    """``{"correct", "total"}`` of one batch: int64 sample counts, or float64 sums of ``weight`` (``weighted``: a
    module's fixed choice, see ``_fixed_counts``)."""
    if weighted is not None:
        check_weighted_update(weighted, weight)
    return _fixed_counts(_exact_match_counts(preds, target, num_labels, cut, from_logits, ignore_index,
                                             validate_args, weight), weighted)


def _exact_match_counts(preds: Tensor, target: Tensor, num_labels: int, cut: float, from_logits: bool,
                        ignore_index: Optional[int], validate_args: bool,
                        weight: Optional[Tensor]) -> Dict[str, Tensor]:
    preds, target, weight = check_multilabel_inputs(preds, target, num_labels=num_labels, from_logits=from_logits,
                                                    ignore_index=ignore_index, validate_args=validate_args,
                                                    weight=weight)
    right = _positive(preds, cut) == target.to(torch.int64)
    if ignore_index is not None:
        right = right | (target == ignore_index)
    correct = right.all(dim=1)
    if weight is None:
        return {"correct": correct.sum(), "total": torch.tensor(correct.shape[0], device=correct.device)}
    w = weight.to(float_dtype(weight.device))
    return {"correct": (w * correct).sum(), "total": w.sum()}


def _multilabel_exact_match_from_stats(state: Dict[str, Tensor], *, zero_division: float = 0.0) -> Tensor:
    return _safe_divide(state["correct"], state["total"], zero_division)


@fill_doc
def multilabel_exact_match(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5, *,
                           from_logits: bool = False, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                           validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Exact match ``#{samples with every label right} / #{samples}`` (scikit-learn's multilabel
    ``accuracy_score``).

    Args:
        {multilabel_args}
        {from_logits}
        ignore_index: label entries whose target equals it count as right (torchmetrics' rule); the sample
            still counts.
        {zero_division}
        {validate_args}
        {weight_multilabel}

    Returns:
        A float64 scalar; no sample gives ``zero_division``.

    Raises:
        {raises}

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
                                          validate_args=validate_args)
    return _multilabel_exact_match_from_stats(stats, zero_division=zd)
