"""AUC-M: the min-max margin AUC loss of Yuan et al. (ICCV 2021), with class-conditional means done right."""
from __future__ import annotations

import torch
from torch import Tensor, nn

from losses._utils import check_binary, check_validate_args
from torchmetrics_lite import float_dtype
from torchmetrics_lite.checks import check_number, upcast

__all__ = ["AUCMLoss", "aucm_loss"]


def _check(*, margin: float, imratio: float | None) -> None:
    check_number("margin", margin, low=0.0)
    if imratio is not None:
        check_number("imratio", imratio, low=0.0, high=1.0, low_open=True, high_open=True)


def aucm_loss(preds: Tensor, target: Tensor, a: Tensor, b: Tensor, alpha: Tensor, *, margin: float = 1.0,
              imratio: float | Tensor | None = None, validate_args: bool = True) -> Tensor:
    r"""The AUC-M objective ``f(w, a, b, alpha)`` of one batch, to be minimised over the model, ``a`` and ``b`` and
    maximised over ``alpha >= 0``:

    .. math:: f = p(1-p) \Big[ \mathbb{E}_+ (h - a)^2 + \mathbb{E}_- (h - b)^2
       + 2\alpha \big(m - \mathbb{E}_+ h + \mathbb{E}_- h\big) - \alpha^2 \Big]

    with ``E_+`` / ``E_-`` the means over the positives / negatives of the batch (each divided by its own class
    count), ``h`` the predictions, ``m`` the margin and ``p`` the positive ratio. This is exactly the expectation
    of Yuan et al.'s per-sample objective ``F(w, a, b, alpha; z)`` (their ``(1-p) E[(h-a)^2 I(y=1)]`` is
    ``p (1-p) E_+[(h-a)^2]``), estimated per class so that the balance of the terms does not depend on how many
    positives a batch happens to hold. At the saddle point ``a = E_+ h``, ``b = E_- h``,
    ``alpha = max(0, m - E_+ h + E_- h)`` it is ``p(1-p) [Var_+ h + Var_- h + max(0, m - (E_+ h - E_- h))^2]``.

    One class: a batch without positives or without negatives holds no pair, so the AUC has nothing to learn
    from it: the loss is 0 and every gradient (``preds``, ``a``, ``b``, ``alpha``) is exactly 0; so is an empty
    batch.

    Args:
        preds: predictions ``h`` in [0, 1] as in the paper (e.g. ``sigmoid(logits)``), any shape.
        target: same shape, 0/1 labels (bool, int or float).
        a, b, alpha: scalar tensors (parameters); ``alpha`` is expected >= 0.
        margin: ``m`` (>= 0), 1.0 in the paper.
        imratio: ``p``, the positive ratio of the training data; ``None`` uses the batch's positive fraction.
        validate_args: check that ``target`` holds only 0 and 1 (a host sync); otherwise nonzero is positive.

    Returns:
        A scalar in the predictions' dtype (see above for a one-class batch).

    Raises:
        TypeError: ``preds`` not floating, tensors of the wrong type.
        ValueError: mismatched shapes, ``margin`` < 0, ``imratio`` outside (0, 1), or (``validate_args``) a
            target other than 0/1.

    References:
        Z. Yuan, Y. Yan, M. Sonka and T. Yang, "Large-scale Robust Deep AUC Maximization: A New Surrogate Loss and
        Empirical Studies on Medical Image Classification", ICCV 2021.

    Examples:
        >>> h = torch.tensor([0.9, 0.7, 0.2, 0.4])
        >>> y = torch.tensor([1, 1, 0, 0])
        >>> round(aucm_loss(h, y, torch.tensor(0.8), torch.tensor(0.3), torch.tensor(0.5), imratio=0.5).item(), 4)
        0.0675
    """
    check_binary("preds", preds, target, validate_args)
    _check(margin=margin, imratio=imratio if not isinstance(imratio, Tensor) else None)
    h = upcast(preds).reshape(-1)
    pos = (target.reshape(-1) != 0).to(h.dtype)
    neg = 1.0 - pos
    n_pos, n_neg = pos.sum(), neg.sum()
    inv_pos, inv_neg = 1.0 / n_pos.clamp_min(1.0), 1.0 / n_neg.clamp_min(1.0)
    if imratio is None:
        p = (n_pos / (n_pos + n_neg).clamp_min(1.0)).detach()
    else:
        p = torch.as_tensor(imratio, dtype=h.dtype, device=h.device)
    sq_pos = (pos * (h - a) ** 2).sum() * inv_pos
    sq_neg = (neg * (h - b) ** 2).sum() * inv_neg
    gap = margin - (pos * h).sum() * inv_pos + (neg * h).sum() * inv_neg
    value = p * (1.0 - p) * (sq_pos + sq_neg + 2.0 * alpha * gap - alpha * alpha)
    # one class: no pair, nothing to learn
    return torch.where((n_pos > 0) & (n_neg > 0), value, torch.zeros_like(value))


