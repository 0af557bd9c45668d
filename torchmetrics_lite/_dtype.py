"""The floating dtype of statistics on a device: the package's bottom floor (it imports nothing of the package).

Every kernel and state takes its floating dtype from :func:`float_dtype` once per call, so that the same code runs
on devices without float64 (Apple MPS), where states and results are float32 (see :class:`~torchmetrics_lite.Metric`).
"""
from __future__ import annotations

from typing import FrozenSet

import torch

__all__ = ["float_dtype"]  # NO_FLOAT64_DEVICES is a setting for tests, not an export

#: Device types without float64 support: floating states and results there use float32 (see ``Metric``).
#: Tests force the policy on CPU by setting this to ``{"cpu"}``.
NO_FLOAT64_DEVICES: FrozenSet[str] = frozenset({"mps"})


def float_dtype(device: torch.device) -> torch.dtype:
    """The dtype for floating statistics on ``device``: float64, or float32 where the device has no float64.

    Metric authors use it in ``batch_stats`` instead of a literal ``torch.float64``, so that the metric runs on
    Apple MPS.

    Args:
        device: the device the statistics live on.

    Returns:
        ``torch.float64``, or ``torch.float32`` on a device without float64.

    Examples:
        >>> float_dtype(torch.device("cpu"))
        torch.float64
    """
    return torch.float32 if device.type in NO_FLOAT64_DEVICES else torch.float64


def rounded(t: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """``t`` (floating) as ``dtype``, correctly rounded (to nearest, ties to even) from its exact value.

    A direct cast is correctly rounded between float64 and float32; float64 to float16 or bfloat16 goes through
    float32 in torch, which can round twice (a value just above a tie of the target lands on the tie, then rounds
    to even). Here that step rounds to odd instead (the float32 nearest toward zero, its last bit set when
    inexact), after which the second rounding is correct: float32 keeps 13 more bits than float16 and bfloat16.

    Examples:
        >>> x = torch.tensor(1 + 2**-11 + 2**-40, dtype=torch.float64)  # just above a float16 tie
        >>> x.to(torch.float16).item(), rounded(x, torch.float16).item()
        (1.0, 1.0009765625)
    """
    if t.dtype == dtype or not t.is_floating_point():
        return t
    if t.dtype != torch.float64 or dtype in (torch.float32, torch.float64):
        return t.to(dtype)
    near = t.to(torch.float32)
    back = near.to(torch.float64)
    inexact = (back != t) & torch.isfinite(t)
    toward_zero = torch.where(back.abs() > t.abs(), torch.nextafter(near, torch.zeros_like(near)), near)
    odd = (toward_zero.view(torch.int32) | 1).view(torch.float32)
    return torch.where(inexact, odd, near).to(dtype)
