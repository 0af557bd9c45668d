"""Listwise cross-entropies against the softmax of the scores: ListNet (Cao et al., 2007), the Softmax loss (Bruch et
al., 2019), its poly-1 form (Leng et al., 2022) and the unique-rating softmax (Zhu and Klabjan, 2020). They differ in
the target distribution over the items of a list and in the set each item's softmax runs over."""
from __future__ import annotations

import torch
from torch import Tensor, nn

from losses._module import module_of
from losses._utils import (
    check_lists,
    check_options,
    flatten_lists,
    gains,
    informative,
    masked_scores,
    reduce,
    safe_inverse,
    zero_where_not,
)
from torchmetrics_lite.checks import check_number

__all__ = ["ListNetLoss", "Poly1SoftmaxLoss", "SoftmaxLoss", "UniqueSoftmaxLoss", "listnet_loss", "poly1_softmax_loss",
           "softmax_loss", "unique_softmax_loss"]


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


def poly1_softmax_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, epsilon: float = 1.0,
                       reduction: str = "mean", validate_args: bool = True) -> Tensor:
    r"""Poly-1 softmax loss: the Softmax cross-entropy plus ``epsilon`` times the first term of its Taylor series,

    .. math:: L = -\sum_i t_i \log p_i + \epsilon \Big(1 - \sum_i t_i p_i\Big),\qquad
       t_i = \frac{rel_i}{\sum_j rel_j},\quad p = \mathrm{softmax}(s)

    over the real items of each list. ``epsilon = 0`` is :func:`softmax_loss`; ``epsilon > 0`` pushes harder on
    lists whose relevant items already hold most of the mass (the PolyLoss argument), ``epsilon`` down to ``-1``
    keeps the loss a valid (>= 0) surrogate. O(n) per list.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            part and get a gradient of exactly 0.
        epsilon: weight of the poly-1 term (>= -1; 1 by default, as TF-Ranking and Rax).
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss. A list with no relevant item, or whose real items all share one relevance grade, has nothing to
        learn: it gives 0 and a gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        Z. Leng et al., "PolyLoss: A Polynomial Expansion Perspective of Classification Loss Functions", ICLR 2022;
        TF-Ranking ``PolyOneSoftmaxLoss``, Rax ``rax.poly1_softmax_loss``.

    Examples:
        >>> s = torch.tensor([[0.0, 0.0]])
        >>> rel = torch.tensor([[1.0, 0.0]])
        >>> round(poly1_softmax_loss(s, rel).item(), 4)  # log 2 + (1 - 1/2)
        1.1931
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check_poly(epsilon=epsilon, reduction=reduction)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    target = rel * safe_inverse(rel.sum(-1, keepdim=True))
    log_p = _log_softmax(s, m)
    per_list = -(target * log_p).sum(-1) + epsilon * (1.0 - (target * log_p.exp() * m).sum(-1))
    return reduce(zero_where_not(informative(rel, m), per_list), reduction, batch_shape)


def unique_softmax_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, gain: str = "exponential",
                        reduction: str = "mean", validate_args: bool = True) -> Tensor:
    r"""Unique-rating softmax loss: each item's softmax runs over itself and the items of lower relevance only,

    .. math:: L = -\sum_i G_i \log \frac{e^{s_i}}{e^{s_i} + \sum_{j:\ rel_j < rel_i} e^{s_j}}

    over the real items of each list, ``G`` the gains (``2**rel - 1`` by default, as Zhu and Klabjan and
    TF-Ranking / Rax). Items of equal relevance never compete (a tie is not a preference), so the loss does not
    depend on the order of tied items. Computed in O(n log n) per list: items sorted by relevance, the sums over
    lower grades are a ``logcumsumexp`` read at the first item of each grade.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            part and get a gradient of exactly 0.
        gain: ``"exponential"`` (``2**rel - 1``, the anchors') or ``"linear"`` (``rel``).
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss, >= 0 per list (a sum over the items, not normalised). A list whose real items all share one
        relevance grade (no relevant item included) has nothing to learn: it gives 0 and a gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        X. Zhu and D. Klabjan, "Listwise Learning to Rank by Exploring Unique Ratings", WSDM 2020; TF-Ranking
        ``UniqueSoftmaxLoss``, Rax ``rax.unique_softmax_loss``.

    Examples:
        >>> round(unique_softmax_loss(torch.tensor([[0.6, 0.8]]), torch.tensor([[1.0, 0.0]])).item(), 4)
        0.7981
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check_unique(gain=gain, reduction=reduction)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    if s.shape[-1] == 0:
        return reduce(s.sum(-1), reduction, batch_shape)
    lowest = torch.tensor(torch.finfo(s.dtype).min, dtype=s.dtype, device=s.device)
    key = torch.where(m, rel, torch.full((), -1.0, dtype=rel.dtype, device=rel.device))  # padding below every grade
    sorted_key, order = torch.sort(key, dim=-1, stable=True)
    ranked = torch.where(torch.gather(m, -1, order), torch.gather(masked_scores(s, m), -1, order), lowest)
    prefix = torch.logcumsumexp(ranked, dim=-1)  # log sum of exp(s) over the first p + 1 items by grade
    first = torch.searchsorted(sorted_key, key, right=False)  # position of the first item of each item's grade
    below = torch.gather(prefix, -1, (first - 1).clamp_min(0))
    below = torch.where(first > 0, below, lowest)  # no lower grade: an empty sum
    sm = masked_scores(s, m)
    term = torch.logaddexp(sm, below) - sm  # -log(e^s_i / (e^s_i + sum_lower e^s_j))
    per_list = (gains(rel, m, gain) * term).sum(-1)
    return reduce(zero_where_not(informative(rel, m), per_list), reduction, batch_shape)


def _check_poly(*, epsilon, reduction, **_) -> None:
    check_options(reduction=reduction)
    check_number("epsilon", epsilon, low=-1.0)


def _check_unique(*, gain, reduction, **_) -> None:
    check_options(reduction=reduction, gain=gain)


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


@module_of(poly1_softmax_loss, _check_poly)
class Poly1SoftmaxLoss(nn.Module):
    """Module form of :func:`poly1_softmax_loss` (``forward(scores, relevance, mask=None)``).

    Examples:
        >>> Poly1SoftmaxLoss(epsilon=0.0)(torch.tensor([0.0, 0.0]), torch.tensor([1, 0]))  # softmax_loss: log 2
        tensor(0.6931)
    """


@module_of(unique_softmax_loss, _check_unique)
class UniqueSoftmaxLoss(nn.Module):
    """Module form of :func:`unique_softmax_loss` (``forward(scores, relevance, mask=None)``).

    Examples:
        >>> round(UniqueSoftmaxLoss()(torch.tensor([0.0, 0.0]), torch.tensor([1, 0])).item(), 4)  # (2 - 1) log 2
        0.6931
    """
