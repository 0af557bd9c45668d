"""ListNet (Cao et al., ICML 2007): cross-entropy between the top-one probabilities of the labels and the scores."""
from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor, nn

from losses._utils import check_lists, check_options, flatten_lists, masked_scores, reduce

__all__ = ["listnet_loss", "ListNetLoss"]


def listnet_loss(scores: Tensor, relevance: Tensor, *, mask: Optional[Tensor] = None,
                 reduction: str = "mean") -> Tensor:
    r"""ListNet's top-one loss: per list, the cross-entropy

    .. math:: L = -\sum_i \mathrm{softmax}(rel)_i \, \log \mathrm{softmax}(s)_i

    over the real items of the list (the top-one probabilities of Cao et al. with ``phi = exp``). Computed with
    ``log_softmax``, so large score gaps stay finite; padded items take no probability mass in either
    distribution and get a gradient of exactly 0. O(n) per list: no pairs are built.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype.
        mask: optional ``(..., n)`` bool, ``True`` on real items.
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).

    Returns:
        The loss. Lists that are all padding, or have no item with relevance > 0, give 0; a one-item list gives 0.
        Its minimum over the scores is the entropy of ``softmax(rel)``, not 0.

    Reference: Z. Cao et al., "Learning to Rank: From Pairwise Approach to Listwise Approach", ICML 2007.

    >>> s = torch.tensor([[0.0, 0.0]])
    >>> rel = torch.tensor([[1.0, 0.0]])
    >>> round(listnet_loss(s, rel).item(), 4)  # -(p log 0.5 + (1 - p) log 0.5) = log 2
    0.6931
    """
    scores, relevance, mask = check_lists(scores, relevance, mask)
    check_options(reduction=reduction)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    lowest = torch.tensor(torch.finfo(s.dtype).min, dtype=s.dtype, device=s.device)
    zero = torch.zeros((), dtype=s.dtype, device=s.device)
    log_p = torch.log_softmax(torch.where(m, masked_scores(s, m), lowest), dim=-1)
    target = torch.softmax(torch.where(m, rel, lowest), dim=-1)
    relevant = (m & (rel > 0)).any(-1)
    per_list = -(target * torch.where(m, log_p, zero)).sum(-1)
    per_list = torch.where(relevant, per_list, zero)
    return reduce(per_list, reduction, batch_shape)


class ListNetLoss(nn.Module):
    """Module form of :func:`listnet_loss` (``forward(scores, relevance, mask=None)``).

    >>> loss = ListNetLoss(reduction="none")
    >>> loss(torch.zeros(2, 3), torch.zeros(2, 3))  # no relevant item: 0
    tensor([0., 0.])
    """

    def __init__(self, *, reduction: str = "mean") -> None:
        super().__init__()
        check_options(reduction=reduction)
        self.reduction = reduction

    def forward(self, scores: Tensor, relevance: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        return listnet_loss(scores, relevance, mask=mask, reduction=self.reduction)

    def extra_repr(self) -> str:
        return f"reduction={self.reduction!r}"
