"""One way to write a kernel for numpy and torch: an array namespace ``xp``, chosen once per call.

A kernel that runs on both libraries takes ``xp`` as its first argument and spells every call whose name or
signature differs between them as ``xp.name(...)``; operators, indexing and the methods both share (``a + b``,
``a[i]``, ``a.shape``, ``a.sum()``) are written directly. So each kernel is written once, and no
``*_numpy`` / ``*_torch`` twin exists (scikit-learn's array-API ``xp`` is the same idea, for the same reason).

:func:`namespace` is the one door: it asks :func:`~torchmetrics_lite._backend.use_numpy` once, for the batch's
tensor, and returns :data:`NUMPY` (CPU, where numpy's SIMD sorts and dispatch-free small reductions win) or the
torch namespace of the device's floating dtype (every other device, and while ``torch.compile`` traces). A
kernel never asks the backend again. :meth:`Xp.asarray` takes a tensor into the namespace (numpy: a zero-copy
view) and :meth:`Xp.tensor` brings a result back (numpy: zero-copy, on the input's device).

``real`` is the floating dtype of every value a kernel computes: float64, or float32 on a device without
float64 (Apple MPS, :data:`~torchmetrics_lite._dtype.NO_FLOAT64_DEVICES`).

>>> import torch
>>> x = torch.tensor([3.0, 1.0, 2.0])
>>> xp = namespace(x)
>>> xp.name, xp.tensor(xp.cumsum0(xp.asarray(x)), x)
('numpy', tensor([0., 3., 4., 6.]))
>>> from torchmetrics_lite import _backend
>>> with _backend.force("torch"):
...     xp = namespace(x)
>>> xp.name, xp.tensor(xp.cumsum0(xp.asarray(x)), x)
('torch', tensor([0., 3., 4., 6.]))
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._backend import host, use_numpy
from torchmetrics_lite._dtype import float_dtype

__all__ = ["Xp", "NUMPY", "torch_namespace", "namespace"]

A = Any  # a numpy array or a torch tensor, as the namespace in use


class Xp:
    """The calls whose spelling differs between numpy and torch; every kernel written for both uses these.

    Each method is documented once, here; :class:`_Numpy` and :class:`_Torch` spell it for their library.
    Indices and counts are int64; floating results are in :attr:`real`.
    """

    name: str
    real: Any  # the floating dtype of computed values (np.float64, torch.float64 or torch.float32)

    def asarray(self, t: Tensor) -> A:
        """A tensor as this namespace's array (numpy: a zero-copy view; float16/bfloat16 as float32; detached)."""
        raise NotImplementedError

    def tensor(self, a: A, like: Tensor) -> Tensor:
        """An array back as a tensor on ``like``'s device (numpy: zero-copy)."""
        raise NotImplementedError

    def floating(self, a: A) -> A:
        """``a`` in :attr:`real` (no copy when it already is)."""
        raise NotImplementedError

    def cumsum0(self, a: A) -> A:
        """``[0, a0, a0 + a1, ...]``: ``n + 1`` values in ``a``'s dtype (bools as int64)."""
        raise NotImplementedError

    def arange(self, n: int, like: A) -> A:
        """int64 ``0 .. n-1`` (on ``like``'s device)."""
        raise NotImplementedError

    def nonzero(self, mask: A) -> A:
        """int64 indices where a 1-D bool array is True."""
        raise NotImplementedError

    def concatenate(self, arrays: Sequence[A]) -> A:
        """The 1-D arrays end to end."""
        raise NotImplementedError

    def diff(self, a: A, append: int) -> A:
        """``a[1:] - a[:-1]`` of a 1-D array with the number ``append`` after its last value (``a.shape[0]``
        values)."""
        raise NotImplementedError

    def where(self, condition: A, a: Any, b: Any) -> A:
        """``a`` where ``condition``, else ``b`` (either may be a number)."""
        raise NotImplementedError

    def repeat(self, a: A, counts: A) -> A:
        """``a[i]`` repeated ``counts[i]`` times."""
        raise NotImplementedError

    def result_dtype(self, like: Tensor) -> torch.dtype:
        """The torch floating dtype of results that come back as tensors on ``like``'s device: :attr:`real` in
        torch; in numpy the CPU's (float64, float32 where a test takes float64 away from the CPU)."""
        raise NotImplementedError

    def run_starts(self, a: A) -> A:
        """int64 indices where a run of equal values starts in the 1-D ``a`` (``[0, ...]``; empty for empty
        ``a``): the tie groups of a sorted array."""
        raise NotImplementedError

    def searchsorted(self, sorted_seq: A, values: A, right: bool = False) -> A:
        """int64 insertion points of ``values`` in the ascending 1-D ``sorted_seq`` (``right``: after equal
        values)."""
        raise NotImplementedError

    def select_sorted(self, a: A, mask: A) -> A:
        """The ascending sorted copy of ``a[mask]`` (1-D; ``mask`` bool, or 0/1: nonzero selects)."""
        raise NotImplementedError

    def sort(self, a: A, stable: bool = False) -> A:
        """``a`` sorted ascending along its last axis (values only; ``stable``: a stable sort, the fast merge of a
        few long sorted runs in numpy; the values are the same either way)."""
        raise NotImplementedError


