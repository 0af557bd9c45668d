"""AUROC confidence intervals and the paired comparison of two AUROCs with DeLong's variance.

DeLong, DeLong & Clarke-Pearson (1988): with ``m`` positives ``X_i`` and ``n`` negatives ``Y_j`` and the kernel
``psi(x, y) = 1 if x > y, 1/2 if x == y, 0 otherwise``, the structural components are
``V10_i = mean_j psi(X_i, Y_j)`` (one per positive) and ``V01_j = mean_i psi(X_i, Y_j)`` (one per negative); both
average to the AUROC. For ``k`` classifiers scored on the same samples,
``S = S10 / m + S01 / n`` estimates the covariance of their AUROCs, ``S10`` and ``S01`` being the ``k x k`` sample
covariances (denominators ``m - 1`` and ``n - 1``) of the components.

The components come from one sort per classifier (Sun & Xu, 2014, O(n log n)): in the descending sweep of
:mod:`._sweep`, a positive's ``V10`` is ``(negatives below + tied negatives / 2) / n`` and a negative's ``V01`` is
``(positives above + tied positives / 2) / m``, exact on ties.
"""
from __future__ import annotations

import math
import statistics
from typing import Any, Dict, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_alpha, check_binary_rank_inputs, check_same_shape, check_tensor
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.auroc import _kernels as kernels
from torchmetrics_lite.functional.auroc._common import State, _as_bool, _check_defined
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.functional.auroc.binary import _binary_rank_stats

__all__ = ["binary_auroc_ci", "paired_auroc_test"]


def _delong(scores: Tensor, is_pos: Tensor) -> Tuple[Tensor, Tensor]:
    """AUROCs ``(k,)`` and DeLong's covariance ``(k, k)`` of the rows of ``scores`` ``(k, N)``, all rows sharing
    the labels ``is_pos`` ``(N,)``. A class with fewer than 2 samples gives a ``nan`` covariance."""
    k = scores.shape[0]
    swept = kernels.sweep(scores, is_pos.expand(k, -1))
    dtype = float_dtype(scores.device)
    m, n = swept.n_pos.to(dtype), swept.n_neg.to(dtype)
    # twice the numerators, exact int64 counts (ties count 1 here, 1/2 after the division): one rounding each
    v10 = (2 * (swept.n_neg.unsqueeze(1) - swept.fp) + (swept.fp - swept.fp_above)).to(dtype) / (2 * n.unsqueeze(1))
    v01 = (2 * swept.tp_above + (swept.tp - swept.tp_above)).to(dtype) / (2 * m.unsqueeze(1))
    sorted_pos = swept.pos.bool()
    component = torch.where(sorted_pos, v10, v01)
    by_sample = torch.empty_like(component).scatter_(1, swept.order, component)  # back to sample order
    positives, negatives = by_sample[:, is_pos], by_sample[:, ~is_pos]
    cov = _cov(positives) / m[0] + _cov(negatives) / n[0]
    return kernels.auroc_from_swept(swept), cov


def _cov(x: Tensor) -> Tensor:
    """Sample covariance ``(k, k)`` of the rows of ``x`` ``(k, r)`` with denominator ``r - 1`` (``nan`` if
    ``r < 2``)."""
    centred = x - x.mean(1, keepdim=True)
    return centred @ centred.t() / (x.shape[1] - 1) if x.shape[1] > 1 else torch.full_like(x[:, :1] @ x[:, :1].t(),
                                                                                            math.nan)


def _normal_quantile(p: float) -> float:
    return statistics.NormalDist().inv_cdf(p)  # a Python float: no tensor, on any device


def _binary_auroc_ci_from_stats(state: State, alpha: float = 0.05, strict: bool = False) -> Tuple[Tensor, Tensor,
                                                                                                     Tensor]:
    value, cov = _delong(state["preds"].unsqueeze(0), _as_bool(state["target"]))
    auroc = value[0]
    _check_defined(auroc, "AUROC", strict)
    half = _normal_quantile(1 - alpha / 2) * cov[0, 0].clamp(min=0).sqrt()
    return auroc, (auroc - half).clamp(0, 1), (auroc + half).clamp(0, 1)


