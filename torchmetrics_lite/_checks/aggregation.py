"""Checks of the aggregation metrics: torchmetrics' ``nan_strategy`` (what a NaN input does)."""
from __future__ import annotations

import math
import warnings
from typing import Any, Optional, Tuple

import torch
from torch import Tensor

NAN_STRATEGIES = ("error", "warn", "ignore", "disable")


class NaNInputError(ValueError, RuntimeError):
    """A NaN input with ``nan_strategy="error"``: a ``ValueError`` (this library's rule) that is also the
    ``RuntimeError`` torchmetrics raises there, so ported ``except RuntimeError`` code still catches it."""


def check_nan_strategy(nan_strategy: Any) -> None:
    """torchmetrics' rule: one of :data:`NAN_STRATEGIES` or a float (an int or a bool is neither)."""
    if nan_strategy in NAN_STRATEGIES and isinstance(nan_strategy, str):
        return
    if not isinstance(nan_strategy, float):
        raise ValueError(f"Expected `nan_strategy` to be a float or one of {NAN_STRATEGIES}, got {nan_strategy!r}")


def check_cat_input(value: Tensor) -> Tensor:
    """CatMetric keeps 1-D rows: a 0-d or 1-D value."""
    if value.dim() > 1:
        raise ValueError(f"Expected `value` of CatMetric to be a number or a 0-d or 1-D tensor, got shape "
                         f"{tuple(value.shape)}; pass value.reshape(-1) (torchmetrics keeps the trailing dimensions: "
                         f"reshape the result with .reshape(-1, *value.shape[1:]))")
    return value


def apply_nan_strategy(owner: str, nan_strategy: Any, value: Tensor, weight: Optional[Tensor], *, neutral: float,
                       validate_args: bool, total: Optional[Tensor] = None) -> Tuple[Tensor, Optional[Tensor]]:
    """``value`` (and ``weight``, of the same shape) after ``nan_strategy``, as torchmetrics' aggregators do.

    * ``"error"``: a NaN in ``value`` or ``weight`` raises :class:`NaNInputError` (with ``validate_args``: one
      host sync; without, the NaN propagates).
    * ``"warn"`` / ``"ignore"``: an element whose value or weight is NaN is left out (set to ``neutral``, the
      reduction's identity, with weight 0: no host sync); ``"warn"`` warns when it happens (with ``validate_args``).
    * a float: such an element's value becomes that float and its weight 1.
    * ``"disable"``: nothing is checked; a NaN propagates.

    ``total``, a sum of ``value`` that any NaN would make NaN, lets the common clean case cost one scalar read.
    """
    if nan_strategy == "disable" or not value.is_floating_point():
        return value, weight
    if nan_strategy in ("error", "warn") and validate_args:
        clean_sum = total if total is not None and weight is None else None
        if clean_sum is not None and not math.isnan(clean_sum.item()):
            return value, weight  # the sum is a number: no NaN anywhere
        nans = _nans(value, weight)
        count = int(nans.sum())
        if count and nan_strategy == "error":
            in_value = int(torch.isnan(value).sum())
            name, n = ("value", in_value) if in_value else ("weight", count)
            raise NaNInputError(
                f"Expected `{name}` to contain no NaN, got {n} NaN value(s) ({owner}); pass nan_strategy='warn' "
                "(torchmetrics' default: drop them with a warning), 'ignore', a float to put in their place, or "
                "'disable'")
        if not count:
            return value, weight
        warnings.warn(f"{owner}: {count} NaN value(s) in the input, left out (nan_strategy='warn')", UserWarning,
                      stacklevel=5)
    elif nan_strategy == "error":
        return value, weight  # validate_args=False: no check
    else:
        nans = _nans(value, weight)
    weight = torch.ones_like(value) if weight is None else weight
    if isinstance(nan_strategy, float):
        return torch.where(nans, nan_strategy, value), torch.where(nans, 1.0, weight).to(weight.dtype)
    return torch.where(nans, neutral, value), torch.where(nans, 0.0, weight).to(weight.dtype)


def _nans(value: Tensor, weight: Optional[Tensor]) -> Tensor:
    nans = torch.isnan(value)
    if weight is not None and weight.is_floating_point():
        nans = nans | torch.isnan(weight)
    return nans
