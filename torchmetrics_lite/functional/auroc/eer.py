"""Equal error rate (EER): the rate at which the false-positive rate equals the false-negative rate ``1 - tpr``,
read off the exact, tie-aware ROC curve (:mod:`.curves`) of the binary task, of each class (one-vs-rest) and of
each label.

The curve is piecewise linear (a tie group holding positives and negatives is a diagonal segment), ``fpr - fnr``
rises strictly along it from ``-1`` to ``1``, so ``fpr`` and ``fnr`` cross at exactly one point, generally inside
a segment: the EER is the rate there, by linear interpolation on that segment (the operating point of a
randomised choice between the segment's two thresholds). The ``*_eer_threshold`` functions also return the
threshold of the segment's end, the first curve point with ``fpr >= fnr`` (predict positive when
``score >= threshold``).

The macro EER (``multiclass_eer(average="macro")``, as torchmetrics) is the EER of the classes' mean ROC curve,
formed by vertical averaging as torchmetrics' macro ROC: the mean over classes of each exact curve's ``tpr`` at
every ``fpr`` where some class has a point, each class interpolated linearly on its segment there; where a class's
curve is vertical at that ``fpr`` the mean curve is vertical too, from the mean with each class at its lowest point
there to the mean at its highest (torchmetrics keeps only the highest). The rates cross once on that curve, read
as above (:func:`~torchmetrics_lite.functional.auroc._kernels.result_segments.mean_curve_eer`). A class without
positives or negatives is left out of the mean (torchmetrics takes its rates as 0).

Difference from torchmetrics: it takes the curve point ``k`` that minimises ``|fpr_k - fnr_k|`` and returns
``(fpr_k + fnr_k) / 2`` without interpolating. Both agree when the curves cross at a point of the curve; inside a
segment torchmetrics' value is an approximation, off by up to half the segment's length.
"""
from __future__ import annotations

import math
import warnings
from typing import Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_eer_average, check_rank_ignore_index, check_thresholds
from torchmetrics_lite.functional.auroc import _kernels as kernels
from torchmetrics_lite.functional.auroc._common import (
    NO_SAMPLES,
    State,
    _as_bool,
    _columns,
    _compiling,
    _multiclass_positive,
    _multiclass_scores,
    _undefined,
)
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.functional.auroc.binary import Thresholds, _binary_rank_stats, _check_binary
from torchmetrics_lite.functional.auroc.binned_points import binned_eer, binned_macro_eer
from torchmetrics_lite.functional.auroc.multiclass import _check_multiclass, _multiclass_rank_stats
from torchmetrics_lite.functional.auroc.multilabel import IGNORED, _check_multilabel, _multilabel_rank_stats

__all__ = ["binary_eer", "multiclass_eer", "multilabel_eer", "binary_eer_threshold", "multiclass_eer_threshold",
           "multilabel_eer_threshold"]

Pair = Tuple[Tensor, Tensor]


def _warn_undefined(values: Tensor, rows: bool, empty: bool = False) -> None:
    if _compiling() or not bool(torch.isnan(values).any()):
        return
    where = NO_SAMPLES if empty else f"for class(es) {torch.nonzero(torch.isnan(values)).view(-1).tolist()}" \
        if rows else "with one class present"
    _undefined("EER", where, False)


def _eer_of(scores: Tensor, positive: Tensor, rows: bool) -> Pair:
    eer, threshold = kernels.eer(scores, positive)
    _warn_undefined(eer, rows, empty=scores.numel() == 0)
    return eer, threshold


def _binary_segments(scores: Tensor, is_pos: Tensor, hi: float = 1.0) -> kernels.Segments:
    return kernels.segments(scores, is_pos, hi)


def _rows_segments(scores: Tensor, positive: Tensor, hi: float = 1.0) -> kernels.Segments:
    """Per class or label: ``scores`` and ``positive`` ``(N, C)``, one row per column."""
    return kernels.segments(*_columns(scores, positive), hi)


