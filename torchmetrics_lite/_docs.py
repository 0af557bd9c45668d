"""The package's one docstring mechanism: text that many docstrings share, written once, filled by :func:`fill_doc`.

A docstring names a shared entry as a *placeholder*: ``{name}`` on a line of its own (inside ``Args:`` or where a
whole section goes), or inside a line for a one-line entry (``... as torchmetrics. {compile}``). :func:`fill_doc`
replaces it with ``DOCS[name]``; the first line takes the placeholder's indentation and the entry's further lines
keep theirs relative to it. Only known names are replaced inside a line, so other braces (dict literals in
doctests, ``{0, 1}``, ``sum_{j}``) are left alone; an unknown name on a line of its own raises ``KeyError`` at
import (a typo must not ship a broken docstring). A family registers its entries with :func:`register` in its
``_doc_args.py`` (``functional/<family>/_doc_args.py``, which re-exports :func:`fill_doc`, so that importing the
decorator from there guarantees the entries exist); text that one file (or the family's module base) alone
uses may be registered next to its use. This is
the package's only way to template a docstring (``tests/test_docs.py`` fails for any other file that writes a
``__doc__``, except the task factories of :mod:`torchmetrics_lite.tasks`, generated from its table).

Naming (the reader of a function's source must see its arguments):

* an argument's entry is named after the argument and its text starts with ``<argument>:``: ``{validate_args}``
  for the text every function shares, ``{<argument>_<variant>}`` for a family's variant (``{preds_binary}``,
  ``{weight_rank}``, ``{k_retrieval}``). One placeholder stands for one argument line: there are no groups, so
  the source of an ``Args:`` section lists every argument by name (``tests/test_docs.py`` checks that the
  rendered one names every parameter of the signature);
* any other entry is named after its section or role: ``{returns_<what>}``, ``{raises_<what>}`` (one exception
  line each), ``{sections_<what>}`` (several whole sections, e.g. Returns/Raises/References that sibling
  functions share), or a sentence's own name (``{compile}``).

Sibling functions that differ only in a few words share one skeleton: the skeleton is an entry whose text holds
placeholders of its own (filled in turn, up to :data:`DEPTH` levels), and each function passes its words as
keyword arguments, ``@fill_doc(constraint="min_precision")``; such local values fill ``{constraint}`` in that
docstring only (they may not reuse a registered name).

>>> register(sections_example="Returns:\\n    the value at ``{constraint}``.")
>>> @fill_doc(constraint="min_precision")
... def f(min_precision, validate_args=True):
...     '''Example.
...
...     Args:
...         min_precision: the constraint.
...         {validate_args}
...
...     {sections_example}
...     '''
>>> print(f.__doc__)
Example.
<BLANKLINE>
    Args:
        min_precision: the constraint.
        validate_args: run the value checks ...
<BLANKLINE>
    Returns:
        the value at ``min_precision``.
<BLANKLINE>
"""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, Mapping, Optional, TypeVar

__all__ = ["DOCS", "DEPTH", "register", "fill_doc"]

F = TypeVar("F", bound=Callable[..., Any])

#: Shared text, keyed by placeholder name (an argument's entry starts with the argument's name and a colon).
DOCS: Dict[str, str] = {
    "validate_args": (
        "validate_args: run the value checks that need a device-to-host sync (label ranges, probabilities in "
        "[0, 1], NaN, non-negative weights). Type and shape checks always run. ``False`` skips them: an update "
        "then never syncs and traces under ``torch.compile(fullgraph=True)``."
    ),
    "kwargs_module": ("kwargs: ``validate_args``, ``process_group``, ``sync_on_compute`` (see "
                      ":class:`~torchmetrics_lite.metric.Metric`)."),
}

#: How many times an entry may hold placeholders of its own (a skeleton holding argument entries is 2).
DEPTH = 4

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>\w+)\}[ \t]*$", re.MULTILINE)
_INLINE = re.compile(r"\{(\w+)\}")


def register(**entries: str) -> None:
    """Add shared entries (``name=text``) to :data:`DOCS`; a name may be registered once (the same text again is
    a no-op, a different text raises ``ValueError``)."""
    for name, text in entries.items():
        if name in DOCS and DOCS[name] != text:
            raise ValueError(f"Expected a new docs entry, got a second text for {name!r}")
        DOCS[name] = text


def _indented(text: str, indent: str) -> str:
    return "\n".join(indent + line if line.strip() else "" for line in text.split("\n"))


def _pending(doc: str, known: Mapping[str, str]) -> bool:
    return bool(_PLACEHOLDER.search(doc)) or any(m.group(1) in known for m in _INLINE.finditer(doc))


def _fill(doc: str, known: Mapping[str, str]) -> str:
    for _ in range(DEPTH + 1):
        doc = _PLACEHOLDER.sub(lambda m: _indented(known[m.group("name")], m.group("indent")), doc)
        doc = _INLINE.sub(lambda m: _inline(m, known), doc)
        if not _pending(doc, known):
            return doc
    raise ValueError(f"Expected docs entries nested at most {DEPTH} deep, got placeholders still in {doc[:80]!r}")


def _inline(match: "re.Match[str]", known: Mapping[str, str]) -> str:
    text = known.get(match.group(1))
    return match.group(0) if text is None or "\n" in text else text


def fill_doc(obj: Optional[F] = None, /, **values: str) -> Any:
    """Fill the placeholders of ``obj.__doc__`` from :data:`DOCS` (and ``values``, this docstring's own words).

    Use it bare (``@fill_doc``) or with values (``@fill_doc(constraint="min_recall")``); it returns the object,
    its docstring filled. An unknown name on a line of its own raises ``KeyError``; a value named like a
    registered entry raises ``ValueError``.
    """
    shadowed = sorted(set(values) & set(DOCS))
    if shadowed:
        raise ValueError(f"Expected local docstring values with new names, got registered names {shadowed}")

    def fill(target: F) -> F:
        if target.__doc__:
            target.__doc__ = _fill(target.__doc__, {**DOCS, **values})
        return target

    return fill if obj is None else fill(obj)
