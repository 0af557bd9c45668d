"""Input validation of the classification family (binary, multiclass, multilabel)."""
from __future__ import annotations

import math
from typing import Any, Optional, Sequence, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks.primitives import (
    check_binary_target,
    check_bool,
    check_choice,
    check_no_nan,
    check_number,
    check_real,
    check_same_shape,
    check_sample_weight,
    check_tensor,
    integral_labels,
)

# ---------------------------------------------------------------------------------------- classification

CLASSIFICATION_AVERAGES = ("micro", "macro", "weighted", "none")
#: the averages of the multilabel scores scikit-learn also averages per sample (precision, recall, F-beta, Jaccard)
SAMPLE_AVERAGES = CLASSIFICATION_AVERAGES + ("samples",)
ABSENT = ("ignore", "zero")


def check_accuracy_normalize(normalize: Any, average: str) -> bool:
    """``normalize``: a bool; ``False`` (a count of the samples predicted right) only with ``average="micro"``."""
    check_bool("normalize", normalize)
    if not normalize and average != "micro":
        raise ValueError(f"Expected `average='micro'` with `normalize=False` (the number of samples predicted right, "
                         f"scikit-learn's accuracy_score(normalize=False)), got average={average!r}")
    return normalize


def check_absent(absent: Any) -> str:
    """``absent``: what a multiclass macro mean does with a class absent from both target and preds."""
    check_choice("absent", absent, ABSENT)
    return absent


def check_average(average: Any, choices: Sequence[str] = CLASSIFICATION_AVERAGES) -> str:
    """``average`` is one of ``choices``; ``None`` means ``"none"`` (per class), as in torchmetrics."""
    average = "none" if average is None else average
    if isinstance(average, int) and not isinstance(average, bool):
        raise ValueError(f"Expected `average` to be one of {tuple(choices)}, got {average!r}; for top-k "
                         f"pass `top_k={average}` by keyword (in torchmetrics' classes it is the argument after "
                         f"`num_classes`)")
    check_choice("average", average, choices)
    return average


def check_samples_average(average: str, multidim_average: Any) -> bool:
    """``average="samples"`` (one score per sample row, then their mean) takes ``multidim_average="global"`` only:
    ``"samplewise"`` already gives one score per sample. Returns whether ``average`` is ``"samples"``."""
    if average != "samples":
        return False
    if multidim_average != "global":
        raise ValueError(f"Expected `multidim_average='global'` with average='samples' (the mean of the per-sample "
                         f"scores; 'samplewise' gives the scores themselves), got {multidim_average!r}")
    return True


def check_ignore_index(ignore_index: Any) -> None:
    if ignore_index is not None and (isinstance(ignore_index, bool) or not isinstance(ignore_index, int)):
        raise ValueError(f"Expected `ignore_index` to be an int or None, got {ignore_index!r}")


def check_threshold(threshold: Any, from_logits: Any) -> float:
    """Returns the cut applied to ``preds`` (positive when ``preds > cut``): ``threshold`` itself, or with
    ``from_logits=True`` its logit ``log(t / (1 - t))``, which is exactly 0 for the default 0.5."""
    if not isinstance(from_logits, bool):
        raise TypeError(f"Expected `from_logits` to be a bool, got {type(from_logits).__name__}")
    check_number("threshold", threshold, low=0.0, high=1.0, low_open=from_logits, high_open=from_logits)
    return math.log(threshold / (1.0 - threshold)) if from_logits else float(threshold)


def check_beta(beta: Any) -> None:
    check_number("beta", beta, low=0.0, high=math.inf, low_open=True, high_open=True)


def check_top_k(top_k: Any, num_classes: int) -> None:
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= num_classes:
        raise ValueError(f"Expected `top_k` to be an int in [1, {num_classes}] (num_classes), got {top_k!r}")


def check_binary_top_k(top_k: Any) -> int:
    """A binary accuracy's ``top_k`` (scikit-learn's ``top_k_accuracy_score(k=)`` on binary targets): 1 or 2."""
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= 2:
        raise ValueError(f"Expected `top_k` to be 1 or 2 (a binary problem has 2 classes: 2 counts every sample as "
                         f"a hit, as scikit-learn's top_k_accuracy_score), got {top_k!r}")
    return top_k


