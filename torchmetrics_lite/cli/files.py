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
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from torchmetrics_lite.cli import long_ids
from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.ids import Vocab
from torchmetrics_lite.cli.parse import (
    Fields,
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
    columns: List[Any]  # the wanted columns: id keys (uint64, S{w} or LongIds), int64 or float64 values
    lines: np.ndarray  # (rows,) 1-based line number of each row
    last_tag: str  # field 5 (the run tag) of the last row, "" when it has none


class Shape(NamedTuple):
    """The fields a file's lines may hold: ``ranges`` of counts (``(low, high)``, ``high`` None: no limit); the
    first data line picks the range every line must fall in; ``expected`` says it in messages."""

    ranges: Tuple[Tuple[int, Optional[int]], ...]
    expected: str


_CHUNK = 1 << 20  # bytes split at once: its arrays stay in cache (a whole file's fields: several times its size)
_HASH = 35  # '#': a line whose first field starts with it is a comment (trec_eval 10.0)


def _chunks(text: Text) -> List[Tuple[int, int]]:
    """``(start, stop)`` byte ranges of about ``_CHUNK`` bytes that end after a line break (or at the end)."""
    out, start = [], text.lo
    while start < text.hi:
        stop = find(text, 10, min(start + _CHUNK, text.hi) - 1) + 1 or text.hi
        out.append((start, stop))
        start = stop
    return out


def _within(counts: np.ndarray, bounds: Tuple[int, Optional[int]]) -> np.ndarray:
    low, high = bounds
    return (counts >= low) & (counts <= (high if high is not None else np.iinfo(np.int64).max))


def _data_rows(text: Text, f: Fields) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, counts, first)``: the lines (0-based within the block) that hold data (not blank, not a
    comment), their field counts and the index of their first field."""
    counts = per_line(f)
    first = np.cumsum(counts) - counts
    rows = np.flatnonzero(counts)
    rows = rows[text.arr[f.start.take(first.take(rows))] != _HASH]
    return rows, counts.take(rows), first.take(rows)


def read_table(path: str, shape: Shape, layout: str, wanted: Sequence[Column], tag_field: int = -1) -> Table:
    """Columns ``wanted`` of ``path``: blank lines and ``#`` comment lines are skipped, the other lines hold as
    many fields as ``shape`` allows (fields past the wanted ones are ignored). The file is split into fields,
    and the wanted ones converted, a chunk at a time."""
    text = read_text(path)
    parts: List[List[np.ndarray]] = [[] for _ in wanted]
    lines: List[np.ndarray] = []
    width, first_line, line0, last_tag = 0, 0, 0, ""
    bounds: Tuple[int, Optional[int]] = (0, None)
    for lo, hi in _chunks(text):
        f = fields(text, lo, hi)
        if width and regular(f, width) and not (text.arr[f.start[::width]] == _HASH).any():
            rows, first = np.arange(line0 + 1, line0 + 1 + f.line_end.size), np.arange(0, f.start.size, width)
            last_count = width
        else:
            rows, counts, first = _data_rows(text, f)
            if rows.size and not width:
                width, first_line = int(counts[0]), line0 + int(rows[0]) + 1
                bounds = next((r for r in shape.ranges if _within(counts[:1], r)[0]), (0, None))
                if bounds == (0, None):
                    raise CliError(f"{path}:{first_line}: expected {shape.expected} fields '{layout}', got {width}")
            bad = np.flatnonzero(~_within(counts, bounds))
            if bad.size:
                raise CliError(f"{path}:{line0 + rows[bad[0]] + 1}: expected {shape.expected} fields '{layout}', "
                               f"got {int(counts[bad[0]])} (line {first_line} has {width})")
            rows = rows + (line0 + 1)
            last_count = int(counts[-1]) if counts.size else 0
        for column, part in zip(wanted if width else (), parts):
            at = first + column.field
            part.append(_convert(text, f.start.take(at), f.end.take(at), column, path, rows))
        if rows.size and 0 <= tag_field < last_count:
            tag = int(first[-1]) + tag_field
            last_tag = text.arr[f.start[tag]:f.end[tag]].tobytes().decode("utf-8", "replace")
        lines.append(rows)
        line0 += f.line_end.size
    if not width:
        raise CliError(f"{path}: the file is empty (expected lines '{layout}')")
    return Table(path, [_concat(part, c.kind) for part, c in zip(parts, wanted)], np.concatenate(lines), last_tag)


def _convert(text: Text, start: np.ndarray, end: np.ndarray, column: Column, path: str,
             lines: np.ndarray) -> Any:
    """The fields ``start:end`` (of the rows on ``lines``) as ``column.kind`` says."""
    if column.kind == "id":
        return id_keys(text, start, end)
    values, ok = decimals(text, start, end, integral=column.kind == "int")
    slow = np.flatnonzero(~ok)
    if slow.size:  # exponents, long mantissas, nan...: NumPy reads them
        raw = id_keys(text, start.take(slow), end.take(slow))
        values[slow] = _slow_numbers(u64_to_bytes(raw) if isinstance(raw, np.ndarray) and raw.dtype == np.uint64
                                     else raw, column, path, lines.take(slow))
    return values


def _concat(parts: List[Any], kind: str) -> Any:
    return long_ids.concat(parts) if kind == "id" else np.concatenate(parts)


def _slow_numbers(raw: Any, column: Column, path: str, lines: np.ndarray) -> np.ndarray:
    """int64 or float64 values of the bytes ``raw`` (``S{w}`` keys, or ``LongIds`` where one field is far longer
    than the others: each read by Python); the first that is not a number is reported. As C's ``atof`` (trec_eval
    reads scores so), a number beyond the float64 range is ``inf`` (``1e309``), silently."""
    integral = column.kind == "int"
    try:
        with np.errstate(over="ignore"):  # 1e309 -> inf, without NumPy's "overflow encountered in cast"
            values = raw.astype(np.int64 if integral else np.float64) if isinstance(raw, np.ndarray) else \
                np.array([int(t) if integral else float(t) for t in raw.tolist()],
                         dtype=np.int64 if integral else np.float64)
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
    tag: str = ""  # the run tag of the last line


QRELS_SHAPE = Shape(((4, 4),), "4")
RUN_SHAPE = Shape(((6, None), (5, 5)), "6 or more (or 5, without the tag)")
TREC_EVAL_RUN_SHAPE = Shape(((6, None),), "6 or more")
_QRELS = (Column(0, "id", "query id"), Column(2, "id", "document id"), Column(3, "int", "relevance"))
_RUN = (Column(0, "id", "query id"), Column(2, "id", "document id"), Column(4, "float", "score"))


def read_qrels(path: str, queries: Vocab, docs: Vocab) -> Qrels:
    """TREC qrels, lines ``qid iter docid rel`` (integer relevance); ids go to the vocabularies."""
    t = read_table(path, QRELS_SHAPE, "qid iter docid rel", _QRELS)
    return Qrels(path, t.lines, queries.add(t.columns[0]), docs.add(t.columns[1]), t.columns[2])


def read_run(path: str, queries: Vocab, docs: Vocab, shape: Optional[Shape] = None) -> Run:
    """TREC run, lines ``qid Q0 docid rank score tag`` (fields after the tag are ignored) or, without the tag,
    ``qid Q0 docid rank score`` (``shape``: :data:`RUN_SHAPE`, or :data:`TREC_EVAL_RUN_SHAPE` that needs the
    tag); the rank column is ignored (the score orders). ``Run.tag`` is the tag of the last line (trec_eval's
    ``runid``)."""
    t = read_table(path, shape or RUN_SHAPE, "qid Q0 docid rank score tag", _RUN, tag_field=5)
    return Run(path, t.lines, queries.add(t.columns[0]), docs.add(t.columns[1]), t.columns[2], t.last_tag)
