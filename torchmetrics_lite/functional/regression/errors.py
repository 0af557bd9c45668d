"""torchmetrics' other pooled regression errors: each a sum of per-element terms over a count (float64 sums, int64
counts, so streaming and sync are exact up to the order of float64 additions).

The terms (``e = target - preds``, every sum over all elements of any shape unless a function says otherwise):
squared log error ``(log1p(preds) - log1p(target))²``, log-cosh ``log cosh e`` (per output column), Minkowski
``|e|^p`` (the value is the ``p``-th root of the sum), the Tweedie deviance, the weighted MAPE ``sum |e| / sum
|target|``, the symmetric MAPE ``2 |e| / (|target| + |preds|)``, the critical success index's hit / miss / false
alarm counts and the CRPS of an ensemble.
"""
from __future__ import annotations

import math
from typing import Any, Dict, Optional, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_ensemble,
    check_keep_sequence_dim,
    check_lower_bound,
    check_minkowski_p,
    check_no_nan,
    check_real_pair,
    check_regression_inputs,
    check_regression_values,
    check_tweedie_domain,
    check_tweedie_power,
)
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite._xp import NUMPY, Xp, namespace, torch_namespace
from torchmetrics_lite.functional.regression._kernels import NUMPY_MAX_ELEMENTS

__all__ = [
    "mean_squared_log_error", "log_cosh_error", "minkowski_distance", "tweedie_deviance_score",
    "weighted_mean_absolute_percentage_error", "symmetric_mean_absolute_percentage_error",
    "critical_success_index", "continuous_ranked_probability_score",
]

State = Dict[str, Tensor]
PERCENT_EPS = 1.17e-06  # torchmetrics' floor on the (s)MAPE denominators


def _floats(*ts: Tensor) -> Tuple[Tensor, ...]:
    dtype = float_dtype(ts[0].device)
    return tuple(t.to(dtype=dtype) for t in ts)  # by keyword: torch parses the positional overloads slowly


def _count(t: Tensor) -> Tensor:
    """``t.numel()`` as an int64 0-d tensor on ``t``'s device (on the CPU, a view of a numpy scalar: a third of
    ``torch.tensor``'s cost)."""
    if t.is_cpu and not torch.compiler.is_compiling():
        return torch.from_numpy(np.array(t.numel(), dtype=np.int64))
    return torch.tensor(t.numel(), dtype=torch.int64, device=t.device)


# ------------------------------------------------------------------------------------------ the terms
# Written once over ``xp`` for their exact steps (conversions, ``-``, ``abs``, ``*``, ``/``, ``max``: correctly
# rounded, so numpy and torch give the same bits); their other functions (``exp``, ``log1p``, ``pow``) and every
# sum are torch's on both paths, on zero-copy views of the numpy arrays. numpy, where a torch call's dispatch
# costs more than its arithmetic, takes small contiguous CPU batches of every dtype but float16 and bfloat16 (a
# non-contiguous batch keeps torch's layout of the terms, and so torch's order of additions). numpy's
# floating-point warnings (``inf - inf``, an overflow), which torch does not give, are off in the term functions.
_quiet = np.errstate(over="ignore", invalid="ignore")  # a decorator: a context per call, per thread
_HALF = (torch.float16, torch.bfloat16)  # numpy reaches them through float32, where a NaN keeps its payload bits


def _namespace(preds: Tensor, target: Tensor) -> Xp:
    xp = namespace(target, NUMPY_MAX_ELEMENTS)
    if xp is NUMPY and not (preds.is_contiguous() and target.is_contiguous() and preds.dtype not in _HALF
                            and target.dtype not in _HALF):
        return torch_namespace(float_dtype(target.device))
    return xp


def _tensor(xp: Xp, a: Any) -> Tensor:
    """An array of ``xp`` as a tensor (numpy: a zero-copy view)."""
    return torch.from_numpy(np.asarray(a)) if xp is NUMPY else a  # asarray: a 0-d result is a numpy scalar


