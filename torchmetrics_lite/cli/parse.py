"""The bytes of a whitespace-separated text file as numpy arrays: fields, id keys and exact decimal numbers.

Nothing here makes a Python object per field. A file's bytes sit in one buffer with :data:`PAD` zero bytes on
each side, so an 8-byte word can be read at any field (a strided ``uint64`` view of the buffer: one gather per
field). Whitespace is the bytes 9-13 and 32 (tab, line feed, vertical tab, form feed, carriage return, space);
lines end at line feeds, so CRLF files read as LF files.

* :func:`fields`: the first and last byte of every field and the end of every line, by comparing neighbouring
  bytes (whitespace or not) for a block of the file;
* :func:`id_keys`: each field's bytes as a key that compares as the bytes do (``strcmp``): one big-endian
  ``uint64`` when every field has at most 8 bytes (integer sorts), else fixed-width bytes ``S{8w}`` while the
  padding is bounded, else the bytes and offsets of :mod:`~torchmetrics_lite.cli.long_ids`;
* :func:`decimals`: exact float64 values of plain decimals (``-12.5``, ``7``, ``.25``, at most 16 bytes), the
  same double Python's ``float()`` gives, with a mask of the fields it could not read that way (exponents,
  long mantissas, ``nan``...), which the caller parses the slow way.
"""
from __future__ import annotations

import io
from typing import NamedTuple, Tuple, Union

import numpy as np

from torchmetrics_lite.cli.long_ids import LongIds, fits_fixed

PAD = 16  # zero bytes before and after the text

_U = np.uint64
_ONES = _U(0x0101010101010101)  # one 1 in each byte
_POW10 = np.array([10.0**i for i in range(23)])  # exact doubles
_INT10 = np.array([10**i for i in range(17)], dtype=np.uint64)


class Text(NamedTuple):
    """A file's bytes between :data:`PAD` zero bytes on each side; positions index ``arr`` (the text is
    ``arr[lo:hi]``)."""

    arr: np.ndarray  # uint8: PAD zero bytes, the file's bytes, PAD zero bytes (NumPy memory: huge pages)
    words: np.ndarray  # little-endian uint64 starting at each byte of arr (strided view, no copy)
    lo: int
    hi: int


def _buffer(size: int) -> np.ndarray:
    arr = np.empty(PAD + size + PAD, dtype=np.uint8)
    arr[:PAD] = arr[PAD + size:] = 0
    return arr


def padded(data: bytes) -> Text:
    """A :class:`Text` of ``data`` (copied once into the padded buffer)."""
    arr = _buffer(len(data))
    arr[PAD:PAD + len(data)] = np.frombuffer(data, dtype=np.uint8)
    return _text(arr, len(data))


def read_file(f: io.BufferedIOBase) -> Text:
    """The whole of an open binary file straight into a padded buffer (a regular file is read once, with no
    copy); other streams (pipes, standard input) are read, then copied."""
    import os
    import stat

    info = os.fstat(f.fileno())
    if not stat.S_ISREG(info.st_mode):
        return padded(f.read())
    size = info.st_size
    arr = _buffer(size)
    view, got = arr.data, 0
    while got < size:
        n = f.readinto(view[PAD + got:PAD + size])
        if not n:
            break
        got += n
    rest = f.read()  # the file changed after fstat
    if got < size or rest:
        return padded(arr[PAD:PAD + got].tobytes() + rest)
    return _text(arr, size)


def _text(arr: np.ndarray, size: int) -> Text:
    words = np.ndarray((arr.size - 7,), dtype="<u8", buffer=arr, strides=(1,))
    return Text(arr, words, PAD, PAD + size)


def tobytes(text: Text) -> bytes:
    return text.arr[text.lo:text.hi].tobytes()


def find(text: Text, byte: int, start: int) -> int:
    """The position of the first ``byte`` at or after ``start`` in the text, or -1 (searched a window at a
    time)."""
    width = 256
    while start < text.hi:
        hits = np.flatnonzero(text.arr[start:min(start + width, text.hi)] == byte)
        if hits.size:
            return start + int(hits[0])
        start, width = start + width, width * 4
    return -1


class Fields(NamedTuple):
    start: np.ndarray  # (fields,) int64 position of each field's first byte
    end: np.ndarray  # (fields,) one past its last byte
    line_end: np.ndarray  # (lines,) the line feed ending each line (or the end of the block)


