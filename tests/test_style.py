"""Style rules of the project that the code itself can check.

At most two levels of inheritance: a class may derive from at most one project class before ``Metric`` /
``nn.Module`` (``Public -> _Base -> Metric``); shared code is a module-level function or a helper held by
composition, not a deeper base or a mixin (a mixin is inheritance too: it is in the MRO).

Tests by subject: a test module imports no other test module (its case tables, batches or oracles); what two
test modules share lives in ``tests/helpers/`` (one file or folder per subject), which imports no test module either.
"""
import ast
import importlib
import inspect
import pkgutil
from pathlib import Path
from typing import List

import torch.nn as nn

import losses
import torchmetrics_lite
from torchmetrics_lite.metric import Metric

PACKAGES = (torchmetrics_lite, losses)
PROJECT = {package.__name__ for package in PACKAGES}
ROOTS = (Metric, nn.Module)  # where a chain ends: Metric itself and what lies above it do not count
ABOVE_ROOTS = set(Metric.__mro__) | set(nn.Module.__mro__)
MAX_PROJECT_BASES = 1  # Public -> _Base -> Metric


def project_bases(cls: type) -> List[type]:
    """The project classes above ``cls`` in its MRO other than ``Metric`` (mixins included, wherever the MRO puts
    them: a mixin listed after the base comes after ``Metric``)."""
    return [base for base in cls.__mro__[1:]
            if base not in ABOVE_ROOTS and base.__module__.split(".")[0] in PROJECT]


def chain(cls: type) -> str:
    root = next((base.__name__ for base in cls.__mro__[1:] if base in ROOTS), "object")
    return " -> ".join([cls.__name__, *(base.__name__ for base in project_bases(cls)), root])


def project_classes() -> List[type]:
    """Every class defined at module level in the two packages (each module imported; ``__main__`` runs the CLI)."""
    classes = []
    for package in PACKAGES:
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if info.name.endswith(".__main__"):
                continue
            module = importlib.import_module(info.name)
            classes += [obj for obj in vars(module).values()
                        if inspect.isclass(obj) and obj.__module__ == module.__name__]
    return classes


def too_deep(classes: List[type]) -> List[str]:
    return sorted({f"{cls.__module__}: {chain(cls)}" for cls in classes
                   if len(project_bases(cls)) > MAX_PROJECT_BASES})


def test_inheritance_depth():
    classes = project_classes()
    names = {cls.__name__ for cls in classes}
    # the walk reaches every family (a module that failed to import would have raised above)
    assert {"BinaryAccuracy", "MulticlassAUROC", "RetrievalMAP", "MeanSquaredError", "BootStrapper", "LambdaRankLoss",
            "MetricCollection", "_BinaryScore", "_MulticlassAveraged"} <= names
    offenders = too_deep(classes)
    assert not offenders, "more than two levels of inheritance (Public -> _Base -> Metric):\n" + "\n".join(offenders)


def test_inheritance_depth_catches_deep_chains_and_mixins():
    class _Base(Metric):
        pass

    class _Middle(_Base):
        pass

    class Deep(_Middle):
        pass

    class _Mixin:
        pass

    _Mixin.__module__ = _Base.__module__ = _Middle.__module__ = "torchmetrics_lite.toy"
    Deep.__module__ = "losses.toy"

    class Mixed(_Base, _Mixin):
        pass

    Mixed.__module__ = "torchmetrics_lite.toy"

    class Fine(_Base):
        pass

    class Loss(nn.Module):
        pass

    assert chain(Deep) == "Deep -> _Middle -> _Base -> Metric"
    assert chain(Mixed) == "Mixed -> _Base -> _Mixin -> Metric"
    assert too_deep([_Base, _Middle, Deep, Mixed, Fine, Loss]) == ["losses.toy: Deep -> _Middle -> _Base -> Metric",
                                                                   "torchmetrics_lite.toy: Mixed -> _Base -> _Mixin -> "
                                                                   "Metric"]


def tree_imports(path: Path) -> List[str]:
    """The test-tree modules ``path`` imports other than ``tests.helpers`` (relative imports included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom):
            names = ["." * node.level + (node.module or "")] if node.level else [node.module or ""]
        found += [n for n in names if n.startswith(".") or (n.split(".")[0] == "tests" and
                                                            not n.startswith("tests.helpers"))]
    return found


def test_no_test_module_imports_another():
    root = Path(__file__).parent
    offenders = {str(p.relative_to(root.parent)): tree_imports(p) for p in sorted(root.rglob("*.py"))}
    offenders = {path: names for path, names in offenders.items() if names}
    assert not offenders, f"import shared tables from tests/helpers/, not from a test module: {offenders}"
