"""The wheel ships what users need: both packages with their ``py.typed`` marker (PEP 561: users' type checkers
then read the annotations CI checks with mypy), and none of the tests or their data. Built in-process from a copy
of the sources (about a second); ``.ci/run`` also installs a real ``pip wheel`` into a clean venv."""
import contextlib
import io
import shutil
import zipfile

from tests.helpers.markdown import ROOT

PACKAGES = ("torchmetrics_lite", "losses")


def test_the_wheel_ships_py_typed_for_both_packages(tmp_path, monkeypatch):
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tmp_path)
    for package in PACKAGES:
        assert (ROOT / package / "py.typed").is_file()
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(tmp_path)
    from setuptools import build_meta

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        wheel = build_meta.build_wheel(str(tmp_path / "dist"))
    names = zipfile.ZipFile(tmp_path / "dist" / wheel).namelist()
    assert {f"{package}/py.typed" for package in PACKAGES} <= set(names)
    assert {f"{package}/__init__.py" for package in PACKAGES} <= set(names)
    assert not [n for n in names if n.startswith(("tests/", "examples/", "benchmarks/"))]
