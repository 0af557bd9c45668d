"""The one place that chooses how to sort.

On CPU, numpy's vectorised (SIMD) sort on a zero-copy view of the tensor's memory is an order of magnitude
faster than ``torch.sort`` (1e7 float32: about 0.04 s against 1.1 s on the project's 2-core machines). On
CUDA, ``torch.sort`` (a radix sort) is the right tool. Every rank metric sorts through here; the retrieval
kernels use the packed sorts of :mod:`torchmetrics_lite._sort_keys` (numpy alone) directly.

The path is chosen by :func:`torchmetrics_lite._backend.use_numpy` (``_backend.force`` makes the tests cover
both on CPU).
float16 / bfloat16 (which numpy lacks) are sorted as float32: the conversion is exact and order-preserving.

>>> x = torch.tensor([0.3, -1.0, 2.0, 0.3])
>>> sort(x)
tensor([-1.0000,  0.3000,  0.3000,  2.0000])
>>> argsort(x, descending=True, stable=True)
tensor([2, 0, 3, 1])
"""
from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._backend import use_numpy
from torchmetrics_lite._sort_keys import desc_key32, key32, key64, segment_order

__all__ = ["sort", "argsort", "searchsorted", "segment_argsort", "select_sorted", "sort_rows", "searchsorted_rows",
           "group_starts", "rank_rows", "PAD_KEY"]

_NUMPY_DTYPES = {torch.float32, torch.float64, torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8}


def _as_numpy(x: Tensor) -> np.ndarray:
    x = x.detach()
    if x.dtype not in _NUMPY_DTYPES:
        x = x.to(torch.float32 if x.is_floating_point() else torch.int64)
    return x.contiguous().numpy()


def sort(x: Tensor, *, descending: bool = False, runs: bool = False) -> Tensor:
    """Sorted copy of a 1-D tensor (values only; ties are indistinguishable so stability is moot). ``runs``: ``x``
    is a few long sorted runs (rows of curves laid end to end), which numpy's stable sort merges (3x faster than
    its quicksort or ``torch.sort`` for 10 runs of 1e6 float64); the values are the same either way."""
    if not use_numpy(x):
        return torch.sort(x, descending=descending).values
    out = np.sort(_as_numpy(x), kind="stable" if runs else None)
    if descending:
        out = out[::-1].copy()
    t = torch.from_numpy(out)
    return t if t.dtype == x.dtype else t.to(x.dtype)


def argsort(x: Tensor, *, descending: bool = False, stable: bool = False) -> Tensor:
    """Indices that sort a 1-D tensor. ``stable=True`` keeps the input order of equal values (in both
    directions: a descending stable sort lists tied items in input order)."""
    if not use_numpy(x):
        return torch.sort(x, descending=descending, stable=stable).indices
    a = _as_numpy(x)
    if descending:
        if not stable:
            return torch.from_numpy(np.argsort(a)[::-1].copy())
        # stable descending: sort the reversed array stably, then map back and reverse
        idx = np.argsort(a[::-1], kind="stable")
        return torch.from_numpy((a.shape[0] - 1 - idx)[::-1].copy())
    return torch.from_numpy(np.argsort(a, kind="stable" if stable else None))


def searchsorted(sorted_seq: Tensor, values: Tensor, *, right: bool = False) -> Tensor:
    """Insertion points of ``values`` in the ascending 1-D ``sorted_seq`` (int64)."""
    if not use_numpy(sorted_seq):
        return torch.searchsorted(sorted_seq, values.to(sorted_seq.dtype), right=right)
    a, v = _as_numpy(sorted_seq), _as_numpy(values.to(sorted_seq.dtype))
    return torch.from_numpy(np.searchsorted(a, v, side="right" if right else "left").astype(np.int64))



