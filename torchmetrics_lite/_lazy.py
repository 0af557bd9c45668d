"""Lazy package exports (PEP 562): a package names what it exports and from which module; the module is
imported on first use of one of its names. ``import torchmetrics_lite`` thus costs no ``import torch`` until a
torch-backed name is used, and the command line (which needs numpy alone) starts in a fraction of a second.

A name a package does not have raises an error that says so and names the nearest name it has (``difflib``):
``AttributeError`` for ``package.Name`` (so ``hasattr`` and ``getattr(..., default)`` work), ``ImportError`` with
the same message for ``from package import Name`` (Python would otherwise replace the message with its bare
"cannot import name"): the caller's current instruction tells the two apart."""
from __future__ import annotations

import difflib
import dis
import importlib
import importlib.util
import sys
from typing import Any, Callable, Dict, Iterable, List, Mapping, Sequence, Tuple

_IMPORT_FROM = dis.opmap.get("IMPORT_FROM", -1)


def attach(package: str, namespace: Dict[str, Any],
           exports: Mapping[str, Sequence[str]]) -> Tuple[Callable[[str], Any], Callable[[], List[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` whose ``exports`` map a module to the names it provides;
    a resolved name is cached in the package's ``namespace`` (its ``globals()``). A package whose own names are
    imported eagerly passes the extra names it re-exports from elsewhere (torchmetrics' paths)."""
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:  # a submodule not imported yet (``torchmetrics_lite.functional``)
            if name.startswith("_") or importlib.util.find_spec(f"{package}.{name}") is None:
                raise missing_name(package, name, [*namespace.get("__all__", namespace), *where], depth=2)
            return importlib.import_module(f"{package}.{name}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> List[str]:
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__


def missing(package: str, namespace: Dict[str, Any]) -> Callable[[str], Any]:
    """``__getattr__`` for a module whose names are all defined eagerly: only the error for a missing name."""

    def __getattr__(name: str) -> Any:
        raise missing_name(package, name, list(namespace.get("__all__", namespace)), depth=2)

    return __getattr__


def missing_name(package: str, name: str, candidates: Iterable[str], depth: int = 1) -> Exception:
    """The error for ``name`` missing from ``package``: an ``ImportError`` when the frame ``depth`` levels above
    this function (2 from a module ``__getattr__``) runs ``from package import name``, otherwise an
    ``AttributeError``; the message names the nearest public name.

    Examples:
        >>> error = missing_name("torchmetrics_lite", "BinaryAccuracyy", ["BinaryAccuracy", "BinaryAUROC"])
        >>> type(error).__name__, str(error).endswith("does not have it; the nearest name it has is 'BinaryAccuracy'")
        ('AttributeError', True)
    """
    message = f"module {package!r} has no attribute {name!r}"
    if not name.startswith("__"):  # dunder probes (__wrapped__, __path__) get the plain error
        public = sorted({c for c in candidates if not c.startswith("_")})
        close = difflib.get_close_matches(name, public, n=1)
        message += ": torchmetrics_lite does not have it"
        message += f"; the nearest name it has is {close[0]!r}" if close else ""
    if _importing_from(depth):
        return ImportError(message.replace("has no attribute", "has no name", 1), name=package)
    return AttributeError(message)


def _importing_from(depth: int) -> bool:
    """Whether the frame ``depth`` levels above the caller's caller is executing an ``IMPORT_FROM`` instruction
    (``missing_name`` called from a module ``__getattr__``: depth 2 is the frame that looked the name up)."""
    try:
        frame = sys._getframe(depth + 1)
        return frame.f_lasti >= 0 and frame.f_code.co_code[frame.f_lasti] == _IMPORT_FROM
    except (ValueError, IndexError, AttributeError):  # pragma: no cover - no such frame / another interpreter
        return False
