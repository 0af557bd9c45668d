"""Input validation of the calibration family (probabilities in [0, 1]) and the calibrators."""
from __future__ import annotations

import math
from typing import Any, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks.primitives import (
    check_binary_target,
    check_floating,
    check_ndim,
    check_no_nan,
    check_range,
    check_real,
    check_same_shape,
    check_sample_weight,
    check_tensor,
    integral_labels,
    upcast,
)


def _check_unit_interval(name: str, t: Tensor, hint: str) -> None:
    """Value check (one host sync): no NaN and every value in [0, 1], from one ``aminmax`` (NaN propagates
    through it, so a NaN extreme sends us to the counting scan that names it)."""
    if t.numel() == 0:
        return
    extremes = torch.aminmax(t)
    lo, hi = extremes.min.item(), extremes.max.item()
    if math.isnan(lo) or math.isnan(hi):
        check_no_nan(name, t)
    if lo < 0.0 or hi > 1.0:
        raise ValueError(f"Expected `{name}` to lie in [0.0, 1.0], got values in [{lo}, {hi}]{hint}")


_AS_GIVEN = " (probabilities are used as given; apply a sigmoid/softmax first)"
LOGITS_HINT = (" (probabilities are used as given; pass `from_logits=True` for logits: a sigmoid/softmax first, as "
               "torchmetrics)")


def _check_probabilities(preds: Tensor, validate_args: bool, hint: str = _AS_GIVEN) -> Tensor:
    check_floating("preds", preds)
    p = upcast(preds)
    if validate_args:
        _check_unit_interval("preds", p, hint)
    return p


def check_binary_prob_inputs(preds: Any, target: Any, *, validate_args: bool = True,
                             hint: str = _AS_GIVEN) -> Tuple[Tensor, Tensor]:
    """Binary probabilities: floating ``preds`` ``(N,)`` in [0, 1] and bool, integer or floating ``target`` ``(N,)`` in
    {0, 1}. Returned as given (float16/bfloat16 ``preds`` as float32); the statistics convert to float64."""
    check_tensor("preds", preds)
    check_tensor("target", target)
    check_ndim("preds", preds, (1,), "; torchmetrics flattens (N, ...) inputs: pass preds.reshape(-1), "
                                     "target.reshape(-1)")
    check_same_shape("preds", preds, "target", target)
    p = _check_probabilities(preds, validate_args, hint)
    return p, check_binary_target(target, validate_args=validate_args)


def check_multiclass_prob_inputs(preds: Any, target: Any, *, num_classes: Optional[int] = None,
                                 validate_args: bool = True, hint: str = _AS_GIVEN) -> Tuple[Tensor, Tensor]:
    """Multiclass probabilities: floating ``preds`` ``(N, C)`` in [0, 1] (``C == num_classes`` when given,
    ``C >= 2``) and integer ``target`` ``(N,)`` in [0, C). Returned as given (float16/bfloat16 ``preds`` as
    float32); the statistics convert to float64."""
    check_tensor("preds", preds)
    check_tensor("target", target)
    flatten = ("; torchmetrics flattens (N, C, ...) scores and (N, ...) targets: pass "
               "preds.movedim(1, -1).reshape(-1, C), target.reshape(-1)")
    check_ndim("preds", preds, (2,), flatten if preds.dim() > 2 else "")
    check_ndim("target", target, (1,), flatten if target.dim() > 1 else "")
    n_cls = preds.shape[1]
    if preds.shape[0] != target.shape[0]:
        raise ValueError(f"Expected `preds` (N, C) and `target` (N,) to have the same N, "
                         f"got shapes {tuple(preds.shape)} and {tuple(target.shape)}")
    if (num_classes is not None and n_cls != num_classes) or n_cls < 2:
        want = f"{num_classes} columns (`num_classes`)" if num_classes is not None else "at least 2 columns"
        raise ValueError(f"Expected `preds` to have {want}, got shape {tuple(preds.shape)}")
    target = integral_labels("target", target, validate_args=validate_args, allow_bool=False)
    p = _check_probabilities(preds, validate_args, hint)
    if validate_args:
        check_range("target", target, 0, n_cls - 1, " (class indices)")
    return p, target


def check_calibrator_inputs(scores: Any, target: Any, *, unit_target: bool, validate_args: bool = True,
                            dtype: torch.dtype = torch.float64) -> Tuple[Tensor, Tensor]:
    """Calibrator fitting: real 1-D ``scores`` and ``target`` of the same length, at least one sample;
    ``unit_target`` requires targets in [0, 1] (labels or frequencies). Returned in ``dtype`` (the caller's
    ``float_dtype`` of the scores' device: float64, or float32 where the device has none)."""
    for name, t in (("scores", scores), ("target", target)):
        check_tensor(name, t)
        check_real(name, t)
        check_ndim(name, t, (1,))
    check_same_shape("scores", scores, "target", target)
    if scores.shape[0] == 0:
        raise ValueError("Expected `scores` to hold at least one sample, got shape (0,)")
    s, t = scores.to(dtype), target.to(dtype)
    if validate_args:
        check_no_nan("scores", s, total=s.sum())
        check_no_nan("target", t, total=t.sum())
        if unit_target:
            check_range("target", t, 0.0, 1.0, " (labels or frequencies)")
    return s, t



def check_calibrator_weight(weight: Any, n: int, *, validate_args: bool = True,
                            dtype: torch.dtype = torch.float64) -> Optional[Tensor]:
    """A calibrator's ``weight`` (scikit-learn's ``fit(..., sample_weight=)``): ``None``, or one non-negative, finite
    real value per sample, ``(N,)``, of a positive sum (a fit needs a sample of positive weight; checked also
    without ``validate_args``, which skips the value check). Returned in ``dtype``."""
    weight = check_sample_weight(weight, (n,), validate_args=validate_args)
    if weight is None:
        return None
    w = weight.to(dtype)
    total = float(w.sum())  # checked whatever ``validate_args``: a fit reads its weights back anyway
    if not total > 0:
        raise ValueError(f"Expected `weight` to have a positive sum (at least one sample of positive weight to "
                         f"fit), got sum {total!r}")
    return w
