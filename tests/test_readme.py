"""The README's promises hold: its ``python`` code blocks run (the rule: ``tests/helpers/markdown.py``), the
values its front-page comments state are the printed ones, CI runs its test command, and its commands exist.
"""
import os
import re

import pytest

from tests.helpers.markdown import ROOT, blocks

README = (ROOT / "README.md").read_text()
PYTHON_BLOCKS = blocks("README.md", "python")


def test_the_front_page_example_is_runnable_and_shows_what_it_promises():
    assert len(PYTHON_BLOCKS) >= 3, "the fence pattern no longer finds the README's python blocks"
    _, first = PYTHON_BLOCKS[0]
    lines = [line for line in first.strip().splitlines() if line.strip()]
    assert len(lines) <= 16  # the imports and about ten lines
    for needed in ("binary_auroc(", "MetricCollection(", "indexes=", "losses."):
        assert needed in first, f"the first example should show {needed}"


@pytest.mark.parametrize("line,code", PYTHON_BLOCKS, ids=[f"README.md:{n}" for n, _ in PYTHON_BLOCKS])
def test_python_block_runs(line, code, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # nothing a block writes lands in the repository
    exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "__readme__"})


def test_front_page_prints_the_values_its_comments_state(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    exec(compile(PYTHON_BLOCKS[0][1], "README.md", "exec"), {"__name__": "__readme__"})
    printed = capsys.readouterr().out
    comments = [line.split("#", 1)[1] for line in PYTHON_BLOCKS[0][1].splitlines() if "#" in line]
    values = [v for c in comments for v in re.findall(r"\d+\.\d{4}", c)]
    assert len(values) >= 3
    for comment_value in values:
        assert comment_value in printed, f"the README's comment says {comment_value}, the code printed {printed}"


def _commands():
    return [line.strip() for _, block in blocks("README.md", "bash") for line in block.splitlines() if line.strip()]


def test_ci_runs_exactly_the_readme_test_command():
    tests = [c for c in _commands() if c.endswith("python -m pytest -q")]
    assert len(tests) == 1, f"expected one test command in the README, got {tests}"
    ci = (ROOT / ".ci" / "run").read_text()
    assert tests[0] in ci, ".ci/run must run the README's test command verbatim"
    assert tests[0].startswith('pip install "torch==2.13.0" && pip install -e ".[test')


def test_the_demo_command_names_an_existing_script():
    demo = [c for c in _commands() if "examples/demo.py" in c]
    assert demo and (ROOT / "examples" / "demo.py").is_file()


def test_benchmark_commands_use_python_dash_m_and_exist():
    folder = ROOT / "benchmarks"
    scripts = {p.stem: p.read_text() for p in folder.glob("*.py") if not p.stem.startswith("_")}  # every script
    for name, text in [("README.md", README), *scripts.items()]:
        assert "python benchmarks/" not in text, f"{name}: benchmarks import their package, run them with python -m"
    for name, text in scripts.items():
        assert f"python -m benchmarks.{name}" in text, f"benchmarks/{name}.py: its docstring gives no usage line"
    in_readme = set(re.findall(r"python -m benchmarks\.(\w+)", README))
    assert in_readme == set(scripts), f"the README names {sorted(in_readme)}, benchmarks/ holds {sorted(scripts)}"


def test_readme_links_to_files_that_exist():
    for target in re.findall(r"\]\(([^)#:]+)\)", README):
        assert os.path.exists(ROOT / target), f"README links to a missing file: {target}"
