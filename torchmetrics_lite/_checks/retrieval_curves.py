"""Input validation of the retrieval curves' options (``max_k``, ``adaptive_k``, ``min_precision``)."""
from __future__ import annotations

from typing import Any

from torchmetrics_lite._checks.primitives import check_positive_int


def check_curve_options(max_k: Any, adaptive_k: Any) -> None:
    """``max_k``: a positive int or ``None``; ``adaptive_k``: a bool."""
    check_positive_int("max_k", max_k, allow_none=True)
    if not isinstance(adaptive_k, bool):
        raise ValueError(f"Expected `adaptive_k` to be a bool, got {adaptive_k!r}")


def check_min_precision(value: Any) -> None:
    """``min_precision``: a real number in ``[0, 1]``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ValueError(f"Expected `min_precision` to be a number in [0, 1], got {value!r}")
