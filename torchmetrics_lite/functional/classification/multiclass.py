"""Multiclass classification metrics. The conventions (inputs, ``average``, ``zero_division``, ``ignore_index``,
``top_k``) are stated once, in :mod:`torchmetrics_lite.functional.classification`.

``preds`` are labels (N, ...) or scores (N, C, ...), ``target`` labels (N, ...) in [0, C - 1]. The state of a
batch is the (C, C) confusion matrix (rows: target, columns: prediction), or for ``top_k > 1`` the (3, C) table
of per-class predicted / support / true-positive counts.
"""
from __future__ import annotations

from typing import Optional

from torch import Tensor

from torchmetrics_lite._checks import (
    check_average,
    check_beta,
    check_choice,
    check_ignore_index,
    check_labels,
    check_multiclass_inputs,
    check_positive_int,
    check_top_k,
    check_zero_division,
)
from torchmetrics_lite.functional.classification._stat_scores import (
    NORMALIZE,
    Terms,
    _average,
    _fbeta_terms,
    _multiclass_counts,
    _multiclass_table,
    _normalize,
    _precision_terms,
    _recall_terms,
    _stat_scores,
)

__all__ = ["multiclass_stat_scores", "multiclass_accuracy", "multiclass_precision", "multiclass_recall",
           "multiclass_f1_score", "multiclass_fbeta_score", "multiclass_confusion_matrix"]


def _multiclass_config(num_classes: int, top_k: int, ignore_index: Optional[int]) -> None:
    check_positive_int("num_classes", num_classes)
    check_top_k(top_k, num_classes)
    check_ignore_index(ignore_index)


def _multiclass_stat_scores_stats(preds: Tensor, target: Tensor, num_classes: int, top_k: int,
                                  ignore_index: Optional[int], validate_args: bool) -> Tensor:
    """One batch's state: the (C, C) confusion matrix (``top_k=1``) or the (3, C) top-k table."""
    preds, target = check_multiclass_inputs(preds, target, num_classes=num_classes, top_k=top_k,
                                            ignore_index=ignore_index, validate_args=validate_args)
    try:
        state = _multiclass_table(preds, target, num_classes, top_k, ignore_index, validate_args)
    except (RuntimeError, IndexError):  # a target out of range (see check_multiclass_inputs) says so clearly
        check_labels("target", target, num_classes, ignore_index)
        raise
    return state


def _multiclass_stat_scores_from_stats(state: Tensor, top_k: int, average: str) -> Tensor:
    return _stat_scores(_multiclass_counts(state, top_k), average)


def _multiclass_score_from_stats(state: Tensor, terms: Terms, top_k: int, average: str,
                                 zero_division: float) -> Tensor:
    return _average(_multiclass_counts(state, top_k), terms, average, zero_division, multilabel=False)


def _multiclass_accuracy_from_stats(state: Tensor, top_k: int, average: str, zero_division: float = 0.0) -> Tensor:
    # per class, accuracy is recall (torchmetrics); micro recall is the fraction of samples whose target is hit
    return _multiclass_score_from_stats(state, _recall_terms, top_k, average, zero_division)


def _multiclass_precision_from_stats(state: Tensor, top_k: int, average: str, zero_division: float = 0.0) -> Tensor:
    return _multiclass_score_from_stats(state, _precision_terms, top_k, average, zero_division)


def _multiclass_recall_from_stats(state: Tensor, top_k: int, average: str, zero_division: float = 0.0) -> Tensor:
    return _multiclass_score_from_stats(state, _recall_terms, top_k, average, zero_division)


def _multiclass_fbeta_score_from_stats(state: Tensor, beta: float, top_k: int, average: str,
                                       zero_division: float = 0.0) -> Tensor:
    return _multiclass_score_from_stats(state, _fbeta_terms(beta), top_k, average, zero_division)


def _multiclass_confusion_matrix_from_stats(confmat: Tensor, normalize: Optional[str] = None) -> Tensor:
    return _normalize(confmat, normalize)


def _stats(preds: Tensor, target: Tensor, num_classes: int, top_k: int, ignore_index: Optional[int],
           validate_args: bool) -> Tensor:
    _multiclass_config(num_classes, top_k, ignore_index)
    return _multiclass_stat_scores_stats(preds, target, num_classes, top_k, ignore_index, validate_args)


def multiclass_stat_scores(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro", *,
                           top_k: int = 1, ignore_index: Optional[int] = None, validate_args: bool = True) -> Tensor:
    """One-vs-rest ``[tp, fp, tn, fn, support]`` per class: ``average="none"`` gives (C, 5) int64, ``"micro"``
    their sum (5,) int64, ``"macro"`` their mean and ``"weighted"`` their support-weighted mean (float64).

    >>> import torch
    >>> multiclass_stat_scores(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]), 3, average="none")
    tensor([[1, 0, 3, 0, 1],
            [1, 1, 1, 1, 2],
            [0, 1, 2, 1, 1]])
    """
    average = check_average(average)
    state = _stats(preds, target, num_classes, top_k, ignore_index, validate_args)
    return _multiclass_stat_scores_from_stats(state, top_k, average)


def multiclass_accuracy(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro", *,
                        top_k: int = 1, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                        validate_args: bool = True) -> Tensor:
    """Accuracy. ``"micro"``: the fraction of samples whose target is predicted (is among the top k): top-k
    accuracy. Per class it is the recall ``tp / (tp + fn)``, so ``"macro"`` is the balanced accuracy (with
    ``zero_division=nan``, classes predicted but absent from the targets are left out, as scikit-learn's
    ``balanced_accuracy_score``; with the default 0.0 they count as 0, as torchmetrics).

    >>> import torch
    >>> target = torch.tensor([0] * 6 + [1] * 3 + [2] * 3)
    >>> preds = torch.tensor([0, 0, 0, 0, 1, 2, 0, 1, 1, 1, 2, 2])
    >>> round(multiclass_accuracy(preds, target, 3, average="micro").item(), 4)
    0.6667
    """
    average, zd = check_average(average), check_zero_division(zero_division)
    state = _stats(preds, target, num_classes, top_k, ignore_index, validate_args)
    return _multiclass_accuracy_from_stats(state, top_k, average, zd)


