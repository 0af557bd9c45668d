"""Public input checks for people who extend the library: custom metrics and the ``losses`` package.

The same primitives every metric of this library validates with (``torchmetrics_lite._checks`` composes them per
family), so that an extension raises the same clear messages: each names the argument, what was expected and what
was received. Metadata checks (type, shape, dtype, options) cost nothing; :func:`check_range` and
:func:`check_binary_values` read the values (one device-to-host sync), so call them only while ``validate_args``
is on.

Examples:
    >>> import torch
    >>> check_choice("reduction", "mean", ("mean", "sum"))
    >>> check_same_shape("preds", torch.zeros(3), "target", torch.zeros(2))
    Traceback (most recent call last):
    ...
    ValueError: Expected `preds` and `target` to have the same shape, got (3,) and (2,)
"""
from torchmetrics_lite._checks.classification import check_beta
from torchmetrics_lite._checks.primitives import (
    check_binary_values,
    check_choice,
    check_number,
    check_positive_int,
    check_range,
    check_real,
    check_same_shape,
    check_tensor,
    upcast,
)

__all__ = [
    "check_beta",
    "check_binary_values",
    "check_choice",
    "check_number",
    "check_positive_int",
    "check_range",
    "check_real",
    "check_same_shape",
    "check_tensor",
    "upcast",
]
