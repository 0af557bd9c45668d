"""Batch statistics of the regression metrics, twice: numpy on CPU, torch elsewhere.

At a training loop's batch size (a thousand samples) the statistics are a dozen small reductions, and each
torch call costs microseconds of dispatch, more than its arithmetic; numpy's calls cost a fraction of that.
So small CPU batches (:data:`NUMPY_MAX_ELEMENTS`) run in numpy on zero-copy views of the tensors (results
come back as CPU tensors, sharing memory); larger ones and other devices run in torch, without any host
sync. Both paths compute the same float64 quantities with the same operations (the tests compare them on
CPU with ``backend="torch"``).

* :func:`error_sums`: per-output ``sum e²``, ``sum |e|`` or ``sum |e| / max(|y|, eps)`` of the residual
  ``e = target - preds`` formed in float64 (every input dtype converts exactly, int64 beyond 2**53 aside).
* :func:`moments`: per column ``[n, mean, M2]`` of the target and of the residual, two-pass (mean, then the
  centred sum of squares), so no digit is lost to a large offset.
* :func:`fold_pair`: Chan's pairwise merge (:func:`chan`) of two such moment states, in place.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite import _backend
from torchmetrics_lite._backend import host

#: scikit-learn's floor on ``|target|`` in MAPE: ``numpy.finfo(numpy.float64).eps``.
MAPE_EPS = float(np.finfo(np.float64).eps)


#: the numpy path takes CPU batches up to this many elements: where dispatch dominates, and below the size
#: from which OpenBLAS (numpy's dot products) spawns threads, which on a loaded machine costs milliseconds.
NUMPY_MAX_ELEMENTS = 8192


def use_numpy(t: Tensor, backend: Optional[str] = None, max_elements: Optional[int] = NUMPY_MAX_ELEMENTS) -> bool:
    """:func:`torchmetrics_lite._backend.use_numpy` with this family's size limit; ``backend`` forces a path."""
    if backend is not None:
        return backend == "numpy" and t.device.type == "cpu"
    return _backend.use_numpy(t, max_elements)


def _columns(a: Any) -> Any:
    """``(N,)`` or ``(N, d)`` (numpy array or tensor) as a ``(d, N)`` view."""
    return a[None] if a.ndim == 1 else a.T


# ------------------------------------------------------------------------------------------- error sums
def error_sums(preds: Tensor, target: Tensor, kind: str, backend: Optional[str] = None) -> Tensor:
    """Per-output float64 sums ``(d,)`` of ``e²`` (``kind="squared"``), ``|e|`` (``"absolute"``) or
    ``|e| / max(|target|, eps)`` (``"percentage"``), ``e = target - preds`` in float64."""
    if not use_numpy(target, backend):
        return _error_sums_torch(preds, target, kind)
    t = _columns(host(target))
    err = np.subtract(t, _columns(host(preds)), dtype=np.float64)  # exact conversion, then one rounding
    if kind == "squared":
        total = np.vecdot(err, err)
    else:
        np.abs(err, out=err)
        if kind == "percentage":
            err /= np.maximum(np.abs(t, dtype=np.float64), MAPE_EPS)
        total = err.sum(1)
    return torch.from_numpy(total)


def _error_sums_torch(preds: Tensor, target: Tensor, kind: str) -> Tensor:
    t = _columns(target).to(torch.float64)
    err = torch.sub(t, _columns(preds))  # type promotion converts `preds` exactly
    if kind == "squared":
        return torch.linalg.vecdot(err, err)
    err.abs_()
    if kind == "percentage":
        err.div_(t.abs().clamp_min_(MAPE_EPS))
    return err.sum(1)


# ---------------------------------------------------------------------------------------------- moments
def moments(preds: Tensor, target: Tensor, backend: Optional[str] = None) -> Tensor:
    """``(3, 2d)`` rows ``[n, mean, M2]`` of the target columns, then of the residual ``target - preds``
    columns (float64; a scratch ``(2d, N)`` holds both, the residual formed in float64)."""
    if not use_numpy(target, backend):
        t = _columns(target).to(torch.float64)
        return moment_rows(torch.cat([t, torch.sub(t, _columns(preds))]))
    t, p = host(target), host(preds)
    if t.ndim == 1:  # the common case, on 1-D arrays with scalar means: half the numpy calls
        return torch.from_numpy(_moments_1d(t, p))
    d, n = t.shape[1], t.shape[0]
    x = np.empty((2 * d, n))
    x[:d] = t.T
    np.subtract(x[:d], p.T, out=x[d:])
    return torch.from_numpy(moment_rows(x))