class _AscentOnAlpha(torch.autograd.Function):
    """Identity forward; negated gradient backward, so a descent step of any optimizer ascends on ``alpha``."""

    @staticmethod
    def forward(ctx, x: Tensor) -> Tensor:
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad: Tensor) -> Tensor:
        return -grad


class AUCMLoss(nn.Module):
    """AUC-M (:func:`aucm_loss`) with learnable ``a``, ``b`` and ``alpha``, usable with any torch optimizer.

    ``alpha``'s gradient is negated on the way back (so an optimizer's descent step is an ascent step on
    ``alpha``) and ``alpha`` is projected onto ``[0, inf)`` at the start of every forward: plain SGD on
    ``list(model.parameters()) + list(loss.parameters())`` is then projected stochastic gradient descent-ascent,
    the core of the PESG optimizer used by the paper (without its epoch-level regularisation). Keep
    ``a``, ``b`` and ``alpha`` out of weight decay (e.g. a separate parameter group).

    ``imratio`` given by the user is used as is and never overwritten. With ``imratio=None`` the positive ratio
    is the running fraction of positives over all batches seen in training mode (buffers ``n_pos`` and
    ``n_seen``, saved in the ``state_dict``), or the batch's own fraction before any has been seen.

    Hand-written rather than derived from :func:`aucm_loss` (``losses._module.module_of``): the module owns the
    learnable ``a``, ``b``, ``alpha`` and the running positive ratio, which the function takes as inputs.

    Args:
        margin: ``m`` (>= 0), 1.0 in the paper.
        imratio: ``p``, the positive ratio of the training data; ``None`` uses the running positive fraction.
        validate_args: check that ``target`` holds only 0 and 1 (a host sync); otherwise nonzero is positive.

    Examples:
        >>> loss_fn = AUCMLoss(imratio=0.1)
        >>> h = torch.tensor([0.9, 0.2, 0.1, 0.3], requires_grad=True)
        >>> loss = loss_fn(h, torch.tensor([1, 0, 0, 0]))
        >>> loss.backward()
        >>> round(loss_fn.alpha.grad.item(), 4)  # -(d loss / d alpha) = -0.09 * 2 * (1 - 0.9 + 0.2)
        -0.054
    """

    n_pos: Tensor  # buffers: running counts of positives and of samples (imratio=None)
    n_seen: Tensor

    def __init__(self, *, margin: float = 1.0, imratio: float | None = None, validate_args: bool = True) -> None:
        super().__init__()
        _check(margin=margin, imratio=imratio)
        check_validate_args(validate_args)
        self.margin, self.imratio, self.validate_args = margin, imratio, validate_args
        self.a = nn.Parameter(torch.zeros(()))
        self.b = nn.Parameter(torch.zeros(()))
        self.alpha = nn.Parameter(torch.zeros(()))
        self.register_buffer("n_pos", torch.zeros((), dtype=torch.int64))
        self.register_buffer("n_seen", torch.zeros((), dtype=torch.int64))

    def forward(self, preds: Tensor, target: Tensor) -> Tensor:
        check_binary("preds", preds, target, self.validate_args)  # before the running counts change
        with torch.no_grad():
            self.alpha.clamp_(min=0.0)
        imratio: float | Tensor | None = self.imratio
        if imratio is None:  # running positive fraction, without a host sync; float64 (float16 counts overflow),
            dtype = float_dtype(preds.device)  # or float32 on a device without float64
            batch_pos = (target != 0).sum()
            if self.training:
                self.n_pos += batch_pos
                self.n_seen += target.numel()
            running = self.n_pos.to(dtype) / self.n_seen.clamp_min(1).to(dtype)
            imratio = torch.where(self.n_seen > 0, running, batch_pos.to(dtype) / max(1, target.numel()))
        return aucm_loss(preds, target, self.a, self.b, _AscentOnAlpha.apply(self.alpha), margin=self.margin,
                         imratio=imratio, validate_args=False)  # checked above

    def extra_repr(self) -> str:
        return f"margin={self.margin}, imratio={self.imratio}"
