"""Run torchmetrics' own docstring examples through torchmetrics_lite and count what each difference touches.

Usage: ``python -m benchmarks.port_examples [-v]`` (needs torchmetrics: ``pip install -e ".[bench]"``).

For every public name both libraries export (``torchmetrics_lite.__all__`` and ``functional.__all__`` that
torchmetrics has too), the examples of torchmetrics' docstring are run twice with doctest (torchmetrics' flags:
``NORMALIZE_WHITESPACE | ELLIPSIS``): as written, against torchmetrics (a docstring whose examples fail there is
left out), and with ``torchmetrics`` replaced by ``torchmetrics_lite`` in the code. Each failure of the second run
is put in one category: the error message names ``from_logits``, ``multioutput``, ``k=`` (retrieval's ``top_k``),
the probabilities that binned ``thresholds=`` need, another message, or a printed value that differs only by
``dtype=torch.float64`` (our default float64 results), or by its digits. A docstring counts once per category,
however many of its lines fail. ``-v`` lists the docstrings of each category.
"""
from __future__ import annotations

import argparse
import doctest
import importlib
import re
import sys
import warnings
from collections import defaultdict
from typing import Any, Dict, List, NamedTuple, Set

CATEGORIES = {
    "dtype": "prints dtype=torch.float64 (float64 results; set_dtype(torch.float32) gives torchmetrics' float32)",
    "from_logits": "multiclass/hinge scores outside [0, 1] need from_logits=True",
    "multioutput": "(N, d) regression needs multioutput=",
    "k": "retrieval top_k= is k=",
    "no_bins": "thresholds= (binned mode) on EER, LogAUC and the operating points: exact only here",
    "thresholds": "binned thresholds= on AUROC/AP/curves need probabilities",
    "samplewise": "multidim_average='samplewise' on exact match, Hamming distance, NPV: not built",
    "roc_start": "ROC thresholds start at inf (scikit-learn), not 1.0, and are the scores as given",
    "missing_class": "a class without positives is nan and left out of the average (torchmetrics: 0)",
    "value": "another printed value",
    "error": "another error",
}
_MODULE_FAMILIES = ("", ".classification", ".regression", ".retrieval", ".aggregation", ".wrappers")
_FUNCTION_FAMILIES = ("", ".classification", ".regression", ".retrieval")
_FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def _category(message: str) -> str:
    if "from_logits" in message:
        return "from_logits"
    if "multioutput" in message:
        return "multioutput"
    if "NameError" in message:
        return "error"
    if "top_k" in message:
        return "k"
    if "no binned mode" in message:
        return "no_bins"
    if "thresholds" in message:
        return "thresholds"
    if "multidim_average" in message:
        return "samplewise"
    return "error"


class _Collect(doctest.DocTestRunner):
    def __init__(self) -> None:
        super().__init__(optionflags=_FLAGS, verbose=False)
        self.found: Set[str] = set()
        self.notes: List[str] = []

    def report_failure(self, out, test, example, got):  # type: ignore[override]
        want = example.want
        plain = re.sub(r",\s*dtype=torch\.float64", "", got)
        if doctest.OutputChecker().check_output(want, plain, _FLAGS):
            self.found.add("dtype")
        elif "inf" in got and "inf" not in want and "thresholds" in example.source + want:
            self.found.add("roc_start")
        elif "nan" in got and "nan" not in want:
            self.found.add("missing_class")
        else:
            self.found.add("value")
            self.notes.append(f"{example.source.strip()} -> {got.strip()[:120]} (want {want.strip()[:80]})")

    def report_unexpected_exception(self, out, test, example, exc_info):  # type: ignore[override]
        if exc_info[0] is NameError:  # a name the failed example before it did not bind
            return
        message = f"{exc_info[0].__name__}: {exc_info[1]}"
        self.found.add(_category(message))
        self.notes.append(f"{example.source.strip()[:80]} -> {message[:160]}")

    def report_success(self, out, test, example, got):  # type: ignore[override]
        pass

    def report_start(self, out, test, example):  # type: ignore[override]
        pass


def _port(source: str) -> str:
    return re.sub(r"\btorchmetrics\b(?!_lite)", "torchmetrics_lite", source)


