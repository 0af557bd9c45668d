"""Operating points: the best threshold under a constraint on the precision-recall or the ROC curve, for the
binary task, per class (one-vs-rest) for the multiclass task and per label for the multilabel task, with
torchmetrics' conventions (``thresholds=None``, every distinct score a candidate threshold).

A candidate is a point of the curve (:mod:`.curves`): predict positive when ``score >= threshold``. Among the
candidates that meet the constraint the best one is chosen by a lexicographic maximum, computed on every class at
once with masked maxima (no loop over classes; static shapes):

* recall at fixed precision: the highest recall with ``precision >= min_precision``, ties to the higher
  precision, then the higher threshold; none, or a best recall of 0: ``(0, nan)``;
* precision at fixed recall: the highest precision with ``recall >= min_recall``, ties to the higher recall, then
  the higher threshold; none, or a best precision of 0: ``(0, nan)``;
* sensitivity at specificity / specificity at sensitivity, on the ROC curve (its ``(0, 0)`` start at threshold
  ``inf`` included): the highest value, ties to the higher threshold; none: ``(0, 1e6)``. A class without
  negatives has specificity 1 at every threshold, one without positives sensitivity 0 (torchmetrics' rates for
  0/0); empty input has no candidate.

``thresholds=`` (an int, a list or a tensor): torchmetrics' binned mode, the same rules on the confusion
matrices at the given thresholds (:mod:`.binned_points`). ``ignore_index``: samples (multilabel: elements)
whose target equals it are left out, as in the AUROC family.

Difference from torchmetrics: its ROC curve starts at threshold ``1.0``, ours (as scikit-learn's) at ``inf``, so
when the best ROC point is that start (sensitivity 0) the threshold is ``inf`` here and ``1.0`` there; and
torchmetrics applies a sigmoid to binary scores outside ``[0, 1]``, so its thresholds are then probabilities where
ours are the scores as given (the recall, precision, sensitivity and specificity are the same).
"""
from __future__ import annotations

import math
from typing import Callable, Optional, Sequence, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_probability, check_rank_ignore_index, check_thresholds
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.auroc import _kernels as kernels
from torchmetrics_lite.functional.auroc._common import (
    State,
    _as_bool,
    _columns,
    _multiclass_positive,
    _multiclass_scores,
)
from torchmetrics_lite.functional.auroc._doc_args import fill_doc, register
from torchmetrics_lite.functional.auroc.binary import Thresholds, _binary_rank_stats
from torchmetrics_lite.functional.auroc.binned_points import KINDS, binned_point
from torchmetrics_lite.functional.auroc.multiclass import _multiclass_rank_stats
from torchmetrics_lite.functional.auroc.multilabel import _label_columns, _multilabel_rank_stats

__all__ = ["binary_recall_at_fixed_precision", "binary_precision_at_fixed_recall",
           "binary_sensitivity_at_specificity", "binary_specificity_at_sensitivity",
           "multiclass_recall_at_fixed_precision", "multiclass_precision_at_fixed_recall",
           "multiclass_sensitivity_at_specificity", "multiclass_specificity_at_sensitivity",
           "multilabel_recall_at_fixed_precision", "multilabel_precision_at_fixed_recall",
           "multilabel_sensitivity_at_specificity", "multilabel_specificity_at_sensitivity"]

Point = Tuple[Tensor, Tensor]
Chooser = Callable[[kernels.Swept, float], Point]