def _binary_eer_of(scores: Tensor, is_pos: Tensor) -> Pair:
    eer, threshold = _eer_of(scores, is_pos, False)
    return eer[0], threshold[0]


def _binary_eer_pair(state: State) -> Pair:
    return _binary_eer_of(state["preds"], _as_bool(state["target"]))


def _multiclass_eer_pair(state: State, num_classes: int, average: str = "none", from_logits: bool = False) -> Pair:
    scores = _multiclass_scores(state["preds"], from_logits)
    positive = _multiclass_positive(state["target"], num_classes)
    if average == "micro":  # one binary problem over the one-hot (sample, class) pairs
        return _binary_eer_of(scores.reshape(-1), positive.reshape(-1))
    if average == "macro":  # the EER of the classes' mean curve; no threshold (check_eer_average refuses one)
        eer = _macro_eer(scores, positive)
        return eer, torch.full_like(eer, math.nan)
    return _rows_eer(scores, positive)


def _macro_eer(scores: Tensor, positive: Tensor) -> Tensor:
    g = _rows_segments(scores, positive)
    eer = kernels.mean_curve_eer(g)
    if _compiling():
        return eer
    n_pos = positive.sum(0)
    undefined = torch.nonzero((n_pos == 0) | (n_pos == positive.shape[0])).view(-1).tolist()
    if bool(torch.isnan(eer)):
        _undefined("EER", "for every class", False)
    elif undefined:
        warnings.warn(f"EER is undefined for class(es) {undefined} (no positives or no negatives); they are left "
                      "out of the macro mean ROC curve", UserWarning, stacklevel=4)
    return eer


def _rows_eer(scores: Tensor, positive: Tensor) -> Pair:
    return _eer_of(*_columns(scores, positive), True)


def _multilabel_eer_pair(state: State) -> Pair:
    target = state["target"]
    ignored = target == IGNORED  # ignore_index elements count nowhere
    if _compiling() or not bool(ignored.any()):
        return _rows_eer(state["preds"], target.bool())
    # each label keeps its own elements (ragged): one exact EER per label, only when some element is ignored
    pairs = [_eer_of(state["preds"][~ignored[:, j], j], target[~ignored[:, j], j] == 1, False)
             for j in range(target.shape[1])]
    return torch.cat([e for e, _ in pairs]), torch.cat([t for _, t in pairs])


def _binned_eer(state: State, rows: bool) -> Tensor:
    values = binned_eer(state)
    _warn_undefined(values, rows)
    return values


def _binned_macro(state: State) -> Tensor:
    value = binned_macro_eer(state)
    if _compiling():
        return value
    positives, total = state["confmat"][0, :, 1].sum(-1), state["confmat"][0].sum((-1, -2))
    undefined = torch.nonzero((positives == 0) | (positives == total)).view(-1).tolist()
    if bool(torch.isnan(value)):
        _undefined("EER", "for every class", False)
    elif undefined:
        warnings.warn(f"EER is undefined for class(es) {undefined} (no positives or no negatives); they are left "
                      "out of the macro mean ROC curve", UserWarning, stacklevel=4)
    return value


def _binary_eer_from_stats(state: State) -> Tensor:
    if "confmat" in state:  # torchmetrics' binned mode (thresholds=)
        return _binned_eer(state, False)[0]
    return _binary_eer_pair(state)[0]


def _multiclass_eer_from_stats(state: State, num_classes: int, average: str = "none",
                               from_logits: bool = False) -> Tensor:
    if "confmat" in state:  # torchmetrics' binned mode (thresholds=)
        if average == "micro":  # the one-hot pairs pooled: the classes' matrices summed
            return _binned_eer({"confmat": state["confmat"].sum(1, keepdim=True)}, False)[0]
        if average == "macro":
            return _binned_macro(state)
        return _binned_eer(state, True)
    return _multiclass_eer_pair(state, num_classes, average, from_logits)[0]