class _Numpy(Xp):
    name = "numpy"
    real = np.float64

    def asarray(self, t: Tensor) -> np.ndarray:
        return host(t)

    def tensor(self, a: np.ndarray, like: Tensor) -> Tensor:
        return torch.from_numpy(np.asarray(a))

    def floating(self, a: np.ndarray) -> np.ndarray:
        return a.astype(np.float64, copy=False)

    def cumsum0(self, a: np.ndarray) -> np.ndarray:
        out = np.zeros(a.shape[0] + 1, dtype=np.int64 if a.dtype == np.bool_ else a.dtype)
        np.cumsum(a, out=out[1:])
        return out

    def arange(self, n: int, like: Any) -> np.ndarray:
        return np.arange(n, dtype=np.int64)

    def nonzero(self, mask: np.ndarray) -> np.ndarray:
        return np.flatnonzero(mask)

    def concatenate(self, arrays: Sequence[np.ndarray]) -> np.ndarray:
        return np.concatenate(arrays)

    def diff(self, a: np.ndarray, append: int) -> np.ndarray:
        return np.diff(a, append=append)

    def where(self, condition: np.ndarray, a: Any, b: Any) -> np.ndarray:
        return np.where(condition, a, b)

    def repeat(self, a: np.ndarray, counts: np.ndarray) -> np.ndarray:
        return a.repeat(counts)

    def result_dtype(self, like: Tensor) -> torch.dtype:
        return float_dtype(like.device)

    def run_starts(self, a: np.ndarray) -> np.ndarray:
        flags = np.ones(a.shape[0], dtype=np.bool_)
        np.not_equal(a[1:], a[:-1], out=flags[1:])
        return np.flatnonzero(flags)

    def searchsorted(self, sorted_seq: np.ndarray, values: np.ndarray, right: bool = False) -> np.ndarray:
        return np.searchsorted(sorted_seq, values, side="right" if right else "left").astype(np.int64)

    def select_sorted(self, a: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = np.compress(mask if mask.dtype == np.bool_ else mask != 0, a)
        out.sort()  # in place: the selection is a fresh copy
        return out

    def sort(self, a: np.ndarray, stable: bool = False) -> np.ndarray:
        return np.sort(a, kind="stable" if stable else None)


class _Torch(Xp):
    name = "torch"

    def __init__(self, real: torch.dtype) -> None:
        self.real = real

    def asarray(self, t: Tensor) -> Tensor:
        return t.detach()

    def tensor(self, a: Tensor, like: Tensor) -> Tensor:
        return a

    def floating(self, a: Tensor) -> Tensor:
        return a.to(self.real)

    def cumsum0(self, a: Tensor) -> Tensor:
        a = a.to(torch.int64) if a.dtype == torch.bool else a
        return torch.cat([a.new_zeros(1), a.cumsum(0)])

    def arange(self, n: int, like: Tensor) -> Tensor:
        return torch.arange(n, device=like.device)

    def nonzero(self, mask: Tensor) -> Tensor:
        return torch.nonzero(mask).view(-1)

    def concatenate(self, arrays: Sequence[Tensor]) -> Tensor:
        return torch.cat(list(arrays))

    def diff(self, a: Tensor, append: int) -> Tensor:
        return torch.diff(a, append=a.new_tensor([append]))

    def where(self, condition: Tensor, a: Any, b: Any) -> Tensor:
        return torch.where(condition, a, b)

    def repeat(self, a: Tensor, counts: Tensor) -> Tensor:
        return torch.repeat_interleave(a, counts)

    def result_dtype(self, like: Tensor) -> torch.dtype:
        return self.real

    def run_starts(self, a: Tensor) -> Tensor:
        new = torch.ones_like(a, dtype=torch.bool)
        if a.numel() > 1:
            torch.ne(a[1:], a[:-1], out=new[1:])
        return torch.nonzero(new).view(-1)

    def searchsorted(self, sorted_seq: Tensor, values: Tensor, right: bool = False) -> Tensor:
        return torch.searchsorted(sorted_seq, values, right=right)

    def select_sorted(self, a: Tensor, mask: Tensor) -> Tensor:
        return torch.sort(a[mask if mask.dtype == torch.bool else mask != 0]).values

    def sort(self, a: Tensor, stable: bool = False) -> Tensor:
        return torch.sort(a, dim=-1, stable=stable).values


#: The numpy namespace (CPU tensors).
NUMPY: Xp = _Numpy()


#: The torch namespaces, one per floating dtype, made once (a plain table, not an ``lru_cache``: ``torch.compile``
#: traces a table look-up silently, and warns at a cached function).
_TORCH_NAMESPACES = {real: _Torch(real) for real in (torch.float64, torch.float32)}


def torch_namespace(real: torch.dtype = torch.float64) -> Xp:
    """The torch namespace whose floating values are ``real`` (float64, or float32 on a device without it)."""
    found = _TORCH_NAMESPACES.get(real)
    return _Torch(real) if found is None else found


def namespace(t: Tensor, max_elements: Optional[int] = None) -> Xp:
    """The namespace a kernel runs in for the batch ``t``: :data:`NUMPY` where
    :func:`~torchmetrics_lite._backend.use_numpy` says so (a CPU tensor of at most ``max_elements`` elements,
    not under ``torch.compile``), else the torch namespace of ``t``'s device. The one backend decision."""
    return NUMPY if use_numpy(t, max_elements) else torch_namespace(float_dtype(t.device))
