"""The optimizers of LibAUC's recipes that ``torch.optim`` cannot express: PESG (AUC-M) and PDSCA (compositional
AUC). Both add the epoch-level proximal term ``epoch_decay * (w - w_ref)`` with a reference point ``w_ref``
that :meth:`update_regularizer` moves to the mean of the iterates since the last move (the paper's stages).

SOAP's optimizer in LibAUC is Adam (or SGD with momentum) on gradients clipped elementwise, with weight decay:
``torch.nn.utils.clip_grad_value_(params, clip)`` then ``torch.optim.Adam(params, lr, weight_decay=wd)`` is
that rule, so it is not repeated here.

Ascent on the dual variable ``alpha`` needs nothing special: :class:`losses.AUCMLoss`,
:class:`losses.MultiLabelAUCMLoss` and :class:`losses.CompositionalAUCLoss` negate its gradient and project it
onto ``alpha >= 0``, so these optimizers step it as any parameter (its true gradient, where LibAUC's PESG uses
the closed form ``2 (m + b - a) - 2 alpha``). Put the loss's ``a``, ``b``, ``alpha`` in a parameter group with
``weight_decay=0`` and ``epoch_decay=0``.

State (``state_dict()``): per parameter the momentum (or weight-averaging) buffer, the reference point, the sum
of the iterates and their count; a resumed optimizer continues exactly.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

import torch
from torch import Tensor

__all__ = ["PDSCA", "PESG"]


def _check_rate(name: str, value: float) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= value <= 1.0:
        raise ValueError(f"Expected `{name}` to be a number in [0, 1], got {value!r}")


def _check_nonneg(name: str, value: float) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not value >= 0.0:
        raise ValueError(f"Expected `{name}` to be a number >= 0, got {value!r}")


def _moving_average(state: dict[str, Any], key: str, value: Tensor, beta: float) -> Tensor:
    """``state[key] <- (1 - beta) state[key] + beta value``, started at ``value`` (a copy): the moving averages of
    PESG's momentum and PDSCA's weights and momentum."""
    if key not in state:
        state[key] = value.detach().clone()
    else:
        state[key].mul_(1.0 - beta).add_(value, alpha=beta)
    return state[key]


class _Proximal(torch.optim.Optimizer):
    """Shared pieces: the clipped, regularised gradient and the reference point of the epoch decay."""

    def _direction(self, p: Tensor, group: dict[str, Any]) -> Tensor:
        state = self.state[p]
        if "reference" not in state:
            state["reference"] = p.detach().clone()
            state["iterate_sum"] = torch.zeros_like(p)
            state["iterate_count"] = torch.zeros((), dtype=torch.int64)
        assert p.grad is not None
        d = p.grad.clamp(-group["clip_value"], group["clip_value"]) + group["weight_decay"] * p
        if group["epoch_decay"] > 0:
            d = d + group["epoch_decay"] * (p - state["reference"])
        return d

    def _record(self, p: Tensor) -> None:
        state = self.state[p]
        state["iterate_sum"].add_(p)
        state["iterate_count"] += 1

    @torch.no_grad()
    def update_regularizer(self, decay_factor: float | None = None) -> None:
        """End a stage: the reference point of every parameter becomes the mean of its iterates since the last
        call (unchanged for a parameter not stepped since), and with ``decay_factor`` every group's ``lr`` is
        divided by it (LibAUC's ``update_regularizer``)."""
        if decay_factor is not None:
            if not decay_factor > 0:
                raise ValueError(f"Expected `decay_factor` to be > 0, got {decay_factor!r}")
            for group in self.param_groups:
                group["lr"] /= decay_factor
        for state in self.state.values():
            if "iterate_count" in state and int(state["iterate_count"]) > 0:
                state["reference"].copy_(state["iterate_sum"] / int(state["iterate_count"]))
                state["iterate_sum"].zero_()
                state["iterate_count"].zero_()


class PESG(_Proximal):
    r"""Proximal epoch stochastic gradient (Yuan et al., ICCV 2021), LibAUC's ``PESG`` in its ``"sgd"`` mode:

    .. math:: d = \operatorname{clip}(\nabla, \pm c) + \text{weight\_decay}\, w
       + \text{epoch\_decay}\,(w - w_{ref}), \qquad
       v \leftarrow (1 - \mu) v + \mu d \ (v = d \text{ at the first step}), \qquad w \leftarrow w - \eta v

    (``mu`` = ``momentum``, LibAUC's convention: the weight of the new direction). ``w_ref`` starts at the
    parameter's value at its first step and moves with :meth:`update_regularizer` (call it at the epochs where
    the recipe decays the learning rate, e.g. ``update_regularizer(decay_factor=10)``).

    Args:
        params: the parameters or parameter groups (the model's, and the loss's ``a``, ``b``, ``alpha``).
        lr: ``eta`` (> 0).
        momentum: ``mu`` in [0, 1]; 0 turns the average off (``v = d``).
        weight_decay: >= 0.
        epoch_decay: >= 0 (LibAUC's default 2e-3); 0 turns the proximal term off.
        clip_value: ``c`` (> 0), the elementwise gradient clip.

    Examples:
        >>> w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
        >>> opt = PESG([w], lr=0.1, momentum=0.5, weight_decay=0.0, epoch_decay=0.0, clip_value=1.0)
        >>> w.grad = torch.tensor([0.5, 3.0]); opt.step()
        >>> [round(v, 4) for v in w.tolist()]  # 1 - 0.1 * 0.5, -2 - 0.1 * 1 (clipped)
        [0.95, -2.1]
    """

    def __init__(self, params: Iterable[Any], lr: float = 0.1, *, momentum: float = 0.9,
                 weight_decay: float = 1e-5, epoch_decay: float = 2e-3, clip_value: float = 1.0) -> None:
        if not isinstance(lr, (int, float)) or not lr > 0:
            raise ValueError(f"Expected `lr` to be a number > 0, got {lr!r}")
        _check_rate("momentum", momentum)
        _check_nonneg("weight_decay", weight_decay)
        _check_nonneg("epoch_decay", epoch_decay)
        if not isinstance(clip_value, (int, float)) or not clip_value > 0:
            raise ValueError(f"Expected `clip_value` to be a number > 0, got {clip_value!r}")
        super().__init__(params, dict(lr=lr, momentum=momentum, weight_decay=weight_decay,
                                      epoch_decay=epoch_decay, clip_value=clip_value))

    @torch.no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                d = self._direction(p, group)
                state = self.state[p]
                if group["momentum"] > 0:
                    d = _moving_average(state, "momentum_buffer", d, group["momentum"])
                p.sub_(group["lr"] * d)
                self._record(p)
        return loss


class PDSCA(_Proximal):
    r"""Primal-dual stochastic compositional adaptive method (Yuan et al., ICLR 2022), LibAUC's ``PDSCA``, for
    :class:`losses.CompositionalAUCLoss`: after a cross-entropy call of the loss,

    .. math:: w \leftarrow w - \eta_0 d, \qquad \bar w \leftarrow (1-\beta_1) \bar w + \beta_1 w
       \ (\bar w = w \text{ at the first such step}), \qquad w \leftarrow \bar w,

    and after an AUC-M call ``v <- (1 - beta_2) v + beta_2 d`` (``v = d`` at the first), ``w <- w - eta v``, with
    ``d`` the clipped, regularised gradient of :class:`PESG`. Which step to take is read from ``loss_fn``
    (its last training call).

    Args:
        params: the parameters or parameter groups (the model's, and the loss's ``a``, ``b``, ``alpha``).
        loss_fn: the :class:`losses.CompositionalAUCLoss` being minimised.
        lr: ``eta`` (> 0) of the AUC-M steps.
        lr0: ``eta_0`` (> 0) of the cross-entropy steps; ``None``: ``lr``.
        beta1: ``beta_1`` in [0, 1] (0: no weight averaging).
        beta2: ``beta_2`` in [0, 1] (0: no moving average).
        weight_decay: >= 0.
        epoch_decay: >= 0.
        clip_value: > 0, the elementwise gradient clip.

    Examples:
        >>> import losses
        >>> loss_fn = losses.CompositionalAUCLoss(k=1)
        >>> w = torch.nn.Parameter(torch.tensor([0.0]))
        >>> opt = PDSCA([w], loss_fn, lr=0.1, lr0=0.5, beta1=0.5, weight_decay=0.0, epoch_decay=0.0)
        >>> loss_fn(torch.sigmoid(w), torch.tensor([1.0])).backward(); opt.step()  # cross-entropy: -0.5 / 1
        >>> round(w.item(), 4)  # 0 - 0.5 * (-0.5), averaged with itself at the first step
        0.25
    """

    def __init__(self, params: Iterable[Any], loss_fn: Any, lr: float = 0.1, lr0: float | None = None, *,
                 beta1: float = 0.99, beta2: float = 0.999, weight_decay: float = 1e-5, epoch_decay: float = 2e-3,
                 clip_value: float = 1.0) -> None:
        lr0 = lr if lr0 is None else lr0
        for name, value in (("lr", lr), ("lr0", lr0), ("clip_value", clip_value)):
            if not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"Expected `{name}` to be a number > 0, got {value!r}")
        _check_rate("beta1", beta1)
        _check_rate("beta2", beta2)
        _check_nonneg("weight_decay", weight_decay)
        _check_nonneg("epoch_decay", epoch_decay)
        if not hasattr(loss_fn, "cross_entropy_phase"):
            raise TypeError(f"Expected `loss_fn` to be a CompositionalAUCLoss, got {type(loss_fn).__name__}")
        self.loss_fn = loss_fn
        super().__init__(params, dict(lr=lr, lr0=lr0, beta1=beta1, beta2=beta2, weight_decay=weight_decay,
                                      epoch_decay=epoch_decay, clip_value=clip_value))

    @torch.no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        k, steps = self.loss_fn.k, self.loss_fn.steps
        cross_entropy = (steps - 1) % (2 * k) < k  # the phase of the loss's last training call
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                d = self._direction(p, group)
                state = self.state[p]
                if cross_entropy:
                    p.sub_(group["lr0"] * d)
                    if group["beta1"] > 0:
                        p.copy_(_moving_average(state, "weight_buffer", p, group["beta1"]))
                else:
                    if group["beta2"] > 0:
                        d = _moving_average(state, "momentum_buffer", d, group["beta2"])
                    p.sub_(group["lr"] * d)
                self._record(p)
        return loss
