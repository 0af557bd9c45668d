"""Input validation and formatting: the only place that raises about inputs.

Every message names the argument, what was expected and what was received. Checks on metadata (type,
shape, dtype) cost nothing and always run; checks on values (NaN, ranges) force a device-to-host sync and are
the ones that ``validate_args=False`` skips. Family-specific validators compose the primitives below and
live in their own section of this file.
"""
from __future__ import annotations

import math
from typing import Any, Optional, Sequence, Tuple

import torch
from torch import Tensor

# ---------------------------------------------------------------------------------------------- primitives


def check_choice(name: str, value: Any, choices: Sequence[Any]) -> None:
    if value not in choices:
        raise ValueError(f"Expected `{name}` to be one of {tuple(choices)}, got {value!r}")


def check_tensor(name: str, value: Any) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(f"Expected `{name}` to be a torch.Tensor, got {type(value).__name__}")
    return value


def check_positive_int(name: str, value: Any, *, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"Expected `{name}` to be a positive int{' or None' if allow_none else ''}, got {value!r}")


def check_number(name: str, value: Any, *, low: float = -math.inf, high: float = math.inf,
                 low_open: bool = False, high_open: bool = False) -> None:
    """``value`` is a real number in the interval (``low``, ``high``), ends open or closed as asked."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value)
    if ok:
        ok = (value > low if low_open else value >= low) and (value < high if high_open else value <= high)
    if not ok:
        interval = f"{'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"
        raise ValueError(f"Expected `{name}` to be a number in {interval}, got {value!r}")


def check_zero_division(value: Any) -> float:
    """``zero_division`` is a number or nan; returns it as a float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"Expected `zero_division` to be a number or float('nan'), got {value!r}")
    return float(value)


def check_same_shape(name_a: str, a: Tensor, name_b: str, b: Tensor) -> None:
    if a.shape != b.shape:
        raise ValueError(
            f"Expected `{name_a}` and `{name_b}` to have the same shape, got {tuple(a.shape)} and {tuple(b.shape)}"
        )


def check_ndim(name: str, t: Tensor, ndims: Sequence[int]) -> None:
    if t.dim() not in ndims:
        want = " or ".join(f"{d}-D" for d in ndims)
        raise ValueError(f"Expected `{name}` to be {want}, got shape {tuple(t.shape)}")


def check_floating(name: str, t: Tensor) -> None:
    if not t.is_floating_point():
        raise TypeError(f"Expected `{name}` to have a floating dtype, got {t.dtype}")


def check_integer(name: str, t: Tensor, *, allow_bool: bool = True) -> None:
    if t.is_floating_point() or t.is_complex() or (t.dtype == torch.bool and not allow_bool):
        kind = "an integer or bool" if allow_bool else "an integer"
        raise TypeError(f"Expected `{name}` to have {kind} dtype, got {t.dtype}")


def check_real(name: str, t: Tensor) -> None:
    if t.is_complex():
        raise TypeError(f"Expected `{name}` to have a real dtype, got {t.dtype}")


def check_no_nan(name: str, t: Tensor, *, total: Optional[Tensor] = None) -> None:
    """Value check (host sync): no NaN. Given ``total``, a reduction of ``t`` that any NaN would turn into NaN
    (a sum), only that scalar is inspected unless it is NaN: the cheap test for the common, clean case."""
    if not t.is_floating_point() or t.numel() == 0:
        return
    probe = total if total is not None else torch.isnan(t).any()
    if bool(torch.isnan(probe) if total is not None else probe):
        n_nan = int(torch.isnan(t).sum())
        if n_nan:
            raise ValueError(f"Expected `{name}` to contain no NaN, got {n_nan} NaN value(s)")


def check_range(name: str, t: Tensor, low: float, high: float, hint: str = "") -> None:
    """Value check (host sync): every value lies in [low, high]."""
    if t.numel() == 0:
        return
    lo, hi = torch.aminmax(t)
    lo, hi = lo.item(), hi.item()
    if lo < low or hi > high:
        raise ValueError(f"Expected `{name}` to lie in [{low}, {high}], got values in [{lo}, {hi}]{hint}")


