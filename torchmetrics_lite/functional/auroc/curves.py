"""ROC and precision-recall curves for every task: binary (one curve), multiclass one-vs-rest and multilabel (one
curve per class, returned as lists of tensors as torchmetrics does), every distinct score a threshold (conventions
in :mod:`torchmetrics_lite.functional.auroc`). All rows are swept at once (:func:`._kernels.swept` chooses the
kernel), no loop over classes.

A tie group of zero-weight samples adds no point, as scikit-learn, which drops zero-weight samples.
"""
from __future__ import annotations

import warnings
from typing import List, Optional, Tuple, Union

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_bool, check_rank_ignore_index, check_thresholds
from torchmetrics_lite.functional.auroc import _kernels as kernels
from torchmetrics_lite.functional.auroc._common import (
    State,
    _as_bool,
    _columns,
    _compiling,
    _multiclass_positive,
    _multiclass_scores,
    _state_weight,
)
from torchmetrics_lite.functional.auroc._doc_args import fill_doc, register
from torchmetrics_lite.functional.auroc.binary import Thresholds, _binary_rank_stats
from torchmetrics_lite.functional.auroc.binned import _binned_pr, _binned_roc
from torchmetrics_lite.functional.auroc.multiclass import _multiclass_rank_stats
from torchmetrics_lite.functional.auroc.multilabel import _label_columns, _multilabel_rank_stats

__all__ = ["binary_roc", "binary_precision_recall_curve", "multiclass_roc", "multilabel_roc",
           "multiclass_precision_recall_curve", "multilabel_precision_recall_curve"]

Curve = Tuple[Tensor, Tensor, Tensor]
Curves = Union[Tuple[List[Tensor], List[Tensor], List[Tensor]], Tuple[Tensor, Tensor, Tensor]]  # binned: tensors


def _check_drop_intermediate(drop_intermediate: bool, thresholds: Optional[Tensor]) -> None:
    """``drop_intermediate``: a bool, ``True`` only in the exact mode (no ``thresholds``)."""
    check_bool("drop_intermediate", drop_intermediate)
    if drop_intermediate and thresholds is not None:
        raise ValueError("Expected `drop_intermediate=False` with `thresholds=` (a binned curve keeps its "
                         "thresholds), got True")


def _binary_swept_state(state: State) -> kernels.Swept:
    return kernels.swept(state["preds"], _as_bool(state["target"]), _state_weight(state))


def _warn_one_class(swept: kernels.Swept, what: str) -> None:
    if _compiling():
        return
    missing = (swept.n_pos == 0) | (swept.n_neg == 0)
    if bool(missing.any()):
        rows = torch.nonzero(missing).view(-1).tolist()
        where = "" if swept.n_pos.numel() == 1 else f" for class(es) {rows}"
        warnings.warn(f"{what}: only one class present in `target`{where}; its missing rate is nan", UserWarning,
                      stacklevel=4)


def _binary_roc_from_stats(state: State, threshold_values: Optional[Tensor] = None,
                           drop_intermediate: bool = False) -> Curve:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_roc(state, threshold_values, True)  # type: ignore[arg-type]
    swept = _binary_swept_state(state)
    _warn_one_class(swept, "ROC curve")
    fpr, tpr, thresholds = kernels.roc_points(swept)
    if drop_intermediate:
        exact = not swept.pos.is_floating_point()
        return _drop_intermediate(fpr[0], tpr[0], thresholds[0], swept.n_pos[0], swept.n_neg[0], exact)
    return fpr[0], tpr[0], thresholds[0]


def _drop_intermediate(fpr: Tensor, tpr: Tensor, thresholds: Tensor, n_pos: Tensor, n_neg: Tensor,
                       exact: bool) -> Curve:
    """scikit-learn's ``roc_curve(drop_intermediate=True)``: of the points after ``inf``, when more than two, keep
    the first, the last and those where the cumulative false or true positive weight bends (a nonzero second
    difference); collinear points go. The counts are the rates times the totals (rounded back to the integers they
    are without weights; a class absent gives 0 counts)."""
    if fpr.shape[0] <= 3:
        return fpr, tpr, thresholds
    fps, tps = torch.nan_to_num(fpr[1:] * n_neg, nan=0.0), torch.nan_to_num(tpr[1:] * n_pos, nan=0.0)
    if exact:
        fps, tps = fps.round(), tps.round()
    keep = torch.ones(fpr.shape[0], dtype=torch.bool, device=fpr.device)
    keep[2:-1] = (torch.diff(fps, 2) != 0) | (torch.diff(tps, 2) != 0)
    return fpr[keep], tpr[keep], thresholds[keep]