def check_labels(name: str, t: Tensor, num_classes: int, ignore_index: Optional[int] = None) -> None:
    """Value check (host sync): integer labels in ``[0, num_classes - 1]`` (``ignore_index`` also allowed),
    with one fused min/max pass."""
    if t.numel() == 0 or (t.dtype == torch.bool and num_classes >= 2):
        return
    if ignore_index is not None:
        t = t.masked_fill(t == ignore_index, 0)
    lo, hi = (int(v) for v in torch.aminmax(t))
    if lo < 0 or hi >= num_classes:
        also = f" or ignore_index={ignore_index}" if ignore_index is not None else ""
        raise ValueError(f"Expected `{name}` to hold labels in [0, {num_classes - 1}]{also}, "
                         f"got values in [{lo}, {hi}]")


def check_probabilities(name: str, t: Tensor, from_logits: bool) -> None:
    """Value check (host sync), one fused min/max pass: no NaN, and unless ``from_logits`` every value in
    [0, 1] (scores outside it are an error, never squashed silently)."""
    if t.numel() == 0:
        return
    lo, hi = (float(v) for v in torch.aminmax(t))
    if math.isnan(lo) or math.isnan(hi):
        raise ValueError(f"Expected `{name}` to contain no NaN, got {int(torch.isnan(t).sum())} NaN value(s)")
    if not from_logits and (lo < 0.0 or hi > 1.0):
        raise ValueError(f"Expected `{name}` to lie in [0, 1] (probabilities), got values in [{lo:.6g}, {hi:.6g}]; "
                         "pass from_logits=True for scores")


def check_weighted_update(weighted: bool, weight: Any) -> None:
    """A module built without ``weighted=True`` keeps exact int64 counts and takes no ``weight``."""
    if weight is not None and not weighted:
        raise ValueError("Expected no `weight` on a metric built with weighted=False (int64 counts), got a "
                         "`weight`; build the metric with weighted=True (float64 weighted counts)")


def _check_pair(preds: Any, target: Any, *, integer_target: bool = True,
                validate_args: bool = True) -> Tuple[Tensor, Tensor]:
    preds, target = check_tensor("preds", preds), check_tensor("target", target)
    check_real("preds", preds)
    if integer_target:
        target = integral_labels("target", target, validate_args=validate_args)
    return preds, target


def _check_binary_preds(preds: Tensor, from_logits: bool, validate_args: bool) -> None:
    if validate_args:
        if preds.is_floating_point():
            check_probabilities("preds", preds, from_logits)
        else:
            check_labels("preds", preds, 2)


def check_binary_inputs(preds: Any, target: Any, *, from_logits: bool, ignore_index: Optional[int],
                        validate_args: bool, weight: Any = None) -> Tuple[Tensor, Tensor, Optional[Tensor]]:
    """Binary inputs of any equal shapes: ``preds`` probabilities/scores (float) or 0/1 labels (int, bool),
    ``target`` 0/1 labels (bool, integer or floating), ``weight`` one value per element. Returns all flattened."""
    preds, target = _check_pair(preds, target, integer_target=False)
    check_same_shape("preds", preds, "target", target)
    weight = check_sample_weight(weight, tuple(target.shape), validate_args=validate_args)
    check_binary_target(target, validate_args=validate_args, ignore_index=ignore_index)
    _check_binary_preds(preds, from_logits, validate_args)
    return preds.reshape(-1), target.reshape(-1), None if weight is None else weight.reshape(-1)


def fused_multiclass_checks(top_k: int, ignore_index: Optional[int], target: Tensor, weight: Any) -> bool:
    """Whether the unweighted top-1 count on CPU checks the values itself (see :func:`check_multiclass_inputs`);
    never under ``torch.compile``, where the checks run here."""
    return (top_k == 1 and ignore_index is None and target.is_cpu and weight is None
            and not torch.compiler.is_compiling())


def _check_multiclass_scores(preds: Tensor, target: Tensor, num_classes: int, validate_args: bool) -> Tensor:
    if preds.shape[1] != num_classes or (preds.shape[0] != target.shape[0] if preds.dim() == 2
                                         else preds.shape[:1] + preds.shape[2:] != target.shape):
        raise ValueError(f"Expected `preds` of shape (N, {num_classes}, ...) with `target` (N, ...), got "
                         f"{tuple(preds.shape)} and {tuple(target.shape)}")
    if not preds.is_floating_point():
        raise TypeError(f"Expected `preds` with a class axis to have a floating dtype (scores), got {preds.dtype}")
    if preds.dim() > 2:
        preds = preds.movedim(1, -1).reshape(-1, num_classes)
    if validate_args and preds.numel() and math.isnan(float(preds.sum())):  # one reduction in the clean case
        check_no_nan("preds", preds)
    return preds


