"""Multi-label AUC-M: the AUC-M objective of every label, one ``(a, b, alpha)`` per label, averaged."""
from __future__ import annotations

import torch
from torch import Tensor, nn

from losses._utils import check_binary, check_validate_args
from losses._xrisk import check_size
from losses.aucm import _AscentOnAlpha, _check
from torchmetrics_lite.checks import upcast

__all__ = ["MultiLabelAUCMLoss", "multilabel_aucm_loss"]


def multilabel_aucm_loss(preds: Tensor, target: Tensor, a: Tensor, b: Tensor, alpha: Tensor, *,
                         margin: float = 1.0, imratio: Tensor | None = None, validate_args: bool = True) -> Tensor:
    r"""The mean over the ``L`` labels of :func:`aucm_loss` of each label (column), with its own ``a_l``,
    ``b_l``, ``alpha_l`` and positive ratio ``p_l``:

    .. math:: L = \frac{1}{L} \sum_l p_l(1-p_l) \Big[ \mathbb{E}_{+,l} (h - a_l)^2 + \mathbb{E}_{-,l} (h - b_l)^2
       + 2\alpha_l \big(m - \mathbb{E}_{+,l} h + \mathbb{E}_{-,l} h\big) - \alpha_l^2 \Big]

    computed for all labels at once (no loop). With ``imratio=None`` (the batch's fraction per label) it equals
    LibAUC's ``MultiLabelAUCMLoss`` (``mAUCMLoss``, version ``"v1"``) on the same inputs. A label with one class
    in the batch contributes 0 (and a zero gradient) but still counts in the mean over labels, as in LibAUC.

    Args:
        preds: predictions ``h`` in [0, 1], shape ``(N, L)``.
        target: same shape, 0/1 labels.
        a, b, alpha: shape ``(L,)`` (parameters); ``alpha`` is expected >= 0.
        margin: ``m`` (>= 0).
        imratio: shape ``(L,)``, the positive ratio of every label in the training data; ``None``: the batch's.
        validate_args: check that ``target`` holds only 0 and 1 (a host sync).

    Returns:
        A scalar in the predictions' dtype; 0 for an empty batch.

    Raises:
        TypeError: ``preds`` not floating.
        ValueError: ``preds`` not 2-D, mismatched shapes, ``a``/``b``/``alpha``/``imratio`` not of shape ``(L,)``,
            ``margin`` < 0, or (``validate_args``) a target other than 0/1.

    References:
        Z. Yuan, Y. Yan, M. Sonka and T. Yang, "Large-scale Robust Deep AUC Maximization", ICCV 2021.

    Examples:
        >>> h = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.4, 0.3]])
        >>> y = torch.tensor([[1, 0], [0, 1], [0, 0]])
        >>> z = torch.zeros(2)
        >>> round(multilabel_aucm_loss(h, y, z, z, z).item(), 4)  # mean of the two labels' AUC-M
        0.1778
    """
    check_binary("preds", preds, target, validate_args)
    _check(margin=margin, imratio=None)
    if preds.dim() != 2:
        raise ValueError(f"Expected `preds` to have shape (N, L), got {tuple(preds.shape)}")
    labels = preds.shape[1]
    for name, value in (("a", a), ("b", b), ("alpha", alpha), ("imratio", imratio)):
        if value is not None and tuple(value.shape) != (labels,):
            raise ValueError(f"Expected `{name}` to have shape ({labels},) (one per label), got {tuple(value.shape)}")
    h = upcast(preds)
    pos = (target != 0).to(h.dtype)
    neg = 1.0 - pos
    n_pos, n_neg = pos.sum(0), neg.sum(0)
    inv_pos, inv_neg = 1.0 / n_pos.clamp_min(1.0), 1.0 / n_neg.clamp_min(1.0)
    p = (n_pos / (n_pos + n_neg).clamp_min(1.0)).detach() if imratio is None else imratio.to(h.dtype)
    sq_pos = (pos * (h - a) ** 2).sum(0) * inv_pos
    sq_neg = (neg * (h - b) ** 2).sum(0) * inv_neg
    gap = margin - (pos * h).sum(0) * inv_pos + (neg * h).sum(0) * inv_neg
    value = p * (1.0 - p) * (sq_pos + sq_neg + 2.0 * alpha * gap - alpha * alpha)
    value = torch.where((n_pos > 0) & (n_neg > 0), value, torch.zeros_like(value))
    return value.mean() if labels else value.sum()


class MultiLabelAUCMLoss(nn.Module):
    """Multi-label AUC-M (:func:`multilabel_aucm_loss`) with learnable ``a``, ``b``, ``alpha`` of shape
    ``(num_labels,)``, as :class:`AUCMLoss` for one label: ``alpha``'s gradient is negated on the way back and
    ``alpha`` is projected onto ``[0, inf)`` at every forward, so a descent step of any optimizer (or
    :class:`losses.optim.PESG`) is projected descent-ascent. Keep the three out of weight decay.

    Hand-written rather than derived from the function: the module owns the learnable ``a``, ``b``, ``alpha``.

    Args:
        num_labels: ``L``.
        margin: ``m`` (>= 0).
        imratio: the positive ratio of every label (a sequence of ``L`` floats in (0, 1)); ``None``: the batch's.
        validate_args: check that ``target`` holds only 0 and 1 (a host sync).

    Examples:
        >>> loss_fn = MultiLabelAUCMLoss(num_labels=2)
        >>> h = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.4, 0.3]])
        >>> round(loss_fn(h, torch.tensor([[1, 0], [0, 1], [0, 0]])).item(), 4)
        0.1778
    """

    imratio_values: Tensor | None

    def __init__(self, num_labels: int, *, margin: float = 1.0, imratio: list[float] | None = None,
                 validate_args: bool = True) -> None:
        super().__init__()
        check_size("num_labels", num_labels)
        _check(margin=margin, imratio=None)
        check_validate_args(validate_args)
        if imratio is not None:
            if len(imratio) != num_labels:
                raise ValueError(f"Expected `imratio` to hold {num_labels} ratios (one per label), got {len(imratio)}")
            for value in imratio:
                _check(margin=margin, imratio=value)
        self.num_labels, self.margin, self.validate_args = num_labels, margin, validate_args
        self.imratio = None if imratio is None else [float(v) for v in imratio]
        self.a = nn.Parameter(torch.zeros(num_labels))
        self.b = nn.Parameter(torch.zeros(num_labels))
        self.alpha = nn.Parameter(torch.zeros(num_labels))
        self.register_buffer("imratio_values", None if imratio is None else torch.tensor(self.imratio))

    def forward(self, preds: Tensor, target: Tensor) -> Tensor:
        with torch.no_grad():
            self.alpha.clamp_(min=0.0)
        return multilabel_aucm_loss(preds, target, self.a, self.b, _AscentOnAlpha.apply(self.alpha),
                                    margin=self.margin, imratio=self.imratio_values,
                                    validate_args=self.validate_args)

    def extra_repr(self) -> str:
        return f"num_labels={self.num_labels}, margin={self.margin}, imratio={self.imratio}"
