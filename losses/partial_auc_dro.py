"""One-way partial AUC by distributionally robust optimisation: the KL form (SOPA-s) and the CVaR form (SOPA) of
Zhu et al. (ICML 2022), with their per-positive estimators."""
from __future__ import annotations

import torch
from torch import Tensor, nn

from losses._utils import check_binary, check_positive, check_validate_args
from losses._xrisk import (
    check_index,
    check_rate,
    check_size,
    kl_pair_pass,
    row_squared_hinge,
    write_nothing,
    write_rows,
)
from torchmetrics_lite.checks import check_number, upcast

__all__ = ["PartialAUCCVaRLoss", "PartialAUCDROLoss"]


def split_batch(validate_args: bool, scores: Tensor, target: Tensor, index: Tensor, size: int
                ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Checked ``(positive scores, negative scores, positive ids, all scores)`` of a batch (flat)."""
    check_binary("scores", scores, target, validate_args)
    index = check_index(index, scores.shape, size).reshape(-1)
    s = upcast(scores).reshape(-1)
    pos = target.reshape(-1) != 0
    return s[pos], s[~pos], index[pos], s


class PartialAUCDROLoss(nn.Module):
    r"""One-way partial AUC loss by KL-DRO (SOPA-s): every positive weighs its pairs by a soft maximum that puts
    the hardest negatives first.

    With ``l_ij = max(0, m - (s_i - s_j))**2`` over the positives ``i`` and the negatives ``j`` of a batch, the
    objective is ``(1/|P|) sum_i lambda log mean_j exp(l_ij / lambda)`` (the KL-regularised worst case over the
    negatives; ``lambda -> 0`` keeps the hardest negative only, ``lambda -> inf`` gives the mean of the pairs,
    the full AUC). Its gradient is estimated with a moving average per positive:

    .. math:: u_i \leftarrow (1-\gamma) u_i + \gamma \operatorname{mean}_j e^{l_{ij}/\lambda}, \qquad
       L = \frac{1}{|P_B| |N_B|} \sum_{i, j} \frac{e^{l_{ij}/\lambda}}{u_i} l_{ij}
       \ \text{(the weights constant)},

    LibAUC's ``pAUC_DRO_Loss``. Exact over all pairs in blocks of positives, the gradient formed in the forward
    pass (memory of one block; ``O(|P||N|)`` time, as the weights have no prefix-sum form). Keep the scores
    bounded (e.g. ``sigmoid`` outputs, as the paper): ``exp(l / lambda)`` overflows for large gaps.

    State: buffer ``u`` of shape ``(num_samples,)`` (float32), read and written at the ids of the positives of the
    batch (``index``); training mode only; follows ``.to()`` and ``state_dict()``; synced over the ranks (see
    ``losses._xrisk``). A batch without positives or without negatives gives 0 with a zero gradient.

    Args:
        num_samples: the number of training samples (the range of ``index``).
        margin: ``m`` (>= 0) of the squared hinge.
        gamma: weight of the new batch in the moving average, in (0, 1].
        temperature: ``lambda`` (> 0), LibAUC's ``Lambda``.
        validate_args: check that ``target`` holds only 0 and 1 (a host sync).

    References:
        D. Zhu, G. Li, B. Wang, X. Wu and T. Yang, "When AUC meets DRO: Optimizing Partial AUC for Deep Learning
        with Non-Convex Convergence Guarantee", ICML 2022.

    Examples:
        >>> loss_fn = PartialAUCDROLoss(num_samples=4, gamma=1.0)
        >>> s = torch.tensor([0.9, 0.2, 0.6, 0.4])
        >>> loss = loss_fn(s, torch.tensor([1, 0, 1, 0]), torch.arange(4))
        >>> round(loss_fn.u[0].item(), 4)  # mean(exp(0.09), exp(0.25))
        1.1891
    """

    u: Tensor

    def __init__(self, num_samples: int, *, margin: float = 1.0, gamma: float = 0.9, temperature: float = 1.0,
                 validate_args: bool = True) -> None:
        super().__init__()
        check_size("num_samples", num_samples)
        check_number("margin", margin, low=0.0)
        check_rate("gamma", gamma)
        check_positive("temperature", temperature)
        check_validate_args(validate_args)
        self.num_samples, self.margin, self.gamma = num_samples, margin, gamma
        self.temperature, self.validate_args = temperature, validate_args
        self.register_buffer("u", torch.zeros(num_samples))

    def forward(self, scores: Tensor, target: Tensor, index: Tensor) -> Tensor:
        sp, sn, ids, s = split_batch(self.validate_args, scores, target, index, self.num_samples)
        if sp.numel() == 0 or sn.numel() == 0:
            if self.training:
                write_nothing([self.u])  # the other ranks' rows, under a process group
            return (s * 0.0).sum()
        total, u = kl_pair_pass(sp, sn, self.margin, self.temperature, self.u[ids], self.gamma, -1.0)
        if self.training:
            write_rows([self.u], ids, [u])
        return total / (sp.numel() * sn.numel())

    def extra_repr(self) -> str:
        return f"num_samples={self.num_samples}, margin={self.margin}, gamma={self.gamma}, " \
               f"temperature={self.temperature}"


class PartialAUCCVaRLoss(nn.Module):
    r"""One-way partial AUC loss by CVaR (SOPA): the mean pair loss of every positive over its hardest
    ``max_fpr`` fraction of the negatives, with a threshold per positive learned by stochastic subgradient steps.

    With ``l_ij = max(0, m - (s_i - s_j))**2`` and the threshold ``t_i`` of positive ``i`` (the CVaR variable,
    LibAUC's ``u_pos``), a batch with ``|N_B|`` negatives gives

    .. math:: L = \frac{1}{\beta |P_B| |N_B|} \sum_{i, j} [l_{ij} > t_i]\, l_{ij}, \qquad
       t_i \leftarrow t_i - \eta \Big(1 - \frac{\#\{j : l_{ij} > t_i\}}{\beta |N_B|}\Big)

    (``beta`` = ``max_fpr``; the indicator uses the thresholds before the step, and is held constant). At the
    optimum of ``t_i`` the selected pairs are those of the top ``beta |N|`` negatives: the one-way partial AUC
    up to ``FPR = beta``. LibAUC's ``pAUC_CVaR_Loss``. The selected pairs are a suffix of the sorted negatives,
    so the loss and its gradient cost one sort (O(n log n), prefix sums).

    State: buffer ``threshold`` of shape ``(num_samples,)`` (float32), at the ids of the positives (``index``);
    training mode only; follows ``.to()`` and ``state_dict()``; synced over the ranks (see ``losses._xrisk``).
    A batch without positives or without negatives gives 0 with a zero gradient.

    Args:
        num_samples: the number of training samples (the range of ``index``).
        max_fpr: ``beta``, the false-positive rate up to which the ROC curve counts, in (0, 1].
        margin: ``m`` (>= 0) of the squared hinge.
        eta: step size (> 0) of the thresholds.
        validate_args: check that ``target`` holds only 0 and 1 (a host sync).

    References:
        D. Zhu, G. Li, B. Wang, X. Wu and T. Yang, "When AUC meets DRO: Optimizing Partial AUC for Deep Learning
        with Non-Convex Convergence Guarantee", ICML 2022.

    Examples:
        >>> loss_fn = PartialAUCCVaRLoss(num_samples=4, max_fpr=0.5)
        >>> s = torch.tensor([0.9, 0.2, 0.6, 0.4])
        >>> round(loss_fn(s, torch.tensor([1, 0, 1, 0]), torch.arange(4)).item(), 4)  # 2 (0.09+0.25+0.36+0.64)/4
        0.67
        >>> [round(v, 4) for v in loss_fn.threshold[[0, 2]].tolist()]  # 0 - 0.1 (1 - 2 / 1)
        [0.1, 0.1]
    """

    threshold: Tensor

    def __init__(self, num_samples: int, *, max_fpr: float, margin: float = 1.0, eta: float = 0.1,
                 validate_args: bool = True) -> None:
        super().__init__()
        check_size("num_samples", num_samples)
        check_number("max_fpr", max_fpr, low=0.0, high=1.0, low_open=True)
        check_number("margin", margin, low=0.0)
        check_positive("eta", eta)
        check_validate_args(validate_args)
        self.num_samples, self.max_fpr, self.margin = num_samples, max_fpr, margin
        self.eta, self.validate_args = eta, validate_args
        self.register_buffer("threshold", torch.zeros(num_samples))

    def forward(self, scores: Tensor, target: Tensor, index: Tensor) -> Tensor:
        sp, sn, ids, s = split_batch(self.validate_args, scores, target, index, self.num_samples)
        if sp.numel() == 0 or sn.numel() == 0:
            if self.training:
                write_nothing([self.threshold])  # the other ranks' rows, under a process group
            return (s * 0.0).sum()
        t = self.threshold[ids].to(sp.dtype)
        total, count = row_squared_hinge(sp, sn, self.margin, t.clamp_min(0.0).sqrt())
        count = torch.where(t < 0, torch.full_like(count, sn.numel()), count)  # t < 0: every pair, 0 loss ones too
        if self.training:
            new = t - self.eta * (1.0 - count / (self.max_fpr * sn.numel()))
            write_rows([self.threshold], ids, [new])
        return total.sum() / (self.max_fpr * sp.numel() * sn.numel())

    def extra_repr(self) -> str:
        return f"num_samples={self.num_samples}, max_fpr={self.max_fpr}, margin={self.margin}, eta={self.eta}"
