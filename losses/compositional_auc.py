"""Compositional AUC (Yuan et al., ICLR 2022): cross-entropy steps and AUC-M steps, alternating."""
from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from losses._utils import check_binary, check_validate_args
from losses._xrisk import check_size
from losses.aucm import _AscentOnAlpha, _check, aucm_loss
from torchmetrics_lite.checks import upcast

__all__ = ["CompositionalAUCLoss"]


class CompositionalAUCLoss(nn.Module):
    r"""Compositional AUC loss: ``k`` steps of binary cross-entropy, then ``k`` steps of AUC-M, and again.

    The paper minimises ``AUC-M(w - eta grad CE(w))``, the AUC-M of the model after an inner cross-entropy step;
    its practical form (LibAUC's ``CompositionalAUCLoss`` with the ``PDSCA`` optimizer,
    :class:`losses.optim.PDSCA`) alternates the two objectives by step: calls ``t`` with ``t mod 2k < k`` return
    ``binary_cross_entropy(preds, target)`` (the inner step), the others :func:`aucm_loss` with this module's
    learnable ``a``, ``b``, ``alpha`` (``alpha``'s gradient negated and ``alpha`` projected onto ``[0, inf)`` as
    in :class:`AUCMLoss`). ``imratio=None`` uses the batch's positive fraction (LibAUC's default).

    State: the step counter ``steps`` (saved in the ``state_dict`` as the module's extra state, so a resumed run
    continues the alternation), advanced by every call in training mode; in ``eval()`` mode a call returns the
    AUC-M value and does not count. Under DDP every rank counts its own calls, which agree when the ranks step
    together.

    Args:
        k: steps per phase (>= 1).
        margin: ``m`` (>= 0) of AUC-M.
        imratio: positive ratio of the training data in (0, 1); ``None``: the batch's.
        validate_args: check that ``target`` holds only 0 and 1 (a host sync).

    Shapes: ``forward(preds, target)``, ``preds`` probabilities in [0, 1] (e.g. ``sigmoid`` outputs) of any
    shape, ``target`` the same shape.

    References:
        Z. Yuan, Z. Guo, N. Chawla and T. Yang, "Compositional Training for End-to-End Deep AUC Maximization",
        ICLR 2022.

    Examples:
        >>> loss_fn = CompositionalAUCLoss(k=1)
        >>> h, y = torch.tensor([0.9, 0.2, 0.6, 0.4]), torch.tensor([1, 0, 1, 0])
        >>> round(loss_fn(h, y).item(), 4), loss_fn.steps  # a cross-entropy step
        (0.3375, 1)
        >>> round(loss_fn(h, y).item(), 4), loss_fn.steps  # an AUC-M step, a = b = alpha = 0
        (0.1713, 2)
    """

    def __init__(self, *, k: int = 1, margin: float = 1.0, imratio: float | None = None,
                 validate_args: bool = True) -> None:
        super().__init__()
        check_size("k", k)
        _check(margin=margin, imratio=imratio)
        check_validate_args(validate_args)
        self.k, self.margin, self.imratio, self.validate_args = k, margin, imratio, validate_args
        self.a = nn.Parameter(torch.zeros(()))
        self.b = nn.Parameter(torch.zeros(()))
        self.alpha = nn.Parameter(torch.zeros(()))
        self.steps = 0

    @property
    def cross_entropy_phase(self) -> bool:
        """Whether the next training call is a cross-entropy step."""
        return self.steps % (2 * self.k) < self.k

    def forward(self, preds: Tensor, target: Tensor) -> Tensor:
        check_binary("preds", preds, target, self.validate_args)
        use_ce = self.training and self.cross_entropy_phase
        if self.training:
            self.steps += 1
        if use_ce:
            h = upcast(preds)
            return F.binary_cross_entropy(h, (target != 0).to(h.dtype))
        with torch.no_grad():
            self.alpha.clamp_(min=0.0)
        return aucm_loss(preds, target, self.a, self.b, _AscentOnAlpha.apply(self.alpha), margin=self.margin,
                         imratio=self.imratio, validate_args=False)

    def get_extra_state(self) -> Any:
        return {"steps": self.steps}

    def set_extra_state(self, state: Any) -> None:
        self.steps = int(state["steps"])

    def extra_repr(self) -> str:
        return f"k={self.k}, margin={self.margin}, imratio={self.imratio}"
