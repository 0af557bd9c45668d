"""LogAUC: the area under the ROC curve with a log-scaled false-positive-rate axis over ``fpr_range = (lo, hi)``,
normalised by the axis' length, ``(1 / ln(hi / lo)) * integral_lo^hi tpr(f) d(ln f)`` (in ``[0, 1]``; a perfect
ranking gives 1). It weighs the low false-positive rates that matter in screening.

Exact on the tie-aware ROC curve (:mod:`.curves`): the curve is linear in ``fpr`` between its points (a tie group
with positives and negatives is a diagonal segment), and each segment's integral against ``d(ln f)`` is taken in
closed form (:func:`._kernels.result_segments.logauc_rows`).

Difference from torchmetrics: it inserts the points at ``lo`` and ``hi`` (interpolated linearly in ``fpr``, as
here) and then takes the trapezoidal area in ``(log10 fpr, tpr)``, i.e. it treats each segment as linear in
``log fpr``. That is exact on horizontal and vertical segments, so both agree (to float32 rounding) when no tie
group holds a positive and a negative inside the range; on a diagonal segment the trapezoid over-estimates the
area (``tpr`` is concave in ``log fpr`` there) and the values differ.
"""
from __future__ import annotations

from typing import Optional, Tuple

import torch  # noqa: F401 (the doctests)
from torch import Tensor

from torchmetrics_lite._checks import check_fpr_range, check_rank_average, check_rank_ignore_index, check_thresholds
from torchmetrics_lite._docs import register
from torchmetrics_lite.functional.auroc import _kernels as kernels
from torchmetrics_lite.functional.auroc._common import (
    State,
    _as_bool,
    _average,
    _check_defined,
    _compiling,
    _multiclass_positive,
    _multiclass_scores,
)
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.functional.auroc.binary import Thresholds, _binary_rank_stats
from torchmetrics_lite.functional.auroc.binned import _positives
from torchmetrics_lite.functional.auroc.binned_points import binned_logauc
from torchmetrics_lite.functional.auroc.eer import _binary_segments, _rows_segments
from torchmetrics_lite.functional.auroc.multiclass import _multiclass_rank_stats
from torchmetrics_lite.functional.auroc.multilabel import IGNORED, _multilabel_rank_stats

__all__ = ["binary_logauc", "multiclass_logauc", "multilabel_logauc"]

AVERAGES = ("macro", "none")
FprRange = Tuple[float, float]


def _binary_logauc_from_stats(state: State, fpr_range: FprRange = (0.001, 0.1), strict: bool = False) -> Tensor:
    if "confmat" in state:  # torchmetrics' binned mode (thresholds=)
        value = binned_logauc(state, *fpr_range)[0]
        _check_defined(value, "LogAUC", strict)
        return value
    segments = _binary_segments(state["preds"], _as_bool(state["target"]), fpr_range[1])
    value = kernels.logauc_rows(segments, *fpr_range)[0]
    _check_defined(value, "LogAUC", strict, empty=lambda: state["preds"].numel() == 0)
    return value


def _per_class(scores: Tensor, positive: Tensor, fpr_range: FprRange, average: str, strict: bool) -> Tensor:
    values = kernels.logauc_rows(_rows_segments(scores, positive, fpr_range[1]), *fpr_range)
    return _average(values, positive.sum(0), average, "LogAUC", strict)  # the support only weighs "weighted"


def _multiclass_logauc_from_stats(state: State, num_classes: int, fpr_range: FprRange = (0.001, 0.1),
                                  average: str = "macro", from_logits: bool = False, strict: bool = False) -> Tensor:
    if "confmat" in state:  # torchmetrics' binned mode (thresholds=)
        return _binned(state, fpr_range, average, strict)
    scores = _multiclass_scores(state["preds"], from_logits)
    return _per_class(scores, _multiclass_positive(state["target"], num_classes), fpr_range, average, strict)