@fill_doc
def binary_roc(preds: Tensor, target: Tensor, *, weight: Optional[Tensor] = None,
               from_logits: bool = False, thresholds: Thresholds = None,
               ignore_index: Optional[int] = None, drop_intermediate: bool = False,
               validate_args: bool = True) -> Curve:
    """The ROC curve with every distinct score as a threshold (scikit-learn's ``roc_curve(...,
    drop_intermediate=False)``).

    At threshold ``t`` a sample is predicted positive when ``score >= t``: ``tpr(t) = W_pos(score >= t) /
    W_pos``, ``fpr(t) = W_neg(score >= t) / W_neg`` (counts without weights). Tied scores share one point.

    Args:
        preds: floating scores of any shape.
        target: 0/1 labels of the same shape.
        {weight_rank} Shape: ``target``'s; zero-weight samples add no threshold of their own.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {drop_intermediate}
        {validate_args}

    Returns:
        ``(fpr, tpr, thresholds)``: ``thresholds`` are ``inf`` followed by the distinct scores in decreasing order
        (the scores' dtype), so the curve starts at ``(0, 0)`` and ends at ``(1, 1)``; the rates are float64.
        With one class only the missing class's rate is ``nan`` (0/0) and a ``UserWarning`` is raised.

    Raises:
        ValueError, TypeError: as :func:`~torchmetrics_lite.functional.binary_auroc`.

    References:
        Fawcett (2006), "An introduction to ROC analysis", Pattern Recognition Letters 27; scikit-learn's
        ``roc_curve``.

    Examples:
        >>> fpr, tpr, thr = binary_roc(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
        >>> fpr.tolist(), tpr.tolist()
        ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
        >>> thr
        tensor([   inf, 0.8000, 0.4000, 0.3500, 0.1000])
    """
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    _check_drop_intermediate(drop_intermediate, thr)
    state = _binary_rank_stats(preds, target, weight, validate_args=validate_args, ignore_index=ignore_index,
                               threshold_values=thr, from_logits=from_logits)
    return _binary_roc_from_stats(state, threshold_values=thr, drop_intermediate=drop_intermediate)


def _binary_precision_recall_curve_from_stats(state: State, threshold_values: Optional[Tensor] = None) -> Curve:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_pr(state, threshold_values, True)  # type: ignore[arg-type]
    swept = _binary_swept_state(state)
    if not _compiling() and bool(swept.n_pos[0] == 0):
        warnings.warn("precision-recall curve: no positive in `target`; recall is set to 1", UserWarning,
                      stacklevel=3)
    precision, recall, thresholds = kernels.pr_points(swept)
    return precision[0], recall[0], thresholds[0]


@fill_doc
def binary_precision_recall_curve(preds: Tensor, target: Tensor, *, weight: Optional[Tensor] = None,
                                  from_logits: bool = False, thresholds: Thresholds = None,
                                  ignore_index: Optional[int] = None, validate_args: bool = True) -> Curve:
    """Precision and recall at every distinct score as a threshold, as scikit-learn's
    ``precision_recall_curve`` (``drop_intermediate=False``).

    ``precision(t) = W_pos(score >= t) / W(score >= t)``, ``recall(t) = W_pos(score >= t) / W_pos``.

    Args:
        preds: floating scores of any shape.
        target: 0/1 labels of the same shape.
        {weight_rank} Shape: ``target``'s; zero-weight samples add no threshold.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {validate_args}

    Returns:
        ``(precision, recall, thresholds)``: ``thresholds`` are the distinct scores in increasing order;
        ``precision[i]``/``recall[i]`` are those of ``score >= thresholds[i]``, and one last point
        ``(precision 1, recall 0)`` closes the curve (lengths ``T + 1``, ``T + 1``, ``T``). Without positives the
        recall is 1 everywhere, with a ``UserWarning`` (as scikit-learn and torchmetrics).

    Raises:
        ValueError, TypeError: as :func:`~torchmetrics_lite.functional.binary_auroc`.

    References:
        Davis & Goadrich (2006), "The relationship between precision-recall and ROC curves", ICML; scikit-learn's
        ``precision_recall_curve``.

    Examples:
        >>> p, r, t = binary_precision_recall_curve(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
        >>> [round(v, 4) for v in p.tolist()], r.tolist()
        ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0])
    """
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _binary_rank_stats(preds, target, weight, validate_args=validate_args, ignore_index=ignore_index,
                               threshold_values=thr, from_logits=from_logits)
    return _binary_precision_recall_curve_from_stats(state, threshold_values=thr)


