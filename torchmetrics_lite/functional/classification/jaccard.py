"""Jaccard index (intersection over union) ``tp / (tp + fp + fn)``, binary, multiclass and multilabel: a score of
the shared confusion-matrix statistics (conventions: :mod:`torchmetrics_lite.functional.classification`).

Multiclass with ``ignore_index`` inside [0, C): as torchmetrics, the ignored class is also left out of the
averages (its predictions, all false positives, leave the micro denominator and the class leaves the macro mean);
``average="none"`` still lists it.
"""
from __future__ import annotations

from typing import Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import SAMPLE_AVERAGES, check_absent, check_average, check_zero_division
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import (
    _average,
    _jaccard_terms,
    _multiclass_counts,
    _safe_divide,
)
from torchmetrics_lite.functional.classification.binary import _binary_score
from torchmetrics_lite.functional.classification.multiclass import _multiclass_stats
from torchmetrics_lite.functional.classification.multilabel import _score as _multilabel_score

__all__ = ["binary_jaccard_index", "multiclass_jaccard_index", "multilabel_jaccard_index"]


def _multiclass_jaccard_index_from_stats(state: Dict[str, Tensor], *, average: str, zero_division: float = 0.0,
                                         ignore_index: Optional[int] = None, absent: str = "ignore") -> Tensor:
    confmat = state["confmat"]
    counts = _multiclass_counts(confmat)
    tp, fp, _, fn = counts
    dropped = ignore_index if ignore_index is not None and 0 <= ignore_index < confmat.shape[0] else None
    if average == "micro":
        den = tp + fp + fn
        total = den.sum() - (den[dropped] if dropped is not None else 0)
        return _safe_divide(tp.sum(), total, zero_division)
    present = tp + fp + fn > 0 if absent == "ignore" else torch.ones_like(tp, dtype=torch.bool)
    if dropped is not None:
        present[dropped] = False
    return _average(counts, _jaccard_terms, average, zero_division, present)


@fill_doc
def binary_jaccard_index(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                         ignore_index: Optional[int] = None, zero_division: float = 0.0, validate_args: bool = True,
                         weight: Optional[Tensor] = None) -> Tensor:
    """Jaccard index ``tp / (tp + fp + fn)`` of the positive class.

    Args:
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {validate_args}
        {weight}

    Returns:
        A float64 scalar; ``tp = fp = fn = 0`` gives ``zero_division``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        Jaccard, P. (1912), "The distribution of the flora in the alpine zone"; scikit-learn's ``jaccard_score``.

    Examples:
        >>> import torch
        >>> binary_jaccard_index(torch.tensor([1, 0, 1, 0, 1]), torch.tensor([1, 0, 0, 1, 1]))
        tensor(0.5000, dtype=torch.float64)
    """
    return _binary_score(preds, target, _jaccard_terms, threshold, from_logits, ignore_index, zero_division,
                         validate_args, weight)


@fill_doc
def multiclass_jaccard_index(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro", *,
                             ignore_index: Optional[int] = None, zero_division: float = 0.0, absent: str = "ignore",
                             validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """One-vs-rest Jaccard index ``tp / (tp + fp + fn)`` per class (intersection over union), averaged.

    Args:
        {preds_multiclass}
        {target_multiclass}
        {num_classes}
        {average}
        {ignore_index}
        {zero_division}
        {absent}
        {validate_args}
        {weight}

    Returns:
        float64, a scalar or (C,) for ``average="none"``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``jaccard_score``; torchmetrics' ``multiclass_jaccard_index`` (its ``ignore_index`` rule).

    Examples:
        >>> import torch
        >>> multiclass_jaccard_index(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]), 3, average=None)
        tensor([1.0000, 0.3333, 0.0000], dtype=torch.float64)
    """
    avg, zd = check_average(average), check_zero_division(zero_division)
    check_absent(absent)
    stats = _multiclass_stats(preds, target, num_classes, 1, ignore_index, validate_args, weight)
    return _multiclass_jaccard_index_from_stats(stats, average=avg, zero_division=zd, ignore_index=ignore_index,
                                                absent=absent)


@fill_doc
def multilabel_jaccard_index(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5,
                             average: Optional[str] = "macro", *, from_logits: bool = False,
                             ignore_index: Optional[int] = None, zero_division: float = 0.0,
                             validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Jaccard index ``tp / (tp + fp + fn)`` per label, averaged.

    Args:
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        {average_multilabel_samples}
        {from_logits}
        {ignore_index}
        {zero_division}
        {validate_args}
        {weight_multilabel}

    Returns:
        float64, a scalar or (L,) for ``average="none"``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``jaccard_score`` on multilabel indicators.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [0, 1]])
        >>> multilabel_jaccard_index(preds, target, 2, average=None)
        tensor([0.5000, 0.5000], dtype=torch.float64)
    """
    return _multilabel_score(preds, target, _jaccard_terms, num_labels, threshold, average, from_logits,
                             ignore_index, zero_division, validate_args, weight, averages=SAMPLE_AVERAGES)
