"""The suite reads nothing outside the repository: an audit hook (``sys.addaudithook``) sees every ``open`` (the
builtin, ``io``, ``os.open``, ``pathlib``, numpy, imports) and rejects a path that is not the repository's, a
temporary directory's (``tmp_path``), the Python installation's, a system directory's or a hidden (cache or
configuration) directory's of the home or of the folder that holds the clone.

A user's clone has nothing beside it, so data a test finds beside the clone in CI (``../shared``) fails the test
here too. A rejected path raises :class:`OutsideRead` and is remembered, so that a test that catches the error
still fails (the autouse fixture in ``tests/conftest.py`` reads :func:`take_violations` after each test).
Subprocesses a test starts are not watched.
"""
from __future__ import annotations

import os
import site
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parent.parent.parent
_SYSTEM = ("/dev", "/proc", "/sys", "/etc", "/usr", "/lib", "/lib64", "/bin", "/opt/conda", "/System", "/Library",
           "/private/etc", "/var/lib")  # OS and library files (fonts, locale, cpu info), never test data


class OutsideRead(PermissionError):
    """A test opened a file outside the repository."""


def _roots() -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    """(prefixes a test may open under, folders whose hidden children it may open under)."""
    allowed = {str(ROOT), tempfile.gettempdir(), os.path.realpath(tempfile.gettempdir()), sys.prefix,
               sys.base_prefix, sys.exec_prefix, *site.getsitepackages(), site.getusersitepackages(),
               *sysconfig.get_paths().values(), *_SYSTEM}
    allowed |= {os.environ[v] for v in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "MPLCONFIGDIR", "TORCH_HOME")
                if os.environ.get(v)}
    hidden_in = {os.path.expanduser("~"), str(ROOT.parent)}
    return tuple(p.rstrip(os.sep) for p in allowed if p), tuple(hidden_in)


_ALLOWED, _HIDDEN_IN = _roots()
#: names of the temporary files and folders tempfile (``tmp*``), pytest, torch's spawned process groups and its
#: compiler (``torchinductor_<user>``, inductor's cache and locks) make in the temporary folder
_TEMPORARY_NAMES = ("tmp", "pytest-of-", "pytorch-errorfile-", "torchinductor_")
_violations: List[str] = []


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder + os.sep)


def _beside_the_clone(path: str) -> bool:
    """A path in the folder that holds the clone, not in the clone, not hidden: what CI keeps beside the clone
    (``../shared``) and a user does not have. Checked before the temporary folders, since a clone may itself sit
    in one (``/tmp/ci/clone``); where the clone's folder *is* the temporary folder, only the names that ``tempfile``,
    pytest and torch give their temporary files (``tmp*``, ``pytest-of-*``, the ``pytorch-errorfile-*`` of every
    spawned process group, inductor's ``torchinductor_<user>`` cache) pass."""
    holder = str(ROOT.parent)
    if holder == os.sep or not path.startswith(holder + os.sep) or _under(path, str(ROOT)):
        return False
    child = path[len(holder) + 1:].split(os.sep, 1)[0]
    if child.startswith("."):
        return False
    temp = {tempfile.gettempdir().rstrip(os.sep), os.path.realpath(tempfile.gettempdir())}
    return not (holder in temp and child.startswith(_TEMPORARY_NAMES))


def allowed(path: str) -> bool:
    """Whether the suite may open ``path`` (absolute, normalised)."""
    if _beside_the_clone(path):
        return False
    if any(_under(path, p) for p in _ALLOWED):
        return True
    for folder in _HIDDEN_IN:
        if path.startswith(folder + os.sep) and path[len(folder) + 1:].startswith("."):
            return True
    return False


def _hook(event: str, args: tuple) -> None:
    if event != "open":
        return
    target = args[0]
    if isinstance(target, int) or target is None:  # an open file descriptor
        return
    path = os.path.abspath(os.fsdecode(target))
    if not allowed(path):
        _violations.append(path)
        raise OutsideRead(f"the tests read only files in the repository ({ROOT}) or their temporary folders; "
                          f"got a read of {path}: copy the file under tests/data/")


def install() -> None:
    """Watch every ``open`` of this process from now on (an audit hook cannot be removed)."""
    sys.addaudithook(_hook)


def take_violations() -> List[str]:
    """The rejected paths since the last call (and forget them)."""
    got = list(_violations)
    del _violations[:]
    return got
