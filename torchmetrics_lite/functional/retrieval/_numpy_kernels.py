"""Retrieval on a padded ``(queries, items)`` block: the CPU (numpy) path of every measure.

Dense input is the block itself (masked and ``ignore_index`` items become padding); flat input is grouped
into one by :func:`flat_block` when its queries fit a padded block of a few times the number of items (else
the generic flat path of :mod:`torchmetrics_lite.functional.retrieval._torch_kernels` runs). Every row is ranked once
(:func:`~torchmetrics_lite._sort.rank_rows`: descending score, ties in input order, padding last; for flat
input with ``ties="average"`` and integral grades, one packed sort of (query, score, grade) instead), and each
measure is a few row-wise array operations on the first ``min(k, items)`` columns: no loop over queries.

Tie groups are runs of equal scores in a row (padding items are groups of their own). Rows without a tie
group before the cut-off use the plain formulas; on the others each group starting before the cut-off adds
one closed-form term (:class:`Groups`): a group of ``n`` items at ranks ``a+1 .. a+n`` with ``m`` of them
inside the cut-off, ``r`` relevant and ``h`` relevant items above it contributes, by the slot expectations of
``_torch_kernels`` (McSherry and Najork, ECIR 2008), ``r m / n`` expected hits, ``(G/n) (D(a+m) - D(a))``
DCG (``G`` its gain sum, ``D`` the prefix sums of the discounts) and the AP sum given at
:func:`average_precision_values`. Group sums come from prefix sums along the rows.
"""
from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._checks import check_retrieval_values
from torchmetrics_lite._sort import group_by_segment, rank_rows, segment_sort_payload


class Block(NamedTuple):
    rel: np.ndarray  # (Q, M) relevance in ranked order (the target's dtype), 0 at padding (after n_items)
    new: Optional[np.ndarray]  # (Q, M) bool: a tie group starts here; None when every group is one item
    n_items: np.ndarray  # (Q,) int64 real items of each row


class PerQueryNp(NamedTuple):
    values: np.ndarray  # (Q,) float64
    n_items: np.ndarray  # (Q,) int64
    n_rel: np.ndarray  # (Q,) int64


# ------------------------------------------------------------------------------------------ build blocks
def _target_numpy(target: Tensor) -> np.ndarray:
    target = target.detach()
    if target.dtype == torch.bfloat16:
        target = target.float()  # exact
    return target.contiguous().numpy()


def _finish(rel: np.ndarray, keys: np.ndarray, n_items: np.ndarray, padded: bool, ties: str) -> Block:
    """Tie groups from the ranked ``keys`` (equal within a group; the padding after ``n_items`` is made of
    groups of one item)."""
    q, m = rel.shape
    if ties != "average" or m < 2 or q == 0:
        return Block(rel, None, n_items)
    new = np.empty((q, m), dtype=np.bool_)
    new[:, 0] = True
    np.not_equal(keys[:, 1:], keys[:, :-1], out=new[:, 1:])
    if padded:
        new |= np.arange(m) >= n_items[:, None]
    return Block(rel, None if new.all() else new, n_items)


def _sorted_block(scores: Tensor, target: np.ndarray, valid: Optional[Tensor], n_items: np.ndarray,
                  ties: str) -> Block:
    """Rank every row of the block; ``target`` must already be 0 where ``valid`` is False."""
    order, keys = (t.numpy() for t in rank_rows(scores, valid=valid))
    q, m = keys.shape
    rel = target.reshape(-1).take((order + np.arange(q, dtype=np.int64)[:, None] * m).reshape(-1))
    return _finish(rel.reshape(q, m), keys, n_items, valid is not None, ties)


def dense_block(preds: Tensor, target: Tensor, mask: Optional[Tensor], ignore_index: Optional[int],
                validate_args: bool, ties: str) -> Block:
    """Checked dense ``(queries, items)`` (or 1-D: one query) CPU input -> ranked block."""
    if preds.dim() == 1:
        preds, target = preds[None], target[None]
        mask = None if mask is None else mask[None]
    keep = mask
    if ignore_index is not None:
        keep = (target != ignore_index) if keep is None else keep & (target != ignore_index)
    if validate_args:
        check_retrieval_values(preds, target, keep)
    t = _target_numpy(target)
    if keep is None:
        n_items = np.full(preds.shape[0], preds.shape[1], dtype=np.int64)
    else:
        ok = keep.numpy()
        t = np.where(ok, t, np.zeros((), dtype=t.dtype))
        n_items = ok.sum(1, dtype=np.int64)
    return _sorted_block(preds, t, keep, n_items, ties)


