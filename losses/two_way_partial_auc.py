"""Two-way partial AUC by KL-DRO (SOTA-s, Zhu et al., ICML 2022): hard negatives and hard positives at once."""
from __future__ import annotations

import torch
from torch import Tensor, nn

from losses._utils import check_positive, check_validate_args
from losses._xrisk import check_rate, check_size, kl_pair_pass, world_size, write_nothing, write_rows
from losses.partial_auc_dro import split_batch
from torchmetrics_lite.checks import check_number

__all__ = ["TwoWayPartialAUCLoss"]


class TwoWayPartialAUCLoss(nn.Module):
    r"""Two-way partial AUC loss by KL-DRO (SOTA-s): a soft maximum over the negatives of every positive (as
    :class:`PartialAUCDROLoss`, temperature ``lambda``) inside a soft maximum over the positives (temperature
    ``tau``), which restricts the ROC area to low false-positive and high true-positive rates.

    The objective is ``tau log mean_i (mean_j exp(l_ij / lambda))**(lambda / tau)`` with
    ``l_ij = max(0, m - (s_i - s_j))**2``. Its gradient is estimated with a moving average ``u_i`` per positive
    and one ``w`` for the outer mean:

    .. math:: u_i \leftarrow (1-\gamma_0) u_i + \gamma_0 \operatorname{mean}_j e^{l_{ij}/\lambda}, \qquad
       w \leftarrow (1-\gamma_1) w + \gamma_1 \operatorname{mean}_{i \in P_B} u_i^{\lambda/\tau},

    .. math:: L = \frac{1}{|P_B||N_B|} \sum_{i,j} \frac{u_i^{\lambda/\tau - 1} e^{l_{ij}/\lambda}}{w} l_{ij}
       \ \text{(the weights constant)},

    LibAUC's ``tpAUC_KL_Loss``. Exact over all pairs in blocks of positives (memory of one block). Keep the scores
    bounded (e.g. ``sigmoid`` outputs).

    State: buffers ``u`` of shape ``(num_samples,)`` (at the ids of the positives, ``index``) and the scalar
    ``w``, float32; training mode only; follow ``.to()`` and ``state_dict()``; synced over the ranks (the rows as
    in ``losses._xrisk``, ``w`` from the mean over every rank's positives). A batch without positives or without
    negatives gives 0 with a zero gradient and changes nothing.

    Args:
        num_samples: the number of training samples (the range of ``index``).
        margin: ``m`` (>= 0) of the squared hinge.
        temperature: ``lambda`` (> 0) over the negatives, LibAUC's ``Lambda``.
        tau: ``tau`` (> 0) over the positives.
        gamma: weight of the new batch in the moving average ``u``, in (0, 1].
        gamma_w: weight of the new batch in the moving average ``w``, in (0, 1].
        validate_args: check that ``target`` holds only 0 and 1 (a host sync).

    References:
        D. Zhu, G. Li, B. Wang, X. Wu and T. Yang, "When AUC meets DRO: Optimizing Partial AUC for Deep Learning
        with Non-Convex Convergence Guarantee", ICML 2022.

    Examples:
        >>> loss_fn = TwoWayPartialAUCLoss(num_samples=4)
        >>> s = torch.tensor([0.9, 0.2, 0.6, 0.4], requires_grad=True)
        >>> loss = loss_fn(s, torch.tensor([1, 0, 1, 0]), torch.arange(4))
        >>> round(loss_fn.w.item(), 4)  # 0.9 * mean_i u_i, u_i = 0.9 mean_j exp(l_ij)
        1.1559
    """

    u: Tensor
    w: Tensor

    def __init__(self, num_samples: int, *, margin: float = 1.0, temperature: float = 1.0, tau: float = 1.0,
                 gamma: float = 0.9, gamma_w: float = 0.9, validate_args: bool = True) -> None:
        super().__init__()
        check_size("num_samples", num_samples)
        check_number("margin", margin, low=0.0)
        check_positive("temperature", temperature)
        check_positive("tau", tau)
        check_rate("gamma", gamma)
        check_rate("gamma_w", gamma_w)
        check_validate_args(validate_args)
        self.num_samples, self.margin, self.temperature, self.tau = num_samples, margin, temperature, tau
        self.gamma, self.gamma_w, self.validate_args = gamma, gamma_w, validate_args
        self.register_buffer("u", torch.zeros(num_samples))
        self.register_buffer("w", torch.zeros(()))

    def forward(self, scores: Tensor, target: Tensor, index: Tensor) -> Tensor:
        sp, sn, ids, s = split_batch(self.validate_args, scores, target, index, self.num_samples)
        power = self.temperature / self.tau
        empty = sp.numel() == 0 or sn.numel() == 0
        if empty:
            total, u = (s * 0.0).sum(), s.new_zeros(0)
        else:
            total, u = kl_pair_pass(sp, sn, self.margin, self.temperature, self.u[ids], self.gamma, power - 1.0)
        stats = torch.stack([u.pow(power).sum(), torch.tensor(float(u.numel()), dtype=s.dtype, device=s.device)])
        if self.training and world_size() > 1:  # w from every rank's positives; every rank takes part
            torch.distributed.all_reduce(stats)
        mean = stats[0] / stats[1].clamp_min(1.0)
        old = self.w.to(s.dtype)
        w = torch.where(stats[1] > 0, (1.0 - self.gamma_w) * old + self.gamma_w * mean, old)
        if self.training:
            if empty:
                write_nothing([self.u])
            else:
                write_rows([self.u], ids, [u])
            self.w.copy_(w.detach())
        if empty:
            return total
        return total / (w * sp.numel() * sn.numel())

    def extra_repr(self) -> str:
        return f"num_samples={self.num_samples}, margin={self.margin}, temperature={self.temperature}, " \
               f"tau={self.tau}"
