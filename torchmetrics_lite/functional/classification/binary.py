"""Binary classification metrics (conventions: :mod:`torchmetrics_lite.functional.classification`).

``preds`` and ``target`` have any equal shapes; the state of a batch is the 2x2 confusion matrix
``[[tn, fp], [fn, tp]]`` (rows: target, columns: prediction).
"""
from __future__ import annotations

from typing import Optional

from torch import Tensor

from torchmetrics_lite._checks import (
    check_beta,
    check_binary_inputs,
    check_choice,
    check_ignore_index,
    check_threshold,
    check_zero_division,
)
from torchmetrics_lite.functional.classification._stat_scores import (
    NORMALIZE,
    _accuracy_terms,
    _average,
    _binary_confmat,
    _counts_2x2,
    _fbeta_terms,
    _normalize,
    _precision_terms,
    _recall_terms,
    _stat_scores,
)

__all__ = [
    "binary_stat_scores", "binary_accuracy", "binary_precision", "binary_recall", "binary_f1_score",
    "binary_fbeta_score", "binary_confusion_matrix",
]


# ------------------------------------------------------------------------------------------ stats, config
def _binary_config(threshold: float, from_logits: bool, ignore_index: Optional[int]) -> float:
    """Validate the options; returns the cut on ``preds``."""
    check_ignore_index(ignore_index)
    return check_threshold(threshold, from_logits)


def _binary_stat_scores_stats(preds: Tensor, target: Tensor, cut: float, from_logits: bool,
                              ignore_index: Optional[int], validate_args: bool) -> Tensor:
    """The (2, 2) confusion matrix ``[[tn, fp], [fn, tp]]`` of one batch: the state of every binary metric."""
    preds, target = check_binary_inputs(preds, target, from_logits=from_logits, ignore_index=ignore_index,
                                        validate_args=validate_args)
    return _binary_confmat(preds, target, cut, ignore_index)


def _binary_stat_scores_from_stats(confmat: Tensor) -> Tensor:
    return _stat_scores(_counts_2x2(confmat), "micro")


def _binary_accuracy_from_stats(confmat: Tensor, zero_division: float = 0.0) -> Tensor:
    return _average(_counts_2x2(confmat), _accuracy_terms, "micro", zero_division, multilabel=False)


def _binary_precision_from_stats(confmat: Tensor, zero_division: float = 0.0) -> Tensor:
    return _average(_counts_2x2(confmat), _precision_terms, "micro", zero_division, multilabel=False)


def _binary_recall_from_stats(confmat: Tensor, zero_division: float = 0.0) -> Tensor:
    return _average(_counts_2x2(confmat), _recall_terms, "micro", zero_division, multilabel=False)


def _binary_fbeta_score_from_stats(confmat: Tensor, beta: float, zero_division: float = 0.0) -> Tensor:
    return _average(_counts_2x2(confmat), _fbeta_terms(beta), "micro", zero_division, multilabel=False)


def _binary_confusion_matrix_from_stats(confmat: Tensor, normalize: Optional[str] = None) -> Tensor:
    return _normalize(confmat, normalize)


def _stats(preds: Tensor, target: Tensor, threshold: float, from_logits: bool, ignore_index: Optional[int],
           validate_args: bool) -> Tensor:
    cut = _binary_config(threshold, from_logits, ignore_index)
    return _binary_stat_scores_stats(preds, target, cut, from_logits, ignore_index, validate_args)


# ------------------------------------------------------------------------------------------------ binary
def binary_stat_scores(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                       ignore_index: Optional[int] = None, validate_args: bool = True) -> Tensor:
    """``[tp, fp, tn, fn, support]`` (int64, shape (5,)) of binary inputs of any equal shapes.

    >>> import torch
    >>> binary_stat_scores(torch.tensor([0.9, 0.2, 0.6, 0.4]), torch.tensor([1, 0, 0, 1]))
    tensor([1, 1, 1, 1, 2])
    """
    return _binary_stat_scores_from_stats(_stats(preds, target, threshold, from_logits, ignore_index, validate_args))