def fields(text: Text, lo: int, hi: int) -> Fields:
    """The fields and lines of ``text.arr[lo:hi]`` (a block that ends with a line feed, or the text's end)."""
    block = text.arr[lo:hi]
    space = np.empty(block.size + 2, dtype=np.bool_)
    space[0] = space[-1] = True
    np.less_equal(block - np.uint8(9), np.uint8(4), out=space[1:-1])  # 9 .. 13 (uint8 wraps below 9)
    space[1:-1] |= block == 32
    bounds = np.flatnonzero(space[:-1] != space[1:])  # a field starts or ends between these bytes
    bounds += lo
    breaks = np.flatnonzero(block == 10)
    breaks += lo
    if not breaks.size or breaks[-1] != hi - 1:
        breaks = np.append(breaks, hi)
    return Fields(bounds[0::2], bounds[1::2], breaks)


def per_line(f: Fields) -> np.ndarray:
    """Fields on each line (0: blank)."""
    return np.diff(np.searchsorted(f.start, f.line_end), prepend=0)


def regular(f: Fields, width: int) -> bool:
    """Whether every line holds exactly ``width`` fields (so no line is blank), without counting line by line:
    ``width * lines`` fields where field ``width * i`` starts after line ``i - 1`` and field ``width * i + width
    - 1`` before the end of line ``i`` (the fields are in order, so each line holds at least ``width``)."""
    lines = f.line_end.size
    if f.start.size != width * lines:
        return False
    first, last = f.start[::width], f.start[width - 1::width]
    return bool((last < f.line_end).all() and (first[1:] > f.line_end[:-1]).all())


