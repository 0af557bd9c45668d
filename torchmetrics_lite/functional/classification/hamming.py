"""Hamming distance (Hamming loss), binary and multiclass: the fraction of wrong decisions, a score of the shared
confusion-matrix statistics (the multilabel form is in :mod:`~torchmetrics_lite.functional.classification.multilabel`;
conventions: :mod:`torchmetrics_lite.functional.classification`).

A 0/0 distance (nothing counted) is ``zero_division``, default 1.0 here: torchmetrics computes the distance as
``1 - accuracy`` with a 0/0 accuracy of 0, so a class without support has distance 1 there too.
"""
from __future__ import annotations

from typing import Optional

from torch import Tensor

from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import _hamming_terms, _miss_terms
from torchmetrics_lite.functional.classification.binary import _binary_score
from torchmetrics_lite.functional.classification.multiclass import _multiclass_score

__all__ = ["binary_hamming_distance", "multiclass_hamming_distance"]


@fill_doc
def binary_hamming_distance(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                            ignore_index: Optional[int] = None, zero_division: float = 1.0,
                            multidim_average: str = "global",
                            validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Hamming distance ``(fp + fn) / (tp + fp + tn + fn)``: the fraction of wrong decisions, ``1 - accuracy``.

    Args:
        {multidim_average}
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        zero_division: the value when no sample is counted (default 1.0, torchmetrics' value there).
        {validate_args}
        {weight}

    Returns:
        A float64 scalar; no sample counted gives ``zero_division``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``hamming_loss``; torchmetrics' ``binary_hamming_distance``.

    Examples:
        >>> import torch
        >>> binary_hamming_distance(torch.tensor([1, 0, 1, 0, 1]), torch.tensor([1, 0, 0, 0, 1]))
        tensor(0.2000, dtype=torch.float64)
    """
    return _binary_score(preds, target, _hamming_terms, threshold, from_logits, ignore_index, zero_division,
                         validate_args, weight, multidim_average=multidim_average)


@fill_doc
def multiclass_hamming_distance(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro",
                                *, top_k: int = 1, ignore_index: Optional[int] = None, zero_division: float = 1.0,
                                absent: str = "ignore",
                                multidim_average: str = "global",
                                validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Hamming distance per class ``fn / (tp + fn)`` (``1 - recall``: the fraction of the class's samples whose
    predicted label is wrong), averaged; ``"micro"`` is the fraction of wrong predictions, scikit-learn's
    ``hamming_loss`` (``1 - accuracy``).

    Args:
        {multidim_average}
        {preds_multiclass}
        {target_multiclass}
        {num_classes}
        average: ``"micro"``, ``"macro"`` (default: the mean over the classes present in the targets or
            predictions, at every ``top_k``, as torchmetrics), ``"weighted"`` (by support) or ``"none"``.
        {top_k}
        {ignore_index}
        zero_division: the distance of a class without support (default 1.0, torchmetrics' value); with
            ``float('nan')`` such classes are left out of macro/weighted means.
        {absent}
        {validate_args}
        {weight}

    Returns:
        float64, a scalar or (C,) for ``average="none"``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``hamming_loss``; torchmetrics' ``multiclass_hamming_distance``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2])
        >>> multiclass_hamming_distance(preds, target, 3, average=None)
        tensor([0.0000, 0.5000, 1.0000], dtype=torch.float64)
        >>> multiclass_hamming_distance(preds, target, 3, average="micro")  # two of four wrong
        tensor(0.5000, dtype=torch.float64)
    """
    return _multiclass_score(preds, target, _miss_terms, num_classes, average, top_k, ignore_index,
                             zero_division, validate_args, weight, by_support=False, multidim_average=multidim_average,
                             absent=absent)
