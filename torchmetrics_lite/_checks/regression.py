"""Input validation of the regression and calibration families and the calibrators."""
from __future__ import annotations

from typing import Any, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks.primitives import check_binary_values, check_choice, check_floating, check_integer, check_ndim, check_no_nan, check_range, check_real, check_same_shape, check_tensor, upcast

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
