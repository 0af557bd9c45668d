"""Multilabel AUROC and average precision, one binary problem per label (conventions in
:mod:`torchmetrics_lite.functional.auroc`). Scores are used as given: a per-label sigmoid keeps each label's order,
so probabilities and logits give the same values (``from_logits`` changes nothing and exists for symmetry)."""
from __future__ import annotations

from typing import Any, Optional, Tuple

import torch  # noqa: F401 (the doctests)
from torch import Tensor

from torchmetrics_lite._checks import (
    Weighting,
    check_multilabel_rank_inputs,
    check_rank_average,
    check_rank_ignore_index,
    check_rank_weight,
    check_rank_weighting,
    check_thresholds,
    flatten_extra_dims,
)
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.auroc import _kernels as kernels
from torchmetrics_lite.functional.auroc._common import (
    State,
    _average,
    _check_defined,
    _columns,
    _compiling,
    _state_weight,
    _with_weight,
)
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.functional.auroc.binary import Thresholds
from torchmetrics_lite.functional.auroc.binned import _binned_averaged, _multilabel_binned_stats

__all__ = ["multilabel_auroc", "multilabel_average_precision"]

AVERAGES = ("micro", "macro", "weighted", "none")


IGNORED = 2  # the uint8 label code of an element whose target was `ignore_index` (it counts nowhere)


def _multilabel_rank_stats(preds: Any, target: Any, weight: Any = None, *, num_labels: int, validate_args: bool = True,
                           weighting: Optional[Weighting] = None, ignore_index: Optional[int] = None,
                           threshold_values: Optional[Tensor] = None, from_logits: bool = False) -> State:
    """Checked multilabel inputs as state rows: scores and uint8 labels ``(N, L)``, optional weights ``(N,)``.
    An element whose target is ``ignore_index`` is kept in place with the label code ``IGNORED``. ``weighting``:
    a module's rows so far (every update weighted or none); ``threshold_values``: torchmetrics' binned mode (the
    ``confmat`` counts of ``torchmetrics_lite.functional.auroc.binned`` instead of rows, logits through a sigmoid
    with ``from_logits``; the exact mode ranks the scores as given, which a sigmoid would not change)."""
    if threshold_values is not None:
        return _multilabel_binned_stats(preds, target, num_labels, threshold_values, ignore_index, validate_args,
                                        weight, from_logits)
    if weighting is not None:
        check_rank_weighting(weighting, weight)
    preds, target, weight = flatten_extra_dims(preds, target, weight, multilabel=True)
    ignored = None
    if ignore_index is not None and isinstance(target, Tensor):
        ignored = target == ignore_index
        target = torch.where(ignored, torch.zeros_like(target), target)
    preds, target = check_multilabel_rank_inputs(preds, target, num_labels, validate_args)
    if ignored is not None:
        target = torch.where(ignored, IGNORED, target).to(dtype=torch.uint8)
    weight = check_rank_weight(weight, tuple(target.shape[:1]), validate_args)
    return _with_weight({"preds": preds, "target": target}, weight)


def _check_multilabel(preds: Any, target: Any, num_labels: int, weight: Any, validate_args: bool,
                      ignore_index: Optional[int] = None) -> State:
    """Checked multilabel inputs as state rows (the exact mode of :func:`_multilabel_rank_stats`)."""
    return _multilabel_rank_stats(preds, target, weight, num_labels=num_labels, validate_args=validate_args,
                                  ignore_index=ignore_index)


def _label_columns(state: State) -> Tuple[Tensor, Tensor, Optional[Tensor]]:
    """Scores and positives ``(L, N)`` and the weights: ``(N,)`` (or ``None``) per sample, or ``(L, N)`` per
    element when some element is ``IGNORED`` (weight 0 there: it adds no pair, no precision, no threshold)."""
    preds, target, weight = state["preds"], state["target"], _state_weight(state)
    ignored = target == IGNORED
    if _compiling() or not bool(ignored.any()):
        return (*_columns(preds, target.bool()), weight)
    kept = (~ignored).to(float_dtype(preds.device))
    element = kept if weight is None else kept * weight.unsqueeze(1).to(kept.dtype)
    return (*_columns(preds, target == 1), element.t().contiguous())


def _micro(state: State) -> Tuple[Tensor, Tensor, Optional[Tensor]]:
    """All ``N * L`` score/label pairs pooled (sample-major), each sample's weight repeated over its labels;
    ``IGNORED`` elements dropped."""
    preds, target, weight = state["preds"], state["target"], _state_weight(state)
    if weight is not None:
        weight = weight.unsqueeze(1).expand(preds.shape).reshape(-1)
    preds, target = preds.reshape(-1), target.reshape(-1)
    if not _compiling():
        kept = target != IGNORED
        if not bool(kept.all()):
            preds, target, weight = preds[kept], target[kept], None if weight is None else weight[kept]
    return preds, target.bool(), weight


