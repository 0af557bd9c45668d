"""Shared docstring text: an argument described once, used by every function that takes it.

A docstring names a shared entry as a placeholder on a line of its own, ``{name}`` inside ``Args:`` (or any
section); :func:`fill_doc` replaces it with ``DOCS[name]``, indenting continuation lines to match. Only names in
:data:`DOCS` are replaced, so other braces (dict literals in doctests, ``{0, 1}``) are left alone. A family adds
its entries with :func:`register` at import time.

>>> @fill_doc
... def f(validate_args=True):
...     '''Example.
...
...     Args:
...         {validate_args}
...     '''
>>> "validate_args: run the value checks" in f.__doc__
True
"""
from __future__ import annotations

import re
from typing import Callable, Dict, TypeVar

__all__ = ["DOCS", "register", "fill_doc"]

F = TypeVar("F", bound=Callable)

#: Shared argument text, keyed by placeholder name; each entry starts with the argument's name.
DOCS: Dict[str, str] = {
    "validate_args": (
        "validate_args: run the value checks that need a device-to-host sync (label ranges, probabilities in "
        "[0, 1], NaN, non-negative weights). Type and shape checks always run. ``False`` skips them: an update "
        "then never syncs and traces under ``torch.compile(fullgraph=True)``."
    ),
}

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>\w+)\}[ \t]*$", re.MULTILINE)


def register(**entries: str) -> None:
    """Add shared entries (``name=text``) to :data:`DOCS`; a name may be registered once."""
    for name, text in entries.items():
        if name in DOCS and DOCS[name] != text:
            raise ValueError(f"Expected a new docs entry, got a second text for {name!r}")
        DOCS[name] = text


def fill_doc(fn: F) -> F:
    """Replace each ``{name}`` line of ``fn.__doc__`` by ``DOCS[name]``; unknown names raise ``KeyError`` (a
    typo in a placeholder must fail at import, not ship a broken docstring)."""
    doc = fn.__doc__
    if doc:
        def expand(match: "re.Match[str]") -> str:
            indent, text = match.group("indent"), DOCS[match.group("name")]
            return indent + text.replace("\n", "\n" + indent + "    ")

        fn.__doc__ = _PLACEHOLDER.sub(expand, doc)
    return fn
