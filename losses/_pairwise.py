"""Losses whose gradient is formed in the forward pass, block by block (``blockwise``: used by Smooth-AP), and the
pairwise engine on top of it shared by every pairwise loss (RankNet, LambdaRank and the LambdaLoss weightings,
the hinge and soft zero-one losses, ``pairwise_loss``): per list

    L = sum_ij w_ij * f(s_i - s_j)

for constant (not differentiated) pair weights ``w`` and a pair loss ``f``. Because the weights are constants, the
gradient is known in closed form (for the logistic ``f`` it is exactly LambdaRank's lambdas):

    dL/ds_k = sum_j P_kj - sum_i P_ik,    P_ij = w_ij * f'(s_i - s_j).

So the forward pass computes the loss and that gradient block by block and keeps only the ``(lists, n)`` gradient
for backward: the autograd graph holds O(lists * n) memory instead of several ``(lists, n, n)`` tensors, and the
transient memory is a few ``(block, n, n)`` buffers. ``softplus`` and ``sigmoid`` are evaluated in their stable
forms, so a score gap of 1,000 in float32 still gives a finite loss and a gradient of ``sigma * w``. A pair loss
given as a callable is differentiated by autograd inside the block (first derivatives only).
"""
from __future__ import annotations

import functools
from typing import Callable, Optional, Union

import torch
import torch.nn.functional as F
from torch import Tensor

from losses._utils import masked_scores

# (scores block (c, n), padded entries zeroed; relevance block; mask block) -> weights (c, n, n), 0 where no pair
WeightFn = Callable[[Tensor, Tensor, Tensor], Tensor]
# (detached scores block (c, n), *aux blocks, need_grad=...) -> (loss (c,), gradient (c, n) or None)
BlockFn = Callable[..., tuple[Tensor, Optional[Tensor]]]
# the pair loss f: a built-in name or an elementwise callable of the score differences s_i - s_j
PairLoss = Union[str, Callable[[Tensor], Tensor]]
PAIR_LOSSES = ("logistic", "hinge", "sigmoid")


def _logistic_block(s: Tensor, w: Tensor, sigma: float, need_grad: bool):
    a = s * -sigma
    z = a[:, :, None] - a[:, None, :]  # z_ij = -sigma (s_i - s_j)
    c = z.shape[0]
    loss = torch.linalg.vecdot(w.view(c, -1), F.softplus(z).view(c, -1))
    if not need_grad:
        return loss, None
    p = torch.sigmoid(z, out=z).mul_(w)
    return loss, (p.sum(-2) - p.sum(-1)).mul_(sigma)


def _hinge_block(s: Tensor, w: Tensor, margin: float, need_grad: bool):
    h = (s[:, None, :] - s[:, :, None]).add_(margin)  # margin - (s_i - s_j)
    c = h.shape[0]
    active = h > 0
    loss = torch.linalg.vecdot(w.view(c, -1), h.clamp_min_(0.0).view(c, -1))
    if not need_grad:
        return loss, None
    p = w.mul(active)  # f' = -1 where the hinge is active (0 at the kink)
    return loss, p.sum(-2) - p.sum(-1)


def _sigmoid_block(s: Tensor, w: Tensor, sigma: float, need_grad: bool):
    a = s * -sigma
    q = torch.sigmoid(a[:, :, None] - a[:, None, :])  # sigmoid(-sigma (s_i - s_j))
    c = q.shape[0]
    loss = torch.linalg.vecdot(w.view(c, -1), q.view(c, -1))
    if not need_grad:
        return loss, None
    p = q.mul_(1.0 - q).mul_(w)  # f' = -sigma q (1 - q)
    return loss, (p.sum(-2) - p.sum(-1)).mul_(sigma)


def _callable_block(s: Tensor, w: Tensor, fn: Callable[[Tensor], Tensor], need_grad: bool):
    with torch.enable_grad():
        d = (s[:, :, None] - s[:, None, :]).requires_grad_(need_grad)
        c = d.shape[0]
        values = fn(d)
        if not isinstance(values, Tensor) or values.shape != d.shape:
            raise ValueError(f"Expected the `pair_loss` callable to return a tensor of the shape of its input "
                             f"{tuple(d.shape)}, got {getattr(values, 'shape', type(values).__name__)}")
        loss = torch.linalg.vecdot(w.reshape(c, -1), values.reshape(c, -1))
        if not need_grad:
            return loss.detach(), None
        (gd,) = torch.autograd.grad(loss.sum(), d)
    return loss.detach(), gd.sum(-1) - gd.sum(-2)  # gd_ij = w_ij f'(s_i - s_j): rows minus columns


def pair_block(s: Tensor, w: Tensor, *, pair_loss: PairLoss, sigma: float, margin: float, need_grad: bool):
    """``(loss (c,), dloss/ds (c, n) or None)`` of ``sum_ij w_ij f(s_i - s_j)`` for one block of lists."""
    if pair_loss == "logistic":
        return _logistic_block(s, w, sigma, need_grad)
    if pair_loss == "hinge":
        return _hinge_block(s, w, margin, need_grad)
    if pair_loss == "sigmoid":
        return _sigmoid_block(s, w, sigma, need_grad)
    return _callable_block(s, w, pair_loss, need_grad)  # type: ignore[arg-type]


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


def _weighted_pairs_block(s: Tensor, relevance: Tensor, mask: Tensor, *, weight_fn: WeightFn, pair_loss: PairLoss,
                          sigma: float, margin: float, need_grad: bool):
    s = masked_scores(s, mask)
    return pair_block(s, weight_fn(s, relevance, mask), pair_loss=pair_loss, sigma=sigma, margin=margin,
                      need_grad=need_grad)


def weighted_pairs(scores: Tensor, relevance: Tensor, mask: Tensor, weight_fn: WeightFn, *, pair_loss: PairLoss,
                   sigma: float = 1.0, margin: float = 1.0, block: int) -> Tensor:
    """Per-list ``sum_ij w_ij f(s_i - s_j)`` for ``(lists, n)`` inputs; shape ``(lists,)``."""
    fn = functools.partial(_weighted_pairs_block, weight_fn=weight_fn, pair_loss=pair_loss, sigma=sigma,
                           margin=margin)
    return blockwise(fn, scores, relevance, mask, block=block)


def weighted_pair_logistic(scores: Tensor, relevance: Tensor, mask: Tensor, weight_fn: WeightFn, *,
                           sigma: float, block: int) -> Tensor:
    """Per-list ``sum_ij w_ij softplus(-sigma (s_i - s_j))`` for ``(lists, n)`` inputs; shape ``(lists,)``."""
    return weighted_pairs(scores, relevance, mask, weight_fn, pair_loss="logistic", sigma=sigma, block=block)


def pair_order_bounds(values: Tensor, mask: Tensor):
    """``(u, v)`` with ``u_i > v_j`` only for real items with ``values_i > values_j``: padded entries are ``-inf``
    in ``u`` and ``+inf`` in ``v`` (``u_i - v_j`` is then ``-inf``, never NaN)."""
    inf = torch.tensor(float("inf"), dtype=values.dtype, device=values.device)
    return torch.where(mask, values, -inf), torch.where(mask, values, inf)


def clamp_gap(u: Tensor, v: Tensor) -> Tensor:
    """``max(u_i - v_j, 0)`` as a ``(c, n, n)`` tensor."""
    return (u[:, :, None] - v[:, None, :]).clamp_min_(0.0)