def _multilabel_eer_from_stats(state: State) -> Tensor:
    if "confmat" in state:  # torchmetrics' binned mode (thresholds=)
        return _binned_eer(state, True)
    return _multilabel_eer_pair(state)[0]


@fill_doc
def binary_eer(preds: Tensor, target: Tensor, *,
               from_logits: bool = False, thresholds: Thresholds = None, ignore_index: Optional[int] = None,
               validate_args: bool = True) -> Tensor:
    """Equal error rate: the rate where the ROC curve's false-positive rate equals its false-negative rate.

    With ``fpr(t) = #neg(score >= t) / #neg`` and ``fnr(t) = #pos(score < t) / #pos`` over the exact ROC curve
    (every distinct score a threshold, tied pairs on a diagonal segment), the EER is the common value at the
    unique crossing of ``fpr`` and ``fnr``, linearly interpolated on the segment where they cross (the rule is in
    :mod:`torchmetrics_lite.functional.auroc.eer`). One sort, O(n log n); float64. {compile}

    Args:
        preds: floating scores of any shape (any real values: only their order counts).
        target: 0/1 labels of the same shape.
        thresholds: torchmetrics' binned mode (an int, a list or a 1-D tensor of thresholds; probabilities, or
            logits with ``from_logits=True``): its EER, ``(fpr + fnr) / 2`` at the first ROC point at the
            thresholds where they are closest; ``None`` (default): exact.
        {from_logits_bin}
        {ignore_index_rank}
        {validate_args}

    Returns:
        A float64 scalar in ``[0, 1]``: lower is better. Empty input or one class present: ``nan`` and a
        ``UserWarning``. :func:`binary_eer_threshold` also returns the threshold.

    Raises:
        ValueError: shapes differ, NaN scores or labels other than 0/1.
        TypeError: non-floating ``preds`` or non-integer ``target``.

    References:
        torchmetrics' ``binary_eer`` (which returns ``(fpr + fnr) / 2`` at the curve point where they are closest,
        without interpolation); Bolle et al. (2004), "Guide to Biometrics", section 5.

    Examples:
        >>> preds, target = torch.tensor([0.0, 0.5, 0.7, 0.8]), torch.tensor([0, 1, 1, 0])
        >>> binary_eer(preds, target)  # the curve's point (0.5, 0.5) is on the crossing
        tensor(0.5000, dtype=torch.float64)
        >>> preds, target = torch.tensor([0.1, 0.3, 0.3, 0.3, 0.9]), torch.tensor([0, 0, 1, 1, 1])
        >>> binary_eer(preds, target)  # 2/7, inside the tie's segment (0, 2/3) -> (1/2, 0); torchmetrics: 0.25
        tensor(0.2857, dtype=torch.float64)
    """
    values, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    return _binary_eer_from_stats(_binary_rank_stats(preds, target, validate_args=validate_args,
                                                     ignore_index=ignore_index, threshold_values=values,
                                                     from_logits=from_logits))


