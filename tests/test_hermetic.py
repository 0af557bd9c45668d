"""The guard of ``tests/helpers/hermetic.py`` is on for the whole suite and rejects a read beside the clone (where CI
once kept trec_eval's test files), while the repository, ``tmp_path`` and Python's own files stay readable."""
import pytest

from tests.helpers import hermetic
from tests.helpers.hermetic import ROOT, OutsideRead


@pytest.mark.parametrize("path", [ROOT.parent / "shared" / "trec_eval_tests" / "qrels.test",
                                  ROOT.parent / "data.csv", "/srv/data/x.txt"])
def test_a_read_outside_the_repository_fails(path):
    with pytest.raises(OutsideRead, match="tests read only files in the repository"):
        open(path, "rb")
    with pytest.raises(OutsideRead):
        path.read_bytes() if hasattr(path, "read_bytes") else open(path, "rb", buffering=0)
    assert hermetic.take_violations()  # remembered even when caught (and forgotten here, or this test would fail)


def test_the_repository_temporary_folders_and_python_stay_readable(tmp_path):
    import json

    assert (ROOT / "pyproject.toml").read_text().startswith("[build-system]")
    (tmp_path / "x").write_text("1")
    assert (tmp_path / "x").read_text() == "1"
    assert open(json.__file__).read(1)  # the standard library
    assert hermetic.allowed(str(ROOT.parent / ".cache" / "matplotlib" / "fontlist.json"))
    assert not hermetic.allowed(str(ROOT) + "-other" + "/x")  # a sibling whose name starts with the repository's
    assert not hermetic.take_violations()


def test_a_clone_in_the_temporary_folder_still_reads_the_temporary_files(monkeypatch):
    """CI may clone straight into ``/tmp``: then ``/tmp/shared`` is beside the clone, while the temporary files
    that tempfile, pytest, torch's process spawning and its compiler's cache make there are not."""
    import tempfile
    from pathlib import Path

    temp = Path(tempfile.gettempdir())
    monkeypatch.setattr(hermetic, "ROOT", temp / "clone")
    assert hermetic._beside_the_clone(str(temp / "shared" / "qrels.test"))
    for name in ("tmpab12cd", "pytest-of-root", "pytorch-errorfile-i44xw2jl.pickle",
                 "torchinductor_root/locks/c73ehsvu.lock"):
        assert not hermetic._beside_the_clone(str(temp / name)), name
