"""Pointwise baselines of learning to rank: each item scored on its own, against its relevance (sigmoid
cross-entropy, mean squared error) or against the ordinal thresholds of its grade (allRank's ordinal loss).

They are here as named baselines that the ranking surrogates must beat on the metric they target. Unlike the
listwise and pairwise losses, a pointwise loss learns from every real item, also in a list whose items share one
grade (calibration is its target, not the order).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from losses._module import module_of
from losses._utils import check_lists, check_options, check_validate_args, flatten_lists, reduce, safe_inverse
from torchmetrics_lite.checks import check_real, check_tensor

__all__ = ["MeanSquaredLoss", "OrdinalLoss", "SigmoidCrossEntropyLoss", "mean_squared_loss", "ordinal_loss",
           "sigmoid_cross_entropy_loss"]


def _item_mean(per_item: Tensor, m: Tensor) -> Tensor:
    """Mean over the real items of each list (0 for a list without one), padded entries replaced by 0 first."""
    zero = torch.zeros((), dtype=per_item.dtype, device=per_item.device)
    return torch.where(m, per_item, zero).sum(-1) * safe_inverse(m.sum(-1).to(per_item.dtype))


def sigmoid_cross_entropy_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None,
                               reduction: str = "mean", validate_args: bool = True) -> Tensor:
    r"""Pointwise sigmoid cross-entropy: per list, the mean over its real items of

    .. math:: \ell_i = -\big(y_i \log \sigma(s_i) + (1 - y_i) \log (1 - \sigma(s_i))\big)

    with targets ``y`` in ``[0, 1]`` (binary relevance, or grades divided by the top grade), computed from the
    logits (``binary_cross_entropy_with_logits``: finite for any score).

    Args:
        scores: ``(..., n)`` floating logits; each slice along the last dimension is one list.
        relevance: ``(..., n)`` targets in ``[0, 1]`` of any real dtype (bool included).
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            part and get a gradient of exactly 0.
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        validate_args: check that targets on real items lie in ``[0, 1]`` (one host sync).

    Returns:
        The loss. A list without real items gives 0 (every real item counts, also in a list of one grade).

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, a bad ``reduction``, or (``validate_args``) a target outside ``[0, 1]`` on a
            real item.

    References:
        TF-Ranking ``SigmoidCrossEntropyLoss``, Rax ``rax.sigmoid_cross_entropy_loss``.

    Examples:
        >>> round(sigmoid_cross_entropy_loss(torch.tensor([[0.0, 0.0]]), torch.tensor([[1, 0]])).item(), 4)  # log 2
        0.6931
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(reduction=reduction)
    if validate_args and bool((mask & (relevance > 1)).any()):
        value = float(relevance[mask & (relevance > 1)][0].item())
        raise ValueError(f"Expected `relevance` to lie in [0, 1] on real items (divide graded relevance by the top "
                         f"grade), got {value}")
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    s = torch.where(m, s, torch.zeros((), dtype=s.dtype, device=s.device))
    per_item = F.binary_cross_entropy_with_logits(s, rel, reduction="none")
    return reduce(_item_mean(per_item, m), reduction, batch_shape)


