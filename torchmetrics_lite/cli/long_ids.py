"""Ids of any length in memory linear in their bytes: :class:`LongIds`, the ids' bytes one after another and
their offsets (numpy alone, no torch).

Fixed-width keys (``S{w}``: every id zero padded to the longest) sort fast, but one id of 10**6 bytes among
10**5 short ones makes them 10**11 bytes. So an id column is fixed-width only while the padding is bounded
(:func:`fits_fixed`: ``n * w <= 4 * bytes + 64 * n``, so at most about five times the ids' bytes); else it is a
:class:`LongIds`. Its dense codes in byte order (:func:`dense_codes`, trec_eval's ``strcmp``) come from one
fixed-width sort of the ids of at most ``W`` bytes (``W`` the widest that keeps that bound) and a sort of the
Python ``bytes`` of the longer ones (fewer than ``bytes / W`` of them), merged by binary search: an id longer
than ``W`` sorts after exactly the short ids at or below its first ``W`` bytes (ids hold no NUL byte, so a short
id equal to that prefix is a prefix of it, and smaller).
"""
from __future__ import annotations

from typing import Any, List, Sequence, Tuple

import numpy as np


class LongIds:
    """``n`` ids: id ``i`` is ``data[offsets[i]:offsets[i + 1]]`` (``data`` uint8, ``offsets`` int64 ``(n + 1,)``).
    Supports what the command line does with an id column: ``size``, ``take`` / ``[]`` (integer or boolean
    indices), ``tolist()`` (the ``bytes`` of each id)."""

    def __init__(self, data: np.ndarray, offsets: np.ndarray) -> None:
        self.data, self.offsets = data, offsets

    @classmethod
    def gather(cls, arr: np.ndarray, start: np.ndarray, end: np.ndarray) -> "LongIds":
        """The fields ``arr[start[i]:end[i]]`` copied into one buffer (one gather of their bytes)."""
        lengths = (end - start).astype(np.int64)
        offsets = np.zeros(lengths.size + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        index = np.repeat(start.astype(np.int64) - offsets[:-1], lengths)
        index += np.arange(int(offsets[-1]), dtype=np.int64)
        return cls(arr[index], offsets)

    @classmethod
    def of(cls, keys: Any) -> "LongIds":
        """Any id column (``uint64`` keys, ``S{w}`` keys or :class:`LongIds`) as :class:`LongIds`."""
        if isinstance(keys, LongIds):
            return keys
        fixed = keys.astype(">u8").view("S8") if keys.dtype == np.uint64 else keys
        width = fixed.dtype.itemsize
        lengths = np.char.str_len(fixed).astype(np.int64)  # no NUL inside an id: the trailing zeros are padding
        grid = np.frombuffer(fixed.tobytes(), dtype=np.uint8).reshape(-1, width) if width else \
            np.zeros((fixed.size, 0), dtype=np.uint8)
        offsets = np.zeros(lengths.size + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return cls(grid[np.arange(width) < lengths[:, None]], offsets)

    @property
    def size(self) -> int:
        return self.offsets.size - 1

    def __len__(self) -> int:
        return self.size

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def take(self, index: np.ndarray) -> "LongIds":
        index = np.asarray(index)
        if index.dtype == np.bool_:
            index = np.flatnonzero(index)
        return LongIds.gather(self.data, self.offsets[:-1].take(index), self.offsets[1:].take(index))

    __getitem__ = take

    def tolist(self) -> List[bytes]:
        data, bounds = self.data.tobytes(), self.offsets.tolist()
        return [data[a:b] for a, b in zip(bounds[:-1], bounds[1:])]

    def fixed(self, width: int) -> np.ndarray:
        """The ids (each at most ``width`` bytes) as zero-padded ``S{width}`` keys."""
        lengths = self.lengths
        out = np.zeros(self.size * width, dtype=np.uint8)
        index = np.repeat(np.arange(self.size, dtype=np.int64) * width - self.offsets[:-1], lengths)
        index += np.arange(int(self.offsets[-1]), dtype=np.int64)
        out[index] = self.data[:int(self.offsets[-1])]
        return out.view(f"S{width}") if width else np.zeros(self.size, dtype="S1")


Keys = Any  # an id column: np.ndarray (uint64 or S{w} keys) or LongIds


def fits_fixed(n: int, width: int, total: int) -> bool:
    """Whether ``n`` ids of ``total`` bytes may be padded to ``width`` bytes each (bounded padding)."""
    return n * width <= 4 * total + 64 * n


def concat(parts: Sequence[Keys]) -> Keys:
    """One id column of several (chunks of a file, or files): ``uint64`` keys when every part is, fixed-width
    ``S{w}`` keys when the padding stays bounded, else :class:`LongIds`."""
    if all(isinstance(p, np.ndarray) and p.dtype == np.uint64 for p in parts):
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)
    if not any(isinstance(p, LongIds) for p in parts):
        fixed = [p.astype(">u8").view("S8") if p.dtype == np.uint64 else p for p in parts]
        width = max(p.dtype.itemsize for p in fixed)
        n = sum(p.size for p in fixed)
        total = sum(int(np.char.str_len(p).sum()) for p in fixed)
        if fits_fixed(n, width, total):
            return np.concatenate([p.astype(f"S{width}") for p in fixed])
    longs = [LongIds.of(p) for p in parts]
    sizes = np.array([int(p.offsets[-1]) for p in longs], dtype=np.int64)
    shift = np.cumsum(sizes) - sizes
    offsets = np.concatenate([[0]] + [p.offsets[1:] + s for p, s in zip(longs, shift.tolist())])
    return LongIds(np.concatenate([p.data[:int(p.offsets[-1])] for p in longs]), offsets.astype(np.int64))


def dense_codes(ids: LongIds) -> Tuple[LongIds, np.ndarray]:
    """``(unique, inverse)``: the distinct ids in byte order and each id's index among them (see the module
    docstring: a fixed-width sort of the short ids, a sort of the long ones, a merge)."""
    lengths = ids.lengths
    n, total = ids.size, int(ids.offsets[-1])
    width = max(((4 * total + 64 * n) // max(n, 1)) // 8 * 8, 8)
    short = np.flatnonzero(lengths <= width)
    long = np.flatnonzero(lengths > width)
    unique_s, first_s, inverse_s = np.unique(ids.take(short).fixed(width), return_index=True, return_inverse=True)
    long_bytes = ids.take(long).tolist()
    unique_l = sorted(set(long_bytes))
    code_of = {b: j for j, b in enumerate(unique_l)}
    inverse_l = np.array([code_of[b] for b in long_bytes], dtype=np.int64)
    first_l = np.zeros(len(unique_l), dtype=np.int64)
    first_l[inverse_l[::-1]] = np.arange(long.size - 1, -1, -1)  # the first row of each long id
    prefix = np.array([b[:width] for b in unique_l], dtype=f"S{width}")
    below = np.searchsorted(unique_s, prefix, side="right")  # short ids before each long one
    code_s = np.arange(unique_s.size) + np.searchsorted(below, np.arange(unique_s.size), side="right")
    code_l = np.arange(len(unique_l)) + below
    inverse = np.empty(n, dtype=np.int64)
    inverse[short] = code_s.take(inverse_s.reshape(-1))
    inverse[long] = code_l.take(inverse_l)
    rows = np.empty(unique_s.size + len(unique_l), dtype=np.int64)
    rows[code_s] = short.take(first_s)
    rows[code_l] = long.take(first_l)
    return ids.take(rows), inverse
