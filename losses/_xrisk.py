"""Shared pieces of the stateful X-risk losses (SOAP, pAUC by DRO / CVaR, two-way pAUC, SONG NDCG).

State. Each loss keeps estimators per sample (or per query) in buffers registered on the module, so they follow
``.to()``, ``state_dict()`` / ``load_state_dict()`` (an exact resume) and ``copy.deepcopy``. The user names the
rows of a batch with ``index=`` (an integer tensor, one id per score); an id outside ``[0, size)`` raises a
``ValueError`` naming ``index`` before any estimator changes. The estimators change only in training mode
(``module.train()``, the default): in ``eval()`` mode a forward reads them and leaves them as they are, so a
validation pass does not move them.

Distributed data parallel (a ``torch.distributed`` process group with more than one rank): the estimators are
**synced**. Each rank computes the new values of the rows of its own batch (from its own batch), then the ranks
exchange ``(index, new rows)`` with ``all_gather`` and every rank writes all of them, so every rank holds the same
estimators after every step whichever rank saw a sample (a ``DistributedSampler`` reshuffles the samples over the
ranks every epoch). The loss itself and its gradient are those of the rank's own batch (DDP averages the
gradients). An id should appear at most once per step over all ranks (as with ``DistributedSampler``); where it
appears twice, one of the two new rows is kept.

Pair sums. :func:`row_squared_hinge` sums ``max(0, m - (r_i - c_j))**2`` over the columns ``j`` of every row ``i``
in O((R + C) log(R + C)) (sort and prefix sums, as ``soft_auc_loss``), with a per-row extra threshold for the
CVaR estimator; its backward takes any per-row weight. :func:`kl_pair_pass` does the exponential (KL-DRO)
weighting, which has no such form, exactly over all pairs in blocks of rows with the gradient formed in the
forward pass (memory of one block).
"""
from __future__ import annotations

import torch
import torch.distributed as dist
from torch import Tensor

from losses._utils import PAIR_BLOCK
from torchmetrics_lite import float_dtype, sorting
from torchmetrics_lite.checks import check_number, check_positive_int, check_tensor


def check_index(index: Tensor, shape: torch.Size, size: int, name: str = "index") -> Tensor:
    """``index`` an integer tensor of ``shape`` with values in ``[0, size)`` (one host sync); returned as int64."""
    check_tensor(name, index)
    if index.dtype.is_floating_point or index.dtype.is_complex or index.dtype == torch.bool:
        raise TypeError(f"Expected `{name}` to have an integer dtype, got {index.dtype}")
    if index.shape != shape:
        raise ValueError(f"Expected `{name}` to have the shape {tuple(shape)} of the scores (one id per score), "
                         f"got {tuple(index.shape)}")
    if index.numel():
        low, high = int(index.min()), int(index.max())
        if low < 0 or high >= size:
            bad = low if low < 0 else high
            raise ValueError(f"Expected `{name}` to hold ids in [0, {size}) (the size given at construction), "
                             f"got {bad}")
    return index.long()


def check_rate(name: str, value: float) -> None:
    """A moving-average weight in (0, 1]."""
    check_number(name, value, low=0.0, high=1.0, low_open=True)


def check_size(name: str, value: int) -> None:
    check_positive_int(name, value)


def world_size() -> int:
    return dist.get_world_size() if dist.is_available() and dist.is_initialized() else 1


def gather_rows(index: Tensor, rows: Tensor) -> tuple[Tensor, Tensor]:
    """Under a process group of several ranks: every rank's ``(index, rows)`` concatenated in rank order (uneven
    sizes allowed); otherwise the inputs unchanged. ``rows`` has shape ``(len(index), ...)``."""
    if world_size() == 1:
        return index, rows
    n = world_size()
    count = torch.tensor([index.numel()], dtype=torch.int64, device=index.device)
    counts = [torch.zeros_like(count) for _ in range(n)]
    dist.all_gather(counts, count)
    sizes = [int(c) for c in counts]
    top = max(sizes)
    if top == 0:
        return index, rows
    pad_i = torch.zeros(top, dtype=index.dtype, device=index.device)
    pad_i[:index.numel()] = index
    pad_r = rows.new_zeros((top, *rows.shape[1:]))
    pad_r[:rows.shape[0]] = rows
    all_i, all_r = [torch.empty_like(pad_i) for _ in range(n)], [torch.empty_like(pad_r) for _ in range(n)]
    dist.all_gather(all_i, pad_i)
    dist.all_gather(all_r, pad_r)
    return (torch.cat([t[:s] for t, s in zip(all_i, sizes)]), torch.cat([t[:s] for t, s in zip(all_r, sizes)]))


def write_rows(buffers: list[Tensor], index: Tensor, rows: list[Tensor]) -> None:
    """``buffer[index] = row`` for each buffer, after syncing ``(index, rows)`` over the ranks. Every rank must
    call it at every training step, a rank with nothing to write too (:func:`write_nothing`)."""
    stacked = torch.stack([r.detach().to(torch.float64 if b.dtype == torch.float64 else b.dtype)
                           for r, b in zip(rows, buffers)], dim=1) if rows else None
    if stacked is None:
        return
    index, stacked = gather_rows(index, stacked)
    for k, buffer in enumerate(buffers):
        buffer[index] = stacked[:, k].to(buffer.dtype)


def write_nothing(buffers: list[Tensor]) -> None:
    """A rank's part of :func:`write_rows` at a step where its batch updates no row (e.g. no positive): under a
    process group the other ranks' rows still arrive. Without one, nothing happens."""
    if world_size() > 1:
        index = torch.zeros(0, dtype=torch.int64, device=buffers[0].device)
        write_rows(buffers, index, [b.new_zeros(0) for b in buffers])


