"""Lazy package exports (PEP 562): a package names what it exports and from which module; the module is
imported on first use of one of its names. ``import torchmetrics_lite`` thus costs no ``import torch`` until a
torch-backed name is used, and the command line (which needs numpy alone) starts in a fraction of a second."""
from __future__ import annotations

import importlib
import importlib.util
from typing import Any, Callable, Dict, List, Mapping, Sequence, Tuple


def attach(package: str, namespace: Dict[str, Any],
           exports: Mapping[str, Sequence[str]]) -> Tuple[Callable[[str], Any], Callable[[], List[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` whose ``exports`` map a module to the names it provides;
    a resolved name is cached in the package's ``namespace`` (its ``globals()``)."""
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:  # a submodule not imported yet (``torchmetrics_lite.functional``)
            if name.startswith("_") or importlib.util.find_spec(f"{package}.{name}") is None:
                raise AttributeError(f"module {package!r} has no attribute {name!r}")
            return importlib.import_module(f"{package}.{name}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> List[str]:
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__