def _moments_1d(t: np.ndarray, p: np.ndarray) -> np.ndarray:
    """:func:`moments` of one output on numpy arrays, the same operations as :func:`moment_rows`."""
    n = t.shape[0]
    t64 = t.astype(np.float64)
    e = np.subtract(t64, p)  # float64: `p` converts exactly, then one rounding
    mean_t, mean_e = float(np.add.reduce(t64)) / max(n, 1), float(np.add.reduce(e)) / max(n, 1)
    t64 -= mean_t
    e -= mean_e
    return np.array([[n, n], [mean_t, mean_e], [float(np.vecdot(t64, t64)), float(np.vecdot(e, e))]], dtype=np.float64)


def moment_rows(x: Any) -> Any:
    """``(3, m)`` rows ``[n, mean, M2]`` of the rows of ``x`` ``(m, N)`` (a float64 numpy array or tensor,
    one variable per contiguous row), two-pass; zeros if N = 0. ``x`` is scratch: it is centred in place."""
    m, n = x.shape
    if isinstance(x, np.ndarray):
        out = np.empty((3, m))
        out[0] = n
        np.divide(np.add.reduce(x, 1), max(n, 1), out=out[1])
        x -= out[1][:, None]
        np.vecdot(x, x, out=out[2])
        return out
    mean = x.sum(1).div_(float(max(n, 1)))
    x.sub_(mean.unsqueeze(1))
    # a few long rows: one BLAS Gram product streams them once (3x faster than vecdot's product-then-sum on
    # 1e6 samples; its O(m²) extra work is nothing then); short or many rows: one vecdot call
    m2 = torch.mm(x, x.T).diagonal() if n >= 8192 and m <= 8 else torch.linalg.vecdot(x, x)
    return torch.stack([torch.full_like(mean, n), mean, m2])


#: up to this many columns, the CPU merge runs on Python floats (a dozen float operations per column cost less
#: than one numpy call each); wider states use numpy rows.
_SCALAR_COLUMNS = 16


def fold_pair(state: Tensor, stats: Tensor, backend: Optional[str] = None) -> None:
    """In place, ``state <- fold(stack([state, stats]))`` for two ``(3, m)`` moment states (Chan's update,
    :func:`chan`). On CPU it runs on zero-copy numpy views (Python floats for narrow states: IEEE doubles,
    the same results), elsewhere in torch (no host sync)."""
    if not use_numpy(state, backend):
        state.copy_(torch.stack(chan(*state.unbind(0), *stats.unbind(0), torch.clamp_min)))
        return
    a = state.numpy()
    if a.shape[1] > _SCALAR_COLUMNS:
        a[:] = chan(*a, *host(stats), np.maximum)
    else:
        a.T[:] = [chan(*col, max) for col in zip(*a.tolist(), *stats.tolist())]


def chan(n_a: Any, mean_a: Any, m2_a: Any, n_b: Any, mean_b: Any, m2_b: Any, at_least: Any) -> Tuple[Any, Any, Any]:
    """Chan, Golub & LeVeque's merge of two parts' ``(n, mean, M2)`` (floats, numpy rows or tensors alike):
    ``delta = mean_b - mean_a``, ``mean = mean_a + delta n_b / n``, ``M2 = M2_a + M2_b + delta² n_a n_b / n``.
    An empty part b gives part a exactly; an empty part a with the default mean 0 gives part b exactly
    (``n_b / n`` is then 1)."""
    n = n_a + n_b
    delta = mean_b - mean_a
    step = delta * (n_b / at_least(n, 1.0))  # 0 when both parts are empty
    return n, mean_a + step, m2_a + m2_b + n_a * delta * step
