"""The README's promises hold: the values its front-page comments state are the printed ones, CI runs its test
command, and its commands and links exist. Its ``python`` blocks run in ``tests/test_doc_pages.py``, with the docs
pages' blocks (the rule: ``tests/helpers/markdown.py``).
"""
import os
import re

from tests.helpers.markdown import ROOT, blocks

README = (ROOT / "README.md").read_text()
PYTHON_BLOCKS = blocks("README.md", "python")


def test_the_front_page_example_is_runnable_and_shows_what_it_promises():
    assert PYTHON_BLOCKS, "the fence pattern no longer finds the README's python block"
    _, first = PYTHON_BLOCKS[0]
    lines = [line for line in first.strip().splitlines() if line.strip()]
    assert len(lines) <= 16  # the imports and about ten lines
    for needed in ("binary_auroc(", "MetricCollection(", "indexes=", "losses."):
        assert needed in first, f"the first example should show {needed}"


def test_front_page_prints_the_values_its_comments_state(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    exec(compile(PYTHON_BLOCKS[0][1], "README.md", "exec"), {"__name__": "__readme__"})
    printed = capsys.readouterr().out
    comments = [line.split("#", 1)[1].strip() for line in PYTHON_BLOCKS[0][1].splitlines()
                if line.startswith("print(") and "#" in line]
    assert len(comments) >= 3
    for comment in comments:
        shown = _leading_value(comment)
        assert shown, f"the comment {comment!r} should start with the printed value (tensor(...) or {{...}})"
        assert shown in printed.splitlines(), f"the README's comment shows {shown}, the code printed {printed}"
    values = [v for c in comments for v in re.findall(r"\d+\.\d{4}", c)]
    assert len(values) >= 3


def _leading_value(comment):
    """The bracketed value a comment starts with (``tensor(0.8125, dtype=torch.float64)``, ``{...}``), or ''."""
    match = re.match(r"(tensor\(|\{)", comment)
    if not match:
        return ""
    depth = 0
    for i, char in enumerate(comment):
        depth += char in "({["
        depth -= char in ")}]"
        if depth == 0 and i >= len(match.group(1)) - 1:
            return comment[: i + 1]
    return ""


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


def test_readme_links_to_files_that_exist():
    for target in re.findall(r"\]\(([^)#:]+)\)", README):
        assert os.path.exists(ROOT / target), f"README links to a missing file: {target}"
