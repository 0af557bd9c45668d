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

The module imports no torch of its own: the command line's retrieval kernels compute on :data:`NUMPY`'s array
methods alone (they never meet a tensor) and run without torch. torch and the backend switch are bound when
the module is imported after torch (every tensor path), or else by the first :func:`namespace` or
:func:`torch_namespace` call.

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

import math
import sys
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np

if TYPE_CHECKING:
    import torch
    from torch import Tensor

__all__ = ["Xp", "NUMPY", "torch_namespace", "namespace"]

A = Any  # a numpy array or a torch tensor, as the namespace in use


class Xp:
    """The calls whose spelling differs between numpy and torch; every kernel written for both uses these.

    Each method is documented once, here; :class:`_Numpy` and :class:`_Torch` spell it for their library.
    Indices and counts are int64; floating results are in :attr:`real`.
    """

    name: str
    real: Any  # the floating dtype of computed values (np.float64, torch.float64 or torch.float32)

    def arange(self, n: int, like: A) -> A:
        """int64 ``0 .. n-1`` (on ``like``'s device)."""
        raise NotImplementedError

    def asarray(self, t: Tensor) -> A:
        """A tensor as this namespace's array (numpy: a zero-copy view; float16/bfloat16 as float32; detached)."""
        raise NotImplementedError

    def bincount(self, ids: A, n: int) -> A:
        """int64 number of times each of ``0 .. n-1`` occurs in the int64 ``ids`` (all in ``[0, n)``)."""
        raise NotImplementedError

    def ceil(self, a: A, scale: Optional[int] = None) -> A:
        """int64 ceiling of the floating ``a``, or of ``a * scale`` formed in :attr:`real` (``a`` converted exactly
        first, one rounding)."""
        raise NotImplementedError

    def clip(self, a: A, hi: A) -> A:
        """``a`` clipped to ``[0, hi]`` elementwise (``hi`` an array of ``a``'s shape)."""
        raise NotImplementedError

    def column_extremes(self, a: A, out: A) -> A:
        """The minimum and maximum of each column of a non-empty ``(N,)`` (one column) or ``(N, d)`` array,
        written into the rows of ``out`` ``(2, d)`` and returned (NaN propagates)."""
        raise NotImplementedError

    def concatenate(self, arrays: Sequence[A]) -> A:
        """The 1-D arrays end to end."""
        raise NotImplementedError

    def count_tensor(self, n: int, like: A) -> Tensor:
        """``n`` as an int64 0-d *tensor* on ``like``'s device."""
        raise NotImplementedError

    def cumsum(self, a: A, axis: int) -> A:
        """Running sums along ``axis`` (``a``'s floating dtype)."""
        raise NotImplementedError

    def cumsum0(self, a: A) -> A:
        """``[0, a0, a0 + a1, ...]``: ``n + 1`` values in ``a``'s dtype (bools as int64)."""
        raise NotImplementedError

    def diff(self, a: A, append: int) -> A:
        """``a[1:] - a[:-1]`` of a 1-D array with the number ``append`` after its last value (``a.shape[0]``
        values)."""
        raise NotImplementedError

    def divisor(self, w: A) -> A:
        """``w`` where ``w != 0``, else 1: a safe divisor for a weight sum or count."""
        raise NotImplementedError

    def empty(self, shape: Tuple[int, ...], like: A) -> A:
        """Scratch of ``shape`` in :attr:`real` (on ``like``'s device)."""
        raise NotImplementedError

    def exp(self, a: A) -> A:
        """``e ** a``."""
        raise NotImplementedError

    def exp2(self, a: A) -> A:
        """``2 ** a``."""
        raise NotImplementedError

    def floating(self, a: A) -> A:
        """``a`` in :attr:`real` (no copy when it already is)."""
        raise NotImplementedError

    def lgamma(self, a: A) -> A:
        """log Gamma of floating whole numbers >= 1 (numpy: from ``math.lgamma``, exact to the last bit)."""
        raise NotImplementedError

    def log(self, a: A) -> A:
        """Natural logarithm."""
        raise NotImplementedError

    def log1p(self, a: A) -> A:
        """``log(1 + a)``, accurate for small ``a``."""
        raise NotImplementedError

    def log2(self, a: A) -> A:
        """Base-2 logarithm."""
        raise NotImplementedError

    def matvec(self, x: A, w: A, out: A) -> A:
        """``x @ w`` of a ``(m, N)`` and a ``(N,)`` array, written into ``out`` ``(m,)`` and returned."""
        raise NotImplementedError

    def maximum(self, a: A, c: float) -> A:
        """Elementwise ``max(a, c)`` with a number ``c``."""
        raise NotImplementedError

    def minimum(self, a: A, c: int) -> A:
        """Elementwise ``min(a, c)`` with a number ``c``."""
        raise NotImplementedError

    def nonzero(self, mask: A) -> A:
        """int64 indices where a 1-D bool array is True."""
        raise NotImplementedError

    def repeat(self, a: A, counts: A) -> A:
        """``a[i]`` repeated ``counts[i]`` times."""
        raise NotImplementedError

    def result_dtype(self, like: Tensor) -> torch.dtype:
        """The torch floating dtype of results that come back as tensors on ``like``'s device: :attr:`real` in
        torch; in numpy the CPU's (float64, float32 where a test takes float64 away from the CPU)."""
        raise NotImplementedError

    def row_sums(self, x: A, out: A) -> A:
        """``x.sum(1)`` of a ``(m, N)`` array, written into ``out`` ``(m,)`` and returned."""
        raise NotImplementedError

    def run_starts(self, a: A) -> A:
        """int64 indices where a run of equal values starts in the 1-D ``a`` (``[0, ...]``; empty for empty
        ``a``): the tie groups of a sorted array."""
        raise NotImplementedError

    def searchsorted(self, a: A, v: A, right: bool = False) -> A:
        """int64 insertion points of the values ``v`` in the ascending 1-D ``a``: left, or after equal values
        (``right``)."""
        raise NotImplementedError

    def segment_sum(self, values: A, ids: A, n: int) -> A:
        """``(n,)`` sums in :attr:`real` of ``values`` (any real dtype, bools as 0/1) by their int64 segment ``ids``
        in ``[0, n)``."""
        raise NotImplementedError

    def select_sorted(self, a: A, mask: A) -> A:
        """The ascending sorted copy of ``a[mask]`` (1-D; ``mask`` bool, or 0/1: nonzero selects)."""
        raise NotImplementedError

    def sort(self, a: A, stable: bool = False) -> A:
        """``a`` sorted ascending along its last axis (values only; ``stable``: a stable sort, the fast merge of a
        few long sorted runs in numpy; the values are the same either way)."""
        raise NotImplementedError

    def subtract(self, a: A, b: A, out: Optional[A] = None) -> A:
        """``a - b`` formed in :attr:`real` (each converted exactly first, one rounding), into ``out`` if given."""
        raise NotImplementedError

    def take(self, a: A, index: A) -> A:
        """``a[index]`` of a 1-D ``a`` and int64 indices."""
        raise NotImplementedError

    def tensor(self, a: A, like: Tensor) -> Tensor:
        """An array back as a tensor on ``like``'s device (numpy: zero-copy)."""
        raise NotImplementedError

    def upper_bound(self, a: A, bound: int) -> int:
        """An int at least every value of the int64 ``a``: its maximum (0 when empty) where reading it back costs
        nothing (numpy), else the caller's ``bound`` (torch: no host sync; ``bound`` must hold)."""
        raise NotImplementedError

    def vecdot(self, a: A, b: A, out: Optional[A] = None) -> A:
        """Row-wise dot products of two ``(m, N)`` arrays (into ``out`` ``(m,)`` if given)."""
        raise NotImplementedError

    def where(self, condition: A, a: Any, b: Any) -> A:
        """``a`` where ``condition``, else ``b`` (either may be a number)."""
        raise NotImplementedError