# ------------------------------------------------------------------------------------------------ per class
def _multiclass_swept(state: State, num_classes: int, from_logits: bool) -> kernels.Swept:
    scores = _multiclass_scores(state["preds"], from_logits)
    return kernels.swept(*_columns(scores, _multiclass_positive(state["target"], num_classes)), _state_weight(state))


def _multilabel_swept(state: State) -> kernels.Swept:
    return kernels.swept(*_label_columns(state))


def _multiclass_roc_from_stats(state: State, num_classes: int, from_logits: bool = False,
                               threshold_values: Optional[Tensor] = None) -> Curves:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_roc(state, threshold_values, False)  # type: ignore[arg-type]
    swept = _multiclass_swept(state, num_classes, from_logits)
    _warn_one_class(swept, "ROC curve")
    return kernels.roc_points(swept)


def _multiclass_precision_recall_curve_from_stats(state: State, num_classes: int, from_logits: bool = False,
                                                  threshold_values: Optional[Tensor] = None) -> Curves:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_pr(state, threshold_values, False)  # type: ignore[arg-type]
    return kernels.pr_points(_multiclass_swept(state, num_classes, from_logits))


def _multilabel_roc_from_stats(state: State, threshold_values: Optional[Tensor] = None) -> Curves:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_roc(state, threshold_values, False)  # type: ignore[arg-type]
    swept = _multilabel_swept(state)
    _warn_one_class(swept, "ROC curve")
    return kernels.roc_points(swept)


def _multilabel_precision_recall_curve_from_stats(state: State, threshold_values: Optional[Tensor] = None) -> Curves:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_pr(state, threshold_values, False)  # type: ignore[arg-type]
    return kernels.pr_points(_multilabel_swept(state))


# Returns/Raises/References of the per-class curves; each names its extra ValueError (``extra_raises``).
register(
    sections_per_class=(
        "Returns:\n"
        "    ``(fpr, tpr, thresholds)``, three lists with one tensor per class, each as :func:`binary_roc`'s\n"
        "    (``inf`` first, then the class's distinct scores decreasing). A class absent from ``target`` (or the\n"
        "    only one) has ``nan`` rates, with a ``UserWarning``.\n"
        "\n"
        "Raises:\n"
        "    ValueError: wrong shapes, NaN scores, labels out of range, negative weights{extra_raises}.\n"
        "    TypeError: non-floating ``preds`` or wrong label dtype.\n"
        "\n"
        "References:\n"
        "    Fawcett (2006), \"An introduction to ROC analysis\"; torchmetrics' ``multiclass_roc`` (lists per\n"
        "    class)."
    ),
)


@fill_doc(extra_raises=", probabilities outside [0, 1] without ``from_logits``")
def multiclass_roc(preds: Tensor, target: Tensor, num_classes: int, *, from_logits: bool = False,
                   weight: Optional[Tensor] = None, thresholds: Thresholds = None, ignore_index: Optional[int] = None,
                   validate_args: bool = True) -> Curves:
    """One-vs-rest ROC curve of each class: class ``c`` positive, every other class negative, scored by
    ``preds[:, c]`` (after the softmax with ``from_logits=True``).

    Args:
        preds: ``(N, num_classes)`` probabilities (or logits with ``from_logits=True``).
        target: ``(N,)`` class indices in ``[0, num_classes)``.
        num_classes: the number of classes.
        {from_logits_mc}
        {weight_rank} Shape: ``(N,)``; zero-weight samples add no threshold.
        {thresholds}
        {ignore_index_rank}
        {validate_args}

    {sections_per_class}

    Examples:
        >>> preds = torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.4, 0.4, 0.2]])
        >>> fpr, tpr, thr = multiclass_roc(preds, torch.tensor([0, 1, 2, 1]), 3)
        >>> tpr[1].tolist(), thr[1].tolist()
        ([0.0, 0.5, 1.0, 1.0, 1.0], [inf, 0.5, 0.4000000059604645, 0.30000001192092896, 0.20000000298023224])
    """
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multiclass_rank_stats(preds, target, weight, num_classes=num_classes, from_logits=from_logits,
                                   validate_args=validate_args, ignore_index=ignore_index, threshold_values=thr)
    return _multiclass_roc_from_stats(state, num_classes, from_logits, threshold_values=thr)