def flat_block(preds: Tensor, target: Tensor, qid: Tensor, n_queries: int, ties: str,
               max_padding: int = 4) -> Optional[Block]:
    """Flat CPU items with compact query ids (masked items already dropped) grouped into a padded block, one
    row per id (``n_items`` 0 for an absent id); None when it would exceed ``max_padding`` times the items.

    ``ties="average"`` with integral grades: ONE sort of packed (query, score, grade) gives the ranked block
    (the order inside a tie group does not matter). Else the items are grouped by query (input order kept)
    and each row is ranked as dense input."""
    n = preds.shape[0]
    n_items = np.bincount(qid.numpy(), minlength=n_queries).astype(np.int64)
    m = int(n_items.max()) if n_queries else 0
    if n == 0 or n_queries * m > max_padding * n + 1024:
        return None
    full = n_queries * m == n  # every query has m items: the grouped list is the block
    ranked = segment_sort_payload(qid, preds, target, n_segments=n_queries) if ties == "average" else None
    if ranked is not None:
        keys, rel = (x.numpy() for x in ranked)
        if full:
            return _finish(rel.reshape(n_queries, m), keys.reshape(n_queries, m), n_items, False, ties)
        dest = _cells(keys >> 32, n_items, m)
        return _finish(_scatter(rel, dest, n_queries, m, 0), _scatter(keys, dest, n_queries, m, -1), n_items,
                       True, ties)
    perm = group_by_segment(qid, n_segments=n_queries).numpy()
    p, t = preds.detach().contiguous().numpy().take(perm), _target_numpy(target).take(perm)
    if full:
        return _sorted_block(torch.from_numpy(p.reshape(n_queries, m)), t.reshape(n_queries, m), None, n_items, ties)
    dest = _cells(qid.numpy().take(perm), n_items, m)
    valid = np.arange(m, dtype=np.int64) < n_items[:, None]
    scores = _scatter(p, dest, n_queries, m, p[0])  # padded with a real score: keeps the scores' key range
    return _sorted_block(torch.from_numpy(scores), _scatter(t, dest, n_queries, m, 0), torch.from_numpy(valid),
                         n_items, ties)


def _cells(q_sorted: np.ndarray, n_items: np.ndarray, m: int) -> np.ndarray:
    """Flat block cell ``q * m + slot`` of each item of a list grouped by query (``q_sorted`` ascending)."""
    shift = np.arange(n_items.shape[0], dtype=np.int64) * m - (np.cumsum(n_items) - n_items)
    return np.arange(q_sorted.shape[0], dtype=np.int64) + shift.take(q_sorted)


def _scatter(x: np.ndarray, dest: np.ndarray, q: int, m: int, fill) -> np.ndarray:
    out = np.full(q * m, fill, dtype=x.dtype)
    out[dest] = x
    return out.reshape(q, m)


# ------------------------------------------------------------------------------------- tie groups
class Groups(NamedTuple):
    row: np.ndarray  # (G,) int64 row of each tie group that starts before the row's cut-off
    a: np.ndarray  # (G,) int64 its first column: the number of items ranked above it
    n: np.ndarray  # (G,) int64 its size (it may run past the cut-off)
    m: np.ndarray  # (G,) int64 its slots before the cut-off, min(n, cut - a) >= 1
    width: int  # the columns the groups span: prefix sums need no more


def _groups(new: np.ndarray, cut) -> Groups:
    """The tie groups starting before ``cut`` (an int, or one per row) of a block's ``new`` flags."""
    q, m = new.shape
    kk = min(int(np.max(cut, initial=0)), m)
    row, a = np.nonzero(new[:, :kk])
    end = np.empty_like(a)  # the next group start in the row, or for the row's last group the first start at
    end[:-1] = a[1:]  # or after column kk (no group starts between)
    last = np.ones(a.shape, dtype=np.bool_)
    last[:-1] = row[1:] != row[:-1]
    tail = new[:, kk:]
    if tail.shape[1]:
        first = np.argmax(tail, axis=1)
        tail_end = np.where(tail[np.arange(q), first], kk + first, m)
    else:
        tail_end = np.full(q, m)
    lasts = np.flatnonzero(last)
    end[lasts] = tail_end.take(row[lasts])
    if np.isscalar(cut):
        room = cut - a
    else:
        room = cut.take(row) - a
        keep = np.flatnonzero(room > 0)
        row, a, end, room = row[keep], a[keep], end[keep], room[keep]
    n = end - a
    return Groups(row, a, n, np.minimum(n, room), int(end.max(initial=0)))


