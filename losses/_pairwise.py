"""The pairwise engine shared by RankNet and LambdaRank: ``sum_ij w_ij * softplus(-sigma * (s_i - s_j))`` per list,
for constant (not differentiated) pair weights ``w``.

Because the weights are constants, the gradient is known in closed form (it is exactly LambdaRank's lambdas):

    dL/ds_k = sigma * (sum_i P_ik - sum_j P_kj),    P_ij = w_ij * sigmoid(-sigma * (s_i - s_j)).

So the forward pass computes the loss and that gradient block by block and keeps only the ``(lists, n)`` gradient
for backward: the autograd graph holds O(lists * n) memory instead of several ``(lists, n, n)`` tensors, and the
transient memory is a few ``(block, n, n)`` buffers. ``softplus`` and ``sigmoid`` are evaluated in their stable
forms, so a score gap of 1,000 in float32 still gives a finite loss and a gradient of ``sigma * w``.
"""
from __future__ import annotations

from typing import Callable

import torch
import torch.nn.functional as F
from torch import Tensor

from losses._utils import masked_scores

# (scores block (c, n), padded entries zeroed; relevance block; mask block) -> weights (c, n, n), 0 where no pair
WeightFn = Callable[[Tensor, Tensor, Tensor], Tensor]


def _block(s: Tensor, w: Tensor, sigma: float, need_grad: bool):
    a = s * -sigma
    z = a[:, :, None] - a[:, None, :]  # z_ij = -sigma (s_i - s_j)
    c = z.shape[0]
    loss = torch.linalg.vecdot(w.view(c, -1), F.softplus(z).view(c, -1))
    if not need_grad:
        return loss, None
    p = torch.sigmoid(z, out=z).mul_(w)
    return loss, (p.sum(-2) - p.sum(-1)).mul_(sigma)


class _WeightedPairLogistic(torch.autograd.Function):
    @staticmethod
    def forward(ctx, scores: Tensor, relevance: Tensor, mask: Tensor, weight_fn: WeightFn, sigma: float,
                block: int) -> Tensor:
        s = masked_scores(scores.detach(), mask)
        need_grad = ctx.needs_input_grad[0]
        loss = s.new_zeros(s.shape[0])
        grad = torch.zeros_like(s) if need_grad else None
        for start in range(0, s.shape[0], block):  # blocks of lists, not single lists
            rows = slice(start, start + block)
            w = weight_fn(s[rows], relevance[rows], mask[rows])
            loss[rows], g = _block(s[rows], w, sigma, need_grad)
            if need_grad:
                grad[rows] = g
        ctx.save_for_backward(grad)
        return loss

    @staticmethod
    def backward(ctx, grad_out: Tensor):
        (grad,) = ctx.saved_tensors
        return grad * grad_out[:, None], None, None, None, None, None


def weighted_pair_logistic(scores: Tensor, relevance: Tensor, mask: Tensor, weight_fn: WeightFn, *,
                           sigma: float, block: int) -> Tensor:
    """Per-list ``sum_ij w_ij softplus(-sigma (s_i - s_j))`` for ``(lists, n)`` inputs; shape ``(lists,)``."""
    if scores.shape[-1] == 0:
        return scores.sum(-1)
    return _WeightedPairLogistic.apply(scores, relevance, mask, weight_fn, sigma, block)


def pair_order_bounds(values: Tensor, mask: Tensor):
    """``(u, v)`` with ``u_i > v_j`` only for real items with ``values_i > values_j``: padded entries are ``-inf``
    in ``u`` and ``+inf`` in ``v`` (``u_i - v_j`` is then ``-inf``, never NaN)."""
    inf = torch.tensor(float("inf"), dtype=values.dtype, device=values.device)
    return torch.where(mask, values, -inf), torch.where(mask, values, inf)


def clamp_gap(u: Tensor, v: Tensor) -> Tensor:
    """``max(u_i - v_j, 0)`` as a ``(c, n, n)`` tensor."""
    return (u[:, :, None] - v[:, None, :]).clamp_min_(0.0)
