"""Reading TREC qrels and run files into numpy arrays for the command line (numpy alone, no torch).

A file is read whole (``-`` is standard input, a name ending in ``.gz`` is gunzipped), its fields counted per
line with a few array operations on the bytes (so every malformed line is reported as ``file:line``), then split
once. Errors are :class:`CliError` with exit code 1.
"""
from __future__ import annotations

import gzip
import math
import sys
from typing import List, NamedTuple, Sequence, Tuple

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


class Tokens(NamedTuple):
    """The whitespace-separated fields of a file, found with array operations on its bytes (no Python string
    per field)."""

    data: np.ndarray  # the file's bytes (uint8)
    start: np.ndarray  # (fields,) int64 first byte of each field
    length: np.ndarray  # (fields,) int64
    per_line: np.ndarray  # (lines,) fields on each line (0: blank)


def tokenize(data: bytes) -> Tokens:
    arr = np.frombuffer(data, dtype=np.uint8)
    space = np.empty(arr.size + 2, dtype=np.bool_)
    space[0] = space[-1] = True
    np.less_equal(arr - np.uint8(9), np.uint8(4), out=space[1:-1])  # tab .. carriage return (uint8 wraps below 9)
    space[1:-1] |= arr == 32
    edge = np.not_equal(space[:-1], space[1:])  # a field starts or ends between these bytes
    bounds = np.flatnonzero(edge).astype(np.int32 if arr.size < 2**31 else np.int64)
    del space, edge
    start, end = bounds[0::2], bounds[1::2]
    breaks = np.flatnonzero(arr == 10)
    if not breaks.size or breaks[-1] != arr.size - 1:
        breaks = np.concatenate([breaks, [arr.size]])
    per_line = np.diff(np.searchsorted(start, breaks), prepend=0) if arr.size else np.zeros(0, dtype=np.int64)
    return Tokens(arr, start, np.subtract(end, start), per_line)


def fixed_width(tokens: Tokens, index: np.ndarray) -> np.ndarray:
    """The fields ``index`` as a fixed-width bytes array (``S{w}``, zero padded: it compares as the bytes do)."""
    start, length = tokens.start.take(index), tokens.length.take(index)
    width = int(length.max(initial=1))
    mat = np.zeros((index.size, width), dtype=np.uint8)
    for j in range(width):  # byte j of every field at once (no (fields, width) index array: less memory)
        rows = np.flatnonzero(length > j)
        mat[rows, j] = tokens.data.take(start.take(rows) + j)
    return mat.view(f"S{width}").reshape(-1)


class Vocab:
    """Integer codes of ids (queries or documents) over several files, in byte order of the ids (so a code
    comparison is trec_eval's ``strcmp``): :meth:`add` the fields of each file, then :meth:`codes`."""

    def __init__(self) -> None:
        self.parts: List[np.ndarray] = []
        self.unique: np.ndarray = np.zeros(0, dtype="S1")

    def add(self, ids: np.ndarray) -> int:
        self.parts.append(ids)
        return len(self.parts) - 1

    def codes(self) -> List[np.ndarray]:
        width = max(p.dtype.itemsize for p in self.parts)
        joined = np.concatenate([p.astype(f"S{width}") for p in self.parts])
        if width <= 8:  # one big-endian 64-bit word per id: an integer sort, several times faster
            words = np.zeros((joined.size, 8), dtype=np.uint8)
            words[:, :width] = joined.view(np.uint8).reshape(-1, width)
            keys = words.view(">u8").reshape(-1).astype(np.uint64)
        else:
            keys = joined
        heads = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))  # runs of one id (grouped files)
        ordered = np.sort(keys.take(heads))
        unique = ordered[np.concatenate([[True], ordered[1:] != ordered[:-1]])] if ordered.size else ordered
        inverse = np.repeat(np.searchsorted(unique, keys.take(heads)), np.diff(np.append(heads, keys.size)))
        self.unique = unique.astype(">u8").view("S8") if width <= 8 else unique
        bounds = np.cumsum([0] + [p.size for p in self.parts])
        self.parts = []  # the bytes of every id are no longer needed
        return [inverse[a:b].astype(np.int64) for a, b in zip(bounds[:-1], bounds[1:])]

    def names(self, codes: np.ndarray) -> List[str]:
        return [x.decode("utf-8", "replace") for x in self.unique.take(codes).tolist()]


class Table(NamedTuple):
    path: str
    columns: List[np.ndarray]  # the wanted columns as fixed-width bytes arrays
    lines: np.ndarray  # (rows,) 1-based line number of each row


_CHUNK = 1 << 20  # bytes tokenized at once: the index arrays of a whole file would take several times its size