def multiclass_precision(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro", *,
                         top_k: int = 1, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                         validate_args: bool = True) -> Tensor:
    """Precision ``tp / (tp + fp)`` per class, averaged. ``"micro"`` equals accuracy for ``top_k=1``; with
    ``top_k=k`` every sample makes k predictions, so micro precision is (hits) / (k N).

    The 3-class confusion matrix with rows (targets) [4, 1, 1], [1, 2, 0], [0, 1, 2] has column sums 5, 4, 3,
    per-class precision 4/5, 2/4, 2/3, macro precision 0.6556 and micro precision 8/12:

    >>> import torch
    >>> target = torch.tensor([0] * 6 + [1] * 3 + [2] * 3)
    >>> preds = torch.tensor([0, 0, 0, 0, 1, 2, 0, 1, 1, 1, 2, 2])
    >>> multiclass_confusion_matrix(preds, target, 3)
    tensor([[4, 1, 1],
            [1, 2, 0],
            [0, 1, 2]])
    >>> round(multiclass_precision(preds, target, 3).item(), 4), round(multiclass_precision(preds, target, 3,
    ...     average="micro").item(), 4)
    (0.6556, 0.6667)
    """
    average, zd = check_average(average), check_zero_division(zero_division)
    state = _stats(preds, target, num_classes, top_k, ignore_index, validate_args)
    return _multiclass_precision_from_stats(state, top_k, average, zd)


def multiclass_recall(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro", *,
                      top_k: int = 1, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                      validate_args: bool = True) -> Tensor:
    """Recall ``tp / (tp + fn)`` per class, averaged (``"macro"`` over classes in targets or predictions).

    >>> import torch
    >>> target = torch.tensor([0] * 6 + [1] * 3 + [2] * 3)
    >>> preds = torch.tensor([0, 0, 0, 0, 1, 2, 0, 1, 1, 1, 2, 2])
    >>> multiclass_recall(preds, target, 3, average=None)
    tensor([0.6667, 0.6667, 0.6667], dtype=torch.float64)
    """
    average, zd = check_average(average), check_zero_division(zero_division)
    state = _stats(preds, target, num_classes, top_k, ignore_index, validate_args)
    return _multiclass_recall_from_stats(state, top_k, average, zd)


def multiclass_fbeta_score(preds: Tensor, target: Tensor, beta: float, num_classes: int,
                           average: Optional[str] = "macro", *, top_k: int = 1, ignore_index: Optional[int] = None,
                           zero_division: float = 0.0, validate_args: bool = True) -> Tensor:
    """F-beta ``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)`` per class, averaged; ``"macro"`` is the mean of
    the per-class scores (not the F-beta of macro precision and macro recall).

    >>> import torch
    >>> target = torch.tensor([0] * 6 + [1] * 3 + [2] * 3)
    >>> preds = torch.tensor([0, 0, 0, 0, 1, 2, 0, 1, 1, 1, 2, 2])
    >>> multiclass_fbeta_score(preds, target, 0.5, 3, average=None)
    tensor([0.7692, 0.5263, 0.6667], dtype=torch.float64)
    """
    check_beta(beta)
    average, zd = check_average(average), check_zero_division(zero_division)
    state = _stats(preds, target, num_classes, top_k, ignore_index, validate_args)
    return _multiclass_fbeta_score_from_stats(state, beta, top_k, average, zd)


def multiclass_f1_score(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro", *,
                        top_k: int = 1, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                        validate_args: bool = True) -> Tensor:
    """F1 ``2 tp / (2 tp + fn + fp)`` per class, averaged; macro F1 is the mean of the per-class F1 scores.

    >>> import torch
    >>> target = torch.tensor([0] * 6 + [1] * 3 + [2] * 3)
    >>> preds = torch.tensor([0, 0, 0, 0, 1, 2, 0, 1, 1, 1, 2, 2])
    >>> round(multiclass_f1_score(preds, target, 3).item(), 4)  # mean of 8/11, 4/7, 2/3
    0.6551
    """
    average, zd = check_average(average), check_zero_division(zero_division)
    state = _stats(preds, target, num_classes, top_k, ignore_index, validate_args)
    return _multiclass_fbeta_score_from_stats(state, 1.0, top_k, average, zd)


def multiclass_confusion_matrix(preds: Tensor, target: Tensor, num_classes: int, normalize: Optional[str] = None, *,
                                ignore_index: Optional[int] = None, validate_args: bool = True) -> Tensor:
    """The (C, C) confusion matrix, rows the target and columns the predicted class (int64);
    ``normalize="true" | "pred" | "all"`` divides by row sums, column sums or the total (float64, 0/0 = 0).

    >>> import torch
    >>> multiclass_confusion_matrix(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]), 3, normalize="true")
    tensor([[1.0000, 0.0000, 0.0000],
            [0.0000, 0.5000, 0.5000],
            [0.0000, 1.0000, 0.0000]], dtype=torch.float64)
    """
    check_choice("normalize", normalize, NORMALIZE)
    state = _stats(preds, target, num_classes, 1, ignore_index, validate_args)
    return _multiclass_confusion_matrix_from_stats(state, normalize)
