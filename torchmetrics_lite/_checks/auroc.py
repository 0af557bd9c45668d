"""Input validation of the AUROC family (AUROC, average precision, ROC and PR curves)."""
from __future__ import annotations

import math
from typing import Any, NamedTuple, Optional, Sequence, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite import _backend
from torchmetrics_lite._checks.primitives import (
    check_binary_target,
    check_choice,
    check_floating,
    check_integer,
    check_ndim,
    check_no_nan,
    check_number,
    check_positive_int,
    check_range,
    check_same_shape,
    check_sample_weight,
    check_tensor,
    upcast,
)

RANK_AVERAGES = ("macro", "weighted", "none")


def check_rank_average(average: Any, choices: Sequence[str] = RANK_AVERAGES) -> str:
    """``average`` of a multiclass/multilabel rank metric: one of ``choices``; ``None`` is ``"none"`` (torchmetrics)."""
    average = "none" if average is None else average
    check_choice("average", average, choices)
    return average


def check_max_fpr(max_fpr: Any) -> None:
    """``max_fpr``: ``None`` (the full AUROC) or a number in ``(0, 1]``."""
    if max_fpr is not None:
        check_number("max_fpr", max_fpr, low=0.0, high=1.0, low_open=True)


def check_bins(bins: Any, value_range: Any) -> Tuple[float, float]:
    """``bins`` a positive int and ``range`` a pair ``(lo, hi)`` of finite numbers with ``lo < hi``."""
    check_positive_int("bins", bins)
    ok = isinstance(value_range, (tuple, list)) and len(value_range) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value_range)
    if not ok or value_range[0] >= value_range[1]:
        raise ValueError(f"Expected `range` to be a pair (lo, hi) of finite numbers with lo < hi, got {value_range!r}")
    return float(value_range[0]), float(value_range[1])


def check_binned_auroc(bins: Any, value_range: Any, max_fpr: Any) -> Optional[Tuple[float, float]]:
    """BinaryAUROC's mode options: ``range`` only with ``bins``, ``max_fpr`` only without; the checked range."""
    if bins is None and value_range is not None:
        raise ValueError(f"Expected `range` to be None when `bins` is None, got {value_range!r}")
    if bins is not None and max_fpr is not None:
        raise ValueError(f"Expected `max_fpr` to be None when `bins` is set, got {max_fpr!r}")
    return None if bins is None else check_bins(bins, (0.0, 1.0) if value_range is None else value_range)


def check_binned_weight(bins: int, weight: Any) -> None:
    """The binned mode counts integer histograms: no sample weights."""
    if weight is not None:
        raise TypeError(f"Expected no `weight` in the binned mode (bins={bins}: integer histograms), got "
                        f"{type(weight).__name__}; use the exact mode (bins=None) for weights")


_EXACT_IN_FLOAT64 = 2 ** 53


def _integer_scores(preds: Tensor) -> Tensor:
    """Integer scores as float64, as torchmetrics accepts them (ranks depend only on order): exact for every
    integer dtype up to 32 bits; a 64-bit one only when each ``|value| <= 2**53``, else a ``ValueError`` (a rounded
    cast could tie two scores and change a rank)."""
    if preds.element_size() == 8 and preds.numel():
        lo, hi = torch.aminmax(preds)
        if lo.item() < -_EXACT_IN_FLOAT64 or hi.item() > _EXACT_IN_FLOAT64:
            raise ValueError(f"Expected integer `preds` to lie in [-2**53, 2**53] (exact in float64, so their order "
                             f"is kept), got values in [{lo.item()}, {hi.item()}]; pass floating scores")
    return preds.to(torch.float64)


def _rank_scores(preds: Tensor, validate_args: bool) -> Tensor:
    """Checked tensor scores: floating (upcast to float32 if narrower) or integer (float64, exactly:
    :func:`_integer_scores`), no NaN (with ``validate_args``)."""
    if not (preds.is_floating_point() or preds.is_complex() or preds.dtype == torch.bool):
        preds = _integer_scores(preds)
    check_floating("preds", preds)
    preds = upcast(preds)
    if validate_args:
        check_no_nan("preds", preds, total=preds.sum())
    return preds


def _rank_labels(target: Any, validate_args: bool) -> Tensor:
    """0/1 labels, bool, integer or floating (``BCEWithLogitsLoss`` targets); floating ones come back as uint8."""
    target = check_binary_target(target, validate_args=validate_args)
    return target.to(dtype=torch.uint8) if target.is_floating_point() else target


