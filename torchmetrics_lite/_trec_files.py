"""Reading TREC qrels and run files into numpy arrays for the command line (numpy alone, no torch).

A file is read whole (``-`` is standard input, a name ending in ``.gz`` is gunzipped), its fields counted per
line with a few array operations on the bytes (so every malformed line is reported as ``file:line``), then split
once. Errors are :class:`CliError` with exit code 1.
"""
from __future__ import annotations

import gzip
import math
import sys
from typing import List, NamedTuple, Sequence

import numpy as np

EXIT_DATA, EXIT_USAGE = 1, 2


class CliError(Exception):
    """An error reported to the user as ``tml-eval: error: <message>`` with exit code ``code``."""

    def __init__(self, message: str, code: int = EXIT_DATA) -> None:
        super().__init__(message)
        self.code = code


def read_bytes(path: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input; ``.gz``: decompressed), without a UTF-8 byte order mark."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
        if path.endswith(".gz"):
            data = gzip.decompress(data)
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    except EOFError:
        raise CliError(f"cannot read {path}: truncated gzip file") from None
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def decode(path: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CliError(f"cannot read {path}: not UTF-8 text (byte {e.start})") from None


_SPACE = np.zeros(256, dtype=np.bool_)
_SPACE[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = True  # the ASCII characters str.split() separates on


def fields_per_line(data: bytes) -> np.ndarray:
    """Number of whitespace-separated fields on each line (0 for a blank line), as ``str.split`` counts them for
    ASCII whitespace (a line break is ``\\n``)."""
    arr = np.frombuffer(data, dtype=np.uint8)
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    space = _SPACE.take(arr)
    starts = np.flatnonzero(space[:-1] & ~space[1:]) + 1
    if not space[0]:
        starts = np.concatenate([[0], starts])
    ends = np.flatnonzero(arr == 10)
    if arr[-1] != 10:
        ends = np.concatenate([ends, [arr.size]])
    return np.diff(np.searchsorted(starts, ends), prepend=0)


class Table(NamedTuple):
    columns: List[List[str]]  # one list of strings per column
    lines: np.ndarray  # (rows,) 1-based line number of each row


def read_table(path: str, expected: Sequence[int], layout: str) -> Table:
    """Rows of ``path`` with one of the ``expected`` field counts (the same on every non-blank line)."""
    data = read_bytes(path)
    text = decode(path, data)
    tokens = text.split()
    counts = fields_per_line(data)
    if int(counts.sum()) != len(tokens):  # non-ASCII whitespace (no-break space ...): count line by line
        counts = np.array([len(line.split()) for line in text.split("\n")], dtype=np.int64)
    rows = np.flatnonzero(counts)
    if rows.size == 0:
        raise CliError(f"{path}: the file is empty (expected lines '{layout}')")
    width = int(counts[rows[0]])
    bad = rows[counts.take(rows) != width] if width in expected else rows[:1]
    if bad.size:
        got = int(counts[bad[0]])
        raise CliError(f"{path}:{bad[0] + 1}: expected {' or '.join(map(str, expected))} fields '{layout}', got {got}"
                       + ("" if width not in expected else f" (line {rows[0] + 1} has {width})"))
    return Table([tokens[c::width] for c in range(width)], rows + 1)


def parse_numbers(path: str, table: Table, column: int, what: str, integral: bool) -> np.ndarray:
    """float64 (or int64) values of one column; the first bad value is reported with its line."""
    raw = table.columns[column]
    try:
        values = np.array(raw, dtype=np.int64 if integral else np.float64)
    except (ValueError, OverflowError):
        values = None
    if values is not None and (integral or not np.isnan(values).any()):
        return values
    for i, token in enumerate(raw):
        try:
            value = int(token) if integral else float(token)
        except ValueError:
            value = math.nan
        if math.isnan(value):
            kind = "an integer" if integral else "a number"
            raise CliError(f"{path}:{table.lines[i]}: {what} {token!r} is not {kind}")
    raise CliError(f"{path}: {what}: values out of range")  # pragma: no cover - int64 overflow


class Qrels(NamedTuple):
    qid: List[str]
    doc: List[str]
    rel: np.ndarray  # int64


class Run(NamedTuple):
    qid: List[str]
    doc: List[str]
    score: np.ndarray  # float64


def _check_unique(path: str, table: Table, qid: List[str], doc: List[str], what: str) -> None:
    pairs = list(zip(qid, doc))
    if len(set(pairs)) == len(pairs):
        return
    seen = set()
    for i, pair in enumerate(pairs):
        if pair in seen:
            raise CliError(f"{path}:{table.lines[i]}: document {pair[1]!r} is {what} twice for query {pair[0]!r}")
        seen.add(pair)


def read_qrels(path: str) -> Qrels:
    """TREC qrels, lines ``qid iter docid rel`` (integer relevance)."""
    table = read_table(path, (4,), "qid iter docid rel")
    rel = parse_numbers(path, table, 3, "relevance", integral=True)
    _check_unique(path, table, table.columns[0], table.columns[2], "judged")
    return Qrels(table.columns[0], table.columns[2], rel)


def read_run(path: str) -> Run:
    """TREC run, lines ``qid Q0 docid rank score tag`` or, without the tag, ``qid Q0 docid rank score``; the rank
    column is ignored (the score orders)."""
    table = read_table(path, (6, 5), "qid Q0 docid rank score [tag]")
    score = parse_numbers(path, table, 4, "score", integral=False)
    _check_unique(path, table, table.columns[0], table.columns[2], "retrieved")
    return Run(table.columns[0], table.columns[2], score)
