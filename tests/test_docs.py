"""Every public name is on a page of the Sphinx docs (``docs/``), so a new metric cannot ship undocumented; the
worked examples of ARCHITECTURE.md run, with their doctests and tests.

The build itself (``python -m sphinx -W --keep-going -b html docs OUT``) runs in ``.ci/run``; this test needs no
Sphinx: it reads the pages' ``automodule``/``autoclass``/``autofunction`` directives and checks that they cover
``torchmetrics_lite.__all__``, ``torchmetrics_lite.functional.__all__`` and ``losses.__all__``.
"""
import doctest
import importlib
import inspect
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


# ------------------------------------------------------------------------------------- one docstring mechanism
PACKAGE = pathlib.Path(torchmetrics_lite.__file__).resolve().parent
#: the only files that may write a ``__doc__``: the mechanism, and the task factories, whose docstrings are built
#: from the TASKS table because the factories themselves are built from it (no source docstring to fill)
DOC_WRITERS = {"_docs.py", "tasks.py", "functional/tasks.py"}
DOC_WRITE = re.compile(r"__doc__\s*=[^=]|[\"']__doc__[\"']\s*:|__doc__\.replace|=\s*fill_doc\s*(#|$)", re.MULTILINE)
#: an unfilled placeholder: ``{name}`` not part of a LaTeX group (``s_{ij}``, ``\frac{a}{b}``) or a set (``#{x}``)
UNFILLED = re.compile(r"(?<![\w\\^_$#{}])\{([a-z][a-z0-9_]*)\}")
ARG_HEAD = re.compile(r"^(?P<indent> +)(?P<names>\*{0,2}\w+(?:, \*{0,2}\w+)*)(?: \([^)]*\))?:(?: |$)")


def _public_objects():
    from torchmetrics_lite import functional
    found = {}
    for package in (torchmetrics_lite, functional, losses):
        for name in package.__all__:
            obj = getattr(package, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


PUBLIC = _public_objects()


def _section_names(doc, titles=("Args:", "Attributes:")):
    """The names an ``Args:`` (or ``Attributes:``) section lists: each entry at the section's first indentation,
    ``name: text`` or ``a, b: text``; ``None`` when the docstring has no such section."""
    names, inside, indent = None, False, None
    for line in doc.splitlines():
        if line.strip() in titles:
            names, inside, indent = names or set(), True, None
            continue
        if not inside or not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        indent = depth if indent is None else indent
        if depth < indent:
            inside = False
        elif depth == indent and (match := ARG_HEAD.match(line)):
            names.update(n.lstrip("*") for n in match.group("names").split(", "))
    return names


def _parameters(obj):
    target = obj.__init__ if inspect.isclass(obj) else obj
    skip = set(getattr(obj, "not_offered", ())) | {"self"}
    return [p.name for p in inspect.signature(target).parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name not in skip]


def test_one_docstring_mechanism():
    writers = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                     if str(path.relative_to(PACKAGE)) not in DOC_WRITERS and DOC_WRITE.search(path.read_text()))
    assert not writers, (f"{writers} write docstrings themselves: fill them with torchmetrics_lite._docs.fill_doc "
                         f"(register shared text with register(), pass per-function words as fill_doc(name=...))")


def test_the_mechanism_check_sees_a_second_mechanism():
    # guards the test above: each way the package used to template docstrings is caught
    for source in ('fn.__doc__ = doc.replace("{sections}", text)', 'cls.__doc__ = _DOC.format(name=name)',
                   '{"__doc__": text}', "shared_docs = fill_doc  # alias", "obj.__doc__.replace('{args}', A)"):
        assert DOC_WRITE.search(source), source
    assert not DOC_WRITE.search("if fn.__doc__ == other.__doc__:")


def test_no_rendered_docstring_keeps_a_placeholder():
    from torchmetrics_lite._docs import DOCS
    left = {}
    for name, obj in PUBLIC.items():
        for line in (obj.__doc__ or "").splitlines():
            text = line.strip()
            if text.startswith((">>>", "...")):
                continue
            found = set(UNFILLED.findall(text)) | {key for key in DOCS if "{" + key + "}" in text}
            if found:
                left.setdefault(name, set()).update(found)
    assert not left, f"unfilled docstring placeholders (a family's entries not registered, or a typo): {left}"
    assert UNFILLED.findall("Args:\n    {preds_binary}") == ["preds_binary"]
    assert not UNFILLED.findall(r"``#{samples}``, :math:`\sum_{j} s_{ij}`, ``{0, 1}``, \frac{rel_i}{2}")


def test_args_sections_name_every_parameter():
    """Each public function's ``Args:`` names every parameter of its signature (``*args``/``**kwargs`` aside);
    a class's does too (its ``__init__``'s, less what it does not offer) unless it has no ``Args:`` and says whose
    arguments it takes (``Arguments as :class:`RunningMean```)."""
    missing = {}
    for name, obj in PUBLIC.items():
        doc = obj.__doc__ or ""
        listed = _section_names(doc)
        if listed is None and inspect.isclass(obj) and re.search(r"Arguments[^.]*? as\s+:class:`", doc):
            continue
        absent = [p for p in _parameters(obj) if p not in (listed or set())]
        if absent:
            missing[name] = absent
    assert not missing, f"parameters missing from the Args section: {missing}"
    assert _section_names("S.\n\n    Args:\n        a, b: x.\n            c: not an entry\n        **kw: y.\n") == \
        {"a", "b", "kw"}


def test_fill_doc_rules():
    from torchmetrics_lite._docs import DOCS, fill_doc, register

    register(sections_test_docs="Returns:\n    the value at ``{constraint}``.")

    def f(min_recall, validate_args=True):
        """S.

        Args:
            min_recall: x.
            {validate_args}

        {sections_test_docs}

        Examples:
            >>> {"a": 1} == {'a': 1}  # doctest braces stay
        """

    doc = fill_doc(constraint="min_recall")(f).__doc__
    assert "            " + DOCS["validate_args"] in doc.splitlines()
    assert "        Returns:\n            the value at ``min_recall``." in doc
    assert '{"a": 1}' in doc and "{" not in doc.replace('{"a": 1}', "").replace("{'a': 1}", "")
    with pytest.raises(KeyError, match="typo_entry"):
        fill_doc(type("C", (), {"__doc__": "S.\n\n    Args:\n        {typo_entry}\n"}))
    with pytest.raises(ValueError, match=r"registered names \['validate_args'\]"):
        fill_doc(validate_args="x")
    with pytest.raises(ValueError, match="second text for 'validate_args'"):
        register(validate_args="validate_args: other text")
    register(nested_test_docs="{nested_test_docs}")
    with pytest.raises(ValueError, match="nested at most"):
        fill_doc(type("D", (), {"__doc__": "S.\n\n    {nested_test_docs}\n"}))


def test_docs_entries_are_named_after_their_argument():
    # the convention of torchmetrics_lite._docs: an argument's entry is {argument} or {argument_variant}
    from torchmetrics_lite._docs import DOCS
    for package in (torchmetrics_lite, torchmetrics_lite.functional):
        for name in package.__all__:
            getattr(package, name)  # every family registers its entries on import
    misnamed = {}
    for key, text in DOCS.items():
        argument = re.match(r"\**(\w+):", text)
        if argument and not key.startswith(("raises_", "returns_", "sections_")) and not (
                key == argument.group(1) or key.startswith(argument.group(1) + "_")):
            misnamed[key] = argument.group(1)
    assert not misnamed, f"docs entries not named after the argument they describe: {misnamed}"
    assert len(DOCS) > 50  # the families' entries were registered
