"""The row sort of the AUROC family's kernels: every row of a 2-D array sorted at once, stably, with the keys that
tell its tie groups apart (the ``SWEEP`` and ``GATHER`` kernels read their groups from them).

In numpy (the namespace the chooser passed, a CPU batch), values of at most 32 bits are packed with their column
into one int64 and sorted row-wise by numpy's SIMD sort (no argsort, no gather): an order of magnitude faster than
``torch.sort`` there. In torch (every other device, ``torch.compile``): one stable ``torch.sort`` along the rows.
Two algorithms for one result (the same order; keys equal exactly where the values are), chosen by the namespace,
not by asking the backend again.

>>> import torch
>>> from torchmetrics_lite._xp import NUMPY
>>> order, keys = rank_rows(NUMPY, torch.tensor([[0.5, 0.9, 0.5], [0.1, 0.2, 0.3]]),
...                         valid=torch.tensor([[True, True, True], [True, False, True]]))
>>> order
array([[1, 0, 2],
       [2, 0, 1]])
>>> bool(keys[0, 1] == keys[0, 2]), bool(keys[1, 2] == PAD_KEY)
(True, True)
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._sort_keys import desc_key32, key32, key64
from torchmetrics_lite._xp import Xp

__all__ = ["rank_rows", "PAD_KEY"]

PAD_KEY = 1 << 32  # the key of an invalid (padding) column in :func:`rank_rows`: larger than every real key
_PACKED_BITS = 63  # bits of a packed sort key (int64, non-negative)


def rank_rows(xp: Xp, x: Tensor, *, valid: Optional[Tensor] = None, descending: bool = True) -> Tuple[Any, Any]:
    """Stable sort of every row of a 2-D tensor at once: ``(order, keys)``, both ``(rows, cols)`` int64 arrays of
    ``xp``.

    ``order[r]`` lists the columns of row ``r`` by value (``descending`` or not), equal values in column order, the
    columns where the bool ``valid`` is False last (in no promised order). ``keys[r]`` are the sort keys in that
    order: equal exactly where the values are equal (within a row), increasing along the row, :data:`PAD_KEY` (and
    only there) at invalid columns. In numpy, values of at most 32 bits (float32 and narrower, int32 and narrower,
    int64 spanning < 2**32, float64 that are exact float32) are packed with their column into one int64; wider
    values are first replaced by their dense rank within the row (one unstable row argsort). Empty rows: empty.
    """
    if x.dim() != 2:
        raise ValueError(f"Expected `x` to be 2-D, got shape {tuple(x.shape)}")
    if xp.name != "numpy":
        return _stable_rows(x.detach(), valid, descending)
    q, m = x.shape
    if x.numel() == 0:
        return np.zeros((q, m), dtype=np.int64), np.zeros((q, m), dtype=np.int64)
    a = np.ascontiguousarray(xp.asarray(x))
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
        return order, np.take_along_axis(key, order, axis=1)
    packed = key << col_bits
    packed |= np.arange(m, dtype=np.int64)
    packed.sort(axis=1)
    return packed & ((1 << col_bits) - 1), packed >> col_bits


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


def _stable_rows(x: Tensor, valid: Optional[Tensor], descending: bool) -> Tuple[Tensor, Tensor]:
    """:func:`rank_rows` in torch: one stable row sort (and one more to put the invalid columns last); the keys
    count the distinct values along the sorted row."""
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