def _multilabel_logauc_from_stats(state: State, fpr_range: FprRange = (0.001, 0.1), average: str = "macro",
                                  strict: bool = False) -> Tensor:
    if "confmat" in state:  # torchmetrics' binned mode (thresholds=)
        return _binned(state, fpr_range, average, strict)
    target = state["target"]
    ignored = target == IGNORED  # ignore_index elements count nowhere
    if _compiling() or not bool(ignored.any()):
        return _per_class(state["preds"], target.bool(), fpr_range, average, strict)
    # each label keeps its own elements (ragged): one exact LogAUC per label, only when some element is ignored
    values = torch.cat([kernels.logauc_rows(_binary_segments(state["preds"][~ignored[:, j], j],
                                                        target[~ignored[:, j], j] == 1, fpr_range[1]), *fpr_range)
                        for j in range(target.shape[1])])
    return _average(values, (target == 1).sum(0), average, "LogAUC", strict)


def _binned(state: State, fpr_range: FprRange, average: str, strict: bool) -> Tensor:
    return _average(binned_logauc(state, *fpr_range), _positives(state), average, "LogAUC", strict)


register(fpr_range=("fpr_range: ``(lo, hi)`` with ``0 < lo < hi <= 1``: the false-positive rates integrated over "
                    "(default ``(0.001, 0.1)``, as torchmetrics)."))


@fill_doc
def binary_logauc(preds: Tensor, target: Tensor, fpr_range: FprRange = (0.001, 0.1), *,
                  from_logits: bool = False, thresholds: Thresholds = None, ignore_index: Optional[int] = None,
                  strict: bool = False, validate_args: bool = True) -> Tensor:
    """LogAUC: ``(1 / ln(hi / lo)) * integral_lo^hi tpr(f) d(ln f)`` over the exact ROC curve.

    ``tpr(f)`` is the ROC curve with every distinct score a threshold, linear between its points (tied pairs on a
    diagonal segment, as AUROC counts them 1/2); each segment is integrated in closed form (see
    :mod:`torchmetrics_lite.functional.auroc.logauc`, which also states the difference from torchmetrics).
    {compile}

    Args:
        preds: floating scores of any shape (any real values).
        target: 0/1 labels of the same shape.
        {fpr_range}
        thresholds: torchmetrics' binned mode (an int, a list or a 1-D tensor; probabilities, or logits with
            ``from_logits=True``): its LogAUC, the trapezoid in ``(log10 fpr, tpr)`` over the binned ROC points
            with the points at ``lo`` and ``hi`` interpolated in; ``None`` (default): exact.
        {from_logits_bin}
        {ignore_index_rank}
        {strict}
        {validate_args}

    Returns:
        A float64 scalar in ``[0, 1]``. Empty input or one class present: ``nan`` and a ``UserWarning``.

    Raises:
        ValueError: ``fpr_range`` not a pair with ``0 < lo < hi <= 1``, bad inputs as
            :func:`~torchmetrics_lite.functional.binary_auroc`, or one class with ``strict``.
        TypeError: non-floating ``preds`` or non-integer ``target``.

    References:
        Mysinger & Shoichet (2010), "Rapid context-dependent ligand desolvation in molecular docking", J. Chem.
        Inf. Model. 50 (LogAUC); torchmetrics' ``binary_logauc``.

    Examples:
        >>> binary_logauc(torch.tensor([0.75, 0.05, 0.05, 0.05, 0.05]), torch.tensor([1, 0, 0, 0, 0]))
        tensor(1., dtype=torch.float64)
        >>> preds, target = torch.tensor([0.9, 0.8, 0.7, 0.6]), torch.tensor([1, 0, 1, 0])
        >>> round(binary_logauc(preds, target, fpr_range=(0.1, 1.0)).item(), 6)  # (ln(5) / 2 + ln(2)) / ln(10)
        0.650515
    """
    fpr_range = check_fpr_range(fpr_range)
    values, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _binary_rank_stats(preds, target, validate_args=validate_args, ignore_index=ignore_index,
                               threshold_values=values, from_logits=from_logits)
    return _binary_logauc_from_stats(state, fpr_range, strict)