def check_probability(name: str, value: Any) -> float:
    """A number in ``[0, 1]`` (a minimum precision, recall, specificity or sensitivity)."""
    check_number(name, value, low=0.0, high=1.0)
    return float(value)


def check_alpha(alpha: Any) -> float:
    """The significance level of an interval: a number in ``(0, 1)``."""
    check_number("alpha", alpha, low=0.0, high=1.0, low_open=True, high_open=True)
    return float(alpha)


def check_binary_rank_inputs(preds: Any, target: Any, validate_args: bool) -> Tuple[Tensor, Tensor]:
    """Scores (floating, any shape, no NaN) and 0/1 labels of the same shape; returns both flattened, the
    scores upcast to float32 if narrower and the labels as uint8.

    The common case (float32/float64 scores, bool or integer labels, values clean) is checked here in one frame
    (on CPU in numpy, :func:`_host_rank_inputs`; elsewhere a sum of the scores, one ``aminmax`` of non-bool
    labels); anything else, and any value that would fail,
    goes through the primitive checks, which raise the messages."""
    if isinstance(preds, Tensor) and isinstance(target, Tensor) and preds.dtype in _HOST_SCORES and \
            target.dtype in _HOST_LABELS and preds.shape == target.shape:
        fast = _host_rank_inputs(preds, target, validate_args)  # numpy on CPU: a third of torch's cost
        if fast is not None:
            return fast[0].reshape(-1), fast[1].reshape(-1)
        clean = not validate_args or not preds.numel() or not math.isnan(preds.sum().item())
        if clean and validate_args and target.dtype != torch.bool and target.numel():
            lo, hi = torch.aminmax(target)
            clean = lo.item() >= 0 and hi.item() <= 1
        if clean:
            target = target.reshape(-1)
            return preds.reshape(-1), target.view(torch.uint8) if target.dtype == torch.bool else \
                target.to(dtype=torch.uint8)  # by keyword: torch parses the positional overloads slowly
    preds, target = check_tensor("preds", preds), check_tensor("target", target)
    check_same_shape("preds", preds, "target", target)
    preds, target = _rank_scores(preds, validate_args), _rank_labels(target, validate_args)
    target = target.reshape(-1)
    return preds.reshape(-1), target.view(torch.uint8) if target.dtype == torch.bool else target.to(dtype=torch.uint8)


def flatten_extra_dims(preds: Any, target: Any, weight: Any = None, *,
                       multilabel: bool) -> Tuple[Any, Any, Any]:
    """``(N, C, ...)`` rank inputs as samples, as torchmetrics flattens them: the scores
    ``preds.movedim(1, -1).reshape(-1, C)``; the target ``reshape(-1)`` (multiclass, ``(N, ...)``) or as the scores
    (multilabel, ``(N, L, ...)``); a weight of the samples' shape ``(N, ...)`` ``reshape(-1)``. Inputs that do not
    are not tensors or are 2-D or fewer pass unchanged (the checks that follow report them).

    Raises:
        ValueError: ``(N, C, ...)`` scores with a target of another shape, naming both shapes."""
    if not isinstance(preds, Tensor) or not isinstance(target, Tensor) or preds.dim() <= 2:
        return preds, target, weight
    samples = preds.shape[:1] + preds.shape[2:]
    expected = preds.shape if multilabel else samples
    if target.shape != expected:
        raise ValueError(f"Expected `target` to have shape {tuple(expected)} for `preds` of shape "
                         f"{tuple(preds.shape)} (the extra dimensions are flattened into samples), got "
                         f"{tuple(target.shape)}")
    width = preds.shape[1]
    preds = preds.movedim(1, -1).reshape(-1, width)
    target = target.movedim(1, -1).reshape(-1, width) if multilabel else target.reshape(-1)
    if isinstance(weight, Tensor) and weight.shape == samples:
        weight = weight.reshape(-1)
    return preds, target, weight


