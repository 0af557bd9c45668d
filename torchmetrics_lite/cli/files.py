"""Reading TREC qrels and run files into numpy arrays for the command line (numpy alone, no torch).

A file is read whole (``-`` is standard input, a name ending in ``.gz`` is gunzipped) into one buffer, then
split into fields and converted a chunk of lines at a time with array operations on its bytes
(:mod:`~torchmetrics_lite.cli.parse`): ids become keys that compare as their bytes, numbers are read exactly
(the plain decimals from the bytes, the rest by NumPy). Every malformed line is reported as ``file:line``;
errors are :class:`CliError` with exit code 1.
"""
from __future__ import annotations

import math
import sys
from typing import List, NamedTuple, Sequence, Tuple

import numpy as np

from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.ids import Vocab
from torchmetrics_lite.cli.parse import (
    Text,
    decimals,
    fields,
    find,
    id_keys,
    padded,
    per_line,
    read_file,
    regular,
    tobytes,
    u64_to_bytes,
)


def read_text(path: str) -> Text:
    """The bytes of ``path`` (``-``: standard input; ``.gz``: decompressed) in a padded buffer, without a UTF-8
    byte order mark; text that is not UTF-8, or holds a NUL byte, is reported."""
    try:
        if path == "-":
            text = padded(sys.stdin.buffer.read())
        else:
            with open(path, "rb") as f:
                text = padded(_gunzip(f.read())) if path.endswith(".gz") else read_file(f)
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    except EOFError:
        raise CliError(f"cannot read {path}: truncated gzip file") from None
    if text.arr[text.lo:text.lo + 3].tobytes() == b"\xef\xbb\xbf":
        text = text._replace(lo=text.lo + 3)
    block = text.arr[text.lo:text.hi]
    if block.size and block.min() == 0:  # a key would not tell 'a' from 'a\0'
        raise CliError(f"cannot read {path}: not a text file (a NUL byte at byte {find(text, 0, text.lo) - text.lo})")
    if block.size and block.max() >= 128:
        decode(path, tobytes(text))  # reports the first byte that is not UTF-8
    return text


def _gunzip(data: bytes) -> bytes:
    import gzip

    return gzip.decompress(data)


def read_bytes(path: str) -> bytes:
    """The bytes of ``path`` as :func:`read_text` reads them."""
    return tobytes(read_text(path))


