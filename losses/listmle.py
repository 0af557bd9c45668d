"""ListMLE (Xia et al., ICML 2008): the Plackett-Luce likelihood of the order that sorts a list by relevance."""
from __future__ import annotations

import torch
from torch import Tensor, nn

from losses._module import module_of
from losses._utils import check_lists, check_options, flatten_lists, informative, masked_scores, reduce, zero_where_not

__all__ = ["ListMLELoss", "listmle_loss"]


def listmle_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, reduction: str = "mean",
                 validate_args: bool = True) -> Tensor:
    r"""ListMLE: the Plackett-Luce negative log-likelihood of the ideal order ``pi`` of each list,

    .. math:: L = -\log P(\pi \mid s) = \sum_{i=1}^{m} \Big( \log \sum_{j=i}^{m} e^{s_{\pi(j)}} - s_{\pi(i)} \Big),

    where ``pi`` sorts the ``m`` real items by relevance, descending; items of equal relevance keep their input
    order (a stable sort), so the loss does depend on the input order of ties: shuffle the items if that matters.
    The inner sums are a reversed ``logcumsumexp`` (stable for any score gap); O(n log n) per list.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items (only its order
            within a list matters).
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            part and get a gradient of exactly 0.
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss, >= 0 per list. A list that is all padding, has one real item, or whose real items all share one
        relevance grade (no relevant item included) has nothing to learn: it gives 0 and a gradient of 0 (the
        likelihood of its input order is not a target).

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, a bad ``reduction``, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        F. Xia, T.-Y. Liu, J. Wang, W. Zhang and H. Li, "Listwise Approach to Learning to Rank: Theory and
        Algorithm", ICML 2008.

    Examples:
        >>> s = torch.tensor([[0.0, 0.0]])
        >>> rel = torch.tensor([[1.0, 0.0]])
        >>> round(listmle_loss(s, rel).item(), 4)  # -log(1/2) - log(1)
        0.6931
        >>> round(listmle_loss(torch.tensor([[2.0, 1.0, 0.0]]), torch.tensor([[0, 1, 2]])).item(), 4)
        3.7209
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(reduction=reduction)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    if s.shape[-1] == 0:
        return reduce(s.sum(-1), reduction, batch_shape)
    neg_inf = torch.tensor(-float("inf"), dtype=rel.dtype, device=rel.device)
    order = torch.sort(torch.where(m, rel, neg_inf), dim=-1, descending=True, stable=True).indices
    real = torch.gather(m, -1, order)  # real items first, in the ideal order
    lowest = torch.tensor(torch.finfo(s.dtype).min, dtype=s.dtype, device=s.device)
    ranked = torch.where(real, torch.gather(masked_scores(s, m), -1, order), lowest)  # padding: exp(.) = 0
    tail = torch.logcumsumexp(ranked.flip(-1), dim=-1).flip(-1)  # log sum_{j >= i} exp(s_pi(j))
    zero = torch.zeros((), dtype=s.dtype, device=s.device)
    per_list = torch.where(real, tail - ranked, zero).sum(-1)
    return reduce(zero_where_not(informative(rel, m), per_list), reduction, batch_shape)


def _check(*, reduction, **_) -> None:
    check_options(reduction=reduction)


@module_of(listmle_loss, _check)
class ListMLELoss(nn.Module):
    """Module form of :func:`listmle_loss` (``forward(scores, relevance, mask=None)``).

    Examples:
        >>> loss = ListMLELoss(reduction="none")
        >>> loss(torch.zeros(2, 3), torch.ones(2, 3))  # one grade only: nothing to learn
        tensor([0., 0.])
    """