def _best(ok: Tensor, keys: Sequence[Tensor], value: Tensor, thresholds: Tensor, none_threshold: float,
          zero_is_none: bool) -> Point:
    """Per row, the candidate (``ok``) with the lexicographically largest ``keys``: ``(value, threshold)`` there;
    rows without a candidate give ``(0, none_threshold)``, and so do rows whose best value is 0 when
    ``zero_is_none``; so does empty input (no candidate at all)."""
    if ok.shape[1] == 0:
        rows = ok.shape[0]
        return value.new_zeros(rows), thresholds.new_full((rows,), none_threshold)
    chosen = ok
    for key in keys:
        best = torch.where(chosen, key, -math.inf).max(1, keepdim=True).values
        chosen = chosen & (key == best)
    index = chosen.to(torch.uint8).argmax(1, keepdim=True)
    found = ok.any(1)
    best_value = torch.where(found, value.gather(1, index).squeeze(1), 0.0)
    missing = ~found | (best_value == 0) if zero_is_none else ~found
    threshold = thresholds.gather(1, index).squeeze(1)
    return best_value, torch.where(missing, torch.full_like(threshold, none_threshold), threshold)


def _wide(thresholds: Tensor) -> Tensor:
    """Thresholds as a sort key: float64 (float32 on a device without float64)."""
    return thresholds.to(float_dtype(thresholds.device))


def _recall_at_precision(s: kernels.Swept, min_precision: float) -> Point:
    precision, recall, thresholds, valid = kernels.pr_rates(s)
    return _best(valid & (precision >= min_precision), (recall, precision, _wide(thresholds)), recall, thresholds,
                 math.nan, True)


def _precision_at_recall(s: kernels.Swept, min_recall: float) -> Point:
    precision, recall, thresholds, valid = kernels.pr_rates(s)
    return _best(valid & (recall >= min_recall), (precision, recall, _wide(thresholds)), precision, thresholds,
                 math.nan, True)


def _roc_rates(s: kernels.Swept) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """The ROC rates with torchmetrics' 0 for a rate that is 0/0 (a column without negatives has specificity 1
    everywhere, one without positives sensitivity 0); an empty column keeps ``nan`` (no candidate)."""
    fpr, tpr, thresholds, valid = kernels.roc_rates(s)
    seen = ((s.n_pos + s.n_neg) > 0).unsqueeze(1)
    fpr = torch.where(seen, torch.nan_to_num(fpr, nan=0.0), fpr)
    return fpr, torch.where(seen, torch.nan_to_num(tpr, nan=0.0), tpr), thresholds, valid


def _sensitivity_at_specificity(s: kernels.Swept, min_specificity: float) -> Point:
    fpr, tpr, thresholds, valid = _roc_rates(s)
    return _best(valid & (1 - fpr >= min_specificity), (tpr, _wide(thresholds)), tpr, thresholds, 1e6, False)


def _specificity_at_sensitivity(s: kernels.Swept, min_sensitivity: float) -> Point:
    fpr, tpr, thresholds, valid = _roc_rates(s)
    specificity = 1 - fpr
    return _best(valid & (tpr >= min_sensitivity), (specificity, _wide(thresholds)), specificity, thresholds,
                 1e6, False)


def _binned(state: State, rule: Chooser, minimum: float, threshold_values: Optional[Tensor]) -> Point:
    if threshold_values is None:
        raise ValueError("Expected `threshold_values` with a binned state (`confmat`)")
    return binned_point(state, threshold_values, KINDS[rule.__name__], minimum, _best)


def _binary_point_from_stats(state: State, *, rule: Chooser, minimum: float,
                             threshold_values: Optional[Tensor] = None) -> Point:
    if "confmat" in state:  # the binned mode (thresholds=)
        value, threshold = _binned(state, rule, minimum, threshold_values)
    else:
        value, threshold = rule(kernels.swept(state["preds"], _as_bool(state["target"])), minimum)
    return value[0], threshold[0]


def _multiclass_point_from_stats(state: State, *, rule: Chooser, num_classes: int, minimum: float,
                                 from_logits: bool = False, threshold_values: Optional[Tensor] = None) -> Point:
    if "confmat" in state:
        return _binned(state, rule, minimum, threshold_values)
    scores = _multiclass_scores(state["preds"], from_logits)
    return rule(kernels.reads(*_columns(scores, _multiclass_positive(state["target"], num_classes))), minimum)