# ------------------------------------------------------------------------- segmented sort (retrieval)
def segment_argsort(segments: Tensor, values: Tensor, *, n_segments: int, descending: bool = True,
                    stable: bool = False) -> Tensor:
    """Permutation sorting 1-D items by segment (ascending), then by value (``descending`` or not).

    ``segments`` are int64 ids in ``[0, n_segments)``; ``stable=True`` keeps the input order of items with
    equal segment and value. On CPU the (segment, value, position) triple is packed into one int64 key and
    sorted by value with numpy (no argsort) when it fits 63 bits: values of at most 32 bits (float32 and
    narrower, int32 and narrower, int64 spanning < 2**32, float64 that are exact float32), and positions
    counted within the segment when the input is already grouped by segment (dense rows), else globally.
    Otherwise (segment, value) is packed for one argsort, or two stable argsorts are chained.

    >>> segment_argsort(torch.tensor([1, 0, 1, 0]), torch.tensor([0.5, 0.1, 0.9, 0.7]), n_segments=2)
    tensor([3, 1, 2, 0])
    """
    n = values.shape[0]
    if not use_numpy(values) or n == 0:
        by_value = torch.sort(values, descending=descending, stable=True).indices
        return by_value[torch.sort(segments[by_value], stable=True).indices]
    return torch.from_numpy(segment_order(_as_numpy(segments), _as_numpy(values), n_segments=n_segments,
                                          descending=descending, stable=stable))


# ---------------------------------------------------------------------------- rank metrics (auroc)
def select_sorted(x: Tensor, mask: Tensor) -> Tensor:
    """Sorted (ascending) copy of ``x[mask]`` for 1-D ``x`` and boolean ``mask``.

    On CPU the selection is ``np.compress`` and the sort runs in place on that fresh copy (no second buffer).
    """
    if not use_numpy(x):
        return torch.sort(x[mask]).values
    m = mask.detach().contiguous().numpy() if mask.dtype == torch.bool else _as_numpy(mask) != 0
    out = np.compress(m, _as_numpy(x))
    out.sort()
    t = torch.from_numpy(out)
    return t if t.dtype == x.dtype else t.to(x.dtype)


def sort_rows(x: Tensor) -> Tensor:
    """Each row of a 2-D tensor sorted ascending (values only): one batched sort, no loop over rows."""
    if not use_numpy(x):
        return torch.sort(x, dim=-1).values
    out = np.sort(_as_numpy(x), axis=-1)
    t = torch.from_numpy(out)
    return t if t.dtype == x.dtype else t.to(x.dtype)


def searchsorted_rows(sorted_rows: Tensor, values: Tensor, *, right: bool = False) -> Tensor:
    """Row-wise insertion points (int64): ``out[r, j]`` is where ``values[r, j]`` goes in the ascending row
    ``sorted_rows[r]``. One batched ``torch.searchsorted`` on every device (numpy has no batched form)."""
    if sorted_rows.dtype in (torch.float16, torch.bfloat16):
        sorted_rows = sorted_rows.float()
    return torch.searchsorted(sorted_rows, values.to(sorted_rows.dtype).contiguous(), right=right)


def group_starts(sorted_seq: Tensor) -> Tensor:
    """Indices (int64) where a new value starts in a sorted 1-D tensor: ``[0, ...]``, empty for empty input."""
    if not use_numpy(sorted_seq):
        new = torch.ones_like(sorted_seq, dtype=torch.bool)
        if sorted_seq.numel() > 1:
            torch.ne(sorted_seq[1:], sorted_seq[:-1], out=new[1:])
        return torch.nonzero(new).view(-1)
    a = _as_numpy(sorted_seq)
    flags = np.ones(a.shape[0], dtype=np.bool_)
    np.not_equal(a[1:], a[:-1], out=flags[1:])
    return torch.from_numpy(np.flatnonzero(flags))


# ------------------------------------------ row-wise sort (one row per class: multiclass/multilabel AUROC)
PAD_KEY = 1 << 32  # the key of an invalid (padding) column in :func:`rank_rows`: larger than every real key
_PACKED_BITS = 63  # bits of a packed sort key (int64, non-negative)




