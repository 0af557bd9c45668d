"""Losses whose gradient is formed in the forward pass, block by block (``blockwise``: used by Smooth-AP), and the
pairwise engine on top of it shared by RankNet and LambdaRank:
``sum_ij w_ij * softplus(-sigma * (s_i - s_j))`` per list,
for constant (not differentiated) pair weights ``w``.

Because the weights are constants, the gradient is known in closed form (it is exactly LambdaRank's lambdas):

    dL/ds_k = sigma * (sum_i P_ik - sum_j P_kj),    P_ij = w_ij * sigmoid(-sigma * (s_i - s_j)).

So the forward pass computes the loss and that gradient block by block and keeps only the ``(lists, n)`` gradient
for backward: the autograd graph holds O(lists * n) memory instead of several ``(lists, n, n)`` tensors, and the
transient memory is a few ``(block, n, n)`` buffers. ``softplus`` and ``sigmoid`` are evaluated in their stable
forms, so a score gap of 1,000 in float32 still gives a finite loss and a gradient of ``sigma * w``.
"""
from __future__ import annotations

import functools
from typing import Callable, Optional

import torch
import torch.nn.functional as F
from torch import Tensor

from losses._utils import masked_scores

# (scores block (c, n), padded entries zeroed; relevance block; mask block) -> weights (c, n, n), 0 where no pair
WeightFn = Callable[[Tensor, Tensor, Tensor], Tensor]
# (detached scores block (c, n), *aux blocks, need_grad=...) -> (loss (c,), gradient (c, n) or None)
BlockFn = Callable[..., tuple[Tensor, Optional[Tensor]]]


def _block(s: Tensor, w: Tensor, sigma: float, need_grad: bool):
    a = s * -sigma
    z = a[:, :, None] - a[:, None, :]  # z_ij = -sigma (s_i - s_j)
    c = z.shape[0]
    loss = torch.linalg.vecdot(w.view(c, -1), F.softplus(z).view(c, -1))
    if not need_grad:
        return loss, None
    p = torch.sigmoid(z, out=z).mul_(w)
    return loss, (p.sum(-2) - p.sum(-1)).mul_(sigma)


class _Blockwise(torch.autograd.Function):
    """Per-list losses whose gradient a block function forms in the forward pass: the graph keeps one ``(lists, n)``
    tensor, and only one block of lists is materialised at a time."""

    @staticmethod
    def forward(ctx, scores: Tensor, block_fn: BlockFn, block: int, *aux: Tensor) -> Tensor:
        s = scores.detach()
        need_grad = ctx.needs_input_grad[0]
        loss = s.new_zeros(s.shape[0])
        grad = torch.zeros_like(s) if need_grad else None
        for start in range(0, s.shape[0], block):  # blocks of lists, not single lists
            rows = slice(start, start + block)
            loss[rows], g = block_fn(s[rows], *(a[rows] for a in aux), need_grad=need_grad)
            if grad is not None and g is not None:
                grad[rows] = g
        ctx.save_for_backward(grad)
        return loss

    @staticmethod
    def backward(ctx, grad_out: Tensor):
        (grad,) = ctx.saved_tensors
        return (grad * grad_out[:, None], None, None) + (None,) * (len(ctx.needs_input_grad) - 3)


def blockwise(block_fn: BlockFn, scores: Tensor, *aux: Tensor, block: int) -> Tensor:
    """Per-list loss ``(lists,)`` of ``(lists, n)`` scores: ``block_fn(scores_block, *aux_blocks, need_grad=...)``
    returns the block's ``(loss, dloss/dscores)`` (the scores it gets are detached); autograd uses that gradient."""
    if scores.shape[-1] == 0:
        return scores.sum(-1)
    return _Blockwise.apply(scores, block_fn, block, *aux)


def _pair_logistic_block(s: Tensor, relevance: Tensor, mask: Tensor, *, weight_fn: WeightFn, sigma: float,
                         need_grad: bool):
    s = masked_scores(s, mask)
    return _block(s, weight_fn(s, relevance, mask), sigma, need_grad)


def weighted_pair_logistic(scores: Tensor, relevance: Tensor, mask: Tensor, weight_fn: WeightFn, *,
                           sigma: float, block: int) -> Tensor:
    """Per-list ``sum_ij w_ij softplus(-sigma (s_i - s_j))`` for ``(lists, n)`` inputs; shape ``(lists,)``."""
    fn = functools.partial(_pair_logistic_block, weight_fn=weight_fn, sigma=sigma)
    return blockwise(fn, scores, relevance, mask, block=block)


def pair_order_bounds(values: Tensor, mask: Tensor):
    """``(u, v)`` with ``u_i > v_j`` only for real items with ``values_i > values_j``: padded entries are ``-inf``
    in ``u`` and ``+inf`` in ``v`` (``u_i - v_j`` is then ``-inf``, never NaN)."""
    inf = torch.tensor(float("inf"), dtype=values.dtype, device=values.device)
    return torch.where(mask, values, -inf), torch.where(mask, values, inf)


def clamp_gap(u: Tensor, v: Tensor) -> Tensor:
    """``max(u_i - v_j, 0)`` as a ``(c, n, n)`` tensor."""
    return (u[:, :, None] - v[:, None, :]).clamp_min_(0.0)
