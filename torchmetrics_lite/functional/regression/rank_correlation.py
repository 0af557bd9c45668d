"""Spearman's rho and Kendall's tau (a, b, c, with the optional p-value), exact, from the kept values.

Rank statistics do not reduce to a fixed-size summary, so their streaming state is the values themselves
(``cat`` states, as torchmetrics'); the ranks are computed once, at ``compute``, by the host kernels of
:mod:`torchmetrics_lite.functional.regression._rank_kernels`: average ranks on ties for Spearman, and Kendall's
pair counts in ``O(n log n)`` (one packed lexicographic sort, then the discordant pairs as the inversions of the
target's dense ranks, counted in ``log2(distinct targets)`` vectorised passes; inputs with few distinct values
use their contingency table), never the ``O(n²)`` pair matrix.
"""
from __future__ import annotations

import math
from typing import Dict, Optional, Tuple, Union

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._checks.correlation import check_correlation_inputs, check_kendall_options
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.regression._rank_kernels import KENDALL_ROWS, average_ranks, kendall_counts
from torchmetrics_lite.functional.regression.correlation import _comoments, _pearson_from_stats

__all__ = ["spearman_corrcoef", "kendall_rank_corrcoef"]

State = Dict[str, Tensor]
_ROW = {name: i for i, name in enumerate(KENDALL_ROWS)}
_FLOATS = (torch.float32, torch.float64)


def _values(x: Tensor) -> Tensor:
    """The kept rows: ``(N,)`` for one column (torchmetrics' state shape), ``(N, d)`` for more; floating inputs
    as given (float16/bfloat16 widened to float32), integers as int64 (ranked as integers: exact at any
    magnitude, where float64 merges integers beyond 2**53); so ranks and ties are the inputs'."""
    x = x.detach()
    if x.ndim == 2 and x.shape[1] == 1:
        x = x.reshape(-1)
    if x.dtype in (torch.float16, torch.bfloat16):
        return x.float()
    return x if x.is_floating_point() else x.to(torch.int64)


def _rank_stats(preds: Tensor, target: Tensor, *, num_outputs: Optional[int], validate_args: bool) -> State:
    """Checked values of one batch (the modules' ``batch_stats``): ``preds`` and ``target`` values ``(N,)`` for
    one column, rows ``(N, d)`` for more.

    The common case (1-D float32/float64 inputs of one shape, one output) is checked in this frame: one NaN probe
    of both inputs (their dot product, or the sum of their sums across dtypes: a NaN anywhere makes it NaN);
    anything else, or a NaN probe (also ``inf * 0``), through the checks that name the culprit."""
    if isinstance(preds, Tensor) and isinstance(target, Tensor) and preds.dtype in _FLOATS and \
            target.dtype in _FLOATS and preds.dim() == 1 and preds.shape == target.shape and num_outputs in (None, 1):
        if not validate_args or not preds.numel() or not math.isnan(
                (preds.dot(target) if preds.dtype is target.dtype else preds.sum() + target.sum()).item()):
            return {"preds": preds.detach() if preds.requires_grad else preds,
                    "target": target.detach() if target.requires_grad else target}
    p, t = check_correlation_inputs(preds, target, num_outputs=num_outputs, validate_args=validate_args)
    return {"preds": _values(p), "target": _values(t)}


def _spearman_from_stats(state: State, *, scalar: bool) -> Tensor:
    ranks_p, ranks_t = average_ranks(state["preds"]), average_ranks(state["target"])  # (d, N) float64
    return _pearson_from_stats({"comoments": _comoments(ranks_p.T, ranks_t.T)}, scalar=scalar)