@fill_doc(extra_raises="")
def multilabel_roc(preds: Tensor, target: Tensor, num_labels: int, *, from_logits: bool = False,
                   weight: Optional[Tensor] = None, thresholds: Thresholds = None, ignore_index: Optional[int] = None,
                   validate_args: bool = True) -> Curves:
    """ROC curve of each label (column ``l`` scores, label ``l`` positive).

    Args:
        preds: ``(N, num_labels)`` floating scores (probabilities or logits alike: thresholds are the scores
            as given).
        target: ``(N, num_labels)`` 0/1 labels.
        num_labels: the number of labels.
        {from_logits_bin}
        {weight_rank} Shape: ``(N,)`` (one weight per sample, for all its labels); zero-weight samples add no threshold.
        {thresholds}
        {ignore_index_rank}
        {validate_args}

    {sections_per_class}

    Examples:
        >>> preds = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
        >>> fpr, tpr, thr = multilabel_roc(preds, torch.tensor([[1, 0], [0, 1], [1, 1], [0, 0]]), 2)
        >>> fpr[0].tolist(), tpr[0].tolist()
        ([0.0, 0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0, 1.0])
    """
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multilabel_rank_stats(preds, target, weight, num_labels=num_labels, validate_args=validate_args,
                                   ignore_index=ignore_index, threshold_values=thr, from_logits=from_logits)
    return _multilabel_roc_from_stats(state, threshold_values=thr)


@fill_doc
def multiclass_precision_recall_curve(preds: Tensor, target: Tensor, num_classes: int, *, from_logits: bool = False,
                                      weight: Optional[Tensor] = None, thresholds: Thresholds = None,
                                      ignore_index: Optional[int] = None, validate_args: bool = True) -> Curves:
    """One-vs-rest precision-recall curve of each class, each as :func:`binary_precision_recall_curve`.

    Args:
        preds: ``(N, num_classes)`` probabilities (or logits with ``from_logits=True``).
        target: ``(N,)`` class indices.
        num_classes: the number of classes.
        {from_logits_mc}
        {weight_rank} Shape: ``(N,)``; zero-weight samples add no threshold.
        {thresholds}
        {ignore_index_rank}
        {validate_args}

    Returns:
        ``(precision, recall, thresholds)``: three lists, one tensor per class (thresholds increasing, the point
        ``(1, 0)`` appended). A class absent from ``target`` has recall 1 everywhere.

    Raises:
        ValueError, TypeError: as :func:`multiclass_roc`.

    References:
        Davis & Goadrich (2006); torchmetrics' ``multiclass_precision_recall_curve`` (lists per class).

    Examples:
        >>> preds = torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.4, 0.4, 0.2]])
        >>> precision, recall, thr = multiclass_precision_recall_curve(preds, torch.tensor([0, 1, 2, 1]), 3)
        >>> precision[0].tolist(), recall[0].tolist()
        ([0.25, 0.3333333333333333, 0.5, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 0.0])
    """
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multiclass_rank_stats(preds, target, weight, num_classes=num_classes, from_logits=from_logits,
                                   validate_args=validate_args, ignore_index=ignore_index, threshold_values=thr)
    return _multiclass_precision_recall_curve_from_stats(state, num_classes, from_logits, threshold_values=thr)


@fill_doc
def multilabel_precision_recall_curve(preds: Tensor, target: Tensor, num_labels: int, *, from_logits: bool = False,
                                      weight: Optional[Tensor] = None, thresholds: Thresholds = None,
                                      ignore_index: Optional[int] = None, validate_args: bool = True) -> Curves:
    """Precision-recall curve of each label, each as :func:`binary_precision_recall_curve`.

    Args:
        preds: ``(N, num_labels)`` floating scores.
        target: ``(N, num_labels)`` 0/1 labels.
        num_labels: the number of labels.
        {from_logits_bin}
        {weight_rank} Shape: ``(N,)``; zero-weight samples add no threshold.
        {thresholds}
        {ignore_index_rank}
        {validate_args}

    Returns:
        ``(precision, recall, thresholds)``: three lists, one tensor per label.

    Raises:
        ValueError, TypeError: as :func:`multilabel_roc`.

    References:
        Davis & Goadrich (2006); torchmetrics' ``multilabel_precision_recall_curve``.

    Examples:
        >>> preds = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
        >>> precision, recall, thr = multilabel_precision_recall_curve(preds, torch.tensor([[1, 0], [0, 1], [1, 1],
        ...                                                                                  [0, 0]]), 2)
        >>> recall[1].tolist(), thr[1].tolist()
        ([1.0, 1.0, 0.5, 0.5, 0.0], [0.10000000149011612, 0.4000000059604645, 0.699999988079071, 0.800000011920929])
    """
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multilabel_rank_stats(preds, target, weight, num_labels=num_labels, validate_args=validate_args,
                                   ignore_index=ignore_index, threshold_values=thr, from_logits=from_logits)
    return _multilabel_precision_recall_curve_from_stats(state, threshold_values=thr)

