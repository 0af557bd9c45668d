"""torchmetrics' own docstring examples, run against us with only the imports swapped.

For every public name we export (``torchmetrics_lite._EXPORTS``, ``torchmetrics_lite.functional._EXPORTS``), the
torchmetrics object of the same name is looked up in the installed torchmetrics (its family module first, then
the top level), and the examples of its docstring (or of its ``plot`` method's) are read with
``doctest.DocTestParser``. Each ``from torchmetrics... import X`` line imports ``X`` from ``torchmetrics_lite``
(or ``torchmetrics_lite.functional`` when the module path names ``functional``) instead; the examples then run
in a namespace holding what torchmetrics' module namespace gives them (``torch``, ``tensor``, ``Tensor``) and our
object under the name, after ``torch.manual_seed(42)`` (torchmetrics' doctest seed).

The comparison is tolerant in two ways only: a ``dtype=torch.float64`` / ``float32`` suffix is not a difference
(our default results are float64), and two printed numbers are the same when they differ by at most one unit of
the last digit both print (``0.1260...`` and ``0.126``; ``1.0000`` and ``1.``): torchmetrics computes in float32.
"""
from __future__ import annotations

import doctest
import importlib
import inspect
import random
import re
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Tuple

import torch

TM_CLASS_MODULES = ("torchmetrics.classification", "torchmetrics.regression", "torchmetrics.retrieval",
                    "torchmetrics.wrappers", "torchmetrics.aggregation", "torchmetrics")
TM_FUNCTION_MODULES = ("torchmetrics.functional.classification", "torchmetrics.functional.regression",
                       "torchmetrics.functional.retrieval", "torchmetrics.functional")

_IMPORT = re.compile(r"^(\s*(?:>>> |\.\.\. )?\s*)from (torchmetrics(?:\.[\w.]+)?) import (.+)$")
_MODULE_IMPORT = re.compile(r"\bimport torchmetrics\b(?! as)")
_NUMBER = re.compile(r"-?\d+\.\d*(?:e[-+]?\d+)?|-?\d+(?:e[-+]?\d+)?|-?nan|-?inf")
_DTYPE = re.compile(r",\s*dtype=torch\.float(?:64|32)")


def swap_imports(source: str) -> str:
    """``source`` with every torchmetrics import pointing at ``torchmetrics_lite``."""
    lines = []
    for line in source.splitlines():
        found = _IMPORT.match(line)
        if found:
            package = "torchmetrics_lite.functional" if "functional" in found.group(2) else "torchmetrics_lite"
            line = f"{found.group(1)}from {package} import {found.group(3)}"
        else:
            line = _MODULE_IMPORT.sub("import torchmetrics_lite as torchmetrics", line)
        lines.append(line)
    return "\n".join(lines) + ("\n" if source.endswith("\n") else "")


def _normal(text: str) -> str:
    """Whitespace collapsed (none after an opening bracket: torch pads ``inf`` to the column width), the dtype
    suffix and ``...`` (an ELLIPSIS after a number) dropped."""
    text = re.sub(r"\s+", " ", _DTYPE.sub("", text.replace("...", ""))).strip()
    return re.sub(r"([\[(]) ", r"\1", text)


def _decimals(number: str) -> int:
    return len(number.split(".")[1].split("e")[0]) if "." in number else 0


def same_output(want: str, got: str) -> bool:
    """The tolerant comparison of the module docstring."""
    a, b = _normal(want), _normal(got)
    if a == b:
        return True
    numbers_a, numbers_b = _NUMBER.findall(a), _NUMBER.findall(b)
    if _NUMBER.sub("#", a) != _NUMBER.sub("#", b) or len(numbers_a) != len(numbers_b):
        return False
    for x, y in zip(numbers_a, numbers_b):
        fx, fy = float(x), float(y)
        if fx != fx or fy != fy or fx in (float("inf"), -float("inf")):
            if not (fx != fx and fy != fy) and fx != fy:
                return False
            continue
        unit = 10.0 ** -min(_decimals(x), _decimals(y))
        if abs(fx - fy) > 1.01 * unit:
            return False
    return True


class _Checker(doctest.OutputChecker):
    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return super().check_output(want, got, optionflags) or same_output(want, got)


class Event(NamedTuple):
    kind: str  # "diff" or "error"
    source: str  # the statement
    want: str  # the documented output, or the exception's type name
    got: str  # our output, or the exception's message


class _Runner(doctest.DocTestRunner):
    def __init__(self) -> None:
        super().__init__(checker=_Checker(), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        self.events: List[Event] = []

    def report_failure(self, out: Any, test: Any, example: Any, got: str) -> None:
        self.events.append(Event("diff", example.source.strip(), example.want.strip(), got.strip()))

    def report_unexpected_exception(self, out: Any, test: Any, example: Any, exc_info: Any) -> None:
        self.events.append(Event("error", example.source.strip(), exc_info[0].__name__, str(exc_info[1])))


class Docstring(NamedTuple):
    name: str  # our exported name
    source: str  # torchmetrics' docstring, imports swapped
    ours: Any  # our object of that name
    statements: int


def _exports(functional: bool) -> List[str]:
    module = importlib.import_module("torchmetrics_lite.functional" if functional else "torchmetrics_lite")
    return sorted({name for names in module._EXPORTS.values() for name in names})


def _find(name: str, modules: Tuple[str, ...]) -> Optional[Any]:
    for module in modules:
        found = getattr(importlib.import_module(module), name, None)
        if found is not None:
            return found
    return None


def _own_plot_doc(cls: Any) -> Optional[str]:
    """The docstring of ``cls.plot`` when ``cls`` defines it itself (not the base class's generic one)."""
    if not inspect.isclass(cls) or "plot" not in vars(cls):
        return None
    return inspect.getdoc(cls.plot)


def docstrings(plot: bool = False) -> Iterator[Docstring]:
    """torchmetrics' docstrings with examples for our exported names: the objects' own, or (``plot``) their
    classes' ``plot`` methods'."""
    import torchmetrics_lite
    import torchmetrics_lite.functional

    parser = doctest.DocTestParser()
    for functional, modules, package in ((False, TM_CLASS_MODULES, torchmetrics_lite),
                                         (True, TM_FUNCTION_MODULES, torchmetrics_lite.functional)):
        for name in _exports(functional):
            theirs = _find(name, modules)
            if theirs is None:
                continue
            doc = _own_plot_doc(theirs) if plot else inspect.getdoc(theirs)
            if not doc or ">>>" not in doc:
                continue
            source = swap_imports(doc)
            yield Docstring(name, source, getattr(package, name), len(parser.get_examples(source)))


def run(doc: Docstring, source: Optional[str] = None, namespace: Optional[Dict[str, Any]] = None) -> List[Event]:
    """Run ``doc``'s examples (or ``source``, an edited version of them): the differences and errors, in order;
    ``namespace`` (a dict) receives the names the examples defined."""
    globs: Dict[str, Any] = {"torch": torch, "tensor": torch.tensor, "Tensor": torch.Tensor, doc.name: doc.ours}
    test = doctest.DocTestParser().get_doctest(doc.source if source is None else source, globs, doc.name, None, 0)
    torch.manual_seed(42)
    random.seed(42)
    runner = _Runner()
    runner.run(test, out=lambda _: None, clear_globs=namespace is None)
    if namespace is not None:
        namespace.update(test.globs)
    return runner.events
