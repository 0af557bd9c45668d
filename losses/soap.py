"""SOAP: average precision optimised with per-positive moving-average estimators (Qi et al., NeurIPS 2021)."""
from __future__ import annotations

import torch
from torch import Tensor, nn

from losses._utils import check_binary, check_validate_args
from losses._xrisk import check_index, check_rate, check_size, row_squared_hinge, write_nothing, write_rows
from torchmetrics_lite.checks import check_number, upcast

__all__ = ["SOAPLoss"]


class SOAPLoss(nn.Module):
    r"""SOAP, the stochastic optimiser of average precision, as a loss with its estimators.

    Average precision is ``(1/|P|) sum_{i in P} r^+(i) / r(i)`` with ``r(i)`` the rank of positive ``i`` among all
    items and ``r^+(i)`` among the positives. SOAP replaces the rank indicator by the squared hinge
    ``l_ij = max(0, m - (s_i - s_j))**2`` and tracks, for every positive ``i`` of the training set, moving averages
    of ``g_all(i) = mean_j l_ij`` (``j`` over the batch, ``i`` itself included) and ``g_pos(i) = mean_j y_j l_ij``:

    .. math:: u^{all}_i \leftarrow (1-\gamma) u^{all}_i + \gamma\, g_{all}(i), \qquad
       u^{pos}_i \leftarrow (1-\gamma) u^{pos}_i + \gamma\, g_{pos}(i),

    .. math:: L = \frac{1}{|P_B| |B|} \sum_{i \in P_B} \sum_{j \in B} p_{ij}\, l_{ij}, \qquad
       p_{ij} = \frac{u^{pos}_i - u^{all}_i y_j}{(u^{all}_i)^2} \ \text{(constant)},

    whose gradient is the SOAP estimate of the gradient of ``-mean_i u^pos_i / u^all_i`` (minus the surrogate AP).
    This is LibAUC's ``APLoss`` (``AveragePrecisionLoss``) formula; a row whose ``u^all`` is 0 (every pair beyond
    the margin since the start) has weight 0 instead of a division by zero. The row sums cost one sort
    (O(n log n), prefix sums), not the ``|P| |B|`` pair matrix.

    State: buffers ``u_all`` and ``u_pos`` of shape ``(num_samples,)`` (float32), indexed by the sample ids the
    caller passes as ``index``; only positives' rows are read and written. They change in training mode only,
    follow ``.to()`` and ``state_dict()`` (an exact resume), and are synced over the ranks of a process group
    (see ``losses._xrisk``). A batch without positives gives 0 with a zero gradient and changes nothing.

    Args:
        num_samples: the number of training samples (the range of ``index``).
        margin: ``m`` (>= 0) of the squared hinge, 1.0 in the paper (for scores in [0, 1], e.g. sigmoid outputs).
        gamma: weight of the new batch in the moving averages, in (0, 1] (LibAUC's ``gamma``; 0.9 by default).
        validate_args: check that ``target`` holds only 0 and 1 (a host sync).

    Shapes: ``forward(scores, target, index)``: ``scores`` floating of any shape (all entries form one set),
    ``target`` the same shape (0/1), ``index`` the same shape (integer sample ids in ``[0, num_samples)``).

    References:
        Q. Qi, Y. Luo, Z. Xu, S. Ji and T. Yang, "Stochastic Optimization of Areas Under Precision-Recall Curves
        with Provable Convergence", NeurIPS 2021.

    Examples:
        >>> loss_fn = SOAPLoss(num_samples=4)
        >>> s = torch.tensor([0.9, 0.2, 0.6, 0.4], requires_grad=True)
        >>> loss = loss_fn(s, torch.tensor([1, 0, 1, 0]), torch.arange(4))
        >>> loss.backward()
        >>> [round(v, 4) for v in loss_fn.u_all[[0, 2]].tolist()]  # 0.9 * mean_j max(0, 1 - s_i + s_j)**2
        [0.4118, 0.8302]
        >>> SOAPLoss(num_samples=4)(s, torch.tensor([1, 0, 1, 0]), torch.tensor([0, 1, 2, 4]))
        Traceback (most recent call last):
        ...
        ValueError: Expected `index` to hold ids in [0, 4) (the size given at construction), got 4
    """

    u_all: Tensor
    u_pos: Tensor

    def __init__(self, num_samples: int, *, margin: float = 1.0, gamma: float = 0.9,
                 validate_args: bool = True) -> None:
        super().__init__()
        check_size("num_samples", num_samples)
        check_number("margin", margin, low=0.0)
        check_rate("gamma", gamma)
        check_validate_args(validate_args)
        self.num_samples, self.margin, self.gamma, self.validate_args = num_samples, margin, gamma, validate_args
        self.register_buffer("u_all", torch.zeros(num_samples))
        self.register_buffer("u_pos", torch.zeros(num_samples))

    def forward(self, scores: Tensor, target: Tensor, index: Tensor) -> Tensor:
        check_binary("scores", scores, target, self.validate_args)
        index = check_index(index, scores.shape, self.num_samples).reshape(-1)
        s = upcast(scores).reshape(-1)
        pos = target.reshape(-1) != 0
        rows = s[pos]
        if rows.numel() == 0:
            if self.training:
                write_nothing([self.u_all, self.u_pos])  # the other ranks' rows, under a process group
            return (s * 0.0).sum()
        sum_all, _ = row_squared_hinge(rows, s, self.margin)
        sum_pos, _ = row_squared_hinge(rows, rows, self.margin)
        n = s.numel()
        ids = index[pos]
        g = self.gamma
        u_all = (1.0 - g) * self.u_all[ids].to(s.dtype) + g * sum_all.detach() / n
        u_pos = (1.0 - g) * self.u_pos[ids].to(s.dtype) + g * sum_pos.detach() / n
        if self.training:
            write_rows([self.u_all, self.u_pos], ids, [u_all, u_pos])
        live = u_all > 0
        safe = torch.where(live, u_all, torch.ones_like(u_all))
        w_all = torch.where(live, u_pos / (safe * safe), torch.zeros_like(u_all))
        w_pos = torch.where(live, 1.0 / safe, torch.zeros_like(u_all))
        return (w_all * sum_all - w_pos * sum_pos).sum() / (rows.numel() * n)

    def extra_repr(self) -> str:
        return f"num_samples={self.num_samples}, margin={self.margin}, gamma={self.gamma}"