def mean_squared_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, reduction: str = "mean",
                      validate_args: bool = True) -> Tensor:
    r"""Pointwise mean squared error: per list, the mean over its real items of ``(s_i - rel_i)^2`` (regression on
    the grades).

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            part and get a gradient of exactly 0.
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss. A list without real items gives 0 (every real item counts, also in a list of one grade).

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, a bad ``reduction``, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        TF-Ranking ``MeanSquaredLoss``, Rax ``rax.mse_loss``.

    Examples:
        >>> mean_squared_loss(torch.tensor([[1.0, 0.5]]), torch.tensor([[2, 0]]))  # (1 + 0.25) / 2
        tensor(0.6250)
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(reduction=reduction)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    s = torch.where(m, s, torch.zeros((), dtype=s.dtype, device=s.device))
    return reduce(_item_mean((s - rel) ** 2, m), reduction, batch_shape)


def ordinal_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, reduction: str = "mean",
                 validate_args: bool = True) -> Tensor:
    r"""Ordinal loss (allRank's ``ordinal``): each item has one logit per grade threshold ``t = 1 .. T`` and a
    binary cross-entropy against ``1[rel >= t]``; per list, the mean over its real items of

    .. math:: \ell_i = \sum_{t=1}^{T} \mathrm{BCE}\big(\sigma(z_{i,t}),\ 1[rel_i \ge t]\big).

    Rank items by the expected grade ``sum_t sigmoid(z_{i,t})``. Unlike allRank, which takes probabilities, the
    inputs are logits (computed with ``binary_cross_entropy_with_logits``: finite for any logit).

    Args:
        scores: ``(..., n, T)`` floating logits, ``T`` the number of thresholds (the top grade).
        relevance: ``(..., n)`` integer-valued grades in ``0 .. T`` of any real dtype.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any logit, NaN included) take no
            part and get a gradient of exactly 0.
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-2]``).
        validate_args: check that grades on real items are integers in ``0 .. T`` (one host sync).

    Returns:
        The loss. A list without real items gives 0 (every real item counts, also in a list of one grade).

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: ``scores`` without a thresholds dimension, mismatched shapes, a bad ``reduction``, or
            (``validate_args``) a grade that is not an integer in ``0 .. T`` on a real item.

    References:
        allRank 1.4.3 ``allrank.models.losses.ordinal`` (P. Pobrotyn et al., "Context-Aware Learning to Rank with
        Self-Attention", 2020).

    Examples:
        >>> z = torch.zeros(1, 2, 3)  # one list, two items, grades 0..3
        >>> round(ordinal_loss(z, torch.tensor([[3, 0]])).item(), 4)  # 3 log 2 per item
        2.0794
    """
    check_tensor("scores", scores)
    if scores.dim() < 2 or scores.shape[-1] < 1:
        raise ValueError(f"Expected `scores` of shape (..., n, T) with T >= 1 thresholds, got {tuple(scores.shape)}")
    check_tensor("relevance", relevance)
    check_real("relevance", relevance)
    if tuple(relevance.shape) != tuple(scores.shape[:-1]):
        raise ValueError(f"Expected `relevance` to have shape {tuple(scores.shape[:-1])} (the scores' without the "
                         f"thresholds dimension), got {tuple(relevance.shape)}")
    levels = scores.shape[-1]
    flat, rel, mask = check_lists(scores[..., 0], relevance, mask, validate_args)  # dtype, mask and value checks
    check_validate_args(validate_args)
    _check(reduction=reduction)
    if validate_args and bool((mask & ((rel > levels) | (rel != rel.round()))).any()):
        bad = rel[mask & ((rel > levels) | (rel != rel.round()))][0].item()
        raise ValueError(f"Expected `relevance` to hold integer grades in 0..{levels} (the thresholds of `scores`) on "
                         f"real items, got {bad}")
    z = scores.to(flat.dtype)
    z = torch.where(mask[..., None], z, torch.zeros((), dtype=z.dtype, device=z.device))
    thresholds = torch.arange(1, levels + 1, dtype=z.dtype, device=z.device)
    target = (rel[..., None] >= thresholds).to(z.dtype)
    per_item = F.binary_cross_entropy_with_logits(z, target, reduction="none").sum(-1)
    s, m = flatten_lists(per_item, mask)
    return reduce(_item_mean(s, m), reduction, scores.shape[:-2])


def _check(*, reduction, **_) -> None:
    check_options(reduction=reduction)


@module_of(sigmoid_cross_entropy_loss, _check)
class SigmoidCrossEntropyLoss(nn.Module):
    """Module form of :func:`sigmoid_cross_entropy_loss` (``forward(scores, relevance, mask=None)``).

    Examples:
        >>> SigmoidCrossEntropyLoss(reduction="none")(torch.zeros(2, 0), torch.zeros(2, 0))  # no item: 0
        tensor([0., 0.])
    """


@module_of(mean_squared_loss, _check)
class MeanSquaredLoss(nn.Module):
    """Module form of :func:`mean_squared_loss` (``forward(scores, relevance, mask=None)``).

    Examples:
        >>> MeanSquaredLoss()(torch.tensor([1.0, 1.0]), torch.tensor([1, 1]))  # one grade, but fitted: 0
        tensor(0.)
    """


@module_of(ordinal_loss, _check)
class OrdinalLoss(nn.Module):
    """Module form of :func:`ordinal_loss` (``forward(scores, relevance, mask=None)``).

    Examples:
        >>> round(OrdinalLoss()(torch.full((1, 1, 2), 20.0), torch.tensor([[2]])).item(), 6)  # both thresholds met
        0.0
    """
