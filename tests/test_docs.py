"""Every public name is on a page of the Sphinx docs (``docs/``), so a new metric cannot ship undocumented; the
worked examples of ARCHITECTURE.md run, with their doctests and tests.

The build itself (``python -m sphinx -W --keep-going -b html docs OUT``) runs in ``.ci/run``; this test needs no
Sphinx: it reads the pages' ``automodule``/``autoclass``/``autofunction`` directives and checks that they cover
``torchmetrics_lite.__all__``, ``torchmetrics_lite.functional.__all__`` and ``losses.__all__``.
"""
import doctest
import importlib
import pathlib
import re
import sys
import types

import pytest

import losses
import torchmetrics_lite
import torchmetrics_lite.functional
from tests.helpers.markdown import blocks

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"
DIRECTIVE = re.compile(r"^\.\. auto(module|class|function):: (\S+)\n((?:   .*\n)*)", re.MULTILINE)


def _documented():
    """ids of the objects the pages document: the ``__all__`` of each automodule (without ``:no-members:``),
    and each autoclass/autofunction target."""
    found = set()
    for page in DOCS.rglob("*.rst"):
        for kind, target, options in DIRECTIVE.findall(page.read_text()):
            if kind == "module":
                if ":no-members:" in options:
                    continue
                module = importlib.import_module(target)
                found.update(id(getattr(module, name)) for name in getattr(module, "__all__", ()))
            else:
                module_name, _, name = target.rpartition(".")
                found.add(id(getattr(importlib.import_module(module_name), name)))
    return found


def test_every_public_name_is_documented():
    documented = _documented()
    missing = [f"{package.__name__}.{name}"
               for package in (torchmetrics_lite, torchmetrics_lite.functional, losses)
               for name in package.__all__
               if not name.startswith("__") and id(getattr(package, name)) not in documented]
    assert not missing, (f"Public names on no docs page: {missing}. Export them from their family package's "
                         f"__all__ (documented by docs/api/<family>.rst), or add a page.")


def test_the_directive_pattern_reads_the_pages():
    # guards the test above against a pattern that silently matches nothing
    pages = {p.name: p.read_text() for p in (DOCS / "api").glob("*.rst")}
    assert len(DIRECTIVE.findall(pages["classification.rst"])) == 2
    assert id(torchmetrics_lite.BinaryAUROC) in _documented()


@pytest.mark.parametrize("line,code", blocks("ARCHITECTURE.md", "python"),
                         ids=lambda v: f"ARCHITECTURE.md:{v}" if isinstance(v, int) else "")
def test_architecture_worked_example_runs(line, code, monkeypatch):
    # a real module, so that the metric classes it defines pickle (the harness checks pickling)
    name = f"architecture_example_{line}"
    module = types.ModuleType(name)
    monkeypatch.setitem(sys.modules, name, module)
    exec(compile(code, f"ARCHITECTURE.md:{line}", "exec"), module.__dict__)
    tests = [f for key, f in vars(module).items() if key.startswith("test_") and callable(f)]
    assert tests, "a worked example ends with its test"
    for test in tests:
        test()
    results = doctest.testmod(module, extraglobs={"torch": importlib.import_module("torch")})
    assert results.attempted and not results.failed
