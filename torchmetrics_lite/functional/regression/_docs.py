"""Docstring sections shared by several regression functions and modules, written once.

:func:`sections` inserts them into a docstring before its ``References:`` section, so each function keeps its
own summary, formula, reference and example, and the argument text lives here.
"""
from __future__ import annotations

from typing import Callable, TypeVar

T = TypeVar("T")

#: Args/Returns/Raises of the error-sum functions that take :func:`mean_squared_error`'s arguments
ERROR_FUNCTION = """Args:
    preds, target, weight, multioutput, validate_args: as :func:`mean_squared_error`.

Returns:
    A float64 (MPS: float32) 0-d tensor, or ``(d,)`` with ``multioutput="raw_values"``; ``nan`` for empty input.

Raises:
    TypeError, ValueError: as :func:`mean_squared_error`."""

#: update/Args/Returns/Raises of the error-sum modules that take :class:`MeanSquaredError`'s arguments
ERROR_MODULE = """``update(preds, target, weight=None)`` as :class:`MeanSquaredError`.

Args:
    num_outputs, multioutput, kwargs: as :class:`MeanSquaredError`.

Returns:
    ``compute()``: a float64 (MPS: float32) 0-d tensor (or ``(d,)``); ``nan`` before any sample.

Raises:
    TypeError, ValueError: as :class:`MeanSquaredError`."""


def sections(text: str) -> Callable[[T], T]:
    """Decorator: insert ``text`` (unindented, blank-line separated sections) before the ``References:``
    section of the decorated object's docstring, at that section's indentation."""

    def insert(obj: T) -> T:
        doc = obj.__doc__ or ""
        marker = "\n    References:"
        indented = "\n".join(("    " + line) if line else "" for line in text.splitlines())
        obj.__doc__ = doc.replace(marker, "\n" + indented + "\n" + marker, 1)
        return obj

    return insert
