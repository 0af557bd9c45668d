"""Fenced code blocks of the project's Markdown pages (README.md, ``docs/**/*.md``, ARCHITECTURE.md), for the
tests that run them (``tests/test_doc_pages.py``; ARCHITECTURE.md's worked examples: ``tests/test_docs.py``).

Rule for authors: a block fenced as ```python runs in the tests, on its own, in a temporary working directory
(no network, no data of yours, fast: the test extra's packages only); a sketch that needs your model or data is
fenced as ```py and is not run.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parent.parent.parent
_FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks(page: str, language: str) -> List[Tuple[int, str]]:
    """``(line number, code)`` of every block of ``page`` (a path relative to the repository) fenced as
    ``language``."""
    text = (ROOT / page).read_text()
    return [(text[: m.start()].count("\n") + 1, m.group(2)) for m in _FENCE.finditer(text) if m.group(1) == language]