def _multilabel_point_from_stats(state: State, *, rule: Chooser, minimum: float,
                                 threshold_values: Optional[Tensor] = None) -> Point:
    if "confmat" in state:
        return _binned(state, rule, minimum, threshold_values)
    scores, positive, weight = _label_columns(state)  # weight: 0 on ignore_index elements (else None)
    return rule(kernels.reads(scores, positive) if weight is None else kernels.swept(scores, positive, weight),
                minimum)


# Returns/Raises/References of the sibling operating points; each function names its constraint, its value when
# no point qualifies and torchmetrics' name of it.
register(
    sections_point_binary=(
        "Returns:\n"
        "    ``(value, threshold)``: float64 scalars' pair, the threshold in the scores' dtype ({none} when no point\n"
        "    qualifies).\n"
        "\n"
        "Raises:\n"
        "    ValueError: ``{constraint}`` outside ``[0, 1]``, or bad inputs as\n"
        "        :func:`~torchmetrics_lite.functional.binary_auroc`.\n"
        "    TypeError: non-floating ``preds`` or non-integer ``target``.\n"
        "\n"
        "References:\n"
        "    torchmetrics' ``{tm}`` (``thresholds=None``); the rule is in\n"
        "    :mod:`torchmetrics_lite.functional.auroc.operating_points`."
    ),
    sections_point_multiclass=(
        "Returns:\n"
        "    ``(values, thresholds)``, each ``(num_classes,)``: class ``c``'s best point, as the binary form on\n"
        "    ``preds[:, c]`` with class ``c`` positive ({none} when no point qualifies).\n"
        "\n"
        "Raises:\n"
        "    ValueError: ``{constraint}`` outside ``[0, 1]``, or bad inputs as\n"
        "        :func:`~torchmetrics_lite.functional.multiclass_auroc`.\n"
        "    TypeError: non-floating ``preds`` or non-integer ``target``.\n"
        "\n"
        "References:\n"
        "    torchmetrics' ``{tm}`` (``thresholds=None``); the rule is in\n"
        "    :mod:`torchmetrics_lite.functional.auroc.operating_points`."
    ),
    sections_point_multilabel=(
        "Returns:\n"
        "    ``(values, thresholds)``, each ``(num_labels,)``: label ``l``'s best point, as the binary form on\n"
        "    ``preds[:, l]`` and ``target[:, l]`` ({none} when no point qualifies).\n"
        "\n"
        "Raises:\n"
        "    ValueError: ``{constraint}`` outside ``[0, 1]``, or bad inputs as\n"
        "        :func:`~torchmetrics_lite.functional.multilabel_auroc`.\n"
        "    TypeError: non-floating ``preds`` or non-integer ``target``.\n"
        "\n"
        "References:\n"
        "    torchmetrics' ``{tm}`` (``thresholds=None``); the rule is in\n"
        "    :mod:`torchmetrics_lite.functional.auroc.operating_points`."
    ),
)


@fill_doc(constraint="min_precision", none="recall 0, threshold nan",
          tm="binary_recall_at_fixed_precision")