@fill_doc
def multiclass_logauc(preds: Tensor, target: Tensor, num_classes: int, fpr_range: FprRange = (0.001, 0.1), *,
                      average: Optional[str] = "macro", from_logits: bool = False, thresholds: Thresholds = None,
                      ignore_index: Optional[int] = None, strict: bool = False, validate_args: bool = True) -> Tensor:
    """LogAUC of each class, one-vs-rest (each as :func:`binary_logauc`), averaged.

    Args:
        preds: ``(N, num_classes)`` probabilities (or logits with ``from_logits=True``).
        target: ``(N,)`` class indices.
        num_classes: the number of classes.
        {fpr_range}
        average: ``"macro"`` (mean over the classes that are defined) or ``"none"``/``None`` (per class).
        {from_logits_mc}
        thresholds: torchmetrics' binned mode, as :func:`binary_logauc`'s, per class (logits: with
            ``from_logits=True``).
        {ignore_index_rank}
        {strict}
        {validate_args}

    Returns:
        A float64 scalar, or ``(num_classes,)`` with ``average="none"``; a class absent from ``target`` is
        ``nan`` with a ``UserWarning`` and left out of the mean.

    Raises:
        ValueError: a bad ``fpr_range`` or ``average``, or bad inputs as
            :func:`~torchmetrics_lite.functional.multiclass_auroc`.
        TypeError: non-floating ``preds`` or non-integer ``target``.

    References:
        torchmetrics' ``multiclass_logauc``.

    Examples:
        >>> preds = torch.tensor([[0.75, 0.05, 0.2], [0.05, 0.75, 0.2], [0.1, 0.1, 0.8], [0.3, 0.5, 0.2]])
        >>> multiclass_logauc(preds, torch.tensor([0, 1, 2, 0]), 3, average=None).tolist()
        [1.0, 1.0, 1.0]
    """
    fpr_range = check_fpr_range(fpr_range)
    average = check_rank_average(average, AVERAGES)
    values, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multiclass_rank_stats(preds, target, None, num_classes=num_classes, from_logits=from_logits,
                                   validate_args=validate_args, ignore_index=ignore_index, threshold_values=values)
    return _multiclass_logauc_from_stats(state, num_classes, fpr_range, average, from_logits, strict)


@fill_doc
def multilabel_logauc(preds: Tensor, target: Tensor, num_labels: int, fpr_range: FprRange = (0.001, 0.1), *,
                      average: Optional[str] = "macro", from_logits: bool = False, thresholds: Thresholds = None,
                      ignore_index: Optional[int] = None, strict: bool = False, validate_args: bool = True) -> Tensor:
    """LogAUC of each label (each as :func:`binary_logauc`), averaged.

    Args:
        preds: ``(N, num_labels)`` floating scores.
        target: ``(N, num_labels)`` 0/1 labels.
        num_labels: the number of labels.
        {fpr_range}
        average: ``"macro"`` or ``"none"``/``None``.
        thresholds: torchmetrics' binned mode, as :func:`binary_logauc`'s, per label.
        {from_logits_bin}
        {ignore_index_rank}
        {strict}
        {validate_args}

    Returns:
        A float64 scalar, or ``(num_labels,)``; a label without positives or negatives is ``nan`` with a
        ``UserWarning`` and left out of the mean.

    Raises:
        ValueError, TypeError: as :func:`multiclass_logauc`.

    References:
        torchmetrics' ``multilabel_logauc``.

    Examples:
        >>> preds = torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], [0.05, 0.65]])
        >>> multilabel_logauc(preds, torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]]), 2, average=None).tolist()
        [0.5, 0.0]
    """
    fpr_range = check_fpr_range(fpr_range)
    average = check_rank_average(average, AVERAGES)
    values, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multilabel_rank_stats(preds, target, num_labels=num_labels, validate_args=validate_args,
                                   ignore_index=ignore_index, threshold_values=values, from_logits=from_logits)
    return _multilabel_logauc_from_stats(state, fpr_range, average, strict)