@_quiet
def _power_error_terms(preds: Tensor, target: Tensor, p: float) -> Tensor:
    """``|preds - target| ** p``: torch's ``pow``, whose exponents 1 (a copy) and 2 (``e * e``) numpy spells
    exactly."""
    xp = _namespace(preds, target)
    e = abs(xp.subtract(xp.asarray(preds), xp.asarray(target)))
    if xp is NUMPY and p in (1, 2):
        if p == 2:
            e *= e
        return _tensor(xp, e)
    return _tensor(xp, e).pow_(p)


@_quiet
def _squared_error_terms(preds: Tensor, target: Tensor) -> Tensor:
    """``(target - preds)²`` in float64 (MPS: float32)."""
    xp = _namespace(preds, target)
    terms = xp.subtract(xp.asarray(target), xp.asarray(preds))
    terms *= terms
    return _tensor(xp, terms)


@_quiet
def _log_cosh_terms(preds: Tensor, target: Tensor) -> Tensor:
    """``log cosh e = e + log1p(exp(-2e)) - log 2`` of ``e = |preds - target|`` (finite for every finite ``e``),
    ``(N, d)``: a 1-D input as one column."""
    xp = _namespace(preds, target)
    e = abs(xp.subtract(xp.asarray(preds), xp.asarray(target)))
    e = e[:, None] if e.ndim == 1 else e
    soft = _tensor(xp, e * -2).exp_().log1p_()
    terms = soft.numpy() if xp is NUMPY else soft
    terms += e
    terms -= math.log(2.0)
    return soft


@_quiet
def _smape_terms(preds: Tensor, target: Tensor) -> Tensor:
    """``2 |preds - target| / max(|target| + |preds|, eps)``."""
    xp = _namespace(preds, target)
    p, t = xp.asarray(preds), xp.asarray(target)
    scale = abs(xp.floating(t))
    scale += abs(xp.floating(p))
    terms = abs(xp.subtract(p, t))
    terms *= 2
    terms /= xp.maximum(scale, PERCENT_EPS)
    return _tensor(xp, terms)


@_quiet
def _wmape_sums(preds: Tensor, target: Tensor) -> Tensor:
    """``(2,)``: ``sum |preds - target|`` and ``sum |target|``. numpy: the two rows of one ``(2, N)`` float64 array
    and one torch row sum (each row's sum is the 1-D sum of its values, bit for bit: the rows are contiguous
    and single-threaded at this size)."""
    xp = _namespace(preds, target)
    p, t = xp.asarray(preds), xp.asarray(target)
    if xp is not NUMPY:
        return torch.stack([abs(xp.subtract(p, t)).sum(), abs(xp.floating(t)).sum()])
    rows = np.empty((2, t.size))
    rows[0], rows[1] = p.reshape(-1), t.reshape(-1)  # exact conversions (cheaper than a mixed-dtype subtract)
    np.subtract(rows[0], rows[1], out=rows[0])
    np.abs(rows, out=rows)
    return torch.from_numpy(rows).sum(1)


def _log1p_terms(preds: Tensor, target: Tensor) -> Tensor:
    """``(log1p(preds) - log1p(target))²`` (exact conversions through numpy on the CPU: no warning to silence)."""
    xp = _namespace(preds, target)
    if xp is NUMPY:  # fresh float64 copies (astype copies), so log1p runs in place
        p = torch.from_numpy(xp.asarray(preds).astype(np.float64)).log1p_()
        terms = p.sub_(torch.from_numpy(xp.asarray(target).astype(np.float64)).log1p_())
    else:
        terms = torch.log1p(xp.floating(xp.asarray(preds)))
        terms.sub_(torch.log1p(xp.floating(xp.asarray(target))))
    return terms.square_()


