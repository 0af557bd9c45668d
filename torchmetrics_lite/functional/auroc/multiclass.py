"""Multiclass (one-vs-rest) AUROC and average precision (conventions in :mod:`torchmetrics_lite.functional.auroc`).

Scores are probabilities (used as given, as torchmetrics does) or, with ``from_logits=True``, logits turned into
probabilities by a float64 softmax; scores outside ``[0, 1]`` without it raise. Every class is ranked at once
(a batched row sort), no loop over classes.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

import torch  # noqa: F401 (the doctests)
from torch import Tensor

from torchmetrics_lite._checks import (
    Weighting,
    check_multiclass_rank_inputs,
    check_rank_average,
    check_rank_ignore_index,
    check_rank_weight,
    check_rank_weighting,
    check_thresholds,
    drop_ignored,
    flatten_extra_dims,
)
from torchmetrics_lite.functional.auroc import _kernels as kernels
from torchmetrics_lite.functional.auroc._common import (
    State,
    _average,
    _class_dtype,
    _columns,
    _multiclass_positive,
    _multiclass_scores,
    _state_weight,
    _with_weight,
)
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.functional.auroc.binary import Thresholds
from torchmetrics_lite.functional.auroc.binned import _binned_averaged, _multiclass_binned_stats
from torchmetrics_lite.functional.auroc.ovo import check_multi_class, check_ovo_options, ovo_auroc

__all__ = ["multiclass_auroc", "multiclass_average_precision"]

RowsFormula = Callable[[Tensor, Tensor, Optional[Tensor]], Tuple[Tensor, Tensor]]


def _multiclass_rank_stats(preds: Any, target: Any, weight: Any = None, *, num_classes: int, from_logits: bool = False,
                           validate_args: bool = True, weighting: Optional[Weighting] = None,
                           ignore_index: Optional[int] = None, threshold_values: Optional[Tensor] = None) -> State:
    """Rows for one checked multiclass batch: scores ``(N, C)`` as given (the softmax of ``from_logits`` is
    applied at compute: it is per sample, so streaming is unchanged), the class index in the narrowest dtype and
    the optional weights ``(N,)``. ``weighting``: a module's rows so far (every update weighted or none);
    ``ignore_index``: the rows whose target equals it are dropped first; ``threshold_values``: torchmetrics'
    binned mode (the ``confmat`` counts of ``torchmetrics_lite.functional.auroc.binned`` instead of rows)."""
    if threshold_values is not None:
        return _multiclass_binned_stats(preds, target, num_classes, threshold_values, ignore_index, from_logits,
                                        validate_args, weight)
    if weighting is not None:
        check_rank_weighting(weighting, weight)
    preds, target, weight = flatten_extra_dims(preds, target, weight, multilabel=False)
    preds, target, weight = drop_ignored(preds, target, weight, ignore_index, rows=True)
    preds, target = check_multiclass_rank_inputs(preds, target, num_classes, validate_args, from_logits)
    weight = check_rank_weight(weight, tuple(target.shape), validate_args)
    return _with_weight({"preds": preds, "target": target.to(_class_dtype(num_classes))}, weight)


def _check_multiclass(preds: Any, target: Any, num_classes: int, weight: Any, from_logits: bool,
                      validate_args: bool, ignore_index: Optional[int] = None) -> State:
    """Checked multiclass inputs as state rows (the exact mode of :func:`_multiclass_rank_stats`)."""
    return _multiclass_rank_stats(preds, target, weight, num_classes=num_classes, from_logits=from_logits,
                                  validate_args=validate_args, ignore_index=ignore_index)


def _multiclass_from_stats(formula: RowsFormula, what: str, state: State, num_classes: int, average: str,
                           from_logits: bool, strict: bool) -> Tensor:
    scores = _multiclass_scores(state["preds"], from_logits)
    positive = _multiclass_positive(state["target"], num_classes)
    values, support = formula(*_columns(scores, positive), _state_weight(state))
    return _average(values, support, average, what, strict)


def _multiclass_auroc_from_stats(state: State, num_classes: int, average: str = "macro", from_logits: bool = False,
                                 strict: bool = False, multi_class: str = "ovr") -> Tensor:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_averaged(state, "AUROC", average, strict)
    if multi_class == "ovo":
        check_ovo_options(_state_weight(state), None)
        return ovo_auroc(_multiclass_scores(state["preds"], from_logits), state["target"], num_classes, average,
                         strict)
    return _multiclass_from_stats(kernels.auroc, "AUROC", state, num_classes, average, from_logits, strict)


def _multiclass_average_precision_from_stats(state: State, num_classes: int, average: str = "macro",
                                             from_logits: bool = False, strict: bool = False) -> Tensor:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_averaged(state, "average precision", average, strict)
    return _multiclass_from_stats(kernels.average_precision, "average precision", state, num_classes, average,
                                  from_logits, strict)


@fill_doc
def multiclass_auroc(preds: Tensor, target: Tensor, num_classes: int, *, average: str = "macro",
                     from_logits: bool = False, weight: Optional[Tensor] = None, thresholds: Thresholds = None,
                     ignore_index: Optional[int] = None, strict: bool = False, validate_args: bool = True,
                     multi_class: str = "ovr") -> Tensor:
    """One-vs-rest (or, with ``multi_class="ovo"``, one-vs-one) exact AUROC of each class, averaged.

    Class ``c``'s AUROC is :func:`~torchmetrics_lite.functional.binary_auroc` of the scores ``preds[:, c]`` with
    class ``c`` positive and every other class negative (scikit-learn's ``roc_auc_score(...,
    multi_class="ovr")`` and torchmetrics' ``multiclass_auroc``): tied pairs count 1/2. {compile}

    Args:
        {preds_ovr}
        {target_ovr}
        {num_classes_rank}
        {average_ovr}
        {from_logits_mc}
        {weight_rank} Shape: ``(N,)``.
        {thresholds}
        {ignore_index_rank}
        {strict}
        {validate_args}
        multi_class: ``"ovr"`` (default, one-vs-rest as above) or ``"ovo"``: scikit-learn's
            ``roc_auc_score(multi_class="ovo")`` (Hand & Till 2001), the mean over the unordered class pairs
            ``a < b`` of ``(A(a|b) + A(b|a)) / 2``, where ``A(a|b)`` is the AUROC of ``preds[:, a]`` on the samples
            of classes ``a`` and ``b`` only, class ``a`` positive (ties count 1/2). ``average="macro"``: the plain
            mean over pairs; ``"weighted"``: weighted by the pair's prevalence ``(n_a + n_b) / N``; ``"none"``
            raises (as scikit-learn). A pair with a class absent from ``target`` is left out with a
            ``UserWarning`` (scikit-learn's value: it runs over the classes present; ``strict=True`` raises).
            ``weight`` and ``thresholds`` are not taken with ``"ovo"`` (scikit-learn has no weighted one-vs-one).
            Eager only (the pairs' row length is read on the host). See
            :mod:`torchmetrics_lite.functional.auroc.ovo`.

    Returns:
        A float64 scalar, or ``(num_classes,)`` with ``average="none"``.

    Raises:
        ValueError: wrong shapes, NaN scores, class indices out of range, negative weights, scores outside
            ``[0, 1]`` without ``from_logits=True``, an unknown ``average`` or ``multi_class``, ``"ovo"`` with
            ``average="none"``, ``weight`` or ``thresholds``, or an undefined class (pair) with ``strict``.
        TypeError: non-floating ``preds`` or non-integer ``target``.

    References:
        Hanley & McNeil (1982); Provost & Domingos (2000) for the one-vs-rest average; Hand & Till (2001) for the
        one-vs-one average; scikit-learn's ``roc_auc_score(multi_class=...)``.

    Examples:
        >>> preds = torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.4, 0.4, 0.2],
        ...                       [0.3, 0.35, 0.35]])
        >>> target = torch.tensor([0, 1, 2, 1, 0])
        >>> [round(v, 4) for v in multiclass_auroc(preds, target, 3, average="none").tolist()]
        [0.8333, 1.0, 1.0]
        >>> logits = torch.tensor([[2.0, -1.0, 0.5], [0.1, 1.5, -0.3], [-2.0, 0.3, 1.1], [0.0, 0.9, -1.0]])
        >>> round(multiclass_auroc(logits, torch.tensor([0, 1, 2, 1]), 3, from_logits=True).item(), 4)
        1.0
        >>> round(multiclass_auroc(preds, target, 3, multi_class="ovo").item(), 4)
        0.9583
    """
    average = check_rank_average(average)
    multi_class = check_multi_class(multi_class, average)
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    if multi_class == "ovo":
        check_ovo_options(weight, thr)
    state = _multiclass_rank_stats(preds, target, weight, num_classes=num_classes, from_logits=from_logits,
                                   validate_args=validate_args, ignore_index=ignore_index, threshold_values=thr)
    return _multiclass_auroc_from_stats(state, num_classes, average, from_logits, strict, multi_class)


@fill_doc
def multiclass_average_precision(preds: Tensor, target: Tensor, num_classes: int, *, average: str = "macro",
                                 from_logits: bool = False, weight: Optional[Tensor] = None,
                                 thresholds: Thresholds = None, ignore_index: Optional[int] = None,
                                 strict: bool = False, validate_args: bool = True) -> Tensor:
    """One-vs-rest average precision of each class (column ``c`` scores, class ``c`` positive), averaged.

    Each class's value is :func:`~torchmetrics_lite.functional.binary_average_precision` (scikit-learn's step sum,
    tied scores entering together). {compile}

    Args:
        {preds_ovr}
        {target_ovr}
        {num_classes_rank}
        {average_ovr}
        {from_logits_mc}
        {weight_rank} Shape: ``(N,)``.
        {thresholds}
        {ignore_index_rank}
        {strict}
        {validate_args}

    Returns:
        A float64 scalar, or ``(num_classes,)`` with ``average="none"``.

    Raises:
        ValueError, TypeError: as :func:`multiclass_auroc`.

    References:
        scikit-learn's ``average_precision_score`` on the binarized labels; torchmetrics'
        ``multiclass_average_precision``.

    Examples:
        >>> preds = torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.4, 0.4, 0.2],
        ...                       [0.3, 0.35, 0.35]])
        >>> target = torch.tensor([0, 1, 2, 1, 0])
        >>> [round(v, 4) for v in multiclass_average_precision(preds, target, 3, average="none").tolist()]
        [0.8333, 1.0, 1.0]
    """
    average = check_rank_average(average)
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multiclass_rank_stats(preds, target, weight, num_classes=num_classes, from_logits=from_logits,
                                   validate_args=validate_args, ignore_index=ignore_index, threshold_values=thr)
    return _multiclass_average_precision_from_stats(state, num_classes, average, from_logits, strict)
