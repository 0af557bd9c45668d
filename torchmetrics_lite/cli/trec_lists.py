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
    """Ranked lists of ``nq`` queries: ``q``, ``rel`` per retrieved document (sorted by query, then rank),
    ``n_ret`` per query, ``counts[q, level]`` judgements per level, and the relevance ``level``."""

    def __init__(self, q: np.ndarray, rel: np.ndarray, n_ret: np.ndarray, counts: np.ndarray, level: int) -> None:
        self.nq = n_ret.size
        self.q, self.rel, self.n_ret, self.counts, self.level = q, rel, n_ret, counts, level
        self.start = np.cumsum(n_ret) - n_ret
        self.pos = np.arange(q.size) - self.start.take(q) if q.size else np.zeros(0, dtype=np.int64)
        self.isrel = rel >= level
        self.cumrel = seg_cumsum(self.isrel.astype(np.int64), q, self.start)
        self.num_rel_ret = self.sum(self.isrel)
        low = max(level, 0)
        self.num_rel = counts[:, low:].sum(axis=1).astype(np.float64)
        self.num_nonrel = counts[:, :low].sum(axis=1).astype(np.float64)
        self._ranks: Optional[np.ndarray] = None
        self.cache: Dict[object, Any] = {}

    def cached(self, key: object, make: Callable[[], Any]) -> Any:
        """``make()``, computed once per key (measures share their parts: gains, ideal rankings...)."""
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]

    def sum(self, weights: np.ndarray, where: Optional[np.ndarray] = None) -> np.ndarray:
        """Per-query sums of ``weights`` (at the positions ``where``: the others add 0.0, which changes no sum),
        added in rank order."""
        if where is not None:
            weights = np.where(where, weights, 0.0)
        return np.bincount(self.q, weights=weights, minlength=self.nq)

    @property
    def ranks(self) -> np.ndarray:
        """``pos + 1`` as float64."""
        if self._ranks is None:
            self._ranks = (self.pos + 1).astype(np.float64)
        return self._ranks

    def at_cut(self, cum: np.ndarray, k: np.ndarray) -> np.ndarray:
        """``cum`` (inclusive per-query sums) after the first ``k`` documents of each query (all of them when it
        has fewer; 0 for ``k <= 0``)."""
        m = np.minimum(np.broadcast_to(k, (self.nq,)), self.n_ret)
        if not cum.size:
            return np.zeros(self.nq, dtype=np.float64)
        index = np.clip(self.start + m - 1, 0, cum.size - 1)
        return np.where(m > 0, cum.take(index), 0).astype(np.float64)

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
    """Inclusive sums of float ``values`` (one per retrieved document) within each query, added one at a time
    in rank order (as trec_eval's loops), through a zero-padded (queries, longest list) grid when it is small."""
    return seg_cumsum_exact(values, x.q, x.pos, x.start, x.n_ret)


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
