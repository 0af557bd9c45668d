"""Every ``python`` code block of README.md and of every Markdown page under ``docs/`` runs (the rule:
``tests/helpers/markdown.py``), each in a temporary working directory, as a module of its own (so that the
classes it defines pickle); and the benchmark commands the pages name are the scripts ``benchmarks/`` holds.
A page added under ``docs/`` joins by itself.
"""
import re
import sys
import types

import pytest

from tests.helpers.markdown import ROOT, blocks

PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md")
                              if "_build" not in p.parts)]
BLOCKS = [(page, line, code) for page in PAGES for line, code in blocks(page, "python")]


def test_the_pages_and_their_blocks_are_found():
    # guards the parametrised test below against a glob or a fence pattern that silently finds nothing
    for page in ("docs/quickstart.md", "docs/torchmetrics.md", "docs/extending.md", "docs/losses.md"):
        assert page in PAGES, f"{page} is not collected"
        assert any(p == page for p, _, _ in BLOCKS), f"no python block found on {page}"
    assert any(p == "README.md" for p, _, _ in BLOCKS)  # the front page's ten lines


@pytest.mark.parametrize("page,line,code", BLOCKS, ids=[f"{page}:{line}" for page, line, _ in BLOCKS])
def test_python_block_runs(page, line, code, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # nothing a block writes lands in the repository
    name = "doc_block_" + re.sub(r"\W", "_", f"{page}_{line}")
    module = types.ModuleType(name)
    monkeypatch.setitem(sys.modules, name, module)
    exec(compile(code, f"{page}:{line}", "exec"), module.__dict__)


def test_benchmark_commands_use_python_dash_m_and_exist():
    scripts = {p.stem: p.read_text() for p in (ROOT / "benchmarks").glob("*.py") if not p.stem.startswith("_")}
    pages = {page: (ROOT / page).read_text() for page in PAGES}
    for name, text in [*pages.items(), *scripts.items()]:
        assert "python benchmarks/" not in text, f"{name}: benchmarks import their package, run them with python -m"
    for name, text in scripts.items():
        assert f"python -m benchmarks.{name}" in text, f"benchmarks/{name}.py: its docstring gives no usage line"
    table = set(re.findall(r"^\| `python -m benchmarks\.(\w+)", pages["docs/benchmarks.md"], re.MULTILINE))
    assert table == set(scripts), f"docs/benchmarks.md lists {sorted(table)}, benchmarks/ holds {sorted(scripts)}"
    named = {n for text in pages.values() for n in re.findall(r"python -m benchmarks\.(\w+)", text)}
    assert named <= set(scripts), f"the pages name scripts that do not exist: {sorted(named - set(scripts))}"


def test_relative_links_of_the_pages_reach_files():
    for page in PAGES:
        folder = (ROOT / page).parent
        for target in re.findall(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)", (ROOT / page).read_text()):
            assert (folder / target).exists(), f"{page} links to a missing file: {target}"
