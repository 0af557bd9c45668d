"""ApproxNDCG (Qin, Liu and Li, 2010): NDCG with each rank replaced by a smooth, sigmoid-based approximation."""
from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor, nn
from torch.utils.checkpoint import checkpoint

from losses._utils import (
    check_lists,
    check_options,
    check_positive,
    flatten_lists,
    gains,
    ideal_dcg,
    masked_scores,
    reduce,
    safe_inverse,
)

__all__ = ["approx_ndcg_loss", "ApproxNDCGLoss"]


def _approx_block(s: Tensor, g: Tensor, mask: Tensor, inv_idcg: Tensor, temperature: float,
                  k: Optional[int]) -> Tensor:
    # S[., i, j] = sigmoid((s_j - s_i) / T); over real j (j = i included, sigmoid(0) = 1/2): rank_i = 1/2 + sum_j S_ij
    pair = torch.sigmoid((s[:, None, :] - s[:, :, None]) / temperature)
    rank = (pair * mask[:, None, :]).sum(-1) + 0.5
    dcg = g / torch.log2(1.0 + rank)
    if k is not None:  # a list with at most k real items has no cut-off to approximate
        cut = torch.sigmoid((k + 0.5 - rank) / temperature)
        dcg = dcg * torch.where(mask.sum(-1, keepdim=True) > k, cut, torch.ones_like(cut))
    return (inv_idcg > 0).to(s.dtype) - dcg.sum(-1) * inv_idcg


def approx_ndcg_loss(scores: Tensor, relevance: Tensor, *, mask: Optional[Tensor] = None, temperature: float = 1.0,
                     k: Optional[int] = None, gain: str = "exponential", reduction: str = "mean",
                     chunk_size: Optional[int] = None) -> Tensor:
    r"""``1 - ApproxNDCG``: NDCG with the rank of each item replaced by the smooth approximate rank

    .. math:: \hat\pi_i = 1 + \sum_{j \ne i} \sigma\!\left(\frac{s_j - s_i}{T}\right), \qquad
       \mathrm{ApproxNDCG} = \frac{1}{\mathrm{IDCG@k}} \sum_i \frac{G_i}{\log_2(1 + \hat\pi_i)}
       \left[\sigma\!\left(\frac{k + 1/2 - \hat\pi_i}{T}\right)\right]_{\text{if } k},

    over the real items of each list (the cut-off factor only for lists with more than ``k`` real items). As the
    temperature ``T`` goes to 0, ``hat pi`` tends to the exact 1-based rank (a tie counts 1/2, i.e. the
    mid-rank) and the loss to ``1 - NDCG@k``, so it can be checked against the exact metric.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, expected non-negative.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items get a gradient of exactly 0.
        temperature: ``T`` (> 0); smaller is closer to NDCG and has sharper (sparser) gradients.
        k: NDCG cut-off, or ``None`` for the whole list. The ideal DCG uses all real items of the list.
        gain: ``"exponential"`` (``2**rel - 1``, default) or ``"linear"`` (``rel``).
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        chunk_size: if given, lists are processed in blocks of this size under activation checkpointing: the
            graph then keeps only the inputs and recomputes one block at a time in backward.

    Returns:
        The loss, in ``[0, 1]`` per list. Lists that are all padding or have no relevant item (IDCG = 0) give 0;
        a one-item list gives 0.

    Memory: without ``chunk_size`` the graph keeps about two ``(lists, n, n)`` tensors of the scores' dtype;
    with it, the inputs plus, transiently, a few ``(chunk_size, n, n)`` blocks.

    Reference: T. Qin, T.-Y. Liu and H. Li, "A general approximation framework for direct optimization of
    information retrieval measures", Information Retrieval 13(4), 2010.

    >>> s = torch.tensor([[3.0, 1.0, 2.0]])
    >>> rel = torch.tensor([[1.0, 0.0, 2.0]])
    >>> round(approx_ndcg_loss(s, rel, temperature=1e-3).item(), 4)  # 1 - NDCG of the order (item 0, 2, 1)
    0.2033
    """
    scores, relevance, mask = check_lists(scores, relevance, mask)
    check_options(reduction=reduction, gain=gain, k=k, chunk_size=chunk_size)
    check_positive("temperature", temperature)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    s = masked_scores(s, m)
    g = gains(rel, m, gain)
    inv_idcg = safe_inverse(ideal_dcg(g, m, k))
    maskf = m.to(s.dtype)
    if chunk_size is None:
        per_list = _approx_block(s, g, maskf, inv_idcg, float(temperature), k)
    else:
        parts = [checkpoint(_approx_block, s[i:i + chunk_size], g[i:i + chunk_size], maskf[i:i + chunk_size],
                            inv_idcg[i:i + chunk_size], float(temperature), k, use_reentrant=False)
                 for i in range(0, s.shape[0], chunk_size)]
        per_list = torch.cat(parts) if parts else s.sum(-1)
    return reduce(per_list, reduction, batch_shape)


class ApproxNDCGLoss(nn.Module):
    """Module form of :func:`approx_ndcg_loss` (same keyword options; ``forward(scores, relevance, mask=None)``).

    >>> loss = ApproxNDCGLoss(temperature=0.1, k=5)
    >>> round(loss(torch.tensor([2.0, 1.0]), torch.tensor([1, 0])).item(), 4)  # right order: close to 0
    0.0
    """

    def __init__(self, *, temperature: float = 1.0, k: Optional[int] = None, gain: str = "exponential",
                 reduction: str = "mean", chunk_size: Optional[int] = None) -> None:
        super().__init__()
        check_options(reduction=reduction, gain=gain, k=k, chunk_size=chunk_size)
        check_positive("temperature", temperature)
        self.temperature, self.k, self.gain = temperature, k, gain
        self.reduction, self.chunk_size = reduction, chunk_size

    def forward(self, scores: Tensor, relevance: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        return approx_ndcg_loss(scores, relevance, mask=mask, temperature=self.temperature, k=self.k, gain=self.gain,
                                reduction=self.reduction, chunk_size=self.chunk_size)

    def extra_repr(self) -> str:
        return f"temperature={self.temperature}, k={self.k}, gain={self.gain!r}"
