"""The module form of a loss, derived from its function: one declaration, ``@module_of(function, check)``.

A loss is written once, as a function ``x_loss(data..., *, per-call inputs, options)``. Its module
``XLoss(options)`` follows from that signature: the constructor takes exactly the function's options (keyword
only, the same defaults), checks them with the loss's option check (the one the function calls too, so a bad
option fails at construction), and keeps each as an attribute of the same name; ``forward(data..., per-call
inputs)`` calls the function with them; ``repr`` lists the options; the class docstring gains the ``Args:``
entries of the options, taken from the function's docstring. Per-call inputs (``mask``, ``generator``) are
keyword-only parameters of the function that belong to one batch, not to the loss.

Examples:
    >>> import torch
    >>> from losses.listmle import ListMLELoss
    >>> ListMLELoss(reduction="sum")
    ListMLELoss(reduction='sum')
    >>> ListMLELoss(reduction="max")
    Traceback (most recent call last):
    ...
    ValueError: Expected `reduction` to be one of ('mean', 'sum', 'none'), got 'max'
"""
from __future__ import annotations

import inspect
import re
from typing import Any, Callable

from torch import nn

__all__ = ["module_of"]

PER_CALL = ("mask", "generator")  # keyword-only inputs of one batch: forward takes them, not the constructor


def _arg_entries(doc: str) -> dict[str, str]:
    """The ``Args:`` entries of a Google-style docstring, by name, each with its continuation lines."""
    lines = inspect.cleandoc(doc).splitlines()
    try:
        start = lines.index("Args:") + 1
    except ValueError:
        return {}
    entries: dict[str, str] = {}
    name = None
    for line in lines[start:]:
        if line and not line.startswith(" "):
            break  # the next section
        match = re.match(r" {4}(\w+): ", line)
        if match:
            name = match.group(1)
            entries[name] = line
        elif name is not None and line.strip():
            entries[name] += "\n" + line
    return entries


def _with_args(doc: str, entries: list[str]) -> str:
    """``doc`` with an ``Args:`` section of ``entries`` before its ``Examples:`` (or at the end)."""
    doc = inspect.cleandoc(doc)
    section = "Args:\n" + "\n".join(entries) + "\n\n"
    if "\nExamples:" in doc:
        head, tail = doc.split("\nExamples:", 1)
        return head.rstrip() + "\n\n" + section + "Examples:" + tail
    return doc.rstrip() + "\n\n" + section


def module_of(function: Callable[..., Any], check: Callable[..., None]) -> Callable[[type], type]:
    """Class decorator: make the decorated ``nn.Module`` subclass the module form of ``function``.

    Args:
        function: the loss function; its positional parameters are the data, its keyword-only parameters the
            per-call inputs (``mask``, ``generator``) and the options.
        check: the loss's option check, called with every option by keyword (it may take ``**_`` for the ones it
            does not check); the function calls the same check.
    """
    params = list(inspect.signature(function).parameters.values())
    data = [p for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
    per_call = [p for p in params if p.kind is p.KEYWORD_ONLY and p.name in PER_CALL]
    options = [p for p in params if p.kind is p.KEYWORD_ONLY and p.name not in PER_CALL]
    names = tuple(p.name for p in options)

    def __init__(self, **kwargs: Any) -> None:
        unknown = sorted(set(kwargs) - set(names))
        if unknown:
            raise TypeError(f"{type(self).__name__}() got unexpected option(s) {unknown}; it takes "
                            f"{', '.join(names)}")
        nn.Module.__init__(self)
        values = {p.name: kwargs.get(p.name, p.default) for p in options}
        missing = [name for name, value in values.items() if value is inspect.Parameter.empty]
        if missing:
            raise TypeError(f"{type(self).__name__}() missing required option(s) {missing}")
        if not isinstance(values.get("validate_args", True), bool):
            raise TypeError(f"Expected `validate_args` to be a bool, got {type(values['validate_args']).__name__}")
        check(**values)
        for name, value in values.items():
            setattr(self, name, value)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        if len(args) > len(data):  # per-call inputs given by position, as forward's signature allows
            extra = args[len(data):]
            if len(extra) > len(per_call):
                raise TypeError(f"{type(self).__name__}.forward() takes at most {len(data) + len(per_call)} "
                                f"inputs, got {len(args)}")
            kwargs.update(zip((p.name for p in per_call), extra))
            args = args[:len(data)]
        return function(*args, **kwargs, **{name: getattr(self, name) for name in names})

    def extra_repr(self) -> str:
        return ", ".join(f"{p.name}={getattr(self, p.name)!r}" for p in options
                         if getattr(self, p.name) is not p.default and getattr(self, p.name) != p.default)

    def decorate(cls: type) -> type:
        __init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY), *options])
        forward.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY),
             *(p.replace(kind=p.POSITIONAL_OR_KEYWORD) for p in data + per_call)])
        forward.__doc__ = f"``{function.__name__}(...)`` with this module's options."
        __init__.__qualname__ = f"{cls.__qualname__}.__init__"  # errors name the public class
        forward.__qualname__ = f"{cls.__qualname__}.forward"
        cls.__init__ = __init__  # type: ignore[misc]
        cls.forward = forward  # type: ignore[attr-defined]
        cls.extra_repr = extra_repr  # type: ignore[attr-defined]
        cls.options = names  # type: ignore[attr-defined]
        entries = _arg_entries(function.__doc__ or "")
        cls.__doc__ = _with_args(cls.__doc__ or "", [entries[n] for n in names if n in entries])
        return cls

    return decorate
