"""Listwise cross-entropies against the softmax of the scores: ListNet (Cao et al., 2007) and the Softmax loss
(Bruch et al., 2019). They differ only in the target distribution over the items of a list."""
from __future__ import annotations

import torch
from torch import Tensor, nn

from losses._module import module_of
from losses._utils import (
    check_lists,
    check_options,
    flatten_lists,
    informative,
    masked_scores,
    reduce,
    safe_inverse,
    zero_where_not,
)

__all__ = ["ListNetLoss", "SoftmaxLoss", "listnet_loss", "softmax_loss"]


def _log_softmax(s: Tensor, m: Tensor) -> Tensor:
    """``log_softmax`` over the real items of each list; 0 on padded items (never NaN, zero gradient there)."""
    lowest = torch.tensor(torch.finfo(s.dtype).min, dtype=s.dtype, device=s.device)
    log_p = torch.log_softmax(torch.where(m, masked_scores(s, m), lowest), dim=-1)
    return torch.where(m, log_p, torch.zeros((), dtype=s.dtype, device=s.device))


def listnet_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, reduction: str = "mean",
                 validate_args: bool = True) -> Tensor:
    r"""ListNet's top-one loss: per list, the cross-entropy

    .. math:: L = -\sum_i \mathrm{softmax}(rel)_i \, \log \mathrm{softmax}(s)_i

    over the real items of the list (the top-one probabilities of Cao et al. with ``phi = exp``). Computed with
    ``log_softmax``, so large score gaps stay finite. O(n) per list: no pairs are built. Its minimum over the
    scores is the entropy of ``softmax(rel)``, not 0.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            probability mass in either distribution and get a gradient of exactly 0.
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss. A list that is all padding, has one real item, or whose real items all share one relevance grade
        (no relevant item included) has nothing to learn: it gives 0 and a gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, a bad ``reduction``, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        Z. Cao et al., "Learning to Rank: From Pairwise Approach to Listwise Approach", ICML 2007.

    Examples:
        >>> s = torch.tensor([[0.0, 0.0]])
        >>> rel = torch.tensor([[1.0, 0.0]])
        >>> round(listnet_loss(s, rel).item(), 4)  # -(p log 0.5 + (1 - p) log 0.5) = log 2
        0.6931
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(reduction=reduction)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    lowest = torch.tensor(torch.finfo(s.dtype).min, dtype=s.dtype, device=s.device)
    target = torch.softmax(torch.where(m, rel, lowest), dim=-1)
    per_list = -(target * _log_softmax(s, m)).sum(-1)
    return reduce(zero_where_not(informative(rel, m), per_list), reduction, batch_shape)


def softmax_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, reduction: str = "mean",
                 validate_args: bool = True) -> Tensor:
    r"""The Softmax cross-entropy of Bruch et al.: per list,

    .. math:: L = -\sum_i \frac{rel_i}{\sum_j rel_j} \, \log \mathrm{softmax}(s)_i

    over the real items (the relevance, normalised to sum to 1, is the target distribution). Bruch et al. show it
    bounds NDCG and MRR (with linear gains) from above, after a log transform. O(n) per list.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            part and get a gradient of exactly 0.
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss. A list with no relevant item (``sum rel = 0``), or whose real items all share one relevance grade,
        has nothing to learn: it gives 0 and a gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, a bad ``reduction``, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        S. Bruch, X. Wang, M. Bendersky and M. Najork, "An Analysis of the Softmax Cross Entropy Loss for
        Learning-to-Rank with Binary Relevance", ICTIR 2019.

    Examples:
        >>> s = torch.tensor([[1.0, 0.0, 0.0]])
        >>> rel = torch.tensor([[1.0, 1.0, 0.0]])
        >>> round(softmax_loss(s, rel).item(), 4)  # -(log p_0 + log p_1) / 2 with p = softmax(s)
        1.0514
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(reduction=reduction)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    target = rel * safe_inverse(rel.sum(-1, keepdim=True))  # padded relevance is already 0
    per_list = -(target * _log_softmax(s, m)).sum(-1)
    return reduce(zero_where_not(informative(rel, m), per_list), reduction, batch_shape)


def _check(*, reduction, **_) -> None:
    check_options(reduction=reduction)


@module_of(listnet_loss, _check)
class ListNetLoss(nn.Module):
    """Module form of :func:`listnet_loss` (``forward(scores, relevance, mask=None)``).

    Examples:
        >>> loss = ListNetLoss(reduction="none")
        >>> loss(torch.zeros(2, 3), torch.zeros(2, 3))  # no relevant item: 0
        tensor([0., 0.])
    """


@module_of(softmax_loss, _check)
class SoftmaxLoss(nn.Module):
    """Module form of :func:`softmax_loss` (``forward(scores, relevance, mask=None)``).

    Examples:
        >>> loss = SoftmaxLoss()
        >>> round(loss(torch.tensor([0.0, 0.0]), torch.tensor([1, 0])).item(), 4)  # -log(1/2)
        0.6931
    """
