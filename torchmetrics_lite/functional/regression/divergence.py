"""Row-wise measures between ``(N, d)`` vectors or distributions: cosine similarity, Kullback-Leibler and
Jensen-Shannon divergence, one value per row, then torchmetrics' ``reduction`` (``"sum"``, ``"mean"``, or
``"none"`` / ``None`` for the ``(N,)`` rows).

Statistics: with ``reduction="sum"`` or ``"mean"`` a float64 sum of the row values and an int64 row count (exact
streaming and sync); with ``"none"`` the row values themselves (a ``cat`` state). A cosine batch's statistics are
its ``(N, d)`` rows, which the module keeps pending and settles into those (``Metric.add_state(...,
pending=True)``; a batch of another ``d`` settles the rows held first), so that a step costs the copy and not
the float64 row kernel.
"""
from __future__ import annotations

import math
from typing import Dict, Optional

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._checks import check_bool, check_lower_bound, check_no_nan, check_real_pair, check_reduction
from torchmetrics_lite._dtype import float_dtype

__all__ = ["cosine_similarity", "kl_divergence", "jensen_shannon_divergence"]

State = Dict[str, Tensor]


def _row_state(rows: Tensor, reduction: Optional[str]) -> State:
    if reduction in ("none", None):
        return {"measures": rows}
    n = rows.shape[0]
    total = (torch.from_numpy(np.array(n, dtype=np.int64)) if rows.is_cpu and not torch.compiler.is_compiling()
             else torch.tensor(n, dtype=torch.int64, device=rows.device))  # on the CPU a third of the cost
    return {"sum_measure": rows.sum(), "total": total}


def _rows_from_stats(state: State, *, reduction: Optional[str]) -> Tensor:
    if reduction in ("none", None):
        return state["measures"]
    return state["sum_measure"] / state["total"] if reduction == "mean" else state["sum_measure"]


def _pair(a: Tensor, b: Tensor, names: tuple, validate_args: bool) -> tuple:
    check_real_pair(a, b, names, ndim=2)
    dtype = float_dtype(a.device)
    x, y = a.to(dtype=dtype), b.to(dtype=dtype)  # by keyword: torch parses the positional overloads slowly
    if validate_args:
        _check_no_nan(a, b, x, y, names)
    return x, y


def _check_no_nan(a: Tensor, b: Tensor, x: Tensor, y: Tensor, names: tuple) -> None:
    total = x.sum() + y.sum()
    check_no_nan(names[0], a, total=total)
    check_no_nan(names[1], b, total=total)


