"""Multiclass classification metrics (conventions: :mod:`torchmetrics_lite.functional.classification`).

``preds`` are labels (N, ...) or scores (N, C, ...), ``target`` labels (N, ...) in [0, C - 1]. The state of a
batch is the (C, C) confusion matrix (rows: target, columns: the predicted label), int64 counts or float64 sums of
``weight``. With ``top_k=k`` a sample's predicted label is its target when the target is among its k highest
scores, else its highest-scoring class (torchmetrics' rule), so every metric reads the same matrix.

A worked top-k example: three samples with targets 0, 1, 2 and scores ``[.5, .3, .2]``, ``[.6, .1, .3]``,
``[.1, .5, .4]``. With ``top_k=2`` the first sample predicts 0 (its top-1, and its target), the second 0 (its
target 1 is not in its top 2, {0, 2}), the third 2 (its target, in its top 2 {1, 2}). Per class, tp = (1, 0, 1),
fp = (1, 0, 0), fn = (0, 1, 0): micro precision = micro recall = accuracy = 2/3, the top-2 accuracy.
"""
from __future__ import annotations

from typing import Dict, Optional

from torch import Tensor

from torchmetrics_lite._checks import (
    check_absent,
    check_accuracy_normalize,
    check_average,
    check_beta,
    check_choice,
    check_ignore_index,
    check_labels,
    check_multiclass_inputs,
    check_no_nan,
    check_positive_int,
    check_samplewise,
    check_top_k,
    check_weighted_update,
    check_zero_division,
)
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import (
    NORMALIZE,
    Terms,
    _average,
    _correct_count,
    _fbeta_terms,
    _fixed_counts,
    _integer_weighted,
    _multiclass_confmat,
    _multiclass_counts,
    _normalize,
    _precision_terms,
    _recall_terms,
    _samplewise_multiclass,
    _stat_scores,
    _warn_empty,
)

__all__ = ["multiclass_stat_scores", "multiclass_accuracy", "multiclass_precision", "multiclass_recall",
           "multiclass_f1_score", "multiclass_fbeta_score", "multiclass_confusion_matrix"]


def _multiclass_config(num_classes: int, top_k: int, ignore_index: Optional[int]) -> None:
    check_positive_int("num_classes", num_classes)
    check_top_k(top_k, num_classes)
    check_ignore_index(ignore_index)


def _multiclass_stat_scores_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *,
                                  num_classes: int, top_k: int, ignore_index: Optional[int], validate_args: bool,
                                  weighted: Optional[bool] = None,
                                  multidim_average: str = "global") -> Dict[str, Tensor]:
    """One batch's state ``{"confmat"}``: the (C, C) confusion matrix of the predicted labels (see the module
    docstring; ``multidim_average="samplewise"``: one per sample, (N, C, C)). ``weighted``: a module's fixed
    choice (``None`` for a function, see ``_fixed_counts``)."""
    if weighted is not None:
        check_weighted_update(weighted, weight)
    if check_samplewise(multidim_average, "target", target, 2, weight):
        n = target.shape[0]
        preds, target, _ = check_multiclass_inputs(preds, target, num_classes=num_classes, top_k=top_k,
                                                   ignore_index=ignore_index, validate_args=validate_args, weight=None)
        if validate_args:
            check_labels("target", target, num_classes, ignore_index)
        return {"confmat": _samplewise_multiclass(preds, target, n, num_classes, top_k, ignore_index)}
    return _fixed_counts({"confmat": _multiclass_count(preds, target, num_classes, top_k, ignore_index, validate_args,
                                                       weight)}, weighted)


def _multiclass_count(preds: Tensor, target: Tensor, num_classes: int, top_k: int, ignore_index: Optional[int],
                      validate_args: bool, weight: Optional[Tensor]) -> Tensor:
    preds, target, weight = check_multiclass_inputs(preds, target, num_classes=num_classes, top_k=top_k,
                                                    ignore_index=ignore_index, validate_args=validate_args,
                                                    weight=weight)
    try:
        return _multiclass_confmat(preds, target, num_classes, top_k, ignore_index, validate_args, weight)
    except (RuntimeError, IndexError):  # a value check fused into the count (see check_multiclass_inputs)
        check_labels("target", target, num_classes, ignore_index)
        check_no_nan("preds", preds)
        # a false alarm: row maxima of +inf and -inf sum to NaN; the inputs are valid, count them unchecked
        return _multiclass_confmat(preds, target, num_classes, top_k, ignore_index, False, weight)


