"""Query and document ids as integers for the command line: codes and order keys of id keys (numpy alone), and
the (query, document) join of a run with its qrels.

An id arrives as the key :func:`~torchmetrics_lite.cli.parse.id_keys` makes of its bytes (a ``uint64`` for
ids of at most 8 bytes, else ``S{w}``, or ``LongIds`` where padding to the longest id would not stay linear in
the ids' bytes), which compares as the bytes do (trec_eval's ``strcmp``). A
:class:`Vocab` turns the keys of several files into dense codes (``0 .. n-1`` in that order: one sort) or, for
documents, into order keys of few bits (the keys without the bits every id shares: no sort at all).
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np

from torchmetrics_lite.cli import long_ids
from torchmetrics_lite.cli.errors import CliError
from torchmetrics_lite.cli.long_ids import Keys, LongIds
from torchmetrics_lite.cli.parse import u64_to_bytes


class Vocab:
    """The ids (queries or documents) of several files: :meth:`add` the keys of each file, then :meth:`codes`
    or :meth:`keys`; :meth:`names` turns either back into the ids."""

    def __init__(self) -> None:
        self.parts: List[Keys] = []
        self.unique: Keys = np.zeros(0, dtype="S1")  # the ids of each code, after codes()
        self._shared: Optional[Tuple[int, int]] = None  # after keys(): (the bits all ids share, low bits dropped)

    def add(self, ids: Keys) -> int:
        self.parts.append(ids)
        return len(self.parts) - 1

    def codes(self) -> List[np.ndarray]:
        """int64 codes ``0 .. n-1`` of the ``n`` distinct ids, in byte order of the ids, for each file."""
        keys = long_ids.concat(self.parts)  # uint64 (integer sorts), S{w}, or LongIds (memory linear in bytes)
        self._shared = None
        if isinstance(keys, LongIds):
            self.unique, inverse = long_ids.dense_codes(keys)
        else:
            heads = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))  # runs of one id (grouped)
            self.unique, rank = _dense(keys.take(heads))
            inverse = rank if heads.size == keys.size else np.repeat(rank, np.diff(np.append(heads, keys.size)))
        bounds = np.cumsum([0] + [p.size for p in self.parts])
        return [inverse[a:b] for a, b in zip(bounds[:-1], bounds[1:])]

    def keys(self, max_bits: int) -> Tuple[List[np.ndarray], int]:
        """``(keys, bits)``: int64 keys in ``[0, 2**bits)`` of the ids of each file, equal and ordered as the ids:
        the ``uint64`` keys without the top and bottom bits that every id shares, when that leaves at most
        ``max_bits`` bits (no sort), else the :meth:`codes`."""
        if self.parts and all(isinstance(p, np.ndarray) and p.dtype == np.uint64 and p.size for p in self.parts):
            first = self.parts[0][0]
            varying = 0
            for p in self.parts:
                varying |= int(np.bitwise_or.reduce(p ^ first))
            low = (varying & -varying).bit_length() - 1 if varying else 0
            if varying.bit_length() - low <= max_bits:
                window = ((1 << varying.bit_length()) - 1) & ~((1 << low) - 1)  # the bits some ids differ in
                self._shared = (int(first) & ~window, low)
                mask, shift = np.uint64((1 << varying.bit_length()) - 1), np.uint64(low)
                return [((p & mask) >> shift).astype(np.int64) for p in self.parts], varying.bit_length() - low
        codes = self.codes()
        return codes, max(self.unique.size - 1, 1).bit_length()

    def names(self, values: np.ndarray) -> List[str]:
        """The ids of codes (after :meth:`codes`) or keys (after :meth:`keys`)."""
        if self._shared is not None:
            top, low = self._shared
            raw = u64_to_bytes(np.uint64(top) | (values.astype(np.uint64) << np.uint64(low)))
        else:
            raw = self.unique.take(values)
            if isinstance(raw, np.ndarray) and raw.dtype == np.uint64:
                raw = u64_to_bytes(raw)
        return [x.decode("utf-8", "replace") for x in raw.tolist()]


def _dense(keys: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """``(unique, inverse)``: the sorted distinct keys, and the index of each key among them: one sort of the
    keys packed with their positions (:func:`_squeezed`), else one argsort."""
    packed = _squeezed(keys) if keys.dtype == np.uint64 else None
    order: np.ndarray
    if packed is not None:
        packed.sort()
        order = packed & np.uint64((1 << _position_bits(keys)) - 1)
        packed >>= np.uint64(_position_bits(keys))
        ordered = packed
    else:
        order = np.argsort(keys)
        ordered = keys.take(order)
    new = np.empty(keys.size, dtype=np.bool_)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    inverse = np.empty(keys.size, dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return keys.take(order[new]), inverse


def _position_bits(keys: np.ndarray) -> int:
    return max(keys.size - 1, 1).bit_length()


def _squeezed(keys: np.ndarray) -> Optional[np.ndarray]:
    """``uint64`` keys without the bits that no key changes at their top and bottom (ids with a common prefix,
    short ids' zero padding), packed above their positions; same order. None when that needs over 64 bits."""
    if not keys.size:
        return None
    varying = int(np.bitwise_or.reduce(keys ^ keys[0]))
    low = (varying & -varying).bit_length() - 1 if varying else 0
    position_bits = _position_bits(keys)
    if varying.bit_length() - low + position_bits > 64:
        return None
    packed = (keys & np.uint64((1 << varying.bit_length()) - 1)) >> np.uint64(low)
    packed <<= np.uint64(position_bits)
    packed |= np.arange(keys.size, dtype=np.uint64)
    return packed


def lookup(judged: np.ndarray, values: np.ndarray, keys: np.ndarray, key_bits: int) -> Optional[np.ndarray]:
    """The value of the ``judged`` key equal to each of ``keys`` (0 where none), both int64 in ``[0,
    2**key_bits)``: ONE sort of both sets of keys, each tagged with its side (and its position, packed into the
    same int64 when it fits), so a match is a judged key followed by the same key from ``keys``. None when a key
    repeats within one side."""
    n = judged.size + keys.size
    tagged = np.concatenate([judged << 1, (keys << 1) | 1])
    position_bits = max(n - 1, 1).bit_length()
    if key_bits + 1 + position_bits <= 63:
        packed = (tagged << position_bits) | np.arange(n)
        packed.sort()
        order, tagged = packed & ((1 << position_bits) - 1), packed >> position_bits
    else:
        order = np.argsort(tagged)
        tagged = tagged.take(order)
    if (tagged[1:] == tagged[:-1]).any():
        return None
    match = np.flatnonzero((tagged[1:] ^ tagged[:-1]) == 1)  # 2k (judged) then 2k + 1: the same key k
    out = np.zeros(keys.size, dtype=values.dtype)
    out[order.take(match + 1) - judged.size] = values.take(order.take(match))
    return out


def check_unique(path: str, lines: np.ndarray, key: np.ndarray, what: str, q: np.ndarray, doc: np.ndarray,
                 queries: Vocab, docs: Vocab) -> None:
    """No (query, document) pair (packed in ``key``) twice; the first repeat is reported with its line."""
    message = first_repeat(path, lines, key, what, q, doc, queries, docs)
    if message is not None:
        raise CliError(message)


def first_repeat(path: str, lines: np.ndarray, key: np.ndarray, what: str, q: np.ndarray, doc: np.ndarray,
                 queries: Vocab, docs: Vocab) -> Optional[str]:
    """``file:line: document 'd' is <what> twice for query 'q'`` for the first repeated pair; None if none."""
    order = np.argsort(key, kind="stable")
    repeats = order[1:][key.take(order[1:]) == key.take(order[:-1])]
    if not repeats.size:
        return None
    repeat = int(repeats.min())
    return (f"{path}:{lines[repeat]}: document {docs.names(doc[repeat:repeat + 1])[0]!r} is "
            f"{what} twice for query {queries.names(q[repeat:repeat + 1])[0]!r}")