def check_multiclass_rank_inputs(preds: Any, target: Any, num_classes: int, validate_args: bool,
                                 from_logits: bool = False) -> Tuple[Tensor, Tensor]:
    """Scores ``(N, num_classes)`` and class indices ``(N,)`` in ``[0, num_classes)`` (``(N, C, ...)`` and
    ``(N, ...)`` are flattened into samples first: :func:`flatten_extra_dims`). Without ``from_logits``
    the scores must be probabilities in ``[0, 1]`` (value check: the message names ``from_logits=True``)."""
    preds, target = check_tensor("preds", preds), check_tensor("target", target)
    preds, target, _ = flatten_extra_dims(preds, target, multilabel=False)
    check_ndim("preds", preds, (2,))
    check_ndim("target", target, (1,))
    if preds.shape != (target.shape[0], num_classes):
        raise ValueError(f"Expected `preds` to have shape (N, num_classes) = ({target.shape[0]}, {num_classes}), "
                         f"got {tuple(preds.shape)}")
    preds = _rank_scores(preds, validate_args)
    check_integer("target", target, allow_bool=False)
    if validate_args:
        check_range("target", target, 0, num_classes - 1)
        if not from_logits and preds.numel():
            lo, hi = torch.aminmax(preds)
            if lo.item() < 0 or hi.item() > 1:
                raise ValueError(f"Expected `preds` to be probabilities in [0, 1], got values in [{lo.item():.4g}, "
                                 f"{hi.item():.4g}]; pass `from_logits=True` for logits (a float64 softmax is "
                                 f"applied, as torchmetrics and scikit-learn on softmax)")
    return preds, target


def check_multilabel_rank_inputs(preds: Any, target: Any, num_labels: int,
                                 validate_args: bool) -> Tuple[Tensor, Tensor]:
    """Scores ``(N, num_labels)`` and 0/1 labels of the same shape (returned as uint8); ``(N, L, ...)`` ones are
    flattened into samples first (:func:`flatten_extra_dims`)."""
    preds, target = check_tensor("preds", preds), check_tensor("target", target)
    preds, target, _ = flatten_extra_dims(preds, target, multilabel=True)
    check_ndim("preds", preds, (2,))
    if preds.shape[1] != num_labels:
        raise ValueError(f"Expected `preds` to have shape (N, num_labels) with num_labels = {num_labels}, "
                         f"got {tuple(preds.shape)}")
    check_same_shape("preds", preds, "target", target)
    fast = _host_rank_inputs(preds, target, validate_args)
    if fast is not None:
        return fast
    preds, target = _rank_scores(preds, validate_args), _rank_labels(target, validate_args)
    return preds, target.to(dtype=torch.uint8)