def id_keys(text: Text, start: np.ndarray, end: np.ndarray) -> Union[np.ndarray, LongIds]:
    """The bytes of each field as a key ordered as the bytes (a prefix first): one ``uint64`` (the bytes
    big-endian, zero padded) when every field has at most 8 bytes; else fixed-width bytes ``S{8w}`` (zero
    padded: NumPy orders them bytewise too) while that padding stays bounded (``long_ids.fits_fixed``); else
    (one long field among short ones) :class:`~torchmetrics_lite.cli.long_ids.LongIds`, the fields' bytes
    one after another: memory linear in the fields' bytes either way."""
    length = end - start
    longest = int(length.max(initial=0))
    if longest <= 8:
        keep = ~_U(0) << ((8 - length) * 8).astype(np.uint64)  # the field's bytes, now the high bytes
        return text.words[start].view(">u8").astype(np.uint64) & keep
    n_words = -(-longest // 8)
    if n_words > 16 or not fits_fixed(start.size, 8 * n_words, int(length.sum())):  # one gather, no loop of words
        ids = LongIds.gather(text.arr, start, end)
        return ids.fixed(8 * n_words) if fits_fixed(start.size, 8 * n_words, int(length.sum())) else ids
    out = np.empty((start.size, n_words), dtype="<u8")  # memory order: the bytes in text order
    for w in range(n_words):  # bytes 8w .. 8w + 7 of each field, the first one in the lowest bits
        left = np.clip(length - 8 * w, 0, 8).astype(np.uint64) * _U(8)  # bits of the field in this word
        keep = np.where(left == _U(64), ~_U(0), (_U(1) << np.minimum(left, _U(56))) - _U(1))
        out[:, w] = text.words[np.minimum(start + 8 * w, end)] & keep  # past the field: any word, masked
    return out.view(f"S{8 * n_words}").reshape(-1)


def u64_to_bytes(keys: np.ndarray) -> np.ndarray:
    """``uint64`` keys of :func:`id_keys` as ``S8`` (the bytes they hold)."""
    return keys.astype(">u8").view("S8")


def _bytesum(x: np.ndarray) -> np.ndarray:
    """Sum of the bytes of each word (each byte at most 31: no carry)."""
    return (x * _ONES) >> _U(56)


def _eight_digits(x: np.ndarray) -> np.ndarray:
    """The number written by 8 digit values (0-9, one per byte, the first one in the lowest byte): three
    multiply-shift steps, each joining pairs of neighbours (1 -> 2 -> 4 -> 8 digits)."""
    x = x * _U(10) + (x >> _U(8))  # byte 2i: the 2-digit number of bytes 2i, 2i + 1
    lo = (x & _U(0x000000FF000000FF)) * _U(100 + (1000000 << 32))
    hi = ((x >> _U(16)) & _U(0x000000FF000000FF)) * _U(1 + (10000 << 32))
    return (lo + hi) >> _U(32)


def decimals(text: Text, start: np.ndarray, end: np.ndarray, integral: bool = False) -> Tuple[np.ndarray, np.ndarray]:
    """``(values, ok)``: float64 values (int64 with ``integral``) of fields written ``[+-]digits[.digits]``
    (``integral``: no point) in at most 16 bytes, and where that held (elsewhere the value is 0). Exact: the
    digits make an integer ``m < 2**53`` and there are ``d <= 15`` decimals, so ``m / 10**d`` is one correctly
    rounded division of two exact doubles: the double nearest the decimal, as ``float()`` gives."""
    length = (end - start).astype(np.int64)
    if int(length.max(initial=0)) <= 8:
        return _finish(*_eight_bytes(text, end, length), length, integral)
    return _finish(*_sixteen_bytes(text, end, length), length, integral)


_Parts = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # m, decimals, digits, points, first


def _window(x: np.ndarray, skip: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Digit values (other bytes 0), and the masks of digits and points, of a window ``x`` of 8 bytes (the first
    in the lowest bits) whose low ``skip`` bits precede the field."""
    valid = ~_U(0) << skip
    raw = x.view(np.uint8)
    value = raw - np.uint8(48)
    digit = (value < 10).view(np.uint64) & valid
    dot = (raw == 46).view(np.uint64) & valid
    return value.view(np.uint64) & (digit * _U(0xFF)), digit, dot


def _eight_bytes(text: Text, end: np.ndarray, length: np.ndarray) -> _Parts:
    """``(m, decimals, digits, points, first byte)`` of fields of at most 8 bytes, from the 8 bytes ending each:
    the point is removed by moving the digits before it up one byte (``dot - 1`` masks them), then the 8 digit
    values make one number."""
    x = text.words[end - 8]
    skip = ((8 - length) * 8).astype(np.uint64)
    value, digit, dot = _window(x, skip)
    before = dot - np.minimum(dot, _U(1))  # the bytes before the point (none without one)
    value = (value & ~before) | ((value & before) << _U(8))
    dots = _bytesum(dot)
    point = (_U(7) - _bytesum(before & _ONES)) * dots
    return _eight_digits(value), point, _bytesum(digit), dots, (x >> skip) & _U(0xFF)


def _sixteen_bytes(text: Text, end: np.ndarray, length: np.ndarray) -> _Parts:
    """As :func:`_eight_bytes` for fields of at most 16 bytes: two words, the point read as a 0 digit, then
    dropped by a division."""
    skip = np.clip(16 - length, 0, 16).astype(np.uint64) * _U(8)  # bits of the window before the field
    total, digits, dots, point = (np.zeros(end.shape[0], dtype=np.uint64) for _ in range(4))
    first = np.zeros(end.shape[0], dtype=np.uint64)
    for w in (0, 64):
        x = text.words[end - (16 - w // 8)]
        here = np.maximum(skip, _U(w)) - _U(w)  # bits of this word before the field (64 or more: all of it)
        value, digit, dot = _window(x, np.minimum(here, _U(56)))
        outside = here >= _U(64)
        value[outside] = digit[outside] = dot[outside] = 0
        starts_here = (skip >= _U(w)) & (skip < _U(w + 64))  # the field's first byte is in this word
        first |= np.where(starts_here, (x >> np.minimum(here, _U(56))) & _U(0xFF), _U(0))
        digits += _bytesum(digit)
        dots += _bytesum(dot)
        point += np.where(dot > 0, _U(15 - w // 8) - _bytesum((dot - _U(1)) & _ONES), _U(0))
        total = total * _U(10**8) + _eight_digits(value)
    scale = _INT10.take(np.minimum(point, _U(15)).astype(np.int64))
    m = np.where(dots > 0, total // (scale * _U(10)) * scale + total % scale, total)
    return m, point, digits, dots, first


def _finish(m: np.ndarray, point: np.ndarray, digits: np.ndarray, dots: np.ndarray, first: np.ndarray,
            length: np.ndarray, integral: bool) -> Tuple[np.ndarray, np.ndarray]:
    """Values and ``ok`` from the parts: every byte of the field is a digit, the point or a leading sign."""
    negative = first == _U(45)
    sign = negative | (first == _U(43))
    ok = (digits + dots + sign == length.astype(np.uint64)) & (digits > 0) & (dots <= (0 if integral else 1))
    ok &= m < _U(2**53)
    m[~ok] = 0
    values = m.astype(np.int64) if integral else m.astype(np.float64) / _POW10.take(point.astype(np.int64) % 23)
    np.negative(values, out=values, where=negative)  # -0 is -0.0, as float("-0")
    return values, ok