def _row_ranks(k64: np.ndarray) -> np.ndarray:
    """Per row, the dense rank (0, 1, ...) of each value among the row's distinct values (one unstable row
    argsort): 32-bit keys with the order and the ties of ``k64``."""
    q, m = k64.shape
    order = np.argsort(k64, axis=1)
    ordered = np.take_along_axis(k64, order, axis=1)
    new = np.zeros((q, m), dtype=np.int64)
    np.not_equal(ordered[:, 1:], ordered[:, :-1], out=new[:, 1:], casting="unsafe")
    ranks = np.empty_like(new)
    np.put_along_axis(ranks, order, np.cumsum(new, axis=1), axis=1)
    return ranks


def rank_rows(x: Tensor, *, valid: Optional[Tensor] = None, descending: bool = True) -> Tuple[Tensor, Tensor]:
    """Stable sort of every row of a 2-D tensor at once: ``(order, keys)``, both ``(rows, cols)`` int64.

    ``order[r]`` lists the columns of row ``r`` by value (``descending`` or not), equal values in column order, the
    columns where the bool ``valid`` is False last (in no promised order). ``keys[r]`` are the sort keys in that
    order: equal exactly where the values are equal (within a row), increasing along the row, :data:`PAD_KEY` (and
    only there) at invalid columns; tie groups are read from them. On CPU, values of at most 32 bits (as in
    :func:`segment_argsort`) are packed with their column into one int64 and sorted row-wise by numpy (no argsort);
    wider values (float64 that are not exact float32, int64 spanning >= 2**32) are first replaced by their dense rank
    within the row (one unstable row argsort). On CUDA: stable ``torch.sort`` along rows.

    >>> order, keys = rank_rows(torch.tensor([[0.5, 0.9, 0.5], [0.1, 0.2, 0.3]]),
    ...                         valid=torch.tensor([[True, True, True], [True, False, True]]))
    >>> order
    tensor([[1, 0, 2],
            [2, 0, 1]])
    >>> bool(keys[0, 1] == keys[0, 2]), bool(keys[1, 2] == PAD_KEY)
    (True, True)
    """
    if x.dim() != 2:
        raise ValueError(f"Expected `x` to be 2-D, got shape {tuple(x.shape)}")
    if not use_numpy(x):
        return _rank_rows_torch(x, valid, descending)
    q, m = x.shape
    if x.numel() == 0:
        return torch.zeros(q, m, dtype=torch.int64), torch.zeros(q, m, dtype=torch.int64)
    a = _as_numpy(x)
    ok = None if valid is None else valid.detach().contiguous().numpy()
    key = desc_key32(a) if descending else key32(a)
    if key is None:
        k64 = key64(a)
        if descending:
            k64 = ~k64
        if ok is not None:
            k64 = np.where(ok, k64, np.iinfo(np.int64).max)
        key = _row_ranks(k64)
    key = key.astype(np.int64, copy=False)
    if ok is not None:
        key = np.where(ok, key, PAD_KEY)
    col_bits = (m - 1).bit_length()
    if 33 + col_bits > _PACKED_BITS:  # rows of more than 2**30 items: a stable argsort instead of packing
        order = np.argsort(key, axis=1, kind="stable")
        return torch.from_numpy(order), torch.from_numpy(np.take_along_axis(key, order, axis=1))
    packed = key << col_bits
    packed |= np.arange(m, dtype=np.int64)
    packed.sort(axis=1)
    return torch.from_numpy(packed & ((1 << col_bits) - 1)), torch.from_numpy(packed >> col_bits)


def _rank_rows_torch(x: Tensor, valid: Optional[Tensor], descending: bool) -> Tuple[Tensor, Tensor]:
    order = torch.sort(x, dim=1, descending=descending, stable=True).indices
    if valid is not None:  # invalid columns last, the rest keeping their order
        order = order.gather(1, torch.sort((~valid).gather(1, order).to(torch.uint8), dim=1, stable=True).indices)
    ordered = x.gather(1, order)
    new = torch.zeros(x.shape, dtype=torch.int64, device=x.device)
    if x.shape[1] > 1:
        new[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    keys = torch.cumsum(new, 1)
    if valid is not None:
        keys = torch.where(valid.gather(1, order), keys, PAD_KEY)
    return order, keys