def _chunks(data: bytes) -> List[Tuple[int, int]]:
    """``(start, stop)`` byte ranges of about ``_CHUNK`` bytes that end after a line break (or at the end)."""
    out, start = [], 0
    while start < len(data):
        stop = data.find(b"\n", min(start + _CHUNK, len(data)) - 1) + 1 or len(data)
        out.append((start, stop))
        start = stop
    return out


def read_table(path: str, expected: Sequence[int], layout: str, wanted: Sequence[int]) -> Table:
    """Columns ``wanted`` of ``path``: every non-blank line must have the same count of fields, one of
    ``expected``. The file is tokenized a chunk at a time with array operations on its bytes."""
    data = read_bytes(path)
    if not data.isascii():
        decode(path, data)  # reports the first byte that is not UTF-8
    parts: List[List[np.ndarray]] = [[] for _ in wanted]
    lines: List[np.ndarray] = []
    width, first_line, line0 = 0, 0, 0
    for start, stop in _chunks(data):
        tokens = tokenize(data[start:stop])
        counts = tokens.per_line  # the chunk ends with a line break, or the file ends
        rows = np.flatnonzero(counts)
        if rows.size and not width:
            width, first_line = int(counts[rows[0]]), line0 + int(rows[0]) + 1
            if width not in expected:
                raise CliError(f"{path}:{first_line}: expected {' or '.join(map(str, expected))} fields '{layout}', "
                               f"got {width}")
        bad = rows[counts.take(rows) != width]
        if bad.size:
            raise CliError(f"{path}:{line0 + bad[0] + 1}: expected {' or '.join(map(str, expected))} fields "
                           f"'{layout}', got {int(counts[bad[0]])} (line {first_line} has {width})")
        for part, c in zip(parts, wanted if width else ()):
            part.append(fixed_width(tokens, np.arange(c, rows.size * width, width, dtype=np.int64)))
        lines.append(rows + line0 + 1)
        line0 += counts.size
    if not width:
        raise CliError(f"{path}: the file is empty (expected lines '{layout}')")
    columns = [np.concatenate([x.astype(f"S{max(y.dtype.itemsize for y in part)}") for x in part]) for part in parts]
    return Table(path, columns, np.concatenate(lines))


def numbers(table: Table, c: int, what: str, integral: bool) -> np.ndarray:
    """float64 (int64) values of the wanted column ``c``; the first value that is not one is reported with its
    line."""
    raw = table.columns[c]
    try:
        values = raw.astype(np.int64 if integral else np.float64)
        if integral or not np.isnan(values).any():
            return values
    except (ValueError, OverflowError):
        pass
    for i, token in enumerate(raw.tolist()):
        try:
            ok = not math.isnan(int(token) if integral else float(token))
        except (ValueError, OverflowError):
            ok = False
        if not ok:
            kind = "an integer" if integral else "a number"
            raise CliError(f"{table.path}:{table.lines[i]}: {what} {token.decode('utf-8', 'replace')!r} is not {kind}")
    raise CliError(f"{table.path}: {what}: a value out of range")  # pragma: no cover


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


def read_qrels(path: str, queries: Vocab, docs: Vocab) -> Qrels:
    """TREC qrels, lines ``qid iter docid rel`` (integer relevance); ids go to the vocabularies."""
    t = read_table(path, (4,), "qid iter docid rel", (0, 2, 3))
    rel = numbers(t, 2, "relevance", integral=True)
    return Qrels(path, t.lines, queries.add(t.columns[0]), docs.add(t.columns[1]), rel)


def read_run(path: str, queries: Vocab, docs: Vocab) -> Run:
    """TREC run, lines ``qid Q0 docid rank score tag`` or, without the tag, ``qid Q0 docid rank score``; the rank
    column is ignored (the score orders)."""
    t = read_table(path, (6, 5), "qid Q0 docid rank score [tag]", (0, 2, 4))
    score = numbers(t, 2, "score", integral=False)
    return Run(path, t.lines, queries.add(t.columns[0]), docs.add(t.columns[1]), score)


def check_unique(path: str, lines: np.ndarray, q: np.ndarray, doc: np.ndarray, what: str, queries: Vocab,
                 docs: Vocab) -> None:
    """No (query, document) pair twice: one packed sort; the first repeat is reported with its line."""
    key = (q << 32) | doc
    ordered = np.sort(key)
    if not (ordered[1:] == ordered[:-1]).any():
        return
    order = np.argsort(key, kind="stable")
    repeat = int(order[1:][key.take(order[1:]) == key.take(order[:-1])].min())
    raise CliError(f"{path}:{lines[repeat]}: document {docs.names(doc[repeat:repeat + 1])[0]!r} is "
                   f"{what} twice for query {queries.names(q[repeat:repeat + 1])[0]!r}")