def _multiclass_stat_scores_from_stats(state: Dict[str, Tensor], *, average: str) -> Tensor:
    return _stat_scores(_multiclass_counts(state["confmat"]), average)


def _multiclass_score_from_stats(state: Dict[str, Tensor], *, terms: Terms, average: str, zero_division: float = 0.0,
                                 by_support: bool = False, top_k: int = 1, absent: str = "ignore") -> Tensor:
    """Any one-vs-rest multiclass score by its ``terms``. The macro mean runs over the classes present in the
    targets or predictions (``tp + fp + fn > 0``), or, with ``by_support`` and ``top_k > 1``, over those present
    in the targets (``tp + fn > 0``): torchmetrics' rule for accuracy, precision and recall. ``absent="zero"``:
    over all ``num_classes`` (scikit-learn's ``labels=range(C)``), an absent class scoring ``zero_division``."""
    counts = _multiclass_counts(state["confmat"])
    if average != "macro" or absent == "zero":  # only the macro mean reads which classes are present
        return _average(counts, terms, average, zero_division)
    tp, fp, _, fn = counts
    present = tp + fn > 0 if by_support and top_k > 1 else tp + fp + fn > 0
    return _average(counts, terms, average, zero_division, present)


def _multiclass_accuracy_from_stats(state: Dict[str, Tensor], *, average: str, zero_division: float = 0.0,
                                    top_k: int = 1, absent: str = "ignore", normalize: bool = True) -> Tensor:
    """Accuracy (the recall of :func:`_multiclass_score_from_stats` with ``by_support``), or with
    ``normalize=False`` the number (weight) of samples predicted right."""
    if not normalize:
        return _correct_count(state["confmat"])
    return _multiclass_score_from_stats(state, terms=_recall_terms, average=average, zero_division=zero_division,
                                        by_support=True, top_k=top_k, absent=absent)


def _multiclass_confusion_matrix_from_stats(state: Dict[str, Tensor], *, normalize: Optional[str] = None) -> Tensor:
    return _normalize(state["confmat"], normalize)


def _multiclass_stats(preds: Tensor, target: Tensor, num_classes: int, top_k: int, ignore_index: Optional[int],
                      validate_args: bool, weight: Optional[Tensor],
                      multidim_average: str = "global") -> Dict[str, Tensor]:
    _multiclass_config(num_classes, top_k, ignore_index)
    return _warn_empty(_multiclass_stat_scores_stats(preds, target, weight, num_classes=num_classes, top_k=top_k,
                                                     ignore_index=ignore_index, validate_args=validate_args,
                                                     multidim_average=multidim_average), target)


def _multiclass_score(preds: Tensor, target: Tensor, terms: Terms, num_classes: int, average: Optional[str],
                      top_k: int, ignore_index: Optional[int], zero_division: float, validate_args: bool,
                      weight: Optional[Tensor], by_support: bool, multidim_average: str = "global",
                      absent: str = "ignore") -> Tensor:
    avg, zd = check_average(average), check_zero_division(zero_division)
    check_absent(absent)
    stats = _multiclass_stats(preds, target, num_classes, top_k, ignore_index, validate_args, weight,
                              multidim_average)
    return _multiclass_score_from_stats(stats, terms=terms, average=avg, zero_division=zd, by_support=by_support,
                                        top_k=top_k, absent=absent)


@fill_doc
def multiclass_stat_scores(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro", *,
                           top_k: int = 1, ignore_index: Optional[int] = None, multidim_average: str = "global",
                           validate_args: bool = True,
                           weight: Optional[Tensor] = None) -> Tensor:
    """One-vs-rest ``[tp, fp, tn, fn, support]`` per class.

    Args:
        {multidim_average}
        {preds_multiclass}
        {target_multiclass}
        {num_classes}
        average: ``"none"`` (or ``None``): per class, (C, 5); ``"micro"``: summed over classes, (5,);
            ``"macro"``: their mean over all classes; ``"weighted"``: their support-weighted mean.
        {top_k}
        {ignore_index}
        {validate_args}
        {weight}

    Returns:
        int64 counts (float64 for macro/weighted means or when weighted).

    Raises:
        {raises_value}
        {raises_type}

    References:
        torchmetrics' ``multiclass_stat_scores`` (same layout and averages).

    Examples:
        >>> import torch
        >>> multiclass_stat_scores(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]), 3, average="none")
        tensor([[1, 0, 3, 0, 1],
                [1, 1, 1, 1, 2],
                [0, 1, 2, 1, 1]])
    """
    average = check_average(average)
    stats = _multiclass_stats(preds, target, num_classes, top_k, ignore_index, validate_args, weight,
                              multidim_average=multidim_average)
    return _multiclass_stat_scores_from_stats(stats, average=average)


