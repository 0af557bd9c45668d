"""Batch statistics of the regression metrics, written once for numpy and torch.

At a training loop's batch size (a thousand samples) the statistics are a dozen small reductions, and each
torch call costs microseconds of dispatch, more than its arithmetic; numpy's calls cost a fraction of that.
So small CPU batches (:data:`NUMPY_MAX_ELEMENTS`) run in numpy on zero-copy views of the tensors (results come
back as CPU tensors, sharing memory); larger ones, other devices and ``torch.compile`` run in torch, without any
host sync. :func:`torchmetrics_lite._xp.namespace` chooses; the arithmetic below is written once, on
operators both libraries share, plus the few calls of the array namespace ``xp`` (:mod:`torchmetrics_lite._xp`)
where their spelling differs. The tests run both paths on CPU with ``_backend.force``.

* :func:`error_sums`: per-output ``sum w e²``, ``sum w |e|`` or ``sum w |e| / max(|y|, eps)`` of the residual
  ``e = target - preds`` formed in float64 (every input dtype converts exactly, int64 beyond 2**53 aside);
  ``w = 1`` without weights.
* :func:`moments`: per column ``[count, weight, mean, M2]`` of the target and of the residual: the sample count,
  the weight sum ``W = sum w``, the weighted mean and ``M2 = sum w (x - mean)²``, two-pass (mean, then the
  centred sum of squares), so no digit is lost to a large offset.
* :func:`fold_pair`: the weighted Chan merge (:func:`chan`) of two such moment states, in place.

**A device without float64** (Apple MPS; :func:`~torchmetrics_lite.metric.float_dtype`): ``namespace`` returns the
float32 torch namespace, the same torch calls with float32 statistics, so no float64 tensor is made there. What a
float32 stream keeps: the residual ``target - preds`` of two float32 inputs is rounded once (relative 2**-24, exact
when they lie within a factor of two: Sterbenz); the error sums add non-negative terms, so they have no
cancellation and their relative error only grows with the number of additions (each batch's torch reduction, then
one float32 addition per update: about ``sqrt(k) 2**-24`` for ``k`` updates, at most ``k 2**-24``). The moments
stay well-conditioned: each batch is centred on its own float32 mean before squaring (two-pass; a value within a
factor of two of the mean is centred exactly: Sterbenz), and the Chan/West merge adds ``M2`` parts and ``W_a delta²
W_b / W``, all non-negative, with ``delta`` the difference of two means (no raw sum of squares, which in float32
would lose every digit of a unit variance at an offset of 1e4). The means carry half an ulp of their value (the
float32 inputs' own resolution), which enters ``M2`` through the merge's mean differences: a relative error of
about ``2 kappa 2**-24 / sqrt(N)`` for ``N`` samples, ``kappa = |mean| / std`` (the variance's condition number),
against ``kappa² 2**-24`` for raw sums; on top of that the rounding of the additions, which grows as the error
sums'. Counts in the moment state are exact up to 2**24 samples in float32 (a relative error of 2**-24 beyond).
Measured over 1e7 float32 samples (targets 1e4 + N(0, 1), ``kappa = 1e4``) in 1e3 updates of 1e4 or 1e4 updates of
1e3: MSE within 4e-6 of the float64 value, R² and explained variance within 2e-6 (``python -m
benchmarks.float32_streams``); 100 samples at ``kappa = 1e4``: R² within 2e-4
(``tests/torchmetrics_lite/regression/test_regression_float64_less_device.py``).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._backend import host
from torchmetrics_lite._xp import NUMPY, Xp, namespace, torch_namespace

#: scikit-learn's floor on ``|target|`` in MAPE: ``numpy.finfo(numpy.float64).eps``.
MAPE_EPS = float(np.finfo(np.float64).eps)

#: the numpy path takes CPU batches up to this many elements: where dispatch dominates, and below the size
#: from which OpenBLAS (numpy's dot products) spawns threads, which on a loaded machine costs milliseconds.
NUMPY_MAX_ELEMENTS = 8192

#: moment-state rows: sample count, weight sum, weighted mean, weighted centred sum of squares
COUNT, WEIGHT, MEAN, M2 = range(4)


def columns(a: Any) -> Any:
    """``(N,)`` or ``(N, d)`` (numpy array or tensor) as a ``(d, N)`` view."""
    return a[None] if a.ndim == 1 else a.T


# ------------------------------------------------------------------------------------------- error sums
def error_sums(preds: Tensor, target: Tensor, kind: str, weight: Optional[Tensor] = None) -> Tuple[Tensor, Tensor]:
    """Per-output float64 sums ``(d,)`` of ``w e²`` (``kind="squared"``), ``w |e|`` (``"absolute"``) or
    ``w |e| / max(|target|, eps)`` (``"percentage"``), ``e = target - preds`` in float64, ``w`` the
    ``(N,)`` weights; and their denominator: the int64 count ``N`` without weights, else the float64 ``sum w``."""
    xp = namespace(target, NUMPY_MAX_ELEMENTS)
    t = columns(xp.asarray(target))
    err = xp.subtract(t, columns(xp.asarray(preds)))  # exact conversions, then one rounding
    if weight is None:
        w, denominator = None, xp.count_tensor(t.shape[1], t)
    else:
        w = xp.floating(xp.asarray(weight))
        denominator = xp.tensor(w.sum(), target)
    if kind == "squared":
        return xp.tensor(xp.vecdot(err, err) if w is None else xp.vecdot(err, err * w), target), denominator
    terms = abs(err)
    if kind == "percentage":
        terms = terms / xp.maximum(abs(xp.floating(t)), MAPE_EPS)
    return xp.tensor(terms.sum(-1) if w is None else terms @ w, target), denominator


def present_sum(state: Dict[str, Tensor], count: str, weight: str) -> Tensor:
    """The denominator of a weighted mean, ``state[count] + state[weight]``: a module's state holds both (the
    int64 count of unweighted samples, the float64 weight sum of weighted ones), one batch's statistics one."""
    if count in state and weight in state:
        return state[count] + state[weight]
    return state[count] if count in state else state[weight]