def _sums(g: Groups, x: np.ndarray, dtype) -> tuple:
    """Per group: the sum of ``x`` over the group and over the items above it (``x`` is ``(rows, >= width)``)."""
    w = g.width
    pre = np.zeros((x.shape[0], w + 1), dtype=dtype)
    np.cumsum(x[:, :w], axis=1, dtype=dtype, out=pre[:, 1:])
    base = g.row * (w + 1)
    flat = pre.reshape(-1)
    above = flat.take(base + g.a)
    return flat.take(base + g.a + g.n) - above, above


def _per_row(rows: np.ndarray, terms: np.ndarray, q: int) -> np.ndarray:
    """float64 sums of ``terms`` per row (``np.bincount`` returns int64 when there is no term)."""
    return np.bincount(rows, terms, minlength=q).astype(np.float64, copy=False)


def _tied_rows(b: Block, cut) -> Optional[np.ndarray]:
    """Rows holding a tie group of several items that starts before ``cut`` (int, or one per row)."""
    if b.new is None:
        return None
    kk = min(int(np.max(cut, initial=0)), b.new.shape[1] - 1)
    joined = ~b.new[:, 1 : kk + 1]  # column p + 1 continues the group of column p
    if not np.isscalar(cut):
        joined &= np.arange(kk) < cut[:, None]
    rows = np.flatnonzero(joined.any(1))
    return rows if rows.size else None


def _row_sums(b: Block, cut, free, grouped) -> np.ndarray:
    """Per row: ``free(rel)`` (its sum when every item is its own group) on the rows without a tie before the
    cut-off, and the sum of ``grouped(groups, rel)`` (one term per tie group) on the others."""
    rows = _tied_rows(b, cut)
    if rows is None:
        return free(b.rel)
    q = b.rel.shape[0]
    if 2 * rows.size >= q:  # mostly tied: every row by groups
        g = _groups(b.new, cut)
        return _per_row(g.row, grouped(g, b.rel), q)
    out = free(b.rel)
    sub_cut = cut if np.isscalar(cut) else cut.take(rows)
    g = _groups(b.new[rows], sub_cut)
    out[rows] = _per_row(g.row, grouped(g, b.rel[rows]), rows.size)
    return out


# --------------------------------------------------------------------------------------------- helpers
def _cols(b: Block, k: Optional[int]) -> int:
    m = b.rel.shape[1]
    return m if k is None else min(k, m)


def _gains(rel: np.ndarray, gain: str) -> np.ndarray:
    rel = rel.astype(np.float64)
    return rel if gain == "linear" else np.exp2(rel) - 1.0


def _prefix_table(terms: np.ndarray) -> np.ndarray:
    """``[0, t1, t1 + t2, ...]``: the sum of the terms of ranks ``a+1 .. a+m`` is ``T[a + m] - T[a]``."""
    return np.concatenate([[0.0], np.cumsum(terms)])