def check_multiclass_inputs(preds: Any, target: Any, *, num_classes: int, top_k: int, ignore_index: Optional[int],
                            validate_args: bool, weight: Any = None) -> Tuple[Tensor, Tensor, Optional[Tensor]]:
    """Multiclass inputs: ``target`` (N, ...) labels; ``preds`` the same shape (int labels) or (N, C, ...) scores
    (float, any real values; the class axis is 1); ``weight`` the shape of ``target``. Returns preds (M,) or
    (M, C), target (M,) and weight (M,)."""
    preds, target = _check_pair(preds, target, validate_args=validate_args)
    weight = check_sample_weight(weight, tuple(target.shape), validate_args=validate_args)
    fused = validate_args and fused_multiclass_checks(top_k, ignore_index, target, weight)
    if preds.dim() == target.dim() + 1 and preds.dim() >= 2:
        preds = _check_multiclass_scores(preds, target, num_classes, validate_args and not fused)
    elif preds.dim() == target.dim():
        check_same_shape("preds", preds, "target", target)
        preds = integral_labels("preds", preds, validate_args=validate_args)
        if top_k != 1:
            raise ValueError(f"Expected `preds` to hold scores (N, C, ...) when `top_k` > 1, got labels of shape "
                             f"{tuple(preds.shape)}")
        if validate_args:
            check_labels("preds", preds, num_classes)
        preds = preds.reshape(-1) if preds.dim() != 1 else preds
    else:
        raise ValueError(f"Expected `preds` to have shape (N, ...) like `target` or (N, {num_classes}, ...), got "
                         f"{tuple(preds.shape)} and `target` {tuple(target.shape)}")
    # The unweighted top-1 count on CPU checks the values by itself, almost for free, with one host read: labels
    # are in [0, C), so a target < 0 gives a negative bin (bincount raises) and a target >= C a bin >= C * C
    # (clamped into one extra bin); a NaN score is the row maximum, so the sum of the row maxima is NaN. The extra
    # bin and that sum are read back together, and functional.multiclass turns a failure into check_labels' or
    # check_no_nan's message. Elsewhere the values are checked here.
    if validate_args and not fused:
        check_labels("target", target, num_classes, ignore_index)
    flat = target.reshape(-1) if target.dim() != 1 else target
    return preds, flat, None if weight is None else weight.reshape(-1)


def check_multilabel_inputs(preds: Any, target: Any, *, num_labels: int, from_logits: bool,
                            ignore_index: Optional[int], validate_args: bool,
                            weight: Any = None) -> Tuple[Tensor, Tensor, Optional[Tensor]]:
    """Multilabel inputs (N, L, ...) of equal shapes, the label axis 1; ``weight`` one value per sample, the
    shape without the label axis, (N, ...). Returns preds and target as (M, L), weight as (M,)."""
    preds, target = _check_pair(preds, target, integer_target=False)
    check_same_shape("preds", preds, "target", target)
    if preds.dim() < 2 or preds.shape[1] != num_labels:
        raise ValueError(f"Expected `preds` and `target` of shape (N, {num_labels}, ...), got {tuple(preds.shape)}")
    weight = check_sample_weight(weight, tuple(target.shape[:1] + target.shape[2:]), validate_args=validate_args)
    check_binary_target(target, validate_args=validate_args, ignore_index=ignore_index)
    _check_binary_preds(preds, from_logits, validate_args)
    if preds.dim() > 2:
        preds, target = preds.movedim(1, -1), target.movedim(1, -1)
    flat_weight = None if weight is None else weight.reshape(-1)
    return preds.reshape(-1, num_labels), target.reshape(-1, num_labels), flat_weight


# ----------------------------------------------------------------------------------------------- hinge loss
HINGE_MODES = ("crammer-singer", "one-vs-all")


def check_hinge_options(squared: Any, from_logits: Any, margins: Any) -> None:
    """``squared``, ``from_logits`` and ``margins`` are bools, and at most one of the last two is set."""
    check_bool("squared", squared)
    check_bool("from_logits", from_logits)
    check_bool("margins", margins)
    if from_logits and margins:
        raise ValueError("Expected at most one of `from_logits` (a sigmoid/softmax first) and `margins` (scores "
                         "used as given), got both")


def _check_hinge_scale(preds: Tensor, raw: bool, validate_args: bool) -> None:
    """Value check (host sync): no NaN, and unless ``raw`` (logits or margins) every value in [0, 1]."""
    if not validate_args or preds.numel() == 0:
        return
    lo, hi = (float(v) for v in torch.aminmax(preds))
    if math.isnan(lo) or math.isnan(hi):
        raise ValueError(f"Expected `preds` to contain no NaN, got {int(torch.isnan(preds).sum())} NaN value(s)")
    if not raw and (lo < 0.0 or hi > 1.0):
        raise ValueError(f"Expected `preds` to lie in [0, 1] (probabilities), got values in [{lo:.6g}, {hi:.6g}]; "
                         "pass from_logits=True for logits (a sigmoid or softmax first, as torchmetrics does for "
                         "such a batch) or margins=True for decision values used as given (scikit-learn)")


