"""The ranked lists trec_eval's measures read, as flat numpy arrays over every query at once (no torch).

A :class:`Lists` holds, for each evaluated query, its retrieved documents in trec_eval's rank order (``rel``:
the judged level, ``-1`` not in the qrels, ``-2`` judged with a negative value: "in the pool, unjudged") and
the counts of its judgements at each level ``0 .. levels-1``. Per-query sums run in rank order
(``np.bincount`` adds in input order), so they equal trec_eval's sequential sums bit for bit.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional

import numpy as np

NONPOOL, UNJUDGED = -1, -2


def seg_cumsum(values: np.ndarray, q: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Inclusive cumulative sums of ``values`` within each query (``q`` sorted, ``start``: first position)."""
    total = np.cumsum(values)
    before = np.concatenate([[0], total])[start]
    return total - before.take(q) if q.size else total


def seg_suffix_max(values: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The maximum of ``values`` from each position to the end of its query (exact: a doubling scan)."""
    out = values.copy()
    n, shift = out.size, 1
    while shift < n:
        same = q[:-shift] == q[shift:]
        if not same.any():
            break
        np.maximum(out[:-shift], np.where(same, out[shift:], out[:-shift]), out=out[:-shift])
        shift *= 2
    return out


class Lists:
    """Ranked lists of ``nq`` queries, kept sparse: only the retrieved documents a measure can see (those in the
    qrels: ``rel != -1``; every document when ``dense``), as ``q``, ``pos`` (0-based rank) and ``rel`` per entry,
    sorted by query then rank; ``n_ret`` retrieved documents per query, ``counts[q, level]`` judgements per
    level, and the relevance ``level``. A document missing from the entries is not in the qrels (``-1``)."""

    def __init__(self, q: np.ndarray, pos: np.ndarray, rel: np.ndarray, n_ret: np.ndarray, counts: np.ndarray,
                 level: int) -> None:
        self.nq = n_ret.size
        self.q, self.pos, self.rel, self.n_ret, self.counts, self.level = q, pos, rel, n_ret, counts, level
        self.size = np.bincount(q, minlength=self.nq)  # entries per query
        self.start = np.cumsum(self.size) - self.size  # first entry of each query
        self.width = int(n_ret.max(initial=0)) + 1
        self.keys = q * self.width + pos  # increasing: the entries' order
        self.isrel = rel >= level
        self.cumrel = seg_cumsum(self.isrel.astype(np.int64), q, self.start)
        self.num_rel_ret = self.sum(self.isrel)
        low = max(level, 0)
        self.num_rel = counts[:, low:].sum(axis=1).astype(np.float64)
        self.num_nonrel = counts[:, :low].sum(axis=1).astype(np.float64)
        self.ranks = (pos + 1).astype(np.float64)
        self.cache: Dict[object, Any] = {}

    def cached(self, key: object, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per key (measures share their parts: gains, ideal rankings...)."""
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]

    def sum(self, weights: np.ndarray, where: Optional[np.ndarray] = None) -> np.ndarray:
        """Per-query sums of ``weights`` over the entries (those ``where``: the others add 0.0, which changes no
        sum), added in rank order."""
        if where is not None:
            weights = np.where(where, weights, 0.0)
        return np.bincount(self.q, weights=weights, minlength=self.nq)

    def at_cut(self, cum: np.ndarray, k: np.ndarray) -> np.ndarray:
        """``cum`` (inclusive per-query sums over the entries) after the first ``k`` ranks of each query (0 for
        none): its value at the last entry ranked above ``k``."""
        if not cum.size:
            return np.zeros(self.nq, dtype=np.float64)
        k = np.broadcast_to(np.asarray(k, dtype=np.int64), (self.nq,))
        last = np.searchsorted(self.keys, np.arange(self.nq) * self.width + np.minimum(k, self.width)) - 1
        return np.where(last >= self.start, cum.take(np.clip(last, 0, cum.size - 1)), 0).astype(np.float64)

    def first_rel_rank(self) -> np.ndarray:
        """The rank of each query's first relevant document (0: none)."""
        at = np.flatnonzero(self.isrel)
        out = np.zeros(self.nq, dtype=np.int64)
        if at.size:
            qs = self.q.take(at)
            head = np.concatenate([[True], qs[1:] != qs[:-1]])
            out[qs[head]] = self.pos.take(at[head]) + 1
        return out


def divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` where ``den != 0``, else 0 (trec_eval leaves a measure at 0 when it would divide by 0)."""
    out = np.zeros(np.broadcast(num, den).shape, dtype=np.float64)
    np.divide(num, den, out=out, where=np.asarray(den) != 0)
    return out


def lround(x: np.ndarray) -> np.ndarray:
    """C's ``lround``: to the nearest integer, halves away from zero."""
    return (np.sign(x) * np.floor(np.abs(x) + 0.5)).astype(np.int64)


def p_powers(p: float, n: int) -> np.ndarray:
    """``1, p, p*p, ...`` (``n`` values) by repeated multiplication, as trec_eval's loops compute them."""
    out = np.full(max(n, 1), p, dtype=np.float64)
    out[0] = 1.0
    return np.multiply.accumulate(out)


def seg_cumsum_float(values: np.ndarray, x: "Lists") -> np.ndarray:
    """Inclusive sums of float ``values`` (one per entry) within each query, added one at a time in rank order
    (as trec_eval's loops), through a zero-padded (queries, most entries) grid when it is small."""
    return seg_cumsum_exact(values, x.q, np.arange(x.q.size) - x.start.take(x.q), x.start, x.size)


def seg_cumsum_exact(values: np.ndarray, q: np.ndarray, pos: np.ndarray, start: np.ndarray,
                     sizes: np.ndarray) -> np.ndarray:
    """Inclusive sums of float ``values`` within each segment, added one at a time (exact, unlike a global
    cumulative sum minus the segment's offset)."""
    width = int(sizes.max(initial=0))
    if not values.size:
        return values.astype(np.float64)
    if sizes.size * width <= 4 * values.size + 4096:
        grid = np.zeros((sizes.size, width), dtype=np.float64)
        grid[q, pos] = values
        np.cumsum(grid, axis=1, out=grid)
        return grid[q, pos]
    out = np.empty(values.size, dtype=np.float64)
    for a, n in zip(start.tolist(), sizes.tolist()):
        np.cumsum(values[a:a + n], out=out[a:a + n])
    return out