def binary_recall_at_fixed_precision(preds: Tensor, target: Tensor, min_precision: float, *,
                                     from_logits: bool = False, thresholds: Thresholds = None,
                                     ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """The highest recall whose precision is at least ``min_precision``, and its threshold.

    ``max {recall(t) : precision(t) >= min_precision}`` over the thresholds ``t`` of the precision-recall curve.

    Args:
        {preds_scores}
        {target_scores}
        min_precision: the constraint, a number in ``[0, 1]``.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {validate_args}

    {sections_point_binary}

    Examples:
        >>> preds, target = torch.tensor([0.0, 0.5, 0.7, 0.8]), torch.tensor([0, 1, 1, 0])
        >>> [v.item() for v in binary_recall_at_fixed_precision(preds, target, min_precision=0.5)]
        [1.0, 0.5]
    """
    return _binary(_recall_at_precision, "min_precision", preds, target, min_precision, thresholds, ignore_index,
                   validate_args, from_logits)


@fill_doc(constraint="min_recall", none="precision 0, threshold nan",
          tm="binary_precision_at_fixed_recall")
def binary_precision_at_fixed_recall(preds: Tensor, target: Tensor, min_recall: float, *,
                                     from_logits: bool = False, thresholds: Thresholds = None,
                                     ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """The highest precision whose recall is at least ``min_recall``, and its threshold.

    ``max {precision(t) : recall(t) >= min_recall}`` over the thresholds ``t`` of the precision-recall curve.

    Args:
        {preds_scores}
        {target_scores}
        min_recall: the constraint, a number in ``[0, 1]``.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {validate_args}

    {sections_point_binary}

    Examples:
        >>> preds, target = torch.tensor([0.0, 0.5, 0.7, 0.8]), torch.tensor([0, 1, 1, 0])
        >>> [round(v.item(), 4) for v in binary_precision_at_fixed_recall(preds, target, min_recall=0.5)]
        [0.6667, 0.5]
    """
    return _binary(_precision_at_recall, "min_recall", preds, target, min_recall, thresholds, ignore_index,
                   validate_args, from_logits)


@fill_doc(constraint="min_specificity", none="sensitivity 0, threshold 1e6",
          tm="binary_sensitivity_at_specificity")
def binary_sensitivity_at_specificity(preds: Tensor, target: Tensor, min_specificity: float, *,
                                      from_logits: bool = False, thresholds: Thresholds = None,
                                      ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """The highest sensitivity (true-positive rate) whose specificity ``1 - fpr`` is at least
    ``min_specificity``, and its threshold.

    ``max {tpr(t) : 1 - fpr(t) >= min_specificity}`` over the thresholds ``t`` of the ROC curve.

    Args:
        {preds_scores}
        {target_scores}
        min_specificity: the constraint, a number in ``[0, 1]``.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {validate_args}

    {sections_point_binary}

    Examples:
        >>> preds, target = torch.tensor([0.0, 0.5, 0.7, 0.8]), torch.tensor([0, 1, 1, 0])
        >>> [v.item() for v in binary_sensitivity_at_specificity(preds, target, min_specificity=0.5)]
        [1.0, 0.5]
    """
    return _binary(_sensitivity_at_specificity, "min_specificity", preds, target, min_specificity, thresholds,
                   ignore_index, validate_args, from_logits)


@fill_doc(constraint="min_sensitivity", none="specificity 0, threshold 1e6",
          tm="binary_specificity_at_sensitivity")
def binary_specificity_at_sensitivity(preds: Tensor, target: Tensor, min_sensitivity: float, *,
                                      from_logits: bool = False, thresholds: Thresholds = None,
                                      ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """The highest specificity ``1 - fpr`` whose sensitivity (true-positive rate) is at least
    ``min_sensitivity``, and its threshold.

    ``max {1 - fpr(t) : tpr(t) >= min_sensitivity}`` over the thresholds ``t`` of the ROC curve.

    Args:
        {preds_scores}
        {target_scores}
        min_sensitivity: the constraint, a number in ``[0, 1]``.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {validate_args}

    {sections_point_binary}

    Examples:
        >>> preds, target = torch.tensor([0.0, 0.5, 0.7, 0.8]), torch.tensor([0, 1, 1, 0])
        >>> [v.item() for v in binary_specificity_at_sensitivity(preds, target, min_sensitivity=0.5)]
        [0.5, 0.699999988079071]
    """
    return _binary(_specificity_at_sensitivity, "min_sensitivity", preds, target, min_sensitivity, thresholds,
                   ignore_index, validate_args, from_logits)


def _binary(chooser: Chooser, name: str, preds: Tensor, target: Tensor, minimum: float, thresholds: Thresholds,
            ignore_index: Optional[int], validate_args: bool, from_logits: bool) -> Point:
    minimum = check_probability(name, minimum)
    values, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _binary_rank_stats(preds, target, validate_args=validate_args, ignore_index=ignore_index,
                               threshold_values=values, from_logits=from_logits)
    return _binary_point_from_stats(state, rule=chooser, minimum=minimum, threshold_values=values)


def _multiclass(chooser: Chooser, name: str, preds: Tensor, target: Tensor, num_classes: int, minimum: float,
                from_logits: bool, thresholds: Thresholds, ignore_index: Optional[int], validate_args: bool) -> Point:
    minimum = check_probability(name, minimum)
    values, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multiclass_rank_stats(preds, target, num_classes=num_classes, from_logits=from_logits,
                                   validate_args=validate_args, ignore_index=ignore_index, threshold_values=values)
    return _multiclass_point_from_stats(state, rule=chooser, num_classes=num_classes, minimum=minimum,
                                        from_logits=from_logits, threshold_values=values)


@fill_doc(constraint="min_precision", none="recall 0, threshold nan",
          tm="multiclass_recall_at_fixed_precision")
def multiclass_recall_at_fixed_precision(preds: Tensor, target: Tensor, num_classes: int, min_precision: float, *,
                                         from_logits: bool = False, thresholds: Thresholds = None,
                                         ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """Per class (one-vs-rest), the highest recall whose precision is at least ``min_precision``, and its
    threshold (see :func:`binary_recall_at_fixed_precision`).

    Args:
        {preds_ovr}
        {target_ovr}
        {num_classes_rank}
        min_precision: the constraint, a number in ``[0, 1]``.
        {from_logits_mc}
        {thresholds}
        {ignore_index_rank}
        {validate_args}

    {sections_point_multiclass}

    Examples:
        >>> preds = torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.5, 0.4, 0.1]])
        >>> recall, thresholds = multiclass_recall_at_fixed_precision(preds, torch.tensor([0, 1, 2, 1]), 3, 0.5)
        >>> recall.tolist(), [round(t, 2) for t in thresholds.tolist()]
        ([1.0, 1.0, 1.0], [0.6, 0.4, 0.7])
    """
    return _multiclass(_recall_at_precision, "min_precision", preds, target, num_classes, min_precision,
                       from_logits, thresholds, ignore_index, validate_args)


@fill_doc(constraint="min_recall", none="precision 0, threshold nan",
          tm="multiclass_precision_at_fixed_recall")
def multiclass_precision_at_fixed_recall(preds: Tensor, target: Tensor, num_classes: int, min_recall: float, *,
                                         from_logits: bool = False, thresholds: Thresholds = None,
                                         ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """Per class (one-vs-rest), the highest precision whose recall is at least ``min_recall``, and its threshold
    (see :func:`binary_precision_at_fixed_recall`).

    Args:
        {preds_ovr}
        {target_ovr}
        {num_classes_rank}
        min_recall: the constraint, a number in ``[0, 1]``.
        {from_logits_mc}
        {thresholds}
        {ignore_index_rank}
        {validate_args}

    {sections_point_multiclass}

    Examples:
        >>> preds = torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.5, 0.4, 0.1]])
        >>> precision, thresholds = multiclass_precision_at_fixed_recall(preds, torch.tensor([0, 1, 2, 1]), 3, 1.0)
        >>> precision.tolist()
        [1.0, 1.0, 1.0]
    """
    return _multiclass(_precision_at_recall, "min_recall", preds, target, num_classes, min_recall, from_logits,
                       thresholds, ignore_index, validate_args)


@fill_doc(constraint="min_specificity", none="sensitivity 0, threshold 1e6",
          tm="multiclass_sensitivity_at_specificity")
def multiclass_sensitivity_at_specificity(preds: Tensor, target: Tensor, num_classes: int, min_specificity: float,
                                          *, from_logits: bool = False, thresholds: Thresholds = None,
                                          ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """Per class (one-vs-rest), the highest sensitivity whose specificity is at least ``min_specificity``, and
    its threshold (see :func:`binary_sensitivity_at_specificity`).

    Args:
        {preds_ovr}
        {target_ovr}
        {num_classes_rank}
        min_specificity: the constraint, a number in ``[0, 1]``.
        {from_logits_mc}
        {thresholds}
        {ignore_index_rank}
        {validate_args}

    {sections_point_multiclass}

    Examples:
        >>> preds = torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.5, 0.4, 0.1]])
        >>> sensitivity, _ = multiclass_sensitivity_at_specificity(preds, torch.tensor([0, 1, 2, 1]), 3, 0.9)
        >>> sensitivity.tolist()
        [1.0, 1.0, 1.0]
    """
    return _multiclass(_sensitivity_at_specificity, "min_specificity", preds, target, num_classes, min_specificity,
                       from_logits, thresholds, ignore_index, validate_args)


@fill_doc(constraint="min_sensitivity", none="specificity 0, threshold 1e6",
          tm="multiclass_specificity_at_sensitivity")
def multiclass_specificity_at_sensitivity(preds: Tensor, target: Tensor, num_classes: int, min_sensitivity: float,
                                          *, from_logits: bool = False, thresholds: Thresholds = None,
                                          ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """Per class (one-vs-rest), the highest specificity whose sensitivity is at least ``min_sensitivity``, and
    its threshold (see :func:`binary_specificity_at_sensitivity`).

    Args:
        {preds_ovr}
        {target_ovr}
        {num_classes_rank}
        min_sensitivity: the constraint, a number in ``[0, 1]``.
        {from_logits_mc}
        {thresholds}
        {ignore_index_rank}
        {validate_args}

    {sections_point_multiclass}

    Examples:
        >>> preds = torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.5, 0.4, 0.1]])
        >>> specificity, _ = multiclass_specificity_at_sensitivity(preds, torch.tensor([0, 1, 2, 1]), 3, 1.0)
        >>> specificity.tolist()
        [1.0, 1.0, 1.0]
    """
    return _multiclass(_specificity_at_sensitivity, "min_sensitivity", preds, target, num_classes, min_sensitivity,
                       from_logits, thresholds, ignore_index, validate_args)




def _multilabel(chooser: Chooser, name: str, preds: Tensor, target: Tensor, num_labels: int, minimum: float,
                thresholds: Thresholds, ignore_index: Optional[int], validate_args: bool,
                from_logits: bool) -> Point:
    minimum = check_probability(name, minimum)
    values, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _multilabel_rank_stats(preds, target, num_labels=num_labels, validate_args=validate_args,
                                   ignore_index=ignore_index, threshold_values=values, from_logits=from_logits)
    return _multilabel_point_from_stats(state, rule=chooser, minimum=minimum, threshold_values=values)


@fill_doc(constraint="min_precision", none="recall 0, threshold nan",
          tm="multilabel_recall_at_fixed_precision")
def multilabel_recall_at_fixed_precision(preds: Tensor, target: Tensor, num_labels: int, min_precision: float, *,
                                         from_logits: bool = False, thresholds: Thresholds = None,
                                         ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """Per label, the highest recall whose precision is at least ``min_precision``, and its threshold (see
    :func:`binary_recall_at_fixed_precision`).

    Args:
        {preds_per_label}
        {target_per_label}
        {num_labels_rank}
        min_precision: the constraint, a number in ``[0, 1]``.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {validate_args}

    {sections_point_multilabel}

    Examples:
        >>> preds = torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], [0.05, 0.65]])
        >>> recall, thresholds = multilabel_recall_at_fixed_precision(
        ...     preds, torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]]), 2, 0.6)
        >>> recall.tolist(), [round(t, 2) for t in thresholds.tolist()]
        ([0.5, 1.0], [0.75, 0.55])
    """
    return _multilabel(_recall_at_precision, "min_precision", preds, target, num_labels, min_precision,
                       thresholds, ignore_index, validate_args, from_logits)


@fill_doc(constraint="min_recall", none="precision 0, threshold nan",
          tm="multilabel_precision_at_fixed_recall")
def multilabel_precision_at_fixed_recall(preds: Tensor, target: Tensor, num_labels: int, min_recall: float, *,
                                         from_logits: bool = False, thresholds: Thresholds = None,
                                         ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """Per label, the highest precision whose recall is at least ``min_recall``, and its threshold (see
    :func:`binary_precision_at_fixed_recall`).

    Args:
        {preds_per_label}
        {target_per_label}
        {num_labels_rank}
        min_recall: the constraint, a number in ``[0, 1]``.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {validate_args}

    {sections_point_multilabel}

    Examples:
        >>> preds = torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], [0.05, 0.65]])
        >>> precision, _ = multilabel_precision_at_fixed_recall(
        ...     preds, torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]]), 2, 0.5)
        >>> [round(v, 4) for v in precision.tolist()]
        [1.0, 0.6667]
    """
    return _multilabel(_precision_at_recall, "min_recall", preds, target, num_labels, min_recall, thresholds,
                       ignore_index, validate_args, from_logits)


@fill_doc(constraint="min_specificity", none="sensitivity 0, threshold 1e6",
          tm="multilabel_sensitivity_at_specificity")
def multilabel_sensitivity_at_specificity(preds: Tensor, target: Tensor, num_labels: int, min_specificity: float,
                                          *, from_logits: bool = False, thresholds: Thresholds = None,
                                          ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """Per label, the highest sensitivity whose specificity is at least ``min_specificity``, and its threshold
    (see :func:`binary_sensitivity_at_specificity`).

    Args:
        {preds_per_label}
        {target_per_label}
        {num_labels_rank}
        min_specificity: the constraint, a number in ``[0, 1]``.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {validate_args}

    {sections_point_multilabel}

    Examples:
        >>> preds = torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], [0.05, 0.65]])
        >>> sensitivity, _ = multilabel_sensitivity_at_specificity(
        ...     preds, torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]]), 2, 0.5)
        >>> sensitivity.tolist()
        [0.5, 1.0]
    """
    return _multilabel(_sensitivity_at_specificity, "min_specificity", preds, target, num_labels, min_specificity,
                       thresholds, ignore_index, validate_args, from_logits)


@fill_doc(constraint="min_sensitivity", none="specificity 0, threshold 1e6",
          tm="multilabel_specificity_at_sensitivity")
def multilabel_specificity_at_sensitivity(preds: Tensor, target: Tensor, num_labels: int, min_sensitivity: float,
                                          *, from_logits: bool = False, thresholds: Thresholds = None,
                                          ignore_index: Optional[int] = None, validate_args: bool = True) -> Point:
    """Per label, the highest specificity whose sensitivity is at least ``min_sensitivity``, and its threshold
    (see :func:`binary_specificity_at_sensitivity`).

    Args:
        {preds_per_label}
        {target_per_label}
        {num_labels_rank}
        min_sensitivity: the constraint, a number in ``[0, 1]``.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {validate_args}

    {sections_point_multilabel}

    Examples:
        >>> preds = torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], [0.05, 0.65]])
        >>> specificity, _ = multilabel_specificity_at_sensitivity(
        ...     preds, torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]]), 2, 1.0)
        >>> specificity.tolist()
        [0.0, 0.5]
    """
    return _multilabel(_specificity_at_sensitivity, "min_sensitivity", preds, target, num_labels, min_sensitivity,
                       thresholds, ignore_index, validate_args, from_logits)