def _undeprecated(obj: Any, name: str) -> Any:
    """torchmetrics' top-level retrieval names are deprecation shims whose docstrings call private aliases; its
    documentation shows the family package's object, so take that one."""
    module = getattr(obj, "__module__", "") or ""
    if "._deprecated" not in module:
        return obj
    if isinstance(obj, type):
        return obj.__mro__[1]
    return getattr(importlib.import_module(module.rsplit("._deprecated", 1)[0]), name, obj)


def _examples() -> Dict[str, doctest.DocTest]:
    import torchmetrics_lite
    import torchmetrics_lite.functional

    tests: Dict[str, doctest.DocTest] = {}
    parser = doctest.DocTestParser()
    for ours, prefix, families in ((torchmetrics_lite, "torchmetrics", _MODULE_FAMILIES),
                                   (torchmetrics_lite.functional, "torchmetrics.functional", _FUNCTION_FAMILIES)):
        places = [importlib.import_module(f"{prefix}{family}") for family in families]
        for name in ours.__all__:
            found = [(place, getattr(place, name)) for place in places if hasattr(place, name)]
            if not found:
                continue
            place, obj = found[0]
            obj = _undeprecated(obj, name)
            doc = getattr(obj, "__doc__", None)
            if not doc or ">>>" not in doc:
                continue
            module = sys.modules.get(getattr(obj, "__module__", "") or "", place)
            tests[f"{place.__name__}.{name}"] = parser.get_doctest(doc, dict(vars(module)), f"{prefix}.{name}", None,
                                                                  0)
    return tests


def _our_globals(theirs: Dict[str, Any]) -> Dict[str, Any]:
    """The namespace torchmetrics' doctest runs in (its defining module's), each torchmetrics object replaced by
    ours of the same name, or removed where we have none."""
    import torchmetrics_lite
    import torchmetrics_lite.functional

    ours: Dict[str, Any] = {}
    for key, value in theirs.items():
        if not str(getattr(value, "__module__", "") or "").startswith("torchmetrics"):
            ours[key] = value
            continue
        name = getattr(value, "__name__", key)  # torchmetrics' examples call some classes by private aliases
        for package in (torchmetrics_lite, torchmetrics_lite.functional):
            if name in getattr(package, "__all__", ()):
                ours[key] = getattr(package, name)
                break
    return ours


class Tally(NamedTuple):
    """What :func:`count` found: the docstrings per category, each docstring's failure notes, and the docstrings
    left out because they fail in torchmetrics itself."""

    counts: Dict[str, List[str]]
    notes: Dict[str, List[str]]
    broken: List[str]
    total: int


def count() -> Tally:
    """Run every shared docstring's examples through both libraries (see the module docstring)."""
    import torch

    counts: Dict[str, List[str]] = defaultdict(list)
    notes: Dict[str, List[str]] = {}
    broken: List[str] = []
    total = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, test in sorted(_examples().items()):
            namespace = dict(test.globs)
            torch.manual_seed(42)
            if doctest.DocTestRunner(optionflags=_FLAGS, verbose=False).run(test, out=lambda s: None).failed:
                broken.append(name)
                continue
            total += 1
            ported = doctest.DocTest([doctest.Example(_port(e.source), e.want, e.exc_msg, e.lineno, e.indent,
                                                      e.options) for e in test.examples],
                                     _our_globals(namespace), name, None, 0, test.docstring)
            runner = _Collect()
            torch.manual_seed(42)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                runner.run(ported, out=lambda s: None, clear_globs=True)
            if "value" in runner.found and any("undefined for" in str(w.message) for w in caught):
                runner.found.discard("value")  # the value differs where our warning says a class is undefined
                runner.found.add("missing_class")
            for category in runner.found:
                counts[category].append(name)
            notes[name] = runner.notes
    return Tally(counts, notes, broken, total)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-v", action="store_true", help="list the docstrings of each category")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    tally = count()
    same = tally.total - len({n for names in tally.counts.values() for n in names})
    print(f"{tally.total} torchmetrics docstrings with examples for names we export "
          f"({len(tally.broken)} more fail in torchmetrics itself and are left out); {same} run unchanged")
    for category, label in sorted(CATEGORIES.items(), key=lambda kv: -len(tally.counts[kv[0]])):
        print(f"{len(tally.counts[category]):4d}  {label}")
        if args.v:
            for name in tally.counts[category]:
                print(f"        {name}: {'; '.join(tally.notes[name])[:300]}")


if __name__ == "__main__":
    main()