# ---------------------------------------------------------------------------------------------- cosine
def _cosine_stats(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> State:
    """One batch as the rows it brings (``preds``, ``target``, ``(N, d)`` as given; integers as float64): the
    module appends them and reduces them later (:func:`_cosine_settle`), so that a step costs the copy, not the
    float64 row kernel. The NaN probe reads one dot product of the inputs as given."""
    check_real_pair(preds, target, ("preds", "target"), ndim=2)
    if validate_args and preds.numel() and (preds.is_floating_point() or target.is_floating_point()):
        if preds.dtype == target.dtype and preds.dtype in (torch.float32, torch.float64):
            suspect = math.isnan(_dot(preds, target))  # NaN in, NaN out
        else:
            suspect = True
        if suspect:  # or an inf against a zero, or an overflow of opposite signs: the scan settles it
            dtype = float_dtype(preds.device)
            _check_no_nan(preds, target, preds.to(dtype), target.to(dtype), ("preds", "target"))
    if not preds.is_floating_point():  # integers as float64 (exact below 2**53), so that a float32 state promotes
        preds = preds.to(float_dtype(preds.device))
    if not target.is_floating_point():
        target = target.to(float_dtype(target.device))
    return {"preds": preds, "target": target}


def _dot(a: Tensor, b: Tensor) -> float:
    """The dot product of two same-shaped floating tensors, as a float: numpy's on the CPU (a third cheaper than
    torch's with its reshapes and read), torch's on a device, while tracing and for inputs that require grad."""
    if a.is_cpu and b.is_cpu and not (a.requires_grad or b.requires_grad or torch.compiler.is_compiling()):
        return float(np.vdot(a.numpy(), b.numpy()))
    return a.reshape(-1).dot(b.reshape(-1)).item()


def _pending_rows(pending: State) -> Tensor:
    """The float64 cosine of every pending row ``(N, d)``, in order."""
    dtype = float_dtype(pending["preds"].device)
    x, y = pending["preds"].to(dtype), pending["target"].to(dtype)
    return (x * y).sum(-1) / (torch.linalg.vector_norm(x, dim=-1) * torch.linalg.vector_norm(y, dim=-1))


def _cosine_settle(pending: State, *, reduction: Optional[str]) -> State:
    """The statistics of the pending rows: their float64 sum and count, or (``"none"``) the rows themselves."""
    return _row_state(_pending_rows(pending), reduction)


def _cosine_from_stats(state: State, *, reduction: Optional[str]) -> Tensor:
    """The value of settled statistics (``sum_measure``/``total`` or ``measures``) and pending rows together."""
    if "preds" not in state:  # settled statistics alone (a wrapper's, which settles every batch)
        return _rows_from_stats(state, reduction=reduction)
    fresh = _cosine_settle(state, reduction=reduction)
    if reduction in ("none", None):
        kept = state.get("measures")
        return fresh["measures"] if kept is None else torch.cat([kept, fresh["measures"]])
    if "sum_measure" in state:
        fresh = {"sum_measure": state["sum_measure"] + fresh["sum_measure"], "total": state["total"] + fresh["total"]}
    return _rows_from_stats(fresh, reduction=reduction)


def cosine_similarity(preds: Tensor, target: Tensor, reduction: Optional[str] = "sum", *,
                      validate_args: bool = True) -> Tensor:
    """Cosine similarity ``<preds_i, target_i> / (|preds_i| |target_i|)`` of each row, then reduced, float64.

    Args:
        preds: real tensor ``(N, d)``.
        target: real tensor ``(N, d)``.
        reduction: ``"sum"`` (torchmetrics' default), ``"mean"``, or ``"none"`` / ``None`` (the ``(N,)`` rows).
        validate_args: check for NaN (a host sync).

    Returns:
        A float64 (MPS: float32) 0-d tensor, or ``(N,)``; a zero row gives ``nan`` (0 / 0, as torchmetrics);
        empty input gives 0 (``"sum"``) or ``nan`` (``"mean"``).

    Raises:
        TypeError: an input is not a real tensor.
        ValueError: shapes differ or are not 2-D, a bad ``reduction``, or (``validate_args``) NaN input.

    References:
        scikit-learn ``sklearn.metrics.pairwise.cosine_similarity`` (its diagonal); torchmetrics
        ``cosine_similarity``.

    Examples:
        >>> cosine_similarity(torch.tensor([[1.0, 0.0], [1.0, 1.0]]), torch.tensor([[0.0, 1.0], [3.0, 4.0]]), "none")
        tensor([0.0000, 0.9899], dtype=torch.float64)
    """
    check_reduction(reduction)
    return _cosine_from_stats(_cosine_stats(preds, target, validate_args=validate_args), reduction=reduction)


# ----------------------------------------------------------------------------------------- divergences
def _distributions(p: Tensor, q: Tensor, log_prob: bool, validate_args: bool) -> tuple:
    check_bool("log_prob", log_prob)
    x, y = _pair(p, q, ("p", "q"), validate_args and log_prob)
    if log_prob:
        return x, y
    # probabilities: one probe, the two minima of the inputs as given (a NaN minimum fails it; the conversion
    # keeps signs and NaN, and a narrower input is read faster); only a failure runs the NaN and lower-bound
    # checks, in their order, to name the input and the value
    if validate_args and x.numel() and not (p.min().item() >= 0 and q.min().item() >= 0):
        _check_no_nan(p, q, x, y, ("p", "q"))
        check_lower_bound("p", x, 0.0, strict=False, why="probabilities, or pass log_prob=True")
        check_lower_bound("q", y, 0.0, strict=False, why="probabilities, or pass log_prob=True")
    return x / x.sum(-1, keepdim=True), y / y.sum(-1, keepdim=True)


def _kl_rows(p: Tensor, q: Tensor, log_prob: bool) -> Tensor:
    if log_prob:
        return (p.exp() * (p - q)).sum(-1)
    return torch.xlogy(p, p / q).sum(-1)


def _kl_stats(p: Tensor, q: Tensor, *, log_prob: bool = False, reduction: Optional[str] = "mean",
              validate_args: bool = True) -> State:
    check_reduction(reduction)
    x, y = _distributions(p, q, log_prob, validate_args)
    return _row_state(_kl_rows(x, y, log_prob), reduction)


def kl_divergence(p: Tensor, q: Tensor, log_prob: bool = False, reduction: Optional[str] = "mean", *,
                  validate_args: bool = True) -> Tensor:
    """Kullback-Leibler divergence ``KL(p_i || q_i) = sum_j p_ij log(p_ij / q_ij)`` of each row (natural log),
    then reduced, float64.

    Without ``log_prob`` each row of ``p`` and ``q`` is normalised to sum 1 first; ``0 log 0 = 0``.

    Args:
        p: real tensor ``(N, d)``: non-negative weights, or log-probabilities with ``log_prob=True``.
        q: real tensor ``(N, d)``, likewise.
        log_prob: the inputs are log-probabilities (used as given, not normalised).
        reduction: ``"mean"`` (torchmetrics' default), ``"sum"``, or ``"none"`` / ``None`` (the ``(N,)`` rows).
        validate_args: check for NaN and negative probabilities (host syncs).

    Returns:
        A float64 (MPS: float32) 0-d tensor, or ``(N,)``; ``inf`` where ``q`` is 0 and ``p`` is not.

    Raises:
        TypeError: an input is not a real tensor, or ``log_prob`` is not a bool.
        ValueError: shapes differ or are not 2-D, a bad ``reduction``, or (``validate_args``) NaN or a negative
            probability.

    References:
        scipy ``scipy.stats.entropy(p, q)``; torchmetrics ``kl_divergence``.

    Examples:
        >>> round(kl_divergence(torch.tensor([[0.5, 0.5]]), torch.tensor([[0.25, 0.75]])).item(), 6)
        0.143841
    """
    stats = _kl_stats(p, q, log_prob=log_prob, reduction=reduction, validate_args=validate_args)
    return _rows_from_stats(stats, reduction=reduction)


def _js_stats(p: Tensor, q: Tensor, *, log_prob: bool = False, reduction: Optional[str] = "mean",
              validate_args: bool = True) -> State:
    check_reduction(reduction)
    x, y = _distributions(p, q, log_prob, validate_args)
    if log_prob:
        mid = torch.logaddexp(x, y) - math.log(2.0)
    else:
        mid = (x + y) / 2
    return _row_state(0.5 * _kl_rows(x, mid, log_prob) + 0.5 * _kl_rows(y, mid, log_prob), reduction)


def jensen_shannon_divergence(p: Tensor, q: Tensor, log_prob: bool = False, reduction: Optional[str] = "mean", *,
                              validate_args: bool = True) -> Tensor:
    """Jensen-Shannon divergence ``(KL(p_i || m_i) + KL(q_i || m_i)) / 2`` with ``m_i = (p_i + q_i) / 2`` of each
    row (natural log, so in ``[0, log 2]``), then reduced, float64.

    Args:
        p: real tensor ``(N, d)``: non-negative weights (each row normalised), or log-probabilities.
        q: real tensor ``(N, d)``, likewise.
        log_prob: the inputs are log-probabilities.
        reduction: ``"mean"`` (torchmetrics' default), ``"sum"``, or ``"none"`` / ``None`` (the ``(N,)`` rows).
        validate_args: check for NaN and negative probabilities (host syncs).

    Returns:
        A float64 (MPS: float32) 0-d tensor, or ``(N,)``.

    Raises:
        TypeError, ValueError: as :func:`kl_divergence`.

    References:
        Lin, "Divergence measures based on the Shannon entropy", IEEE Trans. Inf. Theory 37(1), 1991; scipy
        ``scipy.spatial.distance.jensenshannon`` (its square); torchmetrics ``jensen_shannon_divergence``.

    Examples:
        >>> round(jensen_shannon_divergence(torch.tensor([[1.0, 0.0]]), torch.tensor([[0.0, 1.0]])).item(), 6)
        0.693147
    """
    stats = _js_stats(p, q, log_prob=log_prob, reduction=reduction, validate_args=validate_args)
    return _rows_from_stats(stats, reduction=reduction)