_HOST_SCORES = (torch.float32, torch.float64)
_HOST_LABELS = (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def _host_rank_inputs(preds: Tensor, target: Tensor, validate_args: bool) -> Optional[Tuple[Tensor, Tensor]]:
    """The checks of :func:`check_multilabel_rank_inputs` in numpy on CPU (float32/64 scores, bool or integer
    labels): one NaN-propagating maximum of the scores, one unsigned maximum of the labels (a negative label reads
    as a large one) and the uint8 cast (a copy, as torch's), each a fraction of torch's cost there. ``None`` (the
    torch checks, which name the bad value) otherwise or on bad values."""
    if preds.dtype not in _HOST_SCORES or target.dtype not in _HOST_LABELS or not preds.numel() or \
            not (_backend.use_numpy(preds) and target.is_cpu):
        return None
    labels = _backend.host(target)
    if validate_args:
        if math.isnan(_backend.host(preds).max()):
            return None
        if target.dtype != torch.bool and labels.view(f"u{labels.itemsize}").max() > 1:  # negatives wrap high
            return None
    return preds, torch.from_numpy(labels.astype(np.uint8))


_UNSIGNED = {torch.uint8: np.uint8, torch.int8: np.uint8, torch.int16: np.uint16, torch.int32: np.uint32,
             torch.int64: np.uint64}


def plain_binary_rank_rows(preds: Any, target: Any, validate_args: bool) -> Optional[Tuple[Tensor, Tensor]]:
    """The common batch of :func:`check_binary_rank_inputs` checked in one frame: 1-D float32/float64 CPU scores
    (no grad, not empty) and bool or integer CPU labels of the same length, on the numpy backend. One NaN probe of
    the scores (``a.dot(a)``, a sum of squares: NaN exactly when a score is NaN), one unsigned maximum of integer
    labels (a negative label reads as a large one). Returns the scores and the 0/1 labels (bool as a uint8 view,
    integers as given: the copy into the uint8 state converts them, and the kernels read any 0/1 integers);
    ``None`` for anything else or any bad value, where the caller runs the full checks, which raise the messages
    in their order."""
    if type(preds) is not Tensor or type(target) is not Tensor or preds.dim() != 1 or preds.shape != target.shape \
            or preds.dtype not in _HOST_SCORES or preds.requires_grad or not target.is_cpu or not preds.numel() \
            or not _backend.use_numpy(preds):
        return None
    dtype = target.dtype
    if validate_args and math.isnan(preds.dot(preds).item()):
        return None
    if dtype is torch.bool:
        return preds, target.view(torch.uint8)
    unsigned = _UNSIGNED.get(dtype)
    if unsigned is None:
        return None
    if validate_args and target.numpy().view(unsigned).max() > 1:
        return None
    return preds, target


def check_rank_weight(weight: Any, shape: Tuple[int, ...], validate_args: bool) -> Optional[Tensor]:
    """:func:`~torchmetrics_lite._checks.primitives.check_sample_weight`, returned flattened in the dtype the rank
    statistics use: integers as float64 (float32 on a device without float64), float16/bfloat16 as float32."""
    from torchmetrics_lite._dtype import float_dtype

    weight = check_sample_weight(weight, shape, validate_args=validate_args)
    if weight is None:
        return None
    return (upcast(weight) if weight.is_floating_point() else weight.to(float_dtype(weight.device))).reshape(-1)


# ------------------------------------------------------------------ torchmetrics' thresholds= and ignore_index=
_THRESHOLDS_EXPECTED = ("None, an int >= 2, a non-empty list of floats in [0, 1] or a non-empty 1-D floating tensor of "
                        "values in [0, 1]")


def _describe_thresholds(thresholds: Any) -> str:
    if isinstance(thresholds, Tensor):
        return f"shape {tuple(thresholds.shape)}, dtype {thresholds.dtype}"
    text = repr(thresholds)
    return text if len(text) <= 80 else text[:77] + "..."


def check_thresholds(thresholds: Any) -> Optional[Tensor]:
    """torchmetrics' ``thresholds``: ``None`` (exact), an int ``T >= 2`` (``torch.linspace(0, 1, T)``), a list
    of floats in ``[0, 1]`` or a 1-D floating tensor of values in ``[0, 1]`` (on any device; the same rule for
    lists and tensors: no NaN, no inf, not empty). Returned SORTED (ascending, repeats kept) as a CPU tensor of
    the dtype torchmetrics builds (a list: float32; a tensor: its own), so the comparisons ``preds >= t`` are
    torchmetrics': the thresholds are a set of operating points, and their order never changes a value.

    This is the one check of the ``thresholds`` argument: every binned function and module calls it.

    Raises:
        ValueError: any other value (a bool, an int below 2, a string, a tuple, an empty list, a list holding a
            non-float, NaN, inf or a value outside [0, 1], a tensor that is not 1-D, empty, not floating, or
            holds NaN, inf or a value outside [0, 1]), naming what was expected and what was received.
    """
    if thresholds is None:
        return None
    problem = ""
    if isinstance(thresholds, bool) or not isinstance(thresholds, (int, list, Tensor)):
        problem = f"a {type(thresholds).__name__}"
    elif isinstance(thresholds, int):
        if thresholds < 2:
            problem = "an int below 2"
        else:
            return torch.linspace(0, 1, thresholds)
    elif isinstance(thresholds, list):
        if not thresholds:
            problem = "an empty list"
        elif not all(isinstance(t, float) and 0 <= t <= 1 for t in thresholds):  # NaN and inf fail here
            problem = "a list holding a value that is not a float in [0, 1] (an int, NaN, inf...)"
        else:
            return torch.tensor(thresholds).sort().values
    elif thresholds.dim() != 1 or thresholds.numel() == 0 or not thresholds.is_floating_point():
        problem = "a tensor that is not 1-D, is empty or is not floating"
    else:
        values = thresholds.detach().cpu()
        lo, hi = torch.aminmax(values)
        if not (0 <= lo.item() and hi.item() <= 1):  # NaN fails here too
            problem = f"a tensor of values in [{lo.item():.4g}, {hi.item():.4g}] (NaN, inf or outside [0, 1])"
        else:
            return values.sort().values
    raise ValueError(f"Expected `thresholds` to be {_THRESHOLDS_EXPECTED}, got {problem} "
                     f"({_describe_thresholds(thresholds)})")


def check_rank_ignore_index(ignore_index: Any) -> Optional[int]:
    if ignore_index is not None and (isinstance(ignore_index, bool) or not isinstance(ignore_index, int)):
        raise ValueError(f"Expected `ignore_index` to be an int or None, got {ignore_index!r}")
    return ignore_index


def drop_ignored(preds: Any, target: Any, weight: Any, ignore_index: Optional[int],
                 rows: bool) -> Tuple[Any, Any, Any]:
    """Drop the samples whose ``target`` equals ``ignore_index``: elements of any shape (binary, ``rows=False``)
    or rows of ``(N, C)`` scores with ``(N,)`` targets (multiclass). Inputs that do not fit pass unchanged, so
    the shape checks that follow report them."""
    if ignore_index is None or not isinstance(preds, Tensor) or not isinstance(target, Tensor):
        return preds, target, weight
    fits = (target.dim() == 1 and preds.dim() >= 1 and preds.shape[0] == target.shape[0]) if rows else \
        preds.shape == target.shape
    if not fits:
        return preds, target, weight
    keep = target != ignore_index
    if isinstance(weight, Tensor) and weight.shape == target.shape:
        weight = weight[keep]
    return preds[keep], target[keep], weight


def check_binned_scores(preds: Tensor, validate_args: bool, normalization: str) -> None:
    """Scores compared with thresholds in ``[0, 1]`` must be probabilities (torchmetrics would squash others with
    its ``normalization``, ``"sigmoid"`` or ``"softmax"``): the message names ``from_logits=True``, the port edit
    that applies it, as the exact mode's check (:func:`check_multiclass_rank_inputs`)."""
    if validate_args and preds.numel():
        lo, hi = torch.aminmax(preds)
        if lo.item() < 0 or hi.item() > 1:
            raise ValueError(f"Expected `preds` to be probabilities in [0, 1] with `thresholds` (they are compared "
                             f"with the thresholds), got values in [{lo.item():.4g}, {hi.item():.4g}]; pass "
                             f"`from_logits=True` for logits (a {normalization} in the scores' dtype is applied "
                             f"before binning, as torchmetrics)")


def check_fpr_range(fpr_range: Any) -> Tuple[float, float]:
    """LogAUC's ``fpr_range``: a pair ``(lo, hi)`` with ``0 < lo < hi <= 1`` (the log axis needs ``lo > 0``)."""
    ok = isinstance(fpr_range, (tuple, list)) and len(fpr_range) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and not math.isnan(v) for v in fpr_range)
    if not ok or not 0 < fpr_range[0] < fpr_range[1] <= 1:
        raise ValueError(f"Expected `fpr_range` to be a pair (lo, hi) with 0 < lo < hi <= 1 (a log-scaled "
                         f"false-positive-rate axis starts above 0), got {fpr_range!r}")
    return float(fpr_range[0]), float(fpr_range[1])