@fill_doc
def binary_auroc_ci(preds: Tensor, target: Tensor, alpha: float = 0.05, *, strict: bool = False,
                    validate_args: bool = True) -> Tuple[Tensor, Tensor, Tensor]:
    """Exact AUROC with its Wald confidence interval from DeLong's variance.

    ``auroc +- z_{1 - alpha/2} * se``, clipped to ``[0, 1]``, where ``se**2 = S10 / m + S01 / n`` (the sample
    variances of the structural components over the ``m`` positives and the ``n`` negatives, see
    :mod:`~torchmetrics_lite.functional.auroc.delong`); tied pairs count 1/2 in the AUROC and in the components.
    O(n log n). The normal quantile is ``torch.special.ndtri`` (no scipy).

    Args:
        preds: floating scores of any shape.
        target: 0/1 labels of the same shape.
        alpha: the significance level in ``(0, 1)``: ``0.05`` gives a 95% interval.
        {strict}
        {validate_args}

    Returns:
        ``(auroc, low, high)``, float64 scalars. One class present: all ``nan`` (with a warning, or ``strict``
        raises); fewer than 2 positives or 2 negatives: ``low`` and ``high`` are ``nan`` (no variance estimate).

    Raises:
        ValueError: ``alpha`` outside ``(0, 1)`` or bad inputs as :func:`~torchmetrics_lite.functional.binary_auroc`.
        TypeError: non-floating ``preds`` or non-integer ``target``.

    References:
        DeLong, DeLong & Clarke-Pearson (1988), "Comparing the areas under two or more correlated receiver
        operating characteristic curves: a nonparametric approach", Biometrics 44; Sun & Xu (2014), "Fast
        implementation of DeLong's algorithm for comparing the areas under correlated receiver operating
        characteristic curves", IEEE Signal Processing Letters 21.

    Examples:
        >>> preds = torch.tensor([0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.4, 0.3])
        >>> target = torch.tensor([1, 1, 0, 1, 0, 1, 0, 0])
        >>> [round(v.item(), 4) for v in binary_auroc_ci(preds, target)]
        [0.8125, 0.4808, 1.0]
    """
    alpha = check_alpha(alpha)
    state = _binary_rank_stats(preds, target, None, validate_args=validate_args)
    return _binary_auroc_ci_from_stats(state, alpha, strict)


def _paired_rank_stats(preds_a: Any, preds_b: Any, target: Any, *, validate_args: bool = True) -> State:
    """Two score tensors of ``target``'s shape: the state rows ``preds`` ``(N, 2)`` and ``target`` ``(N,)``."""
    preds_a, preds_b = check_tensor("preds_a", preds_a), check_tensor("preds_b", preds_b)
    check_same_shape("preds_a", preds_a, "preds_b", preds_b)
    a, target_a = check_binary_rank_inputs(preds_a, target, validate_args)
    b, _ = check_binary_rank_inputs(preds_b, target, False)
    return {"preds": torch.stack([a, b.to(a.dtype) if b.dtype != a.dtype else b], 1), "target": target_a}


def _paired_auroc_test_from_stats(state: State, strict: bool = False) -> Dict[str, Tensor]:
    values, cov = _delong(state["preds"].t().contiguous(), _as_bool(state["target"]))
    _check_defined(values[0], "AUROC", strict)
    difference = values[0] - values[1]
    z = difference / (cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]).clamp(min=0).sqrt()
    p_value = torch.special.erfc(z.abs() / math.sqrt(2))
    return {"auroc_a": values[0], "auroc_b": values[1], "difference": difference, "z": z, "p_value": p_value}


@fill_doc
def paired_auroc_test(preds_a: Tensor, preds_b: Tensor, target: Tensor, *, strict: bool = False,
                      validate_args: bool = True) -> Dict[str, Tensor]:
    """DeLong's test of two correlated AUROCs: two classifiers scored on the same samples.

    ``z = (auroc_a - auroc_b) / sqrt(S_aa + S_bb - 2 S_ab)`` with DeLong's covariance ``S`` of the two AUROCs (see
    :mod:`~torchmetrics_lite.functional.auroc.delong`), and the two-sided ``p_value = 2 (1 - Phi(|z|)) =
    erfc(|z| / sqrt(2))``. Exact on ties, O(n log n).

    Args:
        preds_a: floating scores of the first classifier, any shape.
        preds_b: the second classifier's scores, same shape.
        target: 0/1 labels of the same shape.
        {strict}
        {validate_args}

    Returns:
        A dict of float64 scalars: ``auroc_a``, ``auroc_b``, ``difference`` (``a - b``), ``z`` and ``p_value``.
        When the variance of the difference is 0 (identical classifiers, or both perfect) ``z`` is ``nan`` (0/0)
        or infinite and so is the p-value's evidence: ``nan`` or 0. One class present: ``nan`` (warning or
        ``strict``).

    Raises:
        ValueError: shapes differ, or bad inputs as :func:`~torchmetrics_lite.functional.binary_auroc`.
        TypeError: non-floating scores or non-integer ``target``.

    References:
        DeLong, DeLong & Clarke-Pearson (1988); Sun & Xu (2014).

    Examples:
        >>> target = torch.tensor([1, 1, 0, 1, 0, 1, 0, 0])
        >>> a = torch.tensor([0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.4, 0.3])
        >>> b = torch.tensor([0.6, 0.9, 0.8, 0.3, 0.5, 0.4, 0.7, 0.2])
        >>> {k: round(v.item(), 4) for k, v in paired_auroc_test(a, b, target).items()}
        {'auroc_a': 0.8125, 'auroc_b': 0.5, 'difference': 0.3125, 'z': 1.5811, 'p_value': 0.1138}
    """
    return _paired_auroc_test_from_stats(_paired_rank_stats(preds_a, preds_b, target, validate_args=validate_args),
                                         strict)