# ---------------------------------------------------------------------------------------------- moments
def moments(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None) -> Tensor:
    """``(4, 2d)`` rows ``[count, weight, mean, M2]`` of the target columns, then of the residual
    ``target - preds`` columns (float64; a scratch ``(2d, N)`` holds both, the residual formed in float64)."""
    xp = namespace(target, NUMPY_MAX_ELEMENTS)
    t, p = xp.asarray(target), xp.asarray(preds)
    n, d = t.shape[0], 1 if t.ndim == 1 else t.shape[1]
    x = xp.empty((2 * d, n), t)
    if t.ndim == 1:  # the common case, without the (1, N) views
        x[0] = t
        xp.subtract(x[0], p, out=x[1])
    else:
        x[:d] = t.T
        xp.subtract(x[:d], p.T, out=x[d:])
    return xp.tensor(moment_rows(xp, x, None if weight is None else xp.floating(xp.asarray(weight))), target)


def column_extremes(values: Tensor) -> Tensor:
    """``(2, d)`` rows: the minimum and the maximum of each column of ``(N,)`` (one column) or ``(N, d)``
    values, in the moments' floating dtype (exact: the conversion keeps the order; NaN propagates); ``inf``
    and ``-inf`` (the identities of a streaming min and max) when ``N = 0``."""
    xp = namespace(values, NUMPY_MAX_ELEMENTS)
    out = xp.empty((2, 1 if values.ndim == 1 else values.shape[1]), values)
    if values.shape[0]:
        xp.column_extremes(xp.asarray(values), out)
    else:
        out[0], out[1] = float("inf"), float("-inf")
    return xp.tensor(out, values)


