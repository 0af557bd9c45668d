"""Shared docstring text: an argument described once, used by every function that takes it.

A docstring names a shared entry as a placeholder on a line of its own, ``{name}`` inside ``Args:`` (or any
section); :func:`fill_doc` replaces it with ``DOCS[name]``, indenting continuation lines to match. A one-line
entry may also stand inside a line (``... as torchmetrics. {compile}``). A *group*
(:data:`GROUPS`, e.g. the arguments every binary metric takes) expands to its members, one per line. Only known
names are replaced, so other braces (dict literals in doctests, ``{0, 1}``) are left alone. A family adds its
entries with :func:`register` and its groups with :func:`register_group` at import time.

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
from typing import Callable, Dict, Tuple, TypeVar

__all__ = ["DOCS", "GROUPS", "register", "register_group", "fill_doc"]

F = TypeVar("F", bound=Callable)

#: Shared argument text, keyed by placeholder name; each entry starts with the argument's name.
DOCS: Dict[str, str] = {
    "validate_args": (
        "validate_args: run the value checks that need a device-to-host sync (label ranges, probabilities in "
        "[0, 1], NaN, non-negative weights). Type and shape checks always run. ``False`` skips them: an update "
        "then never syncs and traces under ``torch.compile(fullgraph=True)``."
    ),
}

#: Named lists of entries, expanded in order (``{binary_args}`` -> ``{preds_binary}``, ``{target_binary}``, ...).
GROUPS: Dict[str, Tuple[str, ...]] = {}

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>\w+)\}[ \t]*$", re.MULTILINE)
_INLINE = re.compile(r"\{(\w+)\}")


def register(**entries: str) -> None:
    """Add shared entries (``name=text``) to :data:`DOCS`; a name may be registered once."""
    for name, text in entries.items():
        if name in DOCS and DOCS[name] != text:
            raise ValueError(f"Expected a new docs entry, got a second text for {name!r}")
        DOCS[name] = text


def register_group(**groups: Tuple[str, ...]) -> None:
    """Add groups (``name=(entry, ...)``) to :data:`GROUPS`; every member must be a registered entry or group."""
    for name, members in groups.items():
        unknown = [m for m in members if m not in DOCS and m not in GROUPS]
        if unknown or (name in GROUPS and GROUPS[name] != tuple(members)):
            raise ValueError(f"Expected a new group of known entries, got {name!r} with {unknown or members!r}")
        GROUPS[name] = tuple(members)


def _expand(name: str, indent: str) -> str:
    if name in GROUPS:
        return "\n".join(_expand(member, indent) for member in GROUPS[name])
    return indent + DOCS[name].replace("\n", "\n" + indent + "    ")


def _inline(match: "re.Match[str]") -> str:
    text = DOCS.get(match.group(1))
    return match.group(0) if text is None or "\n" in text else text


def fill_doc(fn: F) -> F:
    """Replace each ``{name}`` line of ``fn.__doc__`` by ``DOCS[name]`` (or a group's entries), and each ``{name}``
    inside a line by a one-line entry; an unknown name on a line of its own raises ``KeyError`` (a typo in a
    placeholder must fail at import, not ship a broken docstring)."""
    doc = fn.__doc__
    if doc:
        doc = _PLACEHOLDER.sub(lambda m: _expand(m.group("name"), m.group("indent")), doc)
        fn.__doc__ = _INLINE.sub(_inline, doc)
    return fn
