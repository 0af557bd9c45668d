"""Sinkhorn scaling of relaxed permutation matrices with a memory-light backward: NeuralNDCG's, and
``smooth(..., method="neural_sort", sinkhorn_iters=...)``'s."""
from __future__ import annotations

import torch
from torch import Tensor

from losses._utils import safe_inverse


class _Sinkhorn(torch.autograd.Function):
    """Sinkhorn scaling ``P = diag(u) p diag(v)`` of a ``(c, n, n)`` matrix through its two scaling vectors,
    alternately ``v = 1 / (u^T p)`` (columns sum to 1) and ``u = 1 / (p v)`` (rows sum to 1), the last step over
    columns when ``transposed`` else over rows. Forward keeps only the vectors; backward runs the steps in reverse
    and forms ``dL/dp`` as one batched product of the stacked vectors instead of a rank-1 update per step."""

    @staticmethod
    def forward(ctx, p: Tensor, iters: int, transposed: bool):
        pt = p.transpose(-1, -2).contiguous()  # vector-matrix products on contiguous rows are the fast ones
        u = p.new_ones(p.shape[:-1])
        v = p.new_ones(p.shape[:-1])
        columns, ins, outs = [], [], []  # per step: is it a column step, its input vector, its output vector
        for _ in range(iters):
            for column in ((False, True) if transposed else (True, False)):
                x = u if column else v
                out = safe_inverse(torch.matmul(x[:, None, :], p if column else pt)[:, 0])
                columns.append(column)
                ins.append(x)
                outs.append(out)
                if column:
                    v = out
                else:
                    u = out
        # The vectors go through save_for_backward (O(iters * n) per list), never as ctx attributes: u and v are
        # outputs, and an output kept on ctx forms a cycle (output -> node -> ctx -> output) that Python cannot
        # free, which under activation checkpointing also kept every block's recomputed (n, n) buffers alive.
        ctx.columns = tuple(columns)
        ctx.save_for_backward(p, torch.stack(ins), torch.stack(outs))
        return u, v

    @staticmethod
    def backward(ctx, gu: Tensor, gv: Tensor):
        p, ins, outs = ctx.saved_tensors
        pt = p.transpose(-1, -2).contiguous()  # not kept from forward: under checkpointing only p is saved
        grads = {True: gv.clone(), False: gu.clone()}  # True: the column vector v, False: the row vector u
        xs: dict[bool, list[Tensor]] = {True: [], False: []}
        gzs: dict[bool, list[Tensor]] = {True: [], False: []}
        for step in reversed(range(len(ctx.columns))):
            column, x, out = ctx.columns[step], ins[step], outs[step]
            g_out = grads[column]
            gz = -g_out * out * out  # out = 1 / z where z > 0, else 0 (then the gradient is 0 too)
            grads[column] = torch.zeros_like(g_out)
            # column step z_j = sum_r x_r p_rj: dx = p gz; row step z_r = sum_j p_rj x_j: dx = p^T gz
            grads[not column] = grads[not column] + torch.matmul(gz[:, None, :], pt if column else p)[:, 0]
            xs[column].append(x)
            gzs[column].append(gz)
        gp = torch.zeros_like(p)
        if xs[True]:  # column steps: dp_rj += x_r gz_j
            gp += torch.matmul(torch.stack(xs[True], -1), torch.stack(gzs[True], -2))
        if xs[False]:  # row steps: dp_rj += gz_r x_j
            gp += torch.matmul(torch.stack(gzs[False], -1), torch.stack(xs[False], -2))
        return gp, None, None
