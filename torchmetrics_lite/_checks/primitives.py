"""Validation primitives: every message names the argument, the expectation and what was received."""
from __future__ import annotations

import math
from typing import Any, Optional, Sequence, Tuple

import torch
from torch import Tensor

# ---------------------------------------------------------------------------------------------- primitives


def check_choice(name: str, value: Any, choices: Sequence[Any]) -> None:
    if value not in choices:
        raise ValueError(f"Expected `{name}` to be one of {tuple(choices)}, got {value!r}")


def check_bool(name: str, value: Any, *, show_value: bool = True) -> bool:
    """A plain ``bool`` option (not an int, not a tensor); the message names the type (and the value)."""
    if not isinstance(value, bool):
        shown = f" {value!r}" if show_value else ""
        raise TypeError(f"Expected `{name}` to be a bool, got {type(value).__name__}{shown}")
    return value


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


def check_ndim(name: str, t: Tensor, ndims: Sequence[int], hint: str = "") -> None:
    """``t`` has one of ``ndims`` dimensions; ``hint`` (how to reshape) is added to the message."""
    if t.dim() not in ndims:
        want = " or ".join(f"{d}-D" for d in ndims)
        raise ValueError(f"Expected `{name}` to be {want}, got shape {tuple(t.shape)}{hint}")


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
    suspect = math.isnan(total.item()) if total is not None else bool(torch.isnan(t).any())
    if suspect:
        n_nan = int(torch.isnan(t).sum())
        if n_nan:
            raise ValueError(f"Expected `{name}` to contain no NaN, got {n_nan} NaN value(s)")


def check_range(name: str, t: Tensor, low: float, high: float, hint: str = "") -> None:
    """Value check (host sync): every value lies in [low, high]."""
    if t.numel() == 0:
        return
    extremes = torch.aminmax(t)
    lo, hi = extremes.min.item(), extremes.max.item()
    if lo < low or hi > high:
        raise ValueError(f"Expected `{name}` to lie in [{low}, {high}], got values in [{lo}, {hi}]{hint}")


def check_binary_values(name: str, t: Tensor) -> None:
    """Value check (host sync): only 0 and 1 (bool tensors always pass)."""
    if t.dtype == torch.bool or t.numel() == 0:
        return
    bad = (t != 0) & (t != 1)
    if bool(bad.any()):
        raise ValueError(f"Expected `{name}` to hold only 0 and 1, got value {t[bad][0].item()!r}")


def check_binary_target(target: Any, *, validate_args: bool, ignore_index: Optional[int] = None) -> Tensor:
    """Binary labels: a bool, integer or floating tensor (``BCEWithLogitsLoss`` targets) holding only 0 and 1
    (and ``ignore_index``). Values are checked (one fused min/max pass, a host sync) when ``validate_args``;
    then floating targets also get the exact check, which names the first value that is neither 0 nor 1."""
    target = check_tensor("target", target)
    check_real("target", target)
    if not validate_args or target.dtype == torch.bool or target.numel() == 0:
        return target
    t = target if ignore_index is None else target.masked_fill(target == ignore_index, 0)
    lo, hi = torch.aminmax(t)
    if lo.item() < 0 or hi.item() > 1 or (t.is_floating_point() and not bool(((t == 0) | (t == 1)).all())):
        bad = (t != 0) & (t != 1)
        also = f" or ignore_index={ignore_index}" if ignore_index is not None else ""
        raise ValueError(f"Expected `target` to hold only 0 and 1{also} (bool, integer or floating), "
                         f"got value {t[bad][0].item()!r}")
    return target


def upcast(t: Tensor) -> Tensor:
    """float16 / bfloat16 go to float32 for statistics; other dtypes are kept as they are."""
    if t.dtype in (torch.float16, torch.bfloat16):
        return t.float()
    return t


def check_process_group_args(validate_args: Any) -> None:
    if not isinstance(validate_args, bool):
        raise TypeError(f"Expected `validate_args` to be a bool, got {type(validate_args).__name__}")


def check_sync_timeout(sync_timeout: Any) -> Optional[float]:
    """``sync_timeout``: ``None`` or a positive, finite number of seconds (returned as a float)."""
    if sync_timeout is None:
        return None
    if isinstance(sync_timeout, bool) or not isinstance(sync_timeout, (int, float)):
        raise TypeError(f"Expected `sync_timeout` to be a number of seconds or None, got {type(sync_timeout).__name__}")
    if not math.isfinite(sync_timeout) or sync_timeout <= 0:
        raise ValueError(f"Expected `sync_timeout` to be a positive, finite number of seconds or None, "
                         f"got {sync_timeout!r}")
    return float(sync_timeout)


def shape_str(shape: Tuple[int, ...]) -> str:
    return str(tuple(shape))