def _multilabel_auroc_from_stats(state: State, average: str = "macro", strict: bool = False) -> Tensor:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_averaged(state, "AUROC", average, strict)
    if average == "micro":
        value = kernels.auroc(*_micro(state))[0]
        _check_defined(value, "AUROC", strict)
        return value
    values, support = kernels.auroc(*_label_columns(state))
    return _average(values, support, average, "AUROC", strict)


def _multilabel_average_precision_from_stats(state: State, average: str = "macro", strict: bool = False) -> Tensor:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_averaged(state, "average precision", average, strict)
    if average == "micro":
        value = kernels.average_precision(*_micro(state))[0]
        _check_defined(value, "average precision", strict, "without positives")
        return value
    values, support = kernels.average_precision(*_label_columns(state))
    return _average(values, support, average, "average precision", strict)


@fill_doc
def multilabel_auroc(preds: Tensor, target: Tensor, num_labels: int, *, average: str = "macro",
                     from_logits: bool = False, weight: Optional[Tensor] = None, thresholds: Thresholds = None,
                     ignore_index: Optional[int] = None, strict: bool = False, validate_args: bool = True) -> Tensor:
    """Exact AUROC of each label (column), averaged.

    Each label's value is :func:`~torchmetrics_lite.functional.binary_auroc` of its column (Mann-Whitney, tied
    pairs 1/2). {compile}

    Args:
        preds: ``(N, num_labels)`` floating scores (probabilities or logits alike).
        target: ``(N, num_labels)`` 0/1 labels.
        num_labels: the number of labels.
        average: ``"micro"`` (one AUROC over all ``N * num_labels`` score/label pairs), ``"macro"``,
            ``"weighted"`` (by each label's positive weight) or ``"none"``; a label without positives or without
            negatives is ``nan`` with a ``UserWarning`` and left out of the averages (``strict`` raises).
        {from_logits_bin}
        {weight_rank} Shape: ``(N,)``, one weight per sample for all its labels.
        {thresholds}
        {ignore_index_rank}
        {strict}
        {validate_args}

    Returns:
        A float64 scalar, or ``(num_labels,)`` with ``average="none"``.

    Raises:
        ValueError: wrong shapes, NaN scores, labels other than 0/1, negative weights, an unknown ``average``, or
            an undefined label with ``strict``.
        TypeError: non-floating ``preds`` or non-integer ``target``.

    References:
        Hanley & McNeil (1982); scikit-learn's ``roc_auc_score`` on multilabel indicators.

    Examples:
        >>> preds = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
        >>> target = torch.tensor([[1, 0], [0, 1], [1, 1], [0, 0]])
        >>> multilabel_auroc(preds, target, 2, average="none").tolist()
        [1.0, 0.75]
    """
    average = check_rank_average(average, AVERAGES)
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multilabel_rank_stats(preds, target, weight, num_labels=num_labels, validate_args=validate_args,
                                   ignore_index=ignore_index, threshold_values=thr, from_logits=from_logits)
    return _multilabel_auroc_from_stats(state, average, strict)


@fill_doc
def multilabel_average_precision(preds: Tensor, target: Tensor, num_labels: int, *, average: str = "macro",
                                 from_logits: bool = False, weight: Optional[Tensor] = None,
                                 thresholds: Thresholds = None, ignore_index: Optional[int] = None,
                                 strict: bool = False, validate_args: bool = True) -> Tensor:
    """Average precision of each label, averaged, as scikit-learn's ``average_precision_score``.

    Each label's value is :func:`~torchmetrics_lite.functional.binary_average_precision` of its column. {compile}

    Args:
        preds: ``(N, num_labels)`` floating scores.
        target: ``(N, num_labels)`` 0/1 labels.
        num_labels: the number of labels.
        average: ``"micro"`` (all pairs pooled), ``"macro"``, ``"weighted"`` (by positive weight) or ``"none"``;
            a label without positives is ``nan`` with a warning and left out of the averages.
        {from_logits_bin}
        {weight_rank} Shape: ``(N,)``.
        {thresholds}
        {ignore_index_rank}
        {strict}
        {validate_args}

    Returns:
        A float64 scalar, or ``(num_labels,)`` with ``average="none"``.

    Raises:
        ValueError, TypeError: as :func:`multilabel_auroc`.

    References:
        scikit-learn's ``average_precision_score``; torchmetrics' ``multilabel_average_precision``.

    Examples:
        >>> preds = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
        >>> target = torch.tensor([[1, 0], [0, 1], [1, 1], [0, 0]])
        >>> [round(v, 4) for v in multilabel_average_precision(preds, target, 2, average="none").tolist()]
        [1.0, 0.8333]
    """
    average = check_rank_average(average, AVERAGES)
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multilabel_rank_stats(preds, target, weight, num_labels=num_labels, validate_args=validate_args,
                                   ignore_index=ignore_index, threshold_values=thr, from_logits=from_logits)
    return _multilabel_average_precision_from_stats(state, average, strict)