def decode(path: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CliError(f"cannot read {path}: not UTF-8 text (byte {e.start})") from None


class Column(NamedTuple):
    field: int  # its place on the line (0-based)
    kind: str  # "id" (a key ordered as the bytes, see id_keys), "int" or "float"
    what: str  # its name in messages


class Table(NamedTuple):
    path: str
    columns: List[np.ndarray]  # the wanted columns: id keys (uint64 or S{w}), int64 or float64 values
    lines: np.ndarray  # (rows,) 1-based line number of each row


_CHUNK = 1 << 20  # bytes split at once: its arrays stay in cache (a whole file's fields: several times its size)


def _chunks(text: Text) -> List[Tuple[int, int]]:
    """``(start, stop)`` byte ranges of about ``_CHUNK`` bytes that end after a line break (or at the end)."""
    out, start = [], text.lo
    while start < text.hi:
        stop = find(text, 10, min(start + _CHUNK, text.hi) - 1) + 1 or text.hi
        out.append((start, stop))
        start = stop
    return out


def read_table(path: str, expected: Sequence[int], layout: str, wanted: Sequence[Column]) -> Table:
    """Columns ``wanted`` of ``path``: every non-blank line must have the same count of fields, one of
    ``expected``. The file is split into fields, and the wanted ones converted, a chunk at a time."""
    text = read_text(path)
    parts: List[List[np.ndarray]] = [[] for _ in wanted]
    lines: List[np.ndarray] = []
    width, first_line, line0 = 0, 0, 0
    for lo, hi in _chunks(text):
        f = fields(text, lo, hi)
        if width and regular(f, width):  # the common case: no blank line, no line to report
            rows = np.arange(line0 + 1, line0 + 1 + f.line_end.size)
        else:
            counts = per_line(f)
            rows = np.flatnonzero(counts)
            if rows.size and not width:
                width, first_line = int(counts[rows[0]]), line0 + int(rows[0]) + 1
                if width not in expected:
                    raise CliError(f"{path}:{first_line}: expected {' or '.join(map(str, expected))} fields "
                                   f"'{layout}', got {width}")
            bad = rows[counts.take(rows) != width]
            if bad.size:
                raise CliError(f"{path}:{line0 + bad[0] + 1}: expected {' or '.join(map(str, expected))} fields "
                               f"'{layout}', got {int(counts[bad[0]])} (line {first_line} has {width})")
            rows += line0 + 1
        for column, part in zip(wanted if width else (), parts):
            part.append(_convert(text, f.start[column.field::width], f.end[column.field::width], column, path, rows))
        lines.append(rows)
        line0 += f.line_end.size
    if not width:
        raise CliError(f"{path}: the file is empty (expected lines '{layout}')")
    return Table(path, [_concat(part, c.kind) for part, c in zip(parts, wanted)], np.concatenate(lines))


def _convert(text: Text, start: np.ndarray, end: np.ndarray, column: Column, path: str,
             lines: np.ndarray) -> np.ndarray:
    """The fields ``start:end`` (of the rows on ``lines``) as ``column.kind`` says."""
    if column.kind == "id":
        return id_keys(text, start, end)
    values, ok = decimals(text, start, end, integral=column.kind == "int")
    slow = np.flatnonzero(~ok)
    if slow.size:  # exponents, long mantissas, nan...: NumPy reads them
        raw = id_keys(text, start.take(slow), end.take(slow))
        values[slow] = _slow_numbers(u64_to_bytes(raw) if raw.dtype == np.uint64 else raw, column,
                                     path, lines.take(slow))
    return values


def _concat(parts: List[np.ndarray], kind: str) -> np.ndarray:
    if kind != "id" or all(p.dtype == np.uint64 for p in parts):
        return np.concatenate(parts)
    parts = [u64_to_bytes(p) if p.dtype == np.uint64 else p for p in parts]  # some id is longer than 8 bytes
    return np.concatenate([p.astype(f"S{max(q.dtype.itemsize for q in parts)}") for p in parts])


def _slow_numbers(raw: np.ndarray, column: Column, path: str, lines: np.ndarray) -> np.ndarray:
    """int64 or float64 values of the bytes ``raw`` (S{w}); the first that is not a number is reported."""
    integral = column.kind == "int"
    try:
        values = raw.astype(np.int64 if integral else np.float64)
        if integral or not np.isnan(values).any():
            return values
    except (ValueError, OverflowError):
        pass
    for line, token in zip(lines.tolist(), raw.tolist()):
        try:
            value = int(token) if integral else float(token)
            problem = "out of range" if integral and not -2**63 <= value < 2**63 else "not a number" * math.isnan(value)
        except (ValueError, OverflowError):
            problem = "not an integer" if integral else "not a number"
        if problem:
            raise CliError(f"{path}:{line}: {column.what} {token.decode('utf-8', 'replace')!r} is {problem}")
    raise CliError(f"{path}: {column.what}: a value out of range")  # pragma: no cover


class Qrels(NamedTuple):
    path: str
    lines: np.ndarray  # 1-based line of each row
    q: int  # the part of the query Vocab holding its query ids
    doc: int  # the part of the document Vocab
    rel: np.ndarray  # int64


class Run(NamedTuple):
    path: str
    lines: np.ndarray
    q: int
    doc: int
    score: np.ndarray  # float64


_QRELS = (Column(0, "id", "query id"), Column(2, "id", "document id"), Column(3, "int", "relevance"))
_RUN = (Column(0, "id", "query id"), Column(2, "id", "document id"), Column(4, "float", "score"))


def read_qrels(path: str, queries: Vocab, docs: Vocab) -> Qrels:
    """TREC qrels, lines ``qid iter docid rel`` (integer relevance); ids go to the vocabularies."""
    t = read_table(path, (4,), "qid iter docid rel", _QRELS)
    return Qrels(path, t.lines, queries.add(t.columns[0]), docs.add(t.columns[1]), t.columns[2])


def read_run(path: str, queries: Vocab, docs: Vocab) -> Run:
    """TREC run, lines ``qid Q0 docid rank score tag`` or, without the tag, ``qid Q0 docid rank score``; the rank
    column is ignored (the score orders)."""
    t = read_table(path, (6, 5), "qid Q0 docid rank score [tag]", _RUN)
    return Run(path, t.lines, queries.add(t.columns[0]), docs.add(t.columns[1]), t.columns[2])