def _checked_sum(terms: Tensor, preds: Tensor, target: Tensor, validate_args: bool) -> Tensor:
    """``terms.sum()``, with one NaN probe (``validate_args``): the sum itself, read once; NaN in gives NaN out,
    and only then are the inputs scanned, to name the one with NaN (a NaN from ``inf - inf`` passes the scan)."""
    total = terms.sum()
    if validate_args:
        check_regression_values(preds, target, total)
    return total


def _mean_from_stats(state: State) -> Tensor:
    return state["sum_error"] / state["total"]  # nan before any element (0 / 0)


# --------------------------------------------------------------------------------------------- MSLE
def _msle_stats(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> State:
    preds, target = check_real_pair(preds, target)
    terms = _log1p_terms(preds, target)
    total = terms.sum()
    # one probe: a value <= -1 (log1p(-1) = -inf, NaN below) or NaN makes the sum NaN or inf, so a finite sum
    # passes every check; otherwise they run in their order (an infinite input or an overflow passes them)
    if validate_args and not math.isfinite(total.item()):
        for name, x in (("preds", preds), ("target", target)):
            check_lower_bound(name, x, -1.0, strict=True, why="log1p is finite above -1")
        check_no_nan("preds", preds)
        check_no_nan("target", target)
    return {"sum_error": total, "total": _count(terms)}


def mean_squared_log_error(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> Tensor:
    """Mean squared logarithmic error ``mean((log1p(preds) - log1p(target))²)`` over every element, float64.

    Args:
        preds: real tensor of any shape, every value > -1.
        target: real tensor of the same shape, every value > -1.
        validate_args: check the values (> -1, no NaN; host syncs).

    Returns:
        A float64 (MPS: float32) 0-d tensor; ``nan`` for empty input.

    Raises:
        TypeError: an input is not a real tensor.
        ValueError: shapes differ, or (``validate_args``) a value <= -1 or NaN (torchmetrics returns ``nan``).

    References:
        scikit-learn ``mean_squared_log_error``; torchmetrics ``mean_squared_log_error``.

    Examples:
        >>> round(mean_squared_log_error(torch.tensor([0.0, 3.0]), torch.tensor([0.0, 1.0])).item(), 6)
        0.240227
    """
    return _mean_from_stats(_msle_stats(preds, target, validate_args=validate_args))


# ----------------------------------------------------------------------------------------- log-cosh
def _log_cosh_stats(preds: Tensor, target: Tensor, *, num_outputs: Optional[int] = None,
                    validate_args: bool = True) -> State:
    preds, target = check_regression_inputs(preds, target, num_outputs=num_outputs)
    terms = _log_cosh_terms(preds, target)
    sums = terms.sum(0)
    if validate_args:
        check_regression_values(preds, target, sums)  # the terms are >= 0: NaN sums only from NaN input
    return {"sum_error": sums, "total": _count(terms[:, 0])}


def _log_cosh_from_stats(state: State) -> Tensor:
    value = state["sum_error"] / state["total"]
    return value[0] if value.numel() == 1 else value


def log_cosh_error(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> Tensor:
    """Log-cosh error ``mean_i log(cosh(preds_i - target_i))`` per output column, float64.

    Computed as ``|e| + log1p(exp(-2|e|)) - log 2``, finite for every finite error (torchmetrics' ``exp`` form
    overflows to ``inf`` past ``|e| ≈ 89`` in float32).

    Args:
        preds: real tensor ``(N,)`` or ``(N, d)``.
        target: real tensor of the same shape.
        validate_args: check for NaN (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor for ``(N,)`` or ``(N, 1)`` input, else the ``(d,)`` per-output values
        (torchmetrics' shapes); ``nan`` for empty input.

    Raises:
        TypeError: an input is not a real tensor.
        ValueError: shapes differ or are not 1-D/2-D, or (``validate_args``) NaN input.

    References:
        torchmetrics ``log_cosh_error``.

    Examples:
        >>> round(log_cosh_error(torch.tensor([0.0, 2.0]), torch.tensor([1.0, 2.0])).item(), 6)  # log cosh 1 / 2
        0.21689
    """
    return _log_cosh_from_stats(_log_cosh_stats(preds, target, validate_args=validate_args))


# ---------------------------------------------------------------------------------------- Minkowski
def _minkowski_stats(preds: Tensor, target: Tensor, *, p: float, validate_args: bool = True) -> State:
    preds, target = check_real_pair(preds, target)
    check_minkowski_p(p)
    return {"sum_error": _checked_sum(_power_error_terms(preds, target, p), preds, target, validate_args)}


def _minkowski_from_stats(state: State, *, p: float) -> Tensor:
    return state["sum_error"].pow(1.0 / p)


def minkowski_distance(preds: Tensor, targets: Tensor, p: float, *, validate_args: bool = True) -> Tensor:
    """Minkowski distance ``(sum |preds - targets|^p)^(1/p)`` over every element, float64.

    Args:
        preds: real tensor of any shape.
        targets: real tensor of the same shape (torchmetrics' name).
        p: the order, a number ``>= 1`` (1: Manhattan, 2: Euclidean).
        validate_args: check for NaN (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor; 0 for empty input.

    Raises:
        TypeError: an input is not a real tensor.
        ValueError: shapes differ, ``p < 1``, or (``validate_args``) NaN input.

    References:
        scipy ``scipy.spatial.distance.minkowski``; torchmetrics ``minkowski_distance``.

    Examples:
        >>> minkowski_distance(torch.tensor([0.0, 0.0]), torch.tensor([3.0, 4.0]), p=2).item()
        5.0
    """
    return _minkowski_from_stats(_minkowski_stats(preds, targets, p=p, validate_args=validate_args), p=p)


# ------------------------------------------------------------------------------------------ Tweedie
def _tweedie_terms(y: Tensor, mu: Tensor, power: float) -> Tensor:
    if power == 1:
        return 2 * (torch.xlogy(y, y / mu) - y + mu)
    if power == 2:
        return 2 * (torch.log(mu / y) + y / mu - 1)
    term_1 = y.clamp(min=0).pow(2 - power) / ((1 - power) * (2 - power))
    return 2 * (term_1 - y * mu.pow(1 - power) / (1 - power) + mu.pow(2 - power) / (2 - power))


def _tweedie_stats(preds: Tensor, targets: Tensor, *, power: float = 0.0, validate_args: bool = True) -> State:
    preds, targets = check_real_pair(preds, targets, ("preds", "targets"))
    check_tweedie_power(power)
    if validate_args:
        check_tweedie_domain(preds, targets, power)
    if power == 0:
        terms = _squared_error_terms(preds, targets)
    else:
        mu, y = _floats(preds, targets)
        terms = _tweedie_terms(y, mu, power)
    return {"sum_error": _checked_sum(terms, preds, targets, validate_args), "total": _count(terms)}


def tweedie_deviance_score(preds: Tensor, targets: Tensor, power: float = 0.0, *, validate_args: bool = True
                           ) -> Tensor:
    """Mean Tweedie deviance of ``preds`` (the predicted means ``μ``) from ``targets`` ``y``, float64.

    Per element: ``power = 0``: ``(y - μ)²``; ``1`` (Poisson): ``2 (y log(y/μ) - y + μ)``; ``2`` (Gamma):
    ``2 (log(μ/y) + y/μ - 1)``; otherwise ``2 (max(y, 0)^(2-p) / ((1-p)(2-p)) - y μ^(1-p) / (1-p) + μ^(2-p) /
    (2-p))``; the mean over every element.

    Args:
        preds: real tensor of any shape; ``> 0`` unless ``power == 0``.
        targets: real tensor of the same shape; ``>= 0`` for ``1 <= power < 2``, ``> 0`` for ``power >= 2``.
        power: the Tweedie power ``p``, outside ``(0, 1)``.
        validate_args: check the domains and NaN (host syncs).

    Returns:
        A float64 (MPS: float32) 0-d tensor; ``nan`` for empty input.

    Raises:
        TypeError: an input is not a real tensor.
        ValueError: shapes differ, ``0 < power < 1``, or (``validate_args``) a value outside the domain.

    References:
        scikit-learn ``mean_tweedie_deviance``; torchmetrics ``tweedie_deviance_score``.

    Examples:
        >>> round(tweedie_deviance_score(torch.tensor([2.0]), torch.tensor([1.0]), power=1).item(), 6)
        0.613706
    """
    return _mean_from_stats(_tweedie_stats(preds, targets, power=power, validate_args=validate_args))


# ----------------------------------------------------------------------------------- (s)MAPE, WMAPE
def _wmape_stats(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> State:
    preds, target = check_real_pair(preds, target)
    error, scale = _wmape_sums(preds, target).unbind(0)
    if validate_args:
        check_regression_values(preds, target, error)
    return {"sum_error": error, "sum_scale": scale}


def _wmape_from_stats(state: State) -> Tensor:
    return state["sum_error"] / state["sum_scale"].clamp(min=PERCENT_EPS)


def weighted_mean_absolute_percentage_error(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> Tensor:
    """Weighted mean absolute percentage error ``sum |target - preds| / max(sum |target|, 1.17e-6)`` over every
    element, float64 (a fraction; torchmetrics' floor).

    Args:
        preds: real tensor of any shape.
        target: real tensor of the same shape.
        validate_args: check for NaN (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor; 0 for empty input.

    Raises:
        TypeError: an input is not a real tensor.
        ValueError: shapes differ, or (``validate_args``) NaN input.

    References:
        torchmetrics ``weighted_mean_absolute_percentage_error``.

    Examples:
        >>> weighted_mean_absolute_percentage_error(torch.tensor([1.0, 3.0]), torch.tensor([2.0, 2.0])).item()
        0.5
    """
    return _wmape_from_stats(_wmape_stats(preds, target, validate_args=validate_args))


def _smape_stats(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> State:
    preds, target = check_real_pair(preds, target)
    terms = _smape_terms(preds, target)
    return {"sum_error": _checked_sum(terms, preds, target, validate_args), "total": _count(terms)}


def symmetric_mean_absolute_percentage_error(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> Tensor:
    """Symmetric mean absolute percentage error ``mean(2 |target - preds| / max(|target| + |preds|, 1.17e-6))``
    over every element, float64 (a fraction in ``[0, 2]``; torchmetrics' floor).

    Args:
        preds: real tensor of any shape.
        target: real tensor of the same shape.
        validate_args: check for NaN (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor; ``nan`` for empty input.

    Raises:
        TypeError: an input is not a real tensor.
        ValueError: shapes differ, or (``validate_args``) NaN input.

    References:
        torchmetrics ``symmetric_mean_absolute_percentage_error``.

    Examples:
        >>> symmetric_mean_absolute_percentage_error(torch.tensor([1.0, 3.0]), torch.tensor([3.0, 3.0])).item()
        0.5
    """
    return _mean_from_stats(_smape_stats(preds, target, validate_args=validate_args))


# ---------------------------------------------------------------------------------------------- CSI
def _csi_stats(preds: Tensor, target: Tensor, *, threshold: float, keep_sequence_dim: Optional[int] = None,
               validate_args: bool = True) -> State:
    preds, target = check_real_pair(preds, target)
    check_keep_sequence_dim(keep_sequence_dim, preds.dim())
    if validate_args:
        check_no_nan("preds", preds)
        check_no_nan("target", target)
    p, t = preds >= threshold, target >= threshold
    dims = [d for d in range(p.dim()) if d != keep_sequence_dim]
    counts = {"hits": p & t, "misses": t & ~p, "false_alarms": p & ~t}
    if keep_sequence_dim is None:
        return {k: v.sum(dtype=torch.int64) for k, v in counts.items()}
    return {k: (v.sum(dim=dims, dtype=torch.int64) if dims else v.to(dtype=torch.int64)) for k, v in counts.items()}


def _csi_from_stats(state: State) -> Tensor:
    hits = state["hits"].to(float_dtype(state["hits"].device))
    den = hits + state["misses"] + state["false_alarms"]
    return torch.where(den > 0, hits / den.clamp(min=1), 0.0)


def critical_success_index(preds: Tensor, target: Tensor, threshold: float, keep_sequence_dim: Optional[int] = None,
                           *, validate_args: bool = True) -> Tensor:
    """Critical success index (threat score) ``hits / (hits + misses + false alarms)`` of the events
    ``preds >= threshold`` against ``target >= threshold``, float64.

    Args:
        preds: real tensor of any shape.
        target: real tensor of the same shape.
        threshold: the event threshold.
        keep_sequence_dim: ``None`` (one score) or a dimension whose index keeps its own score (one per
            sequence).
        validate_args: check for NaN (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor, or one score per index of ``keep_sequence_dim``; 0 where no event
        occurs in either tensor (torchmetrics' rule).

    Raises:
        TypeError: an input is not a real tensor.
        ValueError: shapes differ, a bad ``keep_sequence_dim``, or (``validate_args``) NaN input.

    References:
        Schaefer, "The critical success index as an indicator of warning skill", Weather and Forecasting 5(4),
        1990; torchmetrics ``critical_success_index``.

    Examples:
        >>> critical_success_index(torch.tensor([0.9, 0.8, 0.1, 0.7]), torch.tensor([1.0, 0.0, 1.0, 1.0]), 0.5).item()
        0.5
    """
    stats = _csi_stats(preds, target, threshold=threshold, keep_sequence_dim=keep_sequence_dim,
                       validate_args=validate_args)
    return _csi_from_stats(stats)


# --------------------------------------------------------------------------------------------- CRPS
def _crps_stats(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> State:
    preds, target = check_ensemble(preds, target)
    x, y = _floats(preds, target)
    m = x.shape[1]
    xs = x.sort(dim=1).values
    rank_weight = 2 * torch.arange(m, dtype=x.dtype, device=x.device) - (m - 1)  # sum_jk |x_j - x_k| / 2
    spread = (xs * rank_weight).sum(1) / (m * m)
    scores = (x - y[:, None]).abs().mean(1) - spread
    return {"sum_error": _checked_sum(scores, preds, target, validate_args), "total": _count(y)}


def continuous_ranked_probability_score(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> Tensor:
    """Continuous ranked probability score of an ensemble forecast, the mean over samples of
    ``mean_j |x_j - y| - sum_{j,k} |x_j - x_k| / (2 m²)``, float64.

    The pair sum runs in ``O(m log m)`` per sample: ``sum_{j,k} |x_j - x_k| = 2 sum_j (2j - m + 1) x_(j)`` over the
    sorted members ``x_(0) <= ... <= x_(m-1)``.

    Args:
        preds: real tensor ``(N, m)``, ``m >= 2`` ensemble members per sample.
        target: real tensor ``(N,)``, the observations.
        validate_args: check for NaN (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor; ``nan`` for empty input.

    Raises:
        TypeError: an input is not a real tensor.
        ValueError: bad shapes (``m < 2``, ``target`` not ``(N,)``), or (``validate_args``) NaN input.

    References:
        Gneiting & Raftery, "Strictly proper scoring rules, prediction, and estimation", JASA 102(477), 2007;
        torchmetrics ``continuous_ranked_probability_score``.

    Examples:
        >>> continuous_ranked_probability_score(torch.tensor([[0.0, 2.0]]), torch.tensor([1.0])).item()  # 1 - 0.5
        0.5
    """
    return _mean_from_stats(_crps_stats(preds, target, validate_args=validate_args))