@fill_doc
def multiclass_accuracy(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro", *,
                        top_k: int = 1, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                        absent: str = "ignore",
                        multidim_average: str = "global", normalize: bool = True,
                        validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Accuracy: per class the recall ``tp / (tp + fn)``; ``"micro"`` is the fraction of samples whose target
    is predicted (top-k accuracy), ``"macro"`` the balanced accuracy.

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
        {normalize_accuracy} It counts the samples of ``average="micro"`` (any other average raises).
        {validate_args}
        {weight}

    Returns:
        float64, a scalar or (C,) for ``average="none"``. With ``zero_division=nan`` classes predicted but absent
        from the targets are left out of the macro mean (scikit-learn's ``balanced_accuracy_score``); with the
        default 0.0 they count as 0 (torchmetrics).

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``accuracy_score``, ``balanced_accuracy_score``, ``top_k_accuracy_score``.

    Examples:
        >>> import torch
        >>> target = torch.tensor([0] * 6 + [1] * 3 + [2] * 3)
        >>> preds = torch.tensor([0, 0, 0, 0, 1, 2, 0, 1, 1, 1, 2, 2])
        >>> round(multiclass_accuracy(preds, target, 3, average="micro").item(), 4)
        0.6667
    """
    avg, zd = check_average(average), check_zero_division(zero_division)
    check_absent(absent)
    check_accuracy_normalize(normalize, avg)
    stats = _multiclass_stats(preds, target, num_classes, top_k, ignore_index, validate_args, weight,
                              multidim_average)
    return _multiclass_accuracy_from_stats(stats, average=avg, zero_division=zd, top_k=top_k, absent=absent,
                                           normalize=normalize)


@fill_doc
def multiclass_precision(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro", *,
                         top_k: int = 1, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                         absent: str = "ignore",
                         multidim_average: str = "global",
                         validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Precision ``tp / (tp + fp)`` per class, averaged.

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
        float64, a scalar or (C,) for ``average="none"``; a class never predicted has ``zero_division``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``precision_score``; Sokolova & Lapalme (2009).

    Examples:
        The confusion matrix with rows (targets) [4, 1, 1], [1, 2, 0], [0, 1, 2] has column sums 5, 4, 3,
        per-class precision 4/5, 2/4, 2/3, macro precision 0.6556 and micro precision 8/12:

        >>> import torch
        >>> target = torch.tensor([0] * 6 + [1] * 3 + [2] * 3)
        >>> preds = torch.tensor([0, 0, 0, 0, 1, 2, 0, 1, 1, 1, 2, 2])
        >>> round(multiclass_precision(preds, target, 3).item(), 4)
        0.6556
        >>> scores = torch.tensor([[.5, .3, .2], [.6, .1, .3], [.1, .5, .4]])  # top_k: the module docstring
        >>> round(multiclass_precision(scores, torch.tensor([0, 1, 2]), 3, "micro", top_k=2).item(), 4)
        0.6667
    """
    return _multiclass_score(preds, target, _precision_terms, num_classes, average, top_k, ignore_index,
                             zero_division, validate_args, weight, by_support=True, multidim_average=multidim_average,
                             absent=absent)


@fill_doc
def multiclass_recall(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro", *,
                      top_k: int = 1, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                      absent: str = "ignore",
                      multidim_average: str = "global",
                      validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Recall ``tp / (tp + fn)`` per class, averaged.

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
        float64, a scalar or (C,) for ``average="none"``; a class absent from the targets has ``zero_division``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``recall_score``.

    Examples:
        >>> import torch
        >>> target = torch.tensor([0] * 6 + [1] * 3 + [2] * 3)
        >>> preds = torch.tensor([0, 0, 0, 0, 1, 2, 0, 1, 1, 1, 2, 2])
        >>> multiclass_recall(preds, target, 3, average=None)
        tensor([0.6667, 0.6667, 0.6667], dtype=torch.float64)
    """
    return _multiclass_score(preds, target, _recall_terms, num_classes, average, top_k, ignore_index, zero_division,
                             validate_args, weight, by_support=True, multidim_average=multidim_average, absent=absent)


@fill_doc
def multiclass_fbeta_score(preds: Tensor, target: Tensor, beta: float, num_classes: int,
                           average: Optional[str] = "macro", *, top_k: int = 1, ignore_index: Optional[int] = None,
                           zero_division: float = 0.0, absent: str = "ignore", multidim_average: str = "global",
                           validate_args: bool = True,
                           weight: Optional[Tensor] = None) -> Tensor:
    """F-beta ``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)`` per class, averaged; ``"macro"`` is the mean of
    the per-class scores (not the F-beta of macro precision and macro recall).

    Args:
        {multidim_average}
        {preds_multiclass}
        {target_multiclass}
        {num_classes}
        beta: the weight of recall, a number > 0.
        {average}
        {top_k}
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
        scikit-learn's ``fbeta_score``; Sokolova & Lapalme (2009) for the other macro F definition.

    Examples:
        >>> import torch
        >>> target = torch.tensor([0] * 6 + [1] * 3 + [2] * 3)
        >>> preds = torch.tensor([0, 0, 0, 0, 1, 2, 0, 1, 1, 1, 2, 2])
        >>> multiclass_fbeta_score(preds, target, 0.5, 3, average=None)
        tensor([0.7692, 0.5263, 0.6667], dtype=torch.float64)
    """
    check_beta(beta)
    return _multiclass_score(preds, target, _fbeta_terms(beta), num_classes, average, top_k, ignore_index,
                             zero_division, validate_args, weight, by_support=False,
                             multidim_average=multidim_average, absent=absent)


@fill_doc
def multiclass_f1_score(preds: Tensor, target: Tensor, num_classes: int, average: Optional[str] = "macro", *,
                        top_k: int = 1, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                        absent: str = "ignore",
                        multidim_average: str = "global",
                        validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """F1 ``2 tp / (2 tp + fn + fp)`` per class, averaged; macro F1 is the mean of the per-class F1 scores.

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
        float64, a scalar or (C,) for ``average="none"``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``f1_score``.

    Examples:
        >>> import torch
        >>> target = torch.tensor([0] * 6 + [1] * 3 + [2] * 3)
        >>> preds = torch.tensor([0, 0, 0, 0, 1, 2, 0, 1, 1, 1, 2, 2])
        >>> round(multiclass_f1_score(preds, target, 3).item(), 4)  # mean of 8/11, 4/7, 2/3
        0.6551
    """
    return _multiclass_score(preds, target, _fbeta_terms(1.0), num_classes, average, top_k, ignore_index,
                             zero_division, validate_args, weight, by_support=False,
                             multidim_average=multidim_average, absent=absent)


@fill_doc
def multiclass_confusion_matrix(preds: Tensor, target: Tensor, num_classes: int, normalize: Optional[str] = None, *,
                                ignore_index: Optional[int] = None, validate_args: bool = True,
                                weight: Optional[Tensor] = None) -> Tensor:
    """The (C, C) confusion matrix, rows the target and columns the predicted class (``argmax`` of scores).

    Args:
        {preds_multiclass}
        {target_multiclass}
        {num_classes}
        {normalize}
        {ignore_index}
        {validate_args}
        {weight}

    Returns:
        int64 counts (also with integer ``weight``, as scikit-learn), float64 when normalized or with floating
        ``weight``.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``confusion_matrix`` (same orientation).

    Examples:
        >>> import torch
        >>> multiclass_confusion_matrix(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]), 3, normalize="true")
        tensor([[1.0000, 0.0000, 0.0000],
                [0.0000, 0.5000, 0.5000],
                [0.0000, 1.0000, 0.0000]], dtype=torch.float64)
    """
    check_choice("normalize", normalize, NORMALIZE)
    stats = _multiclass_stats(preds, target, num_classes, 1, ignore_index, validate_args, weight)
    return _integer_weighted(_multiclass_confusion_matrix_from_stats(stats, normalize=normalize), weight, normalize)