@fill_doc
def binary_eer_threshold(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> Pair:
    """:func:`binary_eer` and its threshold: ``(eer, threshold)``.

    The threshold is that of the first ROC point (thresholds decreasing) with ``fpr >= fnr``: the end of the
    segment on which the rates cross (its own point when they cross there). Predicting positive for
    ``score >= threshold`` gives ``fpr >= eer >= fnr``.

    Args:
        preds: floating scores of any shape.
        target: 0/1 labels of the same shape.
        {validate_args}

    Returns:
        ``(eer, threshold)``: a float64 scalar and a scalar in the scores' dtype (``nan``, ``nan`` when undefined).

    Raises:
        ValueError, TypeError: as :func:`binary_eer`.

    References:
        torchmetrics' ``binary_eer`` (value only).

    Examples:
        >>> eer, threshold = binary_eer_threshold(torch.tensor([0.1, 0.3, 0.3, 0.3, 0.9]),
        ...                                       torch.tensor([0, 0, 1, 1, 1]))
        >>> round(eer.item(), 4), round(threshold.item(), 4)
        (0.2857, 0.3)
    """
    return _binary_eer_pair(_check_binary(preds, target, None, validate_args))


@fill_doc
def multiclass_eer(preds: Tensor, target: Tensor, num_classes: int, *, average: Optional[str] = None,
                   from_logits: bool = False, thresholds: Thresholds = None, ignore_index: Optional[int] = None,
                   validate_args: bool = True) -> Tensor:
    """Equal error rate of each class, one-vs-rest (class ``c`` positive, scored by ``preds[:, c]``), each as
    :func:`binary_eer`; of all ``(sample, class)`` pairs pooled (``average="micro"``); or of the classes' mean ROC
    curve (``average="macro"``).

    The macro curve is ``T(f) = mean_c tpr_c(f)`` over the classes' exact curves, at every ``f`` in the union of
    their false-positive rates (each class linear on its segment between its points); where a class's curve is
    vertical at ``f``, the mean curve is vertical from the mean at each class's lowest point there to the mean at
    its highest. The macro EER is where ``f = 1 - T(f)`` on that curve, interpolated on its segment as
    :func:`binary_eer` (the rule is in :mod:`torchmetrics_lite.functional.auroc.eer`). One search per class in
    each of ``log2`` bisection steps over the union.

    Args:
        preds: ``(N, num_classes)`` probabilities (or logits with ``from_logits=True``).
        target: ``(N,)`` class indices.
        num_classes: the number of classes.
        average: ``None`` or ``"none"`` (default, as torchmetrics: one EER per class), ``"micro"`` (one binary
            problem over the one-hot targets and the flattened scores) or ``"macro"`` (the EER of the mean curve).
        {from_logits_mc}
        thresholds: torchmetrics' binned mode (an int, a list or a 1-D tensor; probabilities, or logits with
            ``from_logits=True``): its EER on the binned ROC curves, ``(fpr + fnr) / 2`` at the first point where
            they are closest, per class, of the classes' matrices summed (``"micro"``), or of the mean curve
            (``"macro"``: each class's ``tpr`` interpolated at every class's ``fpr`` as torchmetrics, the classes
            without positives or negatives left out); ``None`` (default): exact.
        {ignore_index_rank}
        {validate_args}

    Returns:
        ``(num_classes,)`` float64, or a scalar with ``"micro"`` and ``"macro"``. A class absent from ``target`` (or
        the only one present) is ``nan``, with a ``UserWarning``; ``"macro"`` leaves it out of the mean curve (with
        a warning), and is ``nan`` when no class has both kinds of samples.

    Raises:
        ValueError: an unknown ``average``, or bad inputs as :func:`~torchmetrics_lite.functional.multiclass_auroc`.
        TypeError: non-floating ``preds`` or non-integer ``target``.

    References:
        torchmetrics' ``multiclass_eer`` (which takes the nearest point of the mean curve's highest points, where
        this interpolates the crossing); Fawcett (2006), "An introduction to ROC analysis", section 10 (vertical
        averaging).

    Examples:
        >>> preds = torch.tensor([[0.75, 0.05, 0.2], [0.05, 0.75, 0.2], [0.1, 0.1, 0.8], [0.3, 0.5, 0.2]])
        >>> multiclass_eer(preds, torch.tensor([0, 1, 2, 0]), 3).tolist()  # every class ranked perfectly
        [0.0, 0.0, 0.0]
        >>> preds = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
        >>> multiclass_eer(preds, torch.tensor([0, 0, 1, 1]), 2, average="macro")  # on the mean's vertical
        tensor(0.5000, dtype=torch.float64)
    """
    average = check_eer_average(average)
    values, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multiclass_rank_stats(preds, target, None, num_classes=num_classes, from_logits=from_logits,
                                   validate_args=validate_args, ignore_index=ignore_index, threshold_values=values)
    return _multiclass_eer_from_stats(state, num_classes, average, from_logits)


@fill_doc
def multiclass_eer_threshold(preds: Tensor, target: Tensor, num_classes: int, *, average: Optional[str] = None,
                             from_logits: bool = False, validate_args: bool = True) -> Pair:
    """:func:`multiclass_eer` and the threshold of each class (as :func:`binary_eer_threshold`).

    Args:
        preds: ``(N, num_classes)`` probabilities (or logits with ``from_logits=True``: thresholds are then
            probabilities).
        target: ``(N,)`` class indices.
        num_classes: the number of classes.
        average: ``None``/``"none"`` or ``"micro"``, as :func:`multiclass_eer` (``"macro"`` raises: the mean
            curve has no threshold).
        {from_logits_mc}
        {validate_args}

    Returns:
        ``(eer, thresholds)``, each ``(num_classes,)`` (scalars with ``"micro"``).

    Raises:
        ValueError, TypeError: as :func:`multiclass_eer`.

    References:
        torchmetrics' ``multiclass_eer`` (values only).

    Examples:
        >>> preds = torch.tensor([[0.75, 0.05, 0.2], [0.05, 0.75, 0.2], [0.1, 0.1, 0.8], [0.3, 0.5, 0.2]])
        >>> eer, thresholds = multiclass_eer_threshold(preds, torch.tensor([0, 1, 2, 0]), 3)
        >>> [round(t, 2) for t in thresholds.tolist()]
        [0.3, 0.75, 0.8]
    """
    average = check_eer_average(average, threshold=True)
    state = _check_multiclass(preds, target, num_classes, None, from_logits, validate_args)
    return _multiclass_eer_pair(state, num_classes, average, from_logits)


@fill_doc
def multilabel_eer(preds: Tensor, target: Tensor, num_labels: int, *,
                   from_logits: bool = False, thresholds: Thresholds = None,
                   ignore_index: Optional[int] = None, validate_args: bool = True) -> Tensor:
    """Equal error rate of each label (column ``l`` scores, label ``l`` positive), each as :func:`binary_eer`.

    Args:
        preds: ``(N, num_labels)`` floating scores (probabilities or logits alike).
        target: ``(N, num_labels)`` 0/1 labels.
        num_labels: the number of labels.
        thresholds: torchmetrics' binned mode, as :func:`binary_eer`'s, per label.
        {from_logits_bin}
        {ignore_index_rank}
        {validate_args}

    Returns:
        ``(num_labels,)`` float64; a label without positives or without negatives is ``nan``, with a
        ``UserWarning``.

    Raises:
        ValueError, TypeError: as :func:`~torchmetrics_lite.functional.multilabel_auroc`.

    References:
        torchmetrics' ``multilabel_eer``.

    Examples:
        >>> preds = torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], [0.05, 0.65]])
        >>> multilabel_eer(preds, torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]]), 2).tolist()
        [0.5, 0.5]
    """
    values, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    return _multilabel_eer_from_stats(_multilabel_rank_stats(preds, target, num_labels=num_labels,
                                                             validate_args=validate_args, ignore_index=ignore_index,
                                                             threshold_values=values, from_logits=from_logits))


@fill_doc
def multilabel_eer_threshold(preds: Tensor, target: Tensor, num_labels: int, *, validate_args: bool = True) -> Pair:
    """:func:`multilabel_eer` and the threshold of each label (as :func:`binary_eer_threshold`).

    Args:
        preds: ``(N, num_labels)`` floating scores.
        target: ``(N, num_labels)`` 0/1 labels.
        num_labels: the number of labels.
        {validate_args}

    Returns:
        ``(eer, thresholds)``, each ``(num_labels,)``.

    Raises:
        ValueError, TypeError: as :func:`multilabel_eer`.

    References:
        torchmetrics' ``multilabel_eer`` (values only).

    Examples:
        >>> preds = torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], [0.05, 0.65]])
        >>> eer, thresholds = multilabel_eer_threshold(preds, torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]]), 2)
        >>> [round(t, 2) for t in thresholds.tolist()]
        [0.45, 0.65]
    """
    return _multilabel_eer_pair(_check_multilabel(preds, target, num_labels, None, validate_args))