def moment_rows(xp: Xp, x: Any, w: Any = None) -> Any:
    """``(4, m)`` rows ``[count, weight, mean, M2]`` of the rows of ``x`` ``(m, N)`` (float64, one variable
    per contiguous row; ``xp``'s array type), weighted by ``w`` ``(N,)`` when given, two-pass; a zero weight
    sum gives mean 0 and M2 0. ``x`` is scratch: it is centred in place."""
    m, n = x.shape
    out = xp.empty((4, m), x)
    if w is None:
        out[COUNT : WEIGHT + 1] = n
        mean = xp.row_sums(x, out[MEAN])
        mean /= max(n, 1)
    else:
        out[COUNT] = n
        out[WEIGHT] = total = w.sum()
        mean = xp.matvec(x, w, out[MEAN])
        mean /= xp.divisor(total)
    x -= mean[:, None]
    xp.vecdot(x, x if w is None else x * w, out[M2])
    return out


#: up to this many columns, the CPU merge runs on Python floats (a dozen float operations per column cost less
#: than one numpy call each); wider states use numpy rows.
SCALAR_COLUMNS = 16


def fold_pair(state: Tensor, stats: Tensor) -> None:
    """In place, ``state <- fold(stack([state, stats]))`` for two ``(4, m)`` moment states (the weighted Chan
    update, :func:`chan`). On CPU it runs on zero-copy numpy views (Python floats for narrow states: IEEE
    doubles, the same results), elsewhere in torch (no host sync)."""
    xp = namespace(state)
    if xp is not NUMPY:
        state.copy_(torch.stack(chan(state.unbind(0), stats.unbind(0), xp.divisor)))
        return
    a = state.numpy()
    if a.shape[1] > SCALAR_COLUMNS:
        a[:] = chan(a, host(stats), NUMPY.divisor)
    else:
        a.T[:] = [chan(x, y, _nonzero) for x, y in zip(zip(*a.tolist()), zip(*stats.tolist()))]


def _nonzero(w: float) -> float:
    return w or 1.0


def chan(part_a: Iterable[Any], part_b: Iterable[Any], nonzero: Callable[[Any], Any]) -> Tuple[Any, Any, Any, Any]:
    """The weighted form of Chan, Golub & LeVeque's merge of two parts' ``(count, W, mean, M2)`` (floats, numpy
    rows or tensors alike): ``delta = mean_b - mean_a``, ``mean = mean_a + delta W_b / W``,
    ``M2 = M2_a + M2_b + delta² W_a W_b / W`` (West, 1979), counts added. An empty (or zero-weight) part b gives
    part a exactly; an empty part a with the default mean 0 gives part b exactly (``W_b / W`` is then 1)."""
    (c_a, w_a, mean_a, m2_a), (c_b, w_b, mean_b, m2_b) = part_a, part_b
    w = w_a + w_b
    delta = mean_b - mean_a
    step = delta * (w_b / nonzero(w))  # 0 when both parts weigh nothing
    return c_a + c_b, w, mean_a + step, m2_a + m2_b + w_a * delta * step


def fold_stack(stack: Tensor) -> Tensor:
    """Merge a stack ``(k, 4, m)`` of moment states into one ``(4, m)`` (see
    :func:`~torchmetrics_lite.functional.regression.fold_moments`)."""
    c_i, w_i, mean_i, m2_i = stack.unbind(1)
    w = w_i.sum(0)
    first = (w_i > 0).to(torch.uint8).argmax(0, keepdim=True)  # first part of each column with weight
    ref = mean_i.gather(0, first)[0]
    mean = ref + (w_i * (mean_i - ref)).sum(0) / torch_namespace().divisor(w)
    m2 = m2_i.sum(0) + (w_i * (mean_i - mean).square()).sum(0)
    return torch.stack([c_i.sum(0), w, mean, m2])


__all__: List[str] = ["error_sums", "present_sum", "moments", "moment_rows", "fold_pair", "fold_stack", "chan",
                      "MAPE_EPS"]