def _lgamma(a: np.ndarray) -> np.ndarray:
    """log Gamma of whole numbers >= 1, from a table of ``math.lgamma`` (exact to the last bit)."""
    if a.size == 0:
        return np.zeros(0)
    table = np.array([0.0] + [math.lgamma(v) for v in range(1, int(a.max()) + 1)])
    return table.take(a.astype(np.int64))


def _direct(f: Any) -> Any:
    """``f`` as a method that is ``f`` itself (a bound numpy callable: no Python frame of the namespace's own)."""
    return staticmethod(f)


class _Numpy(Xp):
    """numpy spellings: bound numpy callables where one fits (no Python frame of their own in hot kernels)."""

    name = "numpy"
    real = np.float64

    def arange(self, n: int, like: Any) -> np.ndarray:
        return np.arange(n, dtype=np.int64)

    def asarray(self, t: Tensor) -> np.ndarray:
        # the common case first: a tensor numpy views as it is, needing no autograd, is a plain numpy() view
        return t.numpy() if t.dtype in _VIEWED and not t.requires_grad else host(t)

    def bincount(self, ids: np.ndarray, n: int) -> np.ndarray:
        return np.bincount(ids, minlength=n)

    def ceil(self, a: np.ndarray, scale: Optional[int] = None) -> np.ndarray:
        return np.ceil(a if scale is None else np.multiply(a, scale, dtype=np.float64)).astype(np.int64)

    def clip(self, a: np.ndarray, hi: np.ndarray) -> np.ndarray:
        return np.minimum(np.maximum(a, 0), hi)

    def column_extremes(self, a: np.ndarray, out: np.ndarray) -> np.ndarray:
        out[0] = a.min(0)
        out[1] = a.max(0)
        return out

    concatenate = _direct(np.concatenate)

    def count_tensor(self, n: int, like: Any) -> Tensor:
        return torch.from_numpy(np.array(n, dtype=np.int64))

    def cumsum(self, a: np.ndarray, axis: int) -> np.ndarray:
        return np.cumsum(a, axis)

    def cumsum0(self, a: np.ndarray) -> np.ndarray:
        out = np.zeros(a.shape[0] + 1, dtype=np.int64 if a.dtype == np.bool_ else a.dtype)
        np.cumsum(a, out=out[1:])
        return out

    def diff(self, a: np.ndarray, append: int) -> np.ndarray:
        return np.diff(a, append=append)

    def divisor(self, w: Any) -> Any:
        return np.where(w != 0, w, 1.0)

    def empty(self, shape: Tuple[int, ...], like: Any) -> np.ndarray:
        return np.empty(shape)

    exp = _direct(np.exp)
    exp2 = _direct(np.exp2)
    floating = _direct(partial(np.asarray, dtype=np.float64))  # a numpy callable: no Python frame
    lgamma = _direct(_lgamma)
    log = _direct(np.log)
    log1p = _direct(np.log1p)
    log2 = _direct(np.log2)

    def matvec(self, x: np.ndarray, w: np.ndarray, out: np.ndarray) -> np.ndarray:
        return np.matmul(x, w, out=out)

    maximum = _direct(np.maximum)
    minimum = _direct(np.minimum)
    nonzero = _direct(np.flatnonzero)
    repeat = _direct(np.ndarray.repeat)  # the method: np.repeat adds a Python wrapper call

    def result_dtype(self, like: Tensor) -> torch.dtype:
        return float_dtype(like.device)

    def row_sums(self, x: np.ndarray, out: np.ndarray) -> np.ndarray:
        return np.add.reduce(x, 1, out=out)

    def run_starts(self, a: np.ndarray) -> np.ndarray:
        flags = np.ones(a.shape[0], dtype=np.bool_)
        np.not_equal(a[1:], a[:-1], out=flags[1:])
        return np.flatnonzero(flags)

    def searchsorted(self, a: np.ndarray, v: Any, right: bool = False) -> np.ndarray:
        return np.searchsorted(a, v, side="right" if right else "left").astype(np.int64, copy=False)

    def segment_sum(self, values: np.ndarray, ids: np.ndarray, n: int) -> np.ndarray:
        return np.bincount(ids, values, minlength=n).astype(np.float64, copy=False)

    def select_sorted(self, a: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = np.compress(mask if mask.dtype == np.bool_ else mask != 0, a)
        out.sort()  # in place: the selection is a fresh copy
        return out

    def sort(self, a: np.ndarray, stable: bool = False) -> np.ndarray:
        return np.sort(a, kind="stable" if stable else None)

    def subtract(self, a: np.ndarray, b: np.ndarray, out: Optional[np.ndarray] = None) -> np.ndarray:
        return np.subtract(a, b, out=out, dtype=np.float64)

    take = _direct(np.ndarray.take)  # the method: np.take adds a Python wrapper call per gather

    def tensor(self, a: np.ndarray, like: Tensor) -> Tensor:
        return torch.from_numpy(np.asarray(a))

    def upper_bound(self, a: np.ndarray, bound: int) -> int:
        return int(a.max(initial=0))

    vecdot = _direct(np.vecdot)
    where = _direct(np.where)


class _Torch(Xp):
    """torch spellings, every shape known before the data (``torch.compile``, no host sync on CUDA)."""

    name = "torch"

    def __init__(self, real: torch.dtype) -> None:
        self.real = real

    def arange(self, n: int, like: Tensor) -> Tensor:
        return torch.arange(n, device=like.device)

    def asarray(self, t: Tensor) -> Tensor:
        return t.detach()

    def bincount(self, ids: Tensor, n: int) -> Tensor:
        ones = torch.ones((), dtype=torch.int64, device=ids.device).expand(ids.shape[0])
        return torch.zeros(n, dtype=torch.int64, device=ids.device).index_add_(0, ids, ones)

    def ceil(self, a: Tensor, scale: Optional[int] = None) -> Tensor:
        return torch.ceil(a if scale is None else a.to(self.real) * scale).to(torch.int64)

    def clip(self, a: Tensor, hi: Tensor) -> Tensor:
        return torch.minimum(torch.clamp(a, min=0), hi)

    def column_extremes(self, a: Tensor, out: Tensor) -> Tensor:
        low, high = torch.aminmax(a.to(out.dtype), dim=0)  # converted first: aminmax takes no bool
        out[0] = low
        out[1] = high
        return out

    def concatenate(self, arrays: Sequence[Tensor]) -> Tensor:
        return torch.cat(list(arrays))

    def count_tensor(self, n: int, like: Tensor) -> Tensor:
        return torch.full((), n, dtype=torch.int64, device=like.device)

    def cumsum(self, a: Tensor, axis: int) -> Tensor:
        return a.cumsum(axis)

    def cumsum0(self, a: Tensor) -> Tensor:
        a = a.to(torch.int64) if a.dtype == torch.bool else a
        return torch.cat([a.new_zeros(1), a.cumsum(0)])

    def diff(self, a: Tensor, append: int) -> Tensor:
        return torch.diff(a, append=a.new_tensor([append]))

    def divisor(self, w: Tensor) -> Tensor:
        return torch.where(w != 0, w, 1.0)

    def empty(self, shape: Tuple[int, ...], like: Tensor) -> Tensor:
        return torch.empty(shape, dtype=self.real, device=like.device)

    def exp(self, a: Tensor) -> Tensor:
        return torch.exp(a)

    def exp2(self, a: Tensor) -> Tensor:
        return torch.exp2(a)

    def floating(self, a: Tensor) -> Tensor:
        return a.to(self.real)

    def lgamma(self, a: Tensor) -> Tensor:
        return torch.lgamma(a)

    def log(self, a: Tensor) -> Tensor:
        return torch.log(a)

    def log1p(self, a: Tensor) -> Tensor:
        return torch.log1p(a)

    def log2(self, a: Tensor) -> Tensor:
        return torch.log2(a)

    def matvec(self, x: Tensor, w: Tensor, out: Tensor) -> Tensor:
        return out.copy_(x @ w)

    def maximum(self, a: Tensor, c: float) -> Tensor:
        return torch.clamp_min(a, c)

    def minimum(self, a: Tensor, c: int) -> Tensor:
        return torch.clamp(a, max=c)

    def nonzero(self, mask: Tensor) -> Tensor:
        return torch.nonzero(mask).view(-1)

    def repeat(self, a: Tensor, counts: Tensor) -> Tensor:
        return torch.repeat_interleave(a, counts)

    def result_dtype(self, like: Tensor) -> torch.dtype:
        return self.real

    def row_sums(self, x: Tensor, out: Tensor) -> Tensor:
        return out.copy_(x.sum(1))

    def run_starts(self, a: Tensor) -> Tensor:
        new = torch.ones_like(a, dtype=torch.bool)
        if a.numel() > 1:
            torch.ne(a[1:], a[:-1], out=new[1:])
        return torch.nonzero(new).view(-1)

    def searchsorted(self, a: Tensor, v: Tensor, right: bool = False) -> Tensor:
        return torch.searchsorted(a, v, right=right)

    def segment_sum(self, values: Tensor, ids: Tensor, n: int) -> Tensor:
        return torch.zeros(n, dtype=self.real, device=values.device).index_add_(0, ids, values.to(self.real))

    def select_sorted(self, a: Tensor, mask: Tensor) -> Tensor:
        return torch.sort(a[mask if mask.dtype == torch.bool else mask != 0]).values

    def sort(self, a: Tensor, stable: bool = False) -> Tensor:
        return torch.sort(a, dim=-1, stable=stable).values

    def subtract(self, a: Tensor, b: Tensor, out: Optional[Tensor] = None) -> Tensor:
        return torch.sub(a.to(self.real), b.to(self.real), out=out)

    def take(self, a: Tensor, index: Tensor) -> Tensor:
        return a[index]

    def tensor(self, a: Tensor, like: Tensor) -> Tensor:
        return a

    def upper_bound(self, a: Tensor, bound: int) -> int:
        return bound

    def vecdot(self, a: Tensor, b: Tensor, out: Optional[Tensor] = None) -> Tensor:
        # a few long rows: one BLAS product streams them once (3x faster than vecdot's product-then-sum on 1e6
        # samples; its O(m²) extra work is nothing then); short or many rows: one vecdot call
        m, n = a.shape[-2:] if a.dim() > 1 else (1, a.shape[0])
        long_rows = a.dim() == 2 and n >= 8192 and m <= 8 and not torch.compiler.is_compiling()
        value = torch.mm(a, b.T).diagonal() if long_rows else torch.linalg.vecdot(a, b)
        return value if out is None else out.copy_(value)

    def where(self, condition: Tensor, a: Any, b: Any) -> Tensor:
        return torch.where(condition, a, b)


#: The numpy namespace (CPU tensors).
NUMPY: Xp = _Numpy()


_TORCH: Dict[Any, Xp] = {}  # the torch namespaces made, by floating dtype (a dict: ``torch.compile`` reads it)


def torch_namespace(real: Optional[torch.dtype] = None) -> Xp:
    """The torch namespace whose floating values are ``real`` (float64, the default, or float32 on a device
    without it); one per dtype."""
    xp = _TORCH.get(real)
    if xp is None:
        _bind_torch()
        xp = _TORCH[real] = _Torch(torch.float64 if real is None else real)
    return xp


def namespace(t: Tensor, max_elements: Optional[int] = None) -> Xp:
    """The namespace a kernel runs in for the batch ``t``: :data:`NUMPY` where
    :func:`~torchmetrics_lite._backend.use_numpy` says so (a CPU tensor of at most ``max_elements`` elements,
    not under ``torch.compile``), else the torch namespace of ``t``'s device. The one backend decision."""
    return NUMPY if use_numpy(t, max_elements) else torch_namespace(float_dtype(t.device))


# -------------------------------------------------------------------------- torch, bound on first need
def _bind_torch() -> None:
    """Bind torch and the backend switch in this module (a no-op once done)."""
    global torch, host, use_numpy, float_dtype, _VIEWED
    import torch

    from torchmetrics_lite._backend import host, use_numpy
    from torchmetrics_lite._dtype import float_dtype

    _VIEWED = frozenset((torch.float32, torch.float64, torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8,
                         torch.bool))


def _binding(name: str) -> Callable[..., Any]:
    """Stands for the torch-side function ``name`` until torch is bound (the command line never calls it)."""
    def first_call(*args: Any) -> Any:
        _bind_torch()
        return globals()[name](*args)
    return first_call


_VIEWED: frozenset = frozenset()  # the dtypes :meth:`_Numpy.asarray` views directly (bound with torch)
host: Callable[..., Any] = _binding("host")
use_numpy: Callable[..., bool] = _binding("use_numpy")
float_dtype: Callable[..., Any] = _binding("float_dtype")
if "torch" in sys.modules:  # every tensor path: bind now
    _bind_torch()