def check_binary_values(name: str, t: Tensor) -> None:
    """Value check (host sync): only 0 and 1 (bool tensors always pass)."""
    if t.dtype == torch.bool or t.numel() == 0:
        return
    bad = (t != 0) & (t != 1)
    if bool(bad.any()):
        raise ValueError(f"Expected `{name}` to hold only 0 and 1, got value {t[bad][0].item()!r}")


def upcast(t: Tensor) -> Tensor:
    """float16 / bfloat16 go to float32 for statistics; other dtypes are kept as they are."""
    if t.dtype in (torch.float16, torch.bfloat16):
        return t.float()
    return t


def check_process_group_args(validate_args: Any) -> None:
    if not isinstance(validate_args, bool):
        raise TypeError(f"Expected `validate_args` to be a bool, got {type(validate_args).__name__}")


def shape_str(shape: Tuple[int, ...]) -> str:
    return str(tuple(shape))


def check_weight(name: str, t: Optional[Tensor], like: Tensor) -> None:
    if t is None:
        return
    check_tensor(name, t)
    check_same_shape(name, t, "preds", like)

# ------------------------------------------------------------------------------------------- aggregation


def check_aggregation_input(value: Any) -> Tensor:
    """SumMetric / MeanMetric / MaxMetric / MinMetric accept numbers and real tensors of any shape."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return torch.tensor(float(value), dtype=torch.float64)
    value = check_tensor("value", value)
    check_real("value", value)
    return value

# ---------------------------------------------------------------------------------------- classification

CLASSIFICATION_AVERAGES = ("micro", "macro", "weighted", "none")


def check_average(average: Any, choices: Sequence[str] = CLASSIFICATION_AVERAGES) -> str:
    """``average`` is one of ``choices``; ``None`` means ``"none"`` (per class), as in torchmetrics."""
    average = "none" if average is None else average
    check_choice("average", average, choices)
    return average


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
        raise ValueError(f"Expected `{name}` to hold labels in [0, {num_classes - 1}]{also}, got values in [{lo}, {hi}]")


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


def _check_pair(preds: Any, target: Any) -> Tuple[Tensor, Tensor]:
    preds, target = check_tensor("preds", preds), check_tensor("target", target)
    check_real("preds", preds)
    check_integer("target", target)
    return preds, target


def check_binary_inputs(preds: Any, target: Any, *, from_logits: bool, ignore_index: Optional[int],
                        validate_args: bool) -> Tuple[Tensor, Tensor]:
    """Binary inputs of any equal shapes: ``preds`` probabilities/scores (float) or 0/1 labels (int, bool),
    ``target`` 0/1 labels. Returns both flattened."""
    preds, target = _check_pair(preds, target)
    check_same_shape("preds", preds, "target", target)
    if validate_args:
        check_labels("target", target, 2, ignore_index)
        if preds.is_floating_point():
            check_probabilities("preds", preds, from_logits)
        else:
            check_labels("preds", preds, 2)
    return preds.reshape(-1), target.reshape(-1)


def check_multiclass_inputs(preds: Any, target: Any, *, num_classes: int, top_k: int, ignore_index: Optional[int],
                            validate_args: bool) -> Tuple[Tensor, Tensor]:
    """Multiclass inputs: ``target`` (N, ...) labels; ``preds`` the same shape (int labels) or (N, C, ...) scores
    (float, any real values; the class axis is 1). Returns preds (M,) or (M, C) and target (M,)."""
    preds, target = _check_pair(preds, target)
    if preds.dim() == target.dim() + 1 and preds.dim() >= 2:
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
    elif preds.dim() == target.dim():
        check_same_shape("preds", preds, "target", target)
        check_integer("preds", preds)
        if top_k != 1:
            raise ValueError(f"Expected `preds` to hold scores (N, C, ...) when `top_k` > 1, got labels of shape "
                             f"{tuple(preds.shape)}")
        if validate_args:
            check_labels("preds", preds, num_classes)
        preds = preds.reshape(-1) if preds.dim() != 1 else preds
    else:
        raise ValueError(f"Expected `preds` to have shape (N, ...) like `target` or (N, {num_classes}, ...), got "
                         f"{tuple(preds.shape)} and `target` {tuple(target.shape)}")
    # The top-1 count on CPU rejects an out-of-range target by itself, at no cost: labels are in [0, C), so a
    # target < 0 gives a negative bin (bincount raises) and a target >= C a bin >= C * C (a longer output);
    # functional._multiclass turns either into check_labels' message. Elsewhere the target is checked here.
    if validate_args and not (top_k == 1 and ignore_index is None and target.is_cpu):
        check_labels("target", target, num_classes, ignore_index)
    return preds, target.reshape(-1) if target.dim() != 1 else target


def check_multilabel_inputs(preds: Any, target: Any, *, num_labels: int, from_logits: bool,
                            ignore_index: Optional[int], validate_args: bool) -> Tuple[Tensor, Tensor]:
    """Multilabel inputs (N, L, ...) of equal shapes, the label axis 1. Returns both as (M, L)."""
    preds, target = _check_pair(preds, target)
    check_same_shape("preds", preds, "target", target)
    if preds.dim() < 2 or preds.shape[1] != num_labels:
        raise ValueError(f"Expected `preds` and `target` of shape (N, {num_labels}, ...), got {tuple(preds.shape)}")
    if validate_args:
        check_labels("target", target, 2, ignore_index)
        if preds.is_floating_point():
            check_probabilities("preds", preds, from_logits)
        else:
            check_labels("preds", preds, 2)
    if preds.dim() > 2:
        preds, target = preds.movedim(1, -1), target.movedim(1, -1)
    return preds.reshape(-1, num_labels), target.reshape(-1, num_labels)


# ------------------------------------------------------------------------------------------------- auroc


RANK_AVERAGES = ("macro", "weighted", "none")


def check_rank_average(average: Any, choices: Sequence[str] = RANK_AVERAGES) -> str:
    check_choice("average", average, choices)
    return average


def check_max_fpr(max_fpr: Any) -> None:
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


def _rank_scores(preds: Any, validate_args: bool) -> Tensor:
    preds = check_tensor("preds", preds)
    check_floating("preds", preds)
    preds = upcast(preds)
    if validate_args:
        check_no_nan("preds", preds, total=preds.sum())
    return preds


def _rank_labels(target: Any, validate_args: bool) -> Tensor:
    target = check_tensor("target", target)
    check_integer("target", target)
    if validate_args and target.dtype != torch.bool and target.numel():
        lo, hi = torch.aminmax(target)  # one pass; the full check runs only on failure
        if lo.item() < 0 or hi.item() > 1:
            check_binary_values("target", target)
    return target


def check_binary_rank_inputs(preds: Any, target: Any, validate_args: bool) -> Tuple[Tensor, Tensor]:
    """Scores (floating, any shape, no NaN) and 0/1 labels of the same shape; returns both flattened, the
    scores upcast to float32 if narrower and the labels as uint8."""
    preds, target = check_tensor("preds", preds), check_tensor("target", target)
    check_same_shape("preds", preds, "target", target)
    preds, target = _rank_scores(preds, validate_args), _rank_labels(target, validate_args)
    target = target.reshape(-1)
    return preds.reshape(-1), target.view(torch.uint8) if target.dtype == torch.bool else target.to(torch.uint8)


def check_multiclass_rank_inputs(preds: Any, target: Any, num_classes: int,
                                 validate_args: bool) -> Tuple[Tensor, Tensor]:
    """Scores ``(N, num_classes)`` and class indices ``(N,)`` in ``[0, num_classes)``."""
    preds, target = check_tensor("preds", preds), check_tensor("target", target)
    check_ndim("preds", preds, (2,))
    check_ndim("target", target, (1,))
    if preds.shape != (target.shape[0], num_classes):
        raise ValueError(f"Expected `preds` to have shape (N, num_classes) = ({target.shape[0]}, {num_classes}), "
                         f"got {tuple(preds.shape)}")
    preds = _rank_scores(preds, validate_args)
    check_integer("target", target, allow_bool=False)
    if validate_args:
        check_range("target", target, 0, num_classes - 1)
    return preds, target


def check_multilabel_rank_inputs(preds: Any, target: Any, num_labels: int,
                                 validate_args: bool) -> Tuple[Tensor, Tensor]:
    """Scores ``(N, num_labels)`` and 0/1 labels of the same shape (returned as uint8)."""
    preds, target = check_tensor("preds", preds), check_tensor("target", target)
    check_ndim("preds", preds, (2,))
    if preds.shape[1] != num_labels:
        raise ValueError(f"Expected `preds` to have shape (N, num_labels) with num_labels = {num_labels}, "
                         f"got {tuple(preds.shape)}")
    check_same_shape("preds", preds, "target", target)
    preds, target = _rank_scores(preds, validate_args), _rank_labels(target, validate_args)
    return preds, target.to(torch.uint8)

# --------------------------------------------------------------------------------------------- retrieval


def check_retrieval_options(*, k: Any = None, ties: Any = "average", empty: Any = "skip",
                            ignore_index: Any = None, reduction: Any = "mean", gain: Any = "linear") -> None:
    """The options shared by every retrieval function and module."""
    check_positive_int("k", k, allow_none=True)
    check_choice("ties", ties, ("average", "order"))
    check_choice("empty", empty, ("skip", "zero", "one", "error"))
    check_choice("reduction", reduction, ("mean", "none"))
    check_choice("gain", gain, ("linear", "exponential"))
    if ignore_index is not None and (isinstance(ignore_index, bool) or not isinstance(ignore_index, int)):
        raise ValueError(f"Expected `ignore_index` to be an int or None, got {ignore_index!r}")


def check_retrieval_inputs(preds: Any, target: Any, indexes: Any, mask: Any,
                           validate_args: bool) -> Tuple[Tensor, Tensor, Optional[Tensor], Optional[Tensor]]:
    """Dense ``(queries, items)`` (or one query, 1-D) ``preds``/``target`` with an optional bool ``mask``, or
    flat 1-D ``preds``/``target``/``indexes``. Integer scores become float64 (exact order), float16/bfloat16
    float32; value checks: no NaN score, no NaN or negative target (``ignore_index`` rows are dropped first)."""
    preds, target = check_tensor("preds", preds), check_tensor("target", target)
    check_real("preds", preds)
    check_real("target", target)
    check_same_shape("preds", preds, "target", target)
    if indexes is None:
        check_ndim("preds", preds, (1, 2))
    else:
        check_tensor("indexes", indexes)
        check_ndim("preds", preds, (1,))
        check_integer("indexes", indexes, allow_bool=False)
        check_same_shape("indexes", indexes, "preds", preds)
    if mask is not None:
        check_tensor("mask", mask)
        if mask.dtype != torch.bool:
            raise TypeError(f"Expected `mask` to have dtype torch.bool, got {mask.dtype}")
        check_same_shape("mask", mask, "preds", preds)
    preds = upcast(preds) if preds.is_floating_point() else preds.to(torch.float64)
    return preds, target, indexes, mask


def check_retrieval_values(preds: Tensor, target: Tensor) -> None:
    """Value checks (host sync) on the items that remain after mask and ``ignore_index``."""
    check_no_nan("preds", preds)
    if target.numel() and target.dtype != torch.bool:
        check_no_nan("target", target)
        low = target.min().item()
        if low < 0:
            raise ValueError(f"Expected `target` to be non-negative (relevance grades), got minimum {low}")


# ------------------------------------------------------------------------------- regression, calibration


def check_regression_inputs(preds: Any, target: Any, *, num_outputs: Optional[int] = None,
                            validate_args: bool = True) -> Tuple[Tensor, Tensor]:
    """``preds`` and ``target``: real (non-bool) tensors of the same shape ``(N,)`` or ``(N, d)``; with
    ``num_outputs`` given, ``d`` must equal it (``(N,)`` counts as one output). Returned as float64 ``(N, d)``
    (the conversion is exact for every float32 / float16 / bfloat16 / int32 value). NaN is a value check."""
    for name, t in (("preds", preds), ("target", target)):
        check_tensor(name, t)
        if t.dtype == torch.bool or t.is_complex():
            raise TypeError(f"Expected `{name}` to have a real, non-bool dtype, got {t.dtype}")
    check_same_shape("preds", preds, "target", target)
    check_ndim("preds", preds, (1, 2))
    d = 1 if preds.dim() == 1 else preds.shape[1]
    if num_outputs is not None and d != num_outputs:
        raise ValueError(f"Expected `preds` to have {num_outputs} output column(s) (`num_outputs`), "
                         f"got shape {tuple(preds.shape)}")
    p = preds.to(torch.float64).reshape(preds.shape[0], d)
    t = target.to(torch.float64).reshape(preds.shape[0], d)
    if validate_args and bool(torch.isnan(p.sum() + t.sum())):  # one host sync in the clean case
        check_no_nan("preds", p)
        check_no_nan("target", t)
    return p, t


def check_multioutput(value: Any, *, weighted: bool) -> None:
    choices = ("raw_values", "uniform_average") + (("variance_weighted",) if weighted else ())
    check_choice("multioutput", value, choices)


def check_adjusted(value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"Expected `adjusted` to be a non-negative int (number of regressors), got {value!r}")


def _check_probabilities(preds: Tensor, validate_args: bool) -> Tensor:
    check_floating("preds", preds)
    p = upcast(preds)
    if validate_args:
        check_no_nan("preds", p, total=p.sum())
        check_range("preds", p, 0.0, 1.0, " (probabilities are used as given; apply a sigmoid/softmax first)")
    return p


def check_binary_prob_inputs(preds: Any, target: Any, *, validate_args: bool = True) -> Tuple[Tensor, Tensor]:
    """Binary probabilities: floating ``preds`` ``(N,)`` in [0, 1] and integer/bool ``target`` ``(N,)`` in
    {0, 1}. Returned as (float64 probabilities, float64 targets)."""
    check_tensor("preds", preds)
    check_tensor("target", target)
    check_ndim("preds", preds, (1,))
    check_same_shape("preds", preds, "target", target)
    check_integer("target", target)
    p = _check_probabilities(preds, validate_args)
    if validate_args:
        check_binary_values("target", target)
    return p.to(torch.float64), target.to(torch.float64)


def check_multiclass_prob_inputs(preds: Any, target: Any, *, num_classes: Optional[int] = None,
                                 validate_args: bool = True) -> Tuple[Tensor, Tensor]:
    """Multiclass probabilities: floating ``preds`` ``(N, C)`` in [0, 1] (``C == num_classes`` when given,
    ``C >= 2``) and integer ``target`` ``(N,)`` in [0, C). Returned as (float64 ``(N, C)``, int64 ``(N,)``)."""
    check_tensor("preds", preds)
    check_tensor("target", target)
    check_ndim("preds", preds, (2,))
    check_ndim("target", target, (1,))
    n_cls = preds.shape[1]
    if preds.shape[0] != target.shape[0]:
        raise ValueError(f"Expected `preds` (N, C) and `target` (N,) to have the same N, "
                         f"got shapes {tuple(preds.shape)} and {tuple(target.shape)}")
    if (num_classes is not None and n_cls != num_classes) or n_cls < 2:
        want = f"{num_classes} columns (`num_classes`)" if num_classes is not None else "at least 2 columns"
        raise ValueError(f"Expected `preds` to have {want}, got shape {tuple(preds.shape)}")
    check_integer("target", target, allow_bool=False)
    p = _check_probabilities(preds, validate_args)
    if validate_args:
        check_range("target", target, 0, n_cls - 1, " (class indices)")
    return p.to(torch.float64), target.to(torch.int64)


def check_calibrator_inputs(scores: Any, target: Any, *, unit_target: bool,
                            validate_args: bool = True) -> Tuple[Tensor, Tensor]:
    """Calibrator fitting: real 1-D ``scores`` and ``target`` of the same length, at least one sample;
    ``unit_target`` requires targets in [0, 1] (labels or frequencies). Returned as float64."""
    for name, t in (("scores", scores), ("target", target)):
        check_tensor(name, t)
        check_real(name, t)
        check_ndim(name, t, (1,))
    check_same_shape("scores", scores, "target", target)
    if scores.shape[0] == 0:
        raise ValueError("Expected `scores` to hold at least one sample, got shape (0,)")
    s, t = scores.to(torch.float64), target.to(torch.float64)
    if validate_args:
        check_no_nan("scores", s, total=s.sum())
        check_no_nan("target", t, total=t.sum())
        if unit_target:
            check_range("target", t, 0.0, 1.0, " (labels or frequencies)")
    return s, t