def _div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` with 0 / 0 = 0 for non-negative ``den`` (those queries are empty anyway)."""
    return num / np.where(den > 0, den, 1)


def _n_rel(b: Block) -> np.ndarray:
    return np.count_nonzero(b.rel > 0, axis=1).astype(np.int64)


def _hits(b: Block, cut) -> np.ndarray:
    """Expected relevant items at the ranks before ``cut`` (int, or one per row)."""
    def free(rel):
        hit = rel[:, : min(int(np.max(cut, initial=0)), rel.shape[1])] > 0
        if not np.isscalar(cut):
            hit &= np.arange(hit.shape[1]) < cut[:, None]
        return np.count_nonzero(hit, axis=1).astype(np.float64)

    def grouped(g, rel):
        r, _ = _sums(g, rel > 0, np.int32)
        return r * g.m / g.n

    return _row_sums(b, cut, free, grouped)


# ------------------------------------------------------------------------------------------- measures
def ndcg_values(b: Block, k: Optional[int] = None, gain: str = "linear") -> PerQueryNp:
    kk = _cols(b, k)
    disc = 1.0 / np.log2(np.arange(2, kk + 2, dtype=np.float64))
    table = _prefix_table(disc)

    def grouped(g, rel):  # each item of a tie group gets the group's mean gain
        total, _ = _sums(g, _gains(rel[:, : g.width], gain), np.float64)
        return total / g.n * (table.take(g.a + g.m) - table.take(g.a))

    dcg = _row_sums(b, kk, lambda rel: (_gains(rel[:, :kk], gain) * disc).sum(1), grouped)
    ideal = np.sort(b.rel, axis=1)[:, : -kk - 1 : -1]  # the kk largest grades, descending
    idcg = (_gains(ideal, gain) * disc).sum(1)
    return PerQueryNp(_div(dcg, idcg), b.n_items, _n_rel(b))


def average_precision_values(b: Block, k: Optional[int] = None) -> PerQueryNp:
    """Slot sums in closed form: with ``S = H(a+m) - H(a)`` (harmonic numbers), ``sum_j 1/(a+j) = S`` and
    ``sum_j (j-1)/(a+j) = m - (a+1) S`` over the group's slots ``j = 1 .. m``."""
    kk = _cols(b, k)
    pos = np.arange(1, kk + 1, dtype=np.float64)
    harmonic = _prefix_table(1.0 / pos)

    def free(rel):
        hit = rel[:, :kk] > 0
        return np.where(hit, np.cumsum(hit, axis=1, dtype=np.int32) / pos, 0.0).sum(1)

    def grouped(g, rel):
        r, h = _sums(g, rel > 0, np.int32)
        inv = harmonic.take(g.a + g.m) - harmonic.take(g.a)
        pairs = (r - 1.0) / np.maximum(g.n - 1.0, 1.0) * (g.m - (g.a + 1.0) * inv)
        return r / g.n * ((h + 1.0) * inv + pairs)

    n_rel = _n_rel(b)
    return PerQueryNp(_div(_row_sums(b, kk, free, grouped), n_rel), b.n_items, n_rel)


def precision_values(b: Block, k: Optional[int] = None) -> PerQueryNp:
    hits = _hits(b, _cols(b, k))
    return PerQueryNp(_div(hits, b.n_items if k is None else np.full_like(b.n_items, k)), b.n_items, _n_rel(b))


def recall_values(b: Block, k: Optional[int] = None) -> PerQueryNp:
    n_rel = _n_rel(b)
    return PerQueryNp(_div(_hits(b, _cols(b, k)), n_rel), b.n_items, n_rel)


def r_precision_values(b: Block) -> PerQueryNp:
    n_rel = _n_rel(b)
    return PerQueryNp(_div(_hits(b, n_rel), n_rel), b.n_items, n_rel)


def _first_relevant(b: Block, k: Optional[int]) -> tuple:
    """Rows, ranks (1-based, float64) and probabilities of the slots that may hold each row's first relevant
    item: the slots ``j = 1 .. n - r + 1`` of its first tie group holding a relevant item, with probability
    ``C(n-j, r-1) / C(n, r)``, kept when the rank is <= k."""
    kk = _cols(b, k)
    if kk == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0)
    hit = b.rel[:, :kk] > 0
    first = np.argmax(hit, axis=1)
    found = hit[np.arange(hit.shape[0]), first]
    tied = _tied_rows(b, kk)
    if tied is None:
        rows = np.flatnonzero(found)
        return rows, first.take(rows) + 1.0, np.ones(rows.shape[0])
    found[tied] = False
    rows = np.flatnonzero(found)
    # a tied row: its first relevant item (full row: a group straddling the cut-off counts) and its group
    hit = b.rel[tied] > 0
    first_t = np.argmax(hit, axis=1)
    g = _groups(b.new[tied], np.where(hit[np.arange(tied.shape[0]), first_t], first_t + 1, 0))
    r, _ = _sums(g, hit, np.int32)
    sel = np.flatnonzero(g.a + g.n > first_t.take(g.row))  # the group holding it (the row's last group here)
    count = np.clip(np.minimum(g.n.take(sel) - r.take(sel) + 1, kk - g.a.take(sel)), 0, None)
    rep = np.repeat(sel, count)
    j = np.arange(rep.shape[0]) - np.repeat(np.cumsum(count) - count, count) + 1.0
    n, rr, jt = (torch.from_numpy(x.astype(np.float64)) for x in (g.n.take(rep), r.take(rep), j))
    lg = torch.lgamma
    logp = (lg(n - jt + 1) - lg(rr) - lg(n - jt - rr + 2)) - (lg(n + 1) - lg(rr + 1) - lg(n - rr + 1))
    return (np.concatenate([rows, tied.take(g.row.take(rep))]),
            np.concatenate([first.take(rows) + 1.0, g.a.take(rep) + j]),
            np.concatenate([np.ones(rows.shape[0]), torch.exp(logp).numpy()]))


def reciprocal_rank_values(b: Block, k: Optional[int] = None) -> PerQueryNp:
    rows, rank, prob = _first_relevant(b, k)
    return PerQueryNp(_per_row(rows, prob / rank, b.rel.shape[0]), b.n_items, _n_rel(b))


def hit_rate_values(b: Block, k: Optional[int] = None) -> PerQueryNp:
    rows, _, prob = _first_relevant(b, k)
    return PerQueryNp(_per_row(rows, prob, b.rel.shape[0]), b.n_items, _n_rel(b))
