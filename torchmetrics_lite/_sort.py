"""The one place that chooses how to sort.

On CPU, numpy's vectorised (SIMD) sort on a zero-copy view of the tensor's memory is an order of magnitude
faster than ``torch.sort`` (1e7 float32: about 0.04 s against 1.1 s on the project's 2-core machines). On
CUDA, ``torch.sort`` (a radix sort) is the right tool. The public :mod:`torchmetrics_lite.sorting` and the
calibrators sort through here; the retrieval kernels use the packed sorts of :mod:`torchmetrics_lite._sort_keys`
(numpy alone) directly, and the AUROC family's kernels sort in their own room
(:mod:`torchmetrics_lite.functional.auroc._kernels.row_sort`, in the namespace their chooser decided).

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

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._backend import use_numpy
from torchmetrics_lite._sort_keys import segment_order

__all__ = ["sort", "argsort", "searchsorted", "segment_argsort"]

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