def check_binary_hinge_inputs(preds: Any, target: Any, *, raw: bool, ignore_index: Optional[int],
                              validate_args: bool, weight: Any = None) -> Tuple[Tensor, Tensor, Optional[Tensor]]:
    """Binary hinge inputs of any equal shapes: floating ``preds``, 0/1 ``target``, ``weight`` one value per
    element. Returns all flattened."""
    preds, target = _check_pair(preds, target, integer_target=False)
    if not preds.is_floating_point():
        raise TypeError(f"Expected `preds` to have a floating dtype (scores), got {preds.dtype}")
    check_same_shape("preds", preds, "target", target)
    weight = check_sample_weight(weight, tuple(target.shape), validate_args=validate_args)
    check_binary_target(target, validate_args=validate_args, ignore_index=ignore_index)
    _check_hinge_scale(preds, raw, validate_args)
    return preds.reshape(-1), target.reshape(-1), None if weight is None else weight.reshape(-1)


def check_multiclass_hinge_inputs(preds: Any, target: Any, *, num_classes: int, raw: bool,
                                  ignore_index: Optional[int], validate_args: bool,
                                  weight: Any = None) -> Tuple[Tensor, Tensor, Optional[Tensor]]:
    """Multiclass hinge inputs: (N, C, ...) floating scores, (N, ...) labels, ``weight`` the shape of ``target``.
    Returns preds (M, C), target (M,) and weight (M,)."""
    preds, target = _check_pair(preds, target)
    if preds.dim() != target.dim() + 1 or preds.dim() < 2:
        raise ValueError(f"Expected `preds` of shape (N, {num_classes}, ...) (scores) with `target` (N, ...), got "
                         f"{tuple(preds.shape)} and {tuple(target.shape)}")
    weight = check_sample_weight(weight, tuple(target.shape), validate_args=validate_args)
    preds = _check_multiclass_scores(preds, target, num_classes, False)
    _check_hinge_scale(preds, raw, validate_args)
    if validate_args:
        check_labels("target", target, num_classes, ignore_index)
    flat = target.reshape(-1)
    return preds, flat, None if weight is None else weight.reshape(-1)


def check_num_classes_hinge(num_classes: Any) -> None:
    if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes < 2:
        raise ValueError(f"Expected `num_classes` to be an int >= 2, got {num_classes!r}")


# ------------------------------------------------------------------------------------------ group fairness
FAIRNESS_TASKS = ("demographic_parity", "equal_opportunity", "all")


def check_groups(groups: Any, shape: Tuple[int, ...], num_groups: Optional[int], validate_args: bool) -> Tensor:
    """``groups``: integer group ids of ``shape`` (one per element of ``preds``), in [0, num_groups - 1] (checked
    with ``validate_args``, one fused min/max pass). Returned flattened."""
    groups = check_tensor("groups", groups)
    if groups.dtype == torch.bool or groups.is_floating_point() or groups.is_complex():
        raise TypeError(f"Expected `groups` to have an integer dtype (group ids), got {groups.dtype}")
    if tuple(groups.shape) != tuple(shape):
        raise ValueError(f"Expected `groups` to hold one group id per element of `preds`, shape {tuple(shape)}, "
                         f"got shape {tuple(groups.shape)}")
    if validate_args and num_groups is not None:
        check_labels("groups", groups, num_groups)
    return groups.reshape(-1)


def check_samplewise(multidim_average: Any, what: str, value: Any, min_ndim: int, weight: Any) -> bool:
    """torchmetrics' ``multidim_average``: ``"global"`` (False) or ``"samplewise"`` (True: one score per sample
    over the extra dimensions, which ``what`` must have: at least ``min_ndim`` dimensions; no ``weight``)."""
    check_choice("multidim_average", multidim_average, ("global", "samplewise"))
    if multidim_average == "global":
        return False
    ndim = value.dim() if isinstance(value, Tensor) else 0
    if ndim < min_ndim:
        raise ValueError(f"Expected `{what}` to have at least {min_ndim} dimensions with multidim_average="
                         f"'samplewise' (one score per sample over the extra dimensions), got {ndim}")
    if weight is not None:
        raise TypeError(f"Expected no `weight` with multidim_average='samplewise', got {type(weight).__name__}")
    return True