def check_eer_average(average: Any, threshold: bool = False) -> str:
    """Multiclass EER's ``average``: ``None``/``"none"`` (per class), ``"micro"`` or ``"macro"`` (the EER of the
    classes' mean ROC curve); ``threshold=True`` (the ``*_eer_threshold`` form) refuses ``"macro"``: a mean curve
    has no threshold of its own."""
    average = "none" if average is None else average
    if threshold and average == "macro":
        raise ValueError("Expected `average` to be None, 'none' or 'micro' for multiclass_eer_threshold, got 'macro': "
                         "the macro EER is read off the classes' mean ROC curve, which has no threshold; use "
                         "multiclass_eer(..., average='macro') for the value")
    check_choice("average", average, ("none", "micro", "macro"))
    return average
class Weighting(NamedTuple):
    """What a rank module has appended so far (its ``weighting`` option): whether its class takes ``weight=``,
    the rows of scores and the rows of weights."""

    metric: str
    weighted: bool
    rows: int
    weight_rows: int


def check_rank_weighting(weighting: Weighting, weight: Any) -> None:
    """A rank module's batch is weighted as the earlier ones (metadata only, no host sync): every update or none,
    and only on a class that takes weights."""
    if weight is None and not weighting.weighted:
        return
    if not weighting.weighted:
        raise TypeError(f"Expected no `weight` for {weighting.metric} (sample weights are taken by AUROC, "
                        f"average precision and the ROC / precision-recall curves), got {type(weight).__name__}")
    seen, weights = weighting.rows, weighting.weight_rows
    if weight is not None and weights != seen:
        raise ValueError(f"Expected `weight` in every update or in none, got one after {seen} unweighted samples")
    if weight is None and weights:
        raise ValueError(f"Expected `weight` in every update or in none, got none after {weights} weighted "
                         f"samples")