def check_sample_weight(weight: Any, shape: Tuple[int, ...], *, validate_args: bool,
                        device: Optional[torch.device] = None, unit: str = "sample") -> Optional[Tensor]:
    """``weight``: ``None``, or a real (integer or floating, not bool) tensor of ``shape``, one value per sample
    (scikit-learn's ``sample_weight``), every value non-negative and finite. The value check (one fused pass, one
    host sync) runs when ``validate_args``; ``device``, if given, is where it must be; ``unit`` names what one value
    weighs in the shape message (retrieval's per-query weights). Returned as given: each family converts it for its
    statistics."""
    if weight is None:
        return None
    weight = check_tensor("weight", weight)
    if weight.dtype == torch.bool or weight.is_complex():
        raise TypeError(f"Expected `weight` to have a real (integer or floating), non-bool dtype, got {weight.dtype}")
    if tuple(weight.shape) != tuple(shape):
        raise ValueError(f"Expected `weight` to hold one value per {unit}, shape {tuple(shape)}, "
                         f"got shape {tuple(weight.shape)}")
    if device is not None and weight.device != device:
        raise ValueError(f"Expected `weight` on the inputs' device {device}, got {weight.device}")
    if validate_args and weight.numel():
        lo, hi = torch.aminmax(weight)  # NaN propagates into both
        if not (float(lo) >= 0 and float(hi) < math.inf):
            bad = weight[~torch.isfinite(weight) | (weight < 0)][0].item()
            raise ValueError(f"Expected `weight` to be non-negative and finite, got value {bad!r}")
    return weight


def check_aggregation_input(value: Any) -> Tensor:
    """SumMetric / MeanMetric / MaxMetric / MinMetric accept numbers and (nested) lists or tuples of numbers (a
    CPU tensor of ``float_dtype``, as torchmetrics converts them) and real tensors of any shape."""
    numbers = (int, float)
    if isinstance(value, numbers + (list, tuple)) and not isinstance(value, bool):
        from torchmetrics_lite._dtype import float_dtype

        try:
            return torch.tensor(value, dtype=float_dtype(torch.device("cpu")))
        except (TypeError, ValueError, RuntimeError):
            raise TypeError(f"Expected `value` to be a torch.Tensor, a number or a list of numbers, got "
                            f"{type(value).__name__} {value!r:.60}") from None
    value = check_tensor("value", value)
    check_real("value", value)
    return value


def check_result_dtype(dst_type: Any) -> torch.dtype:
    """A floating ``torch.dtype`` for ``Metric.set_dtype``, given as a dtype or its name (``"float32"``,
    ``"torch.float32"``)."""
    dtype = dst_type
    if isinstance(dst_type, str):
        dtype = getattr(torch, dst_type.removeprefix("torch."), None)
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point or dtype.is_complex:
        raise ValueError(f"Expected `dst_type` to be a floating torch.dtype (torch.float32, torch.float64, "
                         f"torch.float16, torch.bfloat16) or its name, got {dst_type!r}")
    return dtype


def warn_probabilities_as_logits(owner: str, preds: Any, *, multiclass: bool, stacklevel: int = 4) -> bool:
    """Value check (host sync): warn when a ``from_logits=True`` metric gets scores that look like probabilities
    (every value in [0, 1], and for multiclass scores every row summing to 1). Returns whether it warned."""
    if not isinstance(preds, Tensor) or not preds.is_floating_point() or preds.numel() == 0:
        return False
    looks = (preds.min() >= 0) & (preds.max() <= 1)
    if multiclass:
        if preds.dim() < 2:
            return False
        looks = looks & ((preds.sum(1) - 1).abs() <= 1e-4).all()
    if not bool(looks):
        return False
    kind = "every value in [0, 1], every row summing to 1" if multiclass else "every value in [0, 1]"
    use = "a softmax" if multiclass else "threshold 0 (a sigmoid's 0.5)"
    import warnings

    warnings.warn(f"{owner}(from_logits=True) got scores that look like probabilities ({kind}): from_logits=True "
                  f"treats them as logits ({use}), which gives another value than on the probabilities; build the "
                  f"metric with from_logits=False for probabilities (warned once per metric)", UserWarning,
                  stacklevel=stacklevel)
    return True


def warn_binary_logits(metric: Any, args: Tuple[Any, ...]) -> None:
    """The ``check_accepted`` of a module with a ``from_logits`` option over binary or multilabel scores (bind it as
    ``check_accepted = warn_binary_logits``): see :func:`_warn_logits_once`."""
    _warn_logits_once(metric, args, multiclass=False)


def warn_multiclass_logits(metric: Any, args: Tuple[Any, ...]) -> None:
    """The ``check_accepted`` of a module with a ``from_logits`` option over multiclass scores ``(N, C)``."""
    _warn_logits_once(metric, args, multiclass=True)


def _warn_logits_once(metric: Any, args: Tuple[Any, ...], *, multiclass: bool) -> None:
    """Built with ``from_logits=True`` (and ``validate_args``), warn once per metric when the scores ``args[0]``
    of an accepted batch look like probabilities (:func:`warn_probabilities_as_logits`; the warning points at the
    caller of ``update``)."""
    d = metric.__dict__
    warned = d["_warned"]  # the metric's once-per-metric warnings
    if d.get("from_logits") is True and d["validate_args"] and "from_logits" not in warned and args:
        if warn_probabilities_as_logits(type(metric).__name__, args[0], multiclass=multiclass, stacklevel=5):
            warned.add("from_logits")


def integral_labels(name: str, t: Tensor, *, validate_args: bool, allow_bool: bool = True) -> Tensor:
    """Integer class labels, or floating ones with integral values (torchmetrics accepts ``tensor([0., 2., 1.])``),
    returned as int64; with ``validate_args`` a non-integral value raises (one host sync)."""
    if not t.is_floating_point():
        check_integer(name, t, allow_bool=allow_bool)
        return t
    if validate_args and t.numel():
        bad = t[(t != t.round()) | ~torch.isfinite(t)]
        if bad.numel():
            raise ValueError(f"Expected `{name}` to hold class labels (integers, or floats with integral values), "
                             f"got {bad[0].item()!r}")
    return t.long()
