"""A differentiable Spearman correlation: Pearson's correlation of soft ranks (Blondel et al. 2020, section 6)."""
from __future__ import annotations

import torch
from torch import Tensor

from losses._utils import safe_inverse
from losses.permutahedron import soft_rank
from torchmetrics_lite.checks import check_same_shape, check_tensor

__all__ = ["soft_spearman_corrcoef"]


def mid_ranks(values: Tensor, mask: Tensor) -> Tensor:
    """Exact 1-based ascending ranks on the last dimension, tied values at their mid-rank; 0 on padding."""
    inf = torch.tensor(float("inf"), dtype=values.dtype, device=values.device)
    ordered = torch.sort(torch.where(mask, values, inf), dim=-1).values.contiguous()
    v = torch.where(mask, values, inf).contiguous()
    low = torch.searchsorted(ordered, v, right=False)
    high = torch.searchsorted(ordered, v, right=True)
    ranks = (low + high + 1).to(values.dtype) / 2.0
    return torch.where(mask, ranks, torch.zeros((), dtype=values.dtype, device=values.device))


def _pearson(x: Tensor, y: Tensor, mask: Tensor) -> Tensor:
    w = mask.to(x.dtype)
    count = w.sum(-1, keepdim=True)
    xc = (x - (x * w).sum(-1, keepdim=True) * safe_inverse(count)) * w
    yc = (y - (y * w).sum(-1, keepdim=True) * safe_inverse(count)) * w
    var = (xc * xc).sum(-1) * (yc * yc).sum(-1)
    spread = var > 0  # no spread: 0, and no sqrt(0) (its gradient is infinite)
    one = torch.ones((), dtype=x.dtype, device=x.device)
    return torch.where(spread, (xc * yc).sum(-1) / torch.sqrt(torch.where(spread, var, one)), 0.0 * one)


def soft_spearman_corrcoef(preds: Tensor, target: Tensor, *, regularization: str = "l2",
                           regularization_strength: float = 1.0, mask: Tensor | None = None) -> Tensor:
    r"""Spearman's rank correlation of each list on the last dimension, differentiable in ``preds``.

    .. math:: \rho = \mathrm{corr}\big(r_{\varepsilon}(\text{preds}),\ r(\text{target})\big),

    Pearson's correlation of the soft ranks of the predictions (:func:`losses.soft_rank`) with the exact mid-ranks
    of the target, over the real items. As ``eps -> 0`` it equals
    :func:`torchmetrics_lite.functional.spearman_corrcoef` (tied predictions or targets at their mid-rank, as
    there); as ``eps -> inf`` it tends to Pearson's correlation of ``preds`` with the target's ranks (the ``"l2"``
    soft ranks become affine in the predictions, ``(m + 1) / 2 + (preds - mean) / eps``).
    A list whose target (or soft ranks) has no spread gives 0 (the exact metric's NaN), with a gradient of 0.

    Args:
        preds: ``(..., n)`` floating predictions.
        target: ``(..., n)`` real targets (not differentiated).
        regularization: ``"l2"`` or ``"kl"`` of the soft ranks.
        regularization_strength: ``eps`` (> 0); smaller is closer to the exact Spearman correlation.
        mask: optional ``(..., n)`` bool of real items; padded items take no part and get a gradient of exactly 0.

    Returns:
        The correlation per list, shape ``preds.shape[:-1]``.

    Raises:
        TypeError: ``preds`` not floating, ``mask`` not bool.
        ValueError: mismatched shapes, an option out of range.

    References:
        M. Blondel, O. Teboul, Q. Berthet and J. Djolonga, "Fast Differentiable Sorting and Ranking", ICML 2020.

    Examples:
        >>> p = torch.tensor([0.1, 0.4, 0.35, 0.8]); t = torch.tensor([1.0, 2.0, 3.0, 4.0])
        >>> round(soft_spearman_corrcoef(p, t, regularization_strength=1e-3).item(), 4)
        0.8
        >>> round(soft_spearman_corrcoef(p, t, regularization_strength=0.1).item(), 4)  # 0.4, 0.35 pooled
        0.8838
    """
    check_tensor("preds", preds)
    if not preds.is_floating_point():
        raise TypeError(f"Expected `preds` to have a floating dtype, got {preds.dtype}")
    check_tensor("target", target)
    check_same_shape("preds", preds, "target", target)
    ranks = soft_rank(preds, regularization=regularization, regularization_strength=regularization_strength,
                      mask=mask)
    if mask is None:
        mask = torch.ones(preds.shape, dtype=torch.bool, device=preds.device)
    exact = mid_ranks(target.to(ranks.dtype), mask)
    return _pearson(ranks, exact, mask)
