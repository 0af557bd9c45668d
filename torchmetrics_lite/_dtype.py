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

    Examples:
        >>> float_dtype(torch.device("cpu"))
        torch.float64
    """
    return torch.float32 if device.type in NO_FLOAT64_DEVICES else torch.float64
