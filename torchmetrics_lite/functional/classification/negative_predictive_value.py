"""Negative predictive value ``tn / (tn + fn)``, binary, multiclass (one-vs-rest) and multilabel: a score of the
shared confusion-matrix statistics (conventions: :mod:`torchmetrics_lite.functional.classification`)."""
from __future__ import annotations

from typing import Optional

from torch import Tensor

from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import _npv_terms
from torchmetrics_lite.functional.classification.binary import _binary_score
from torchmetrics_lite.functional.classification.multiclass import _multiclass_score
from torchmetrics_lite.functional.classification.multilabel import _score as _multilabel_score

__all__ = ["binary_negative_predictive_value", "multiclass_negative_predictive_value",
           "multilabel_negative_predictive_value"]


@fill_doc
def binary_negative_predictive_value(preds: Tensor, target: Tensor, threshold: float = 0.5, *,
                                     from_logits: bool = False, ignore_index: Optional[int] = None,
                                     zero_division: float = 0.0, multidim_average: str = "global",
                                     validate_args: bool = True,
                                     weight: Optional[Tensor] = None) -> Tensor:
    """Negative predictive value ``tn / (tn + fn)``: the precision of the negative calls.

    Args:
        {multidim_average}
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {validate_args}
        {weight}

    Returns:
        A float64 scalar; no negative prediction gives ``zero_division``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn: ``precision_score(..., pos_label=0)``; torchmetrics' ``binary_negative_predictive_value``.

    Examples:
        >>> import torch
        >>> binary_negative_predictive_value(torch.tensor([1, 0, 1, 0, 0]), torch.tensor([1, 0, 0, 1, 0]))
        tensor(0.6667, dtype=torch.float64)
    """
    return _binary_score(preds, target, _npv_terms, threshold, from_logits, ignore_index, zero_division,
                         validate_args, weight, multidim_average=multidim_average)


@fill_doc
def multiclass_negative_predictive_value(preds: Tensor, target: Tensor, num_classes: int,
                                         average: Optional[str] = "macro", *, top_k: int = 1,
                                         ignore_index: Optional[int] = None, zero_division: float = 0.0,
                                         absent: str = "ignore",
                                         multidim_average: str = "global",
                                         validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """One-vs-rest negative predictive value ``tn / (tn + fn)`` per class (of the samples not predicted as
    class c, the fraction whose target is not c), averaged.

    Args:
        {multidim_average}
        {preds_multiclass}
        {target_multiclass}
        {num_classes}
        {average}
        {top_k}
        {ignore_index}
        {zero_division}
        {absent}
        {validate_args}
        {weight}

    Returns:
        float64, a scalar or (C,) for ``average="none"``. The macro mean runs over the classes present in the
        targets or predictions, with ``top_k > 1`` over those present in the targets (torchmetrics).

    Raises:
        {raises_value}
        {raises_type}

    References:
        torchmetrics' ``multiclass_negative_predictive_value``.

    Examples:
        Class 1 is predicted for samples 2 and 3 only; of the other two (targets 0 and 1) one is not class 1:

        >>> import torch
        >>> multiclass_negative_predictive_value(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]), 3,
        ...                                      average=None)
        tensor([1.0000, 0.5000, 0.6667], dtype=torch.float64)
    """
    return _multiclass_score(preds, target, _npv_terms, num_classes, average, top_k, ignore_index,
                             zero_division, validate_args, weight, by_support=True, multidim_average=multidim_average,
                             absent=absent)


@fill_doc
def multilabel_negative_predictive_value(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5,
                                         average: Optional[str] = "macro", *, from_logits: bool = False,
                                         ignore_index: Optional[int] = None, zero_division: float = 0.0,
                                         multidim_average: str = "global",
                                         validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Negative predictive value ``tn / (tn + fn)`` per label, averaged.

    Args:
        {multidim_average}
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        {average_multilabel}
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
        torchmetrics' ``multilabel_negative_predictive_value``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [1, 1]])
        >>> multilabel_negative_predictive_value(preds, target, 2, average=None)
        tensor([0., 1.], dtype=torch.float64)
    """
    return _multilabel_score(preds, target, _npv_terms, num_labels, threshold, average, from_logits,
                             ignore_index, zero_division, validate_args, weight, multidim_average=multidim_average)