class _RowSquaredHinge(torch.autograd.Function):
    """``S_i = sum_j [c_j > t_i + shift_i] (c_j - t_i)**2`` with ``t_i = r_i - margin`` (the indicator constant)."""

    @staticmethod
    def forward(ctx, r: Tensor, c: Tensor, margin: float, shift: Tensor) -> tuple[Tensor, Tensor]:
        dtype = float_dtype(r.device)
        x_r, x_c = r.detach().to(dtype), c.detach().to(dtype)
        center = torch.cat([x_r, x_c]).mean() if r.numel() + c.numel() else x_r.new_zeros(())
        t = x_r - center - margin
        cc = x_c - center
        tau = t + shift.to(dtype)
        c_sorted = sorting.sort(cc)
        idx = sorting.searchsorted(c_sorted, tau, right=True)  # columns above tau_i: c_sorted[idx_i:]
        zero = cc.new_zeros(1)
        s1, s2 = torch.cat([zero, torch.cumsum(c_sorted, 0)]), torch.cat([zero, torch.cumsum(c_sorted ** 2, 0)])
        cnt = (cc.numel() - idx).to(dtype)
        lin = (s1[-1] - s1[idx]) - cnt * t  # sum over active columns of (c_j - t_i)
        total = (s2[-1] - s2[idx]) - 2.0 * t * (s1[-1] - s1[idx]) + cnt * t * t
        ctx.save_for_backward(t, tau, cc, lin)
        ctx.out_dtype = r.dtype
        ctx.mark_non_differentiable(cnt)
        return total.to(r.dtype), cnt.to(r.dtype)

    @staticmethod
    def backward(ctx, g: Tensor, _g_cnt: Tensor):
        t, tau, cc, lin = ctx.saved_tensors
        g = g.to(t.dtype)
        grad_r = -2.0 * g * lin
        order = torch.argsort(tau)
        tau_sorted = tau[order]
        zero = t.new_zeros(1)
        cg, cgt = torch.cat([zero, torch.cumsum(g[order], 0)]), torch.cat([zero, torch.cumsum((g * t)[order], 0)])
        j = sorting.searchsorted(tau_sorted, cc, right=False)  # rows with tau_i < c_j
        grad_c = 2.0 * (cc * cg[j] - cgt[j])
        return grad_r.to(ctx.out_dtype), grad_c.to(ctx.out_dtype), None, None


def row_squared_hinge(r: Tensor, c: Tensor, margin: float, shift: Tensor | None = None) -> tuple[Tensor, Tensor]:
    """Per row ``i`` of ``r`` (1-D): ``sum_j [c_j > r_i - m + shift_i] max(0, m - r_i + c_j)**2`` over ``c``
    (1-D), and the number of such columns (not differentiable). ``shift`` (>= 0, default 0) is held constant;
    float64 statistics (float32 on a device without float64), O((R + C) log(R + C))."""
    if shift is None:
        shift = torch.zeros_like(r)
    return _RowSquaredHinge.apply(r, c, float(margin), shift.detach())


class _KLPairPass(torch.autograd.Function):
    """One pass over the pairs, blocks of rows: ``e_ij = exp(l_ij / lam)``, ``u'_i = (1 - gamma) u_i + gamma
    mean_j e_ij``, ``total = sum_ij u'_i**kappa e_ij l_ij`` with ``e`` and ``u'`` held constant."""

    @staticmethod
    def forward(ctx, r: Tensor, c: Tensor, margin: float, lam: float, u: Tensor, gamma: float, kappa: float,
                block: int) -> tuple[Tensor, Tensor]:
        dtype = float_dtype(r.device)
        total = torch.zeros((), dtype=dtype, device=r.device)
        u_new = torch.empty_like(u)
        grad_r, grad_c = torch.zeros_like(r), torch.zeros_like(c)
        rd, cd = r.detach(), c.detach()
        for start in range(0, r.shape[0], block):
            hinge = (margin - rd[start:start + block, None] + cd[None, :]).clamp_min(0.0)
            loss = hinge * hinge
            e = torch.exp(loss / lam)
            rows = (1.0 - gamma) * u[start:start + block] + gamma * e.mean(1, dtype=dtype).to(u.dtype)
            u_new[start:start + block] = rows
            w = e.mul_(rows.pow(kappa).to(e.dtype)[:, None])  # p_ij
            total += (w * loss).sum(dtype=dtype)
            slope = w.mul_(hinge).mul_(2.0)  # d l_ij / d c_j = 2 hinge = -d l_ij / d r_i
            grad_r[start:start + block] = -slope.sum(1)
            grad_c += slope.sum(0)
        ctx.save_for_backward(grad_r, grad_c)
        ctx.mark_non_differentiable(u_new)
        return total.to(r.dtype), u_new

    @staticmethod
    def backward(ctx, g: Tensor, _g_u: Tensor):
        grad_r, grad_c = ctx.saved_tensors
        return grad_r * g, grad_c * g, None, None, None, None, None, None


def kl_pair_pass(r: Tensor, c: Tensor, margin: float, lam: float, u: Tensor, gamma: float, kappa: float
                 ) -> tuple[Tensor, Tensor]:
    """``(sum_ij p_ij l_ij, u')`` of :class:`_KLPairPass`: ``l_ij = max(0, m - r_i + c_j)**2``,
    ``p_ij = u'_i**kappa exp(l_ij / lam)`` (constant), ``u'`` the rows' new moving averages of
    ``mean_j exp(l_ij / lam)``. Exact over all pairs, ``O(R C)`` time, memory of one block of rows."""
    block = max(1, PAIR_BLOCK // max(1, c.numel()))
    return _KLPairPass.apply(r, c, float(margin), float(lam), u.detach().to(r.dtype), float(gamma), float(kappa),
                             block)
