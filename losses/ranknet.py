"""RankNet: the pairwise logistic loss of Burges et al. (ICML 2005)."""
from __future__ import annotations

import torch  # noqa: F401  (the doctests use it)
from torch import Tensor, nn

from losses._module import module_of
from losses._pairwise import pair_order_bounds, weighted_pair_logistic
from losses._utils import (
    check_lists,
    check_options,
    check_positive,
    flatten_lists,
    lists_per_block,
    reduce,
    safe_inverse,
)

__all__ = ["RankNetLoss", "ranknet_loss"]


def _ranknet_weights(s: Tensor, rel: Tensor, mask: Tensor) -> Tensor:
    u, v = pair_order_bounds(rel, mask)
    w = (u[:, :, None] > v[:, None, :]).to(s.dtype)
    return w.mul_(safe_inverse(w.sum((-1, -2)))[:, None, None])


def ranknet_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, sigma: float = 1.0,
                 reduction: str = "mean", chunk_size: int | None = None, validate_args: bool = True) -> Tensor:
    r"""RankNet loss: the mean, over the ordered pairs of a list with ``rel_i > rel_j``, of

    .. math:: \ell_{ij} = \log(1 + e^{-\sigma (s_i - s_j)}) = \mathrm{softplus}(-\sigma (s_i - s_j)),

    the cross-entropy of the modelled probability ``sigmoid(sigma (s_i - s_j))`` that ``i`` ranks above ``j``.

    Memory: the autograd graph keeps one ``(lists, n)`` tensor (the gradient is formed in the forward pass);
    the forward pass needs about three ``(chunk_size, n, n)`` buffers.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items (only its order
            within a list matters).
        mask: optional ``(..., n)`` bool, ``True`` on real items. Padded items form no pair and get a gradient of
            exactly 0, whatever their score (even ``inf`` or NaN).
        sigma: the slope of the logistic (> 0).
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        chunk_size: lists per ``(lists, n, n)`` block; by default blocks of about 2^18 pairs.
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss. A list with fewer than two real items, or whose real items all share one relevance grade (no
        relevant item included), has no pair: it gives 0 and a gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        C. Burges et al., "Learning to Rank using Gradient Descent", ICML 2005.

    Examples:
        >>> s = torch.tensor([[1.0, 0.0, 2.0]])
        >>> rel = torch.tensor([[2, 1, 0]])
        >>> round(ranknet_loss(s, rel).item(), 4)  # (softplus(-1) + softplus(1) + softplus(2)) / 3
        1.2512
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(sigma=sigma, reduction=reduction, chunk_size=chunk_size)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    per_list = weighted_pair_logistic(s, rel, m, _ranknet_weights, sigma=float(sigma),
                                      block=lists_per_block(s.shape[-1], chunk_size))
    return reduce(per_list, reduction, batch_shape)


def _check(*, sigma, reduction, chunk_size, **_) -> None:
    check_options(reduction=reduction, chunk_size=chunk_size)
    check_positive("sigma", sigma)


@module_of(ranknet_loss, _check)
class RankNetLoss(nn.Module):
    """Module form of :func:`ranknet_loss` (same arguments; ``forward(scores, relevance, mask=None)``).

    Examples:
        >>> loss = RankNetLoss(sigma=1.0)
        >>> round(loss(torch.tensor([0.0, 0.0]), torch.tensor([1.0, 0.0])).item(), 4)  # log(2)
        0.6931
    """
