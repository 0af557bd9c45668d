"""torchmetrics interop without importing it: our ``Metric`` becomes a virtual subclass of ``torchmetrics.Metric``
as soon as torchmetrics is (or gets) imported, so that PyTorch Lightning's ``self.log(name, metric)`` and
``self.log_dict(collection)``, which test ``isinstance(value, torchmetrics.Metric)``, take our metrics with no
extra import.

``torchmetrics.Metric`` is an abstract base class, so ``register`` is all it takes. If torchmetrics is already
imported (Lightning imports it), the registration happens at once; otherwise a finder on ``sys.meta_path`` waits
for the module that defines ``torchmetrics.Metric`` to finish loading, registers, and removes itself. A program
that never imports torchmetrics never loads it: the core package neither imports torchmetrics nor Lightning.
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from typing import Any, Optional, Sequence

__all__ = ["register_with_torchmetrics"]

_MODULE = "torchmetrics.metric"  # where torchmetrics.Metric is defined


def register_with_torchmetrics(cls: type) -> None:
    """Make ``cls`` a virtual subclass of ``torchmetrics.Metric`` now, or when torchmetrics is imported. Idempotent.

    Examples:
        >>> import torchmetrics
        >>> from torchmetrics_lite import BinaryAccuracy
        >>> isinstance(BinaryAccuracy(), torchmetrics.Metric)
        True
    """
    if not _register(cls) and not any(isinstance(f, _Finder) and f.cls is cls for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder(cls))


def _register(cls: type) -> bool:
    """Register if ``torchmetrics.metric`` is loaded; whether it was."""
    module = sys.modules.get(_MODULE)
    base = getattr(module, "Metric", None)
    if base is None:
        return False
    if not issubclass(cls, base):
        base.register(cls)
    return True


class _Finder(importlib.abc.MetaPathFinder):
    """Wraps the loader of ``torchmetrics.metric`` so that the registration runs right after it executes."""

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def find_spec(self, fullname: str, path: Optional[Sequence[str]], target: Any = None) -> Any:
        if fullname != _MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _RegisteringLoader(spec.loader, self)
        return spec


class _RegisteringLoader(importlib.abc.Loader):
    def __init__(self, loader: Any, finder: _Finder) -> None:
        self.loader, self.finder = loader, finder

    def create_module(self, spec: Any) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self.loader.exec_module(module)
        base = getattr(module, "Metric", None)
        if base is not None:
            base.register(self.finder.cls)
            if self.finder in sys.meta_path:
                sys.meta_path.remove(self.finder)

    def __getattr__(self, name: str) -> Any:  # get_code, get_source, ... of the real loader
        return getattr(self.loader, name)