def binary_accuracy(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                    ignore_index: Optional[int] = None, zero_division: float = 0.0,
                    validate_args: bool = True) -> Tensor:
    """``(tp + tn) / (tp + fp + tn + fn)`` (float64 scalar); no sample counted gives ``zero_division``.

    An always-negative model on 1,000 examples with 10 positives is 99% accurate and finds nothing:

    >>> import torch
    >>> target = torch.zeros(1000, dtype=torch.long); target[:10] = 1
    >>> never = torch.zeros(1000)
    >>> binary_accuracy(never, target).item(), binary_recall(never, target).item()
    (0.99, 0.0)
    >>> binary_accuracy(torch.tensor([1, 1, 1, 0, 1, 1, 0, 0, 0, 0]), torch.tensor([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]))
    tensor(0.7000, dtype=torch.float64)
    """
    zd = check_zero_division(zero_division)
    return _binary_accuracy_from_stats(_stats(preds, target, threshold, from_logits, ignore_index, validate_args), zd)


def binary_precision(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                     ignore_index: Optional[int] = None, zero_division: float = 0.0,
                     validate_args: bool = True) -> Tensor:
    """Precision ``tp / (tp + fp)`` (float64 scalar); no predicted positive gives ``zero_division``.

    >>> import torch
    >>> target, calls = torch.tensor([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]), torch.tensor([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
    >>> binary_precision(calls, target)
    tensor(0.6000, dtype=torch.float64)
    """
    zd = check_zero_division(zero_division)
    return _binary_precision_from_stats(_stats(preds, target, threshold, from_logits, ignore_index, validate_args), zd)


def binary_recall(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                  ignore_index: Optional[int] = None, zero_division: float = 0.0, validate_args: bool = True) -> Tensor:
    """Recall (sensitivity) ``tp / (tp + fn)`` (float64 scalar); no positive target gives ``zero_division``.

    >>> import torch
    >>> target, calls = torch.tensor([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]), torch.tensor([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
    >>> binary_recall(calls, target)
    tensor(0.7500, dtype=torch.float64)
    """
    zd = check_zero_division(zero_division)
    return _binary_recall_from_stats(_stats(preds, target, threshold, from_logits, ignore_index, validate_args), zd)


def binary_fbeta_score(preds: Tensor, target: Tensor, beta: float, threshold: float = 0.5, *,
                       from_logits: bool = False, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                       validate_args: bool = True) -> Tensor:
    """F-beta ``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)`` (float64 scalar), the weighted harmonic mean of
    precision and recall (recall counts ``beta`` times as much); ``tp = fp = fn = 0`` gives ``zero_division``.

    >>> import torch
    >>> target, calls = torch.tensor([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]), torch.tensor([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
    >>> round(binary_fbeta_score(calls, target, beta=2.0).item(), 4)  # 5 * 3 / (5 * 3 + 4 * 1 + 2)
    0.7143
    """
    check_beta(beta)
    zd = check_zero_division(zero_division)
    stats = _stats(preds, target, threshold, from_logits, ignore_index, validate_args)
    return _binary_fbeta_score_from_stats(stats, beta, zd)


def binary_f1_score(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                    ignore_index: Optional[int] = None, zero_division: float = 0.0,
                    validate_args: bool = True) -> Tensor:
    """F1 ``2 tp / (2 tp + fn + fp)``, the harmonic mean of precision and recall (``binary_fbeta_score`` with
    ``beta=1``).

    >>> import torch
    >>> target, calls = torch.tensor([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]), torch.tensor([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
    >>> binary_f1_score(calls, target).item() == 2 / 3
    True
    """
    zd = check_zero_division(zero_division)
    stats = _stats(preds, target, threshold, from_logits, ignore_index, validate_args)
    return _binary_fbeta_score_from_stats(stats, 1.0, zd)


def binary_confusion_matrix(preds: Tensor, target: Tensor, threshold: float = 0.5, *, normalize: Optional[str] = None,
                            from_logits: bool = False, ignore_index: Optional[int] = None,
                            validate_args: bool = True) -> Tensor:
    """The (2, 2) confusion matrix ``[[tn, fp], [fn, tp]]`` (rows: target, columns: prediction), int64;
    ``normalize="true" | "pred" | "all"`` divides by row sums, column sums or the total (float64, 0/0 = 0).

    >>> import torch
    >>> binary_confusion_matrix(torch.tensor([0.9, 0.2, 0.6, 0.4, 0.1]), torch.tensor([1, 0, 0, 1, 0]))
    tensor([[2, 1],
            [1, 1]])
    """
    check_choice("normalize", normalize, NORMALIZE)
    stats = _stats(preds, target, threshold, from_logits, ignore_index, validate_args)
    return _binary_confusion_matrix_from_stats(stats, normalize)