def spearman_corrcoef(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> Tensor:
    """Spearman's rank correlation coefficient per output column, float64.

    Pearson's coefficient of the average ranks: tied values get the mean of the ranks they span (scipy's
    ``rankdata(method="average")``), so the value is scipy's ``spearmanr`` exactly, ties included.

    Args:
        preds: real tensor ``(N,)`` or ``(N, d)``, any real dtype.
        target: real tensor of the same shape.
        validate_args: check for NaN in the inputs (a host sync).

    Returns:
        A float64 0-d tensor for ``(N,)`` input, ``(d,)`` for ``(N, d)`` input. Fewer than two samples or a
        constant column give ``nan`` (scipy's rule; torchmetrics adds ``1e-6`` to the denominator, which gives 0.0
        for a constant column and moves every value by about ``1e-6 / var(ranks)``).

    Raises:
        TypeError: an input is not a tensor or has a bool or complex dtype.
        ValueError: shapes differ or are not 1-D/2-D, or (with ``validate_args``) NaN input.

    References:
        C. Spearman, "The proof and measurement of association between two things", American Journal of
        Psychology 15(1), 1904; scipy ``scipy.stats.spearmanr``; torchmetrics ``spearman_corrcoef``.

    Examples:
        >>> spearman_corrcoef(torch.tensor([1.0, 2.0, 2.0, 4.0]), torch.tensor([1.0, 3.0, 2.0, 5.0])).item()
        0.9486832980505138
    """
    stats = _rank_stats(preds, target, num_outputs=None, validate_args=validate_args)
    return _spearman_from_stats(stats, scalar=preds.ndim == 1)


def _kendall_tau(c: np.ndarray, variant: str) -> np.ndarray:
    """Tau of the pair counts ``c`` ``(11, d)`` (float64 host arrays); ``nan`` where its denominator is 0 (fewer
    than two samples, or a constant column for tau-b and tau-c)."""
    n = c[_ROW["n"]]
    n0 = n * (n - 1) / 2
    s = n0 - c[_ROW["ties_p"]] - c[_ROW["ties_t"]] + c[_ROW["ties_joint"]] - 2 * c[_ROW["discordant"]]
    if variant == "a":
        den = n0
    elif variant == "b":
        den = np.sqrt((n0 - c[_ROW["ties_p"]]) * (n0 - c[_ROW["ties_t"]]))
    else:
        m = np.minimum(c[_ROW["distinct_p"]], c[_ROW["distinct_t"]])
        den = n * n * (m - 1) / np.maximum(m, 1) / 2
    return np.where(den > 0, s / np.where(den > 0, den, 1), np.nan)


def _kendall_z(c: np.ndarray, variant: str) -> np.ndarray:
    """``z = S / sqrt(var S)`` of the normal approximation: the tie-corrected variance for tau-b and tau-c
    (scipy's ``method="asymptotic"``), the tie-free ``n(n-1)(2n+5)/18`` for tau-a (torchmetrics'); ``nan``
    where the variance is 0."""
    n = c[_ROW["n"]]
    s = n * (n - 1) / 2 - c[_ROW["ties_p"]] - c[_ROW["ties_t"]] + c[_ROW["ties_joint"]] - 2 * c[_ROW["discordant"]]
    var = n * (n - 1) * (2 * n + 5) / 18
    if variant != "a":
        m = n * (n - 1)
        var = (var - (c[_ROW["ties_p_var"]] + c[_ROW["ties_t_var"]]) / 18
               + 2 * c[_ROW["ties_p"]] * c[_ROW["ties_t"]] / np.maximum(m, 1)
               + c[_ROW["ties_p_cubic"]] * c[_ROW["ties_t_cubic"]] / np.maximum(9 * m * (n - 2), 1))
    return np.where(var > 0, s / np.sqrt(np.where(var > 0, var, 1)), np.nan)


def _p_value(z: np.ndarray, alternative: str) -> np.ndarray:
    """The normal tail of ``z`` for ``alternative`` (``erfc``, float64 on the host; ``nan`` stays ``nan``)."""
    tail = np.frompyfunc(lambda v: 0.5 * math.erfc(v / math.sqrt(2)), 1, 1)  # P(Z > v), one call per output
    if alternative == "two-sided":
        return 2 * tail(np.abs(z)).astype(np.float64)
    return tail(z if alternative == "greater" else -z).astype(np.float64)


def _as_values(x: np.ndarray, device: torch.device) -> Tensor:
    """A float64 host array as a tensor on ``device`` in its floating dtype (float32 without float64)."""
    return torch.from_numpy(x.astype(np.float32) if float_dtype(device) == torch.float32 else x).to(device)


def _kendall_from_stats(state: State, *, variant: str, t_test: bool, alternative: Optional[str],
                        scalar: bool) -> Union[Tensor, Tuple[Tensor, Tensor]]:
    counts = kendall_counts(state["preds"], state["target"])
    device = state["preds"].device
    tau_np = _kendall_tau(counts, variant)
    tau = _as_values(tau_np, device)
    if not t_test:
        return tau[0] if scalar else tau
    p = _as_values(np.where(np.isnan(tau_np), np.nan, _p_value(_kendall_z(counts, variant), str(alternative))),
                   device)
    return (tau[0], p[0]) if scalar else (tau, p)


def kendall_rank_corrcoef(preds: Tensor, target: Tensor, variant: str = "b", t_test: bool = False,
                          alternative: Optional[str] = "two-sided", *,
                          validate_args: bool = True) -> Union[Tensor, Tuple[Tensor, Tensor]]:
    """Kendall's rank correlation coefficient (tau-a, tau-b or tau-c) per output column, float64, with the
    optional p-value of the test of no association.

    With ``n0 = n(n-1)/2`` pairs, ``C`` and ``D`` the concordant and discordant pairs (strictly the same,
    strictly the opposite order), ``S = C - D``, ``n1``, ``n2`` the pairs tied in ``preds``, in ``target``, and
    ``m`` the smaller number of distinct values:

    * ``"a"``: ``S / n0`` (Kendall, 1938; tied pairs count in the denominator),
    * ``"b"``: ``S / sqrt((n0 - n1)(n0 - n2))`` (the default; scipy's ``kendalltau``),
    * ``"c"``: ``2 S / (n² (m - 1) / m)`` (Stuart's tau-c; scipy's ``variant="c"``).

    ``O(n log n)`` time and ``O(n)`` memory (the pair counts by sorting and inversion counting, exact in int
    arithmetic below 2**53 pairs); torchmetrics' implementation builds ``O(n²)`` comparisons.

    Args:
        preds: real tensor ``(N,)`` or ``(N, d)``, any real dtype.
        target: real tensor of the same shape.
        variant: ``"a"``, ``"b"`` or ``"c"``.
        t_test: also return the p-value of the test ``tau = 0`` (normal approximation: scipy's
            ``method="asymptotic"`` with its tie-corrected variance of ``S`` for tau-b and tau-c; for tau-a the
            tie-free variance ``n(n-1)(2n+5)/18``, as torchmetrics).
        alternative: ``"two-sided"``, ``"less"`` (tau < 0) or ``"greater"`` (tau > 0); required with ``t_test``.
        validate_args: check for NaN in the inputs (a host sync).

    Returns:
        ``tau``, or ``(tau, p_value)`` with ``t_test``: float64 0-d tensors for ``(N,)`` input, ``(d,)`` for
        ``(N, d)`` input. Fewer than two samples, or (tau-b, tau-c) a constant column, give ``nan`` for both.

    Raises:
        TypeError: an input is not a tensor or has a bool or complex dtype; ``t_test`` not a bool.
        ValueError: shapes differ or are not 1-D/2-D; a bad ``variant`` or ``alternative``; ``alternative=None``
            with ``t_test``; (with ``validate_args``) NaN input.

    References:
        M. G. Kendall, "A new measure of rank correlation", Biometrika 30, 1938; W. R. Knight, "A computer method
        for calculating Kendall's tau with ungrouped data", JASA 61(314), 1966; scipy
        ``scipy.stats.kendalltau``; torchmetrics ``kendall_rank_corrcoef``.

    Examples:
        >>> p, t = torch.tensor([2.5, 0.0, 2.0, 8.0]), torch.tensor([3.0, -0.5, 2.0, 7.0])
        >>> kendall_rank_corrcoef(p, t)
        tensor(1., dtype=torch.float64)
        >>> tau, p_value = kendall_rank_corrcoef(torch.tensor([1, 2, 2, 3]), torch.tensor([1, 3, 2, 3]), t_test=True)
        >>> round(tau.item(), 4), round(p_value.item(), 4)  # scipy.stats.kendalltau(..., method="asymptotic")
        (0.8, 0.126)
    """
    check_kendall_options(variant, t_test, alternative)
    stats = _rank_stats(preds, target, num_outputs=None, validate_args=validate_args)
    return _kendall_from_stats(stats, variant=variant, t_test=t_test, alternative=alternative,
                               scalar=preds.ndim == 1)


