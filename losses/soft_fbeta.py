"""Soft F-beta (sigmoidF1, Benedict et al., 2021): F-beta of soft counts of predicted probabilities."""
from __future__ import annotations

import torch  # noqa: F401 (the doctests use it)
from torch import Tensor, nn

from losses._module import module_of
from losses._utils import check_binary, check_options, reduce, safe_inverse
from torchmetrics_lite.checks import check_beta, check_range, upcast

__all__ = ["SoftFBetaLoss", "soft_fbeta_loss"]


def _check(*, beta: float, reduction: str, **_) -> None:
    check_beta(beta)
    check_options(reduction=reduction)


def _check_inputs(preds: Tensor, target: Tensor, validate_args: bool) -> None:
    check_binary("preds", preds, target, validate_args)
    if preds.dim() not in (1, 2):
        raise ValueError(f"Expected `preds` to be 1-D (binary) or 2-D (samples, labels), got shape "
                         f"{tuple(preds.shape)}")
    if validate_args:
        check_range("preds", preds, 0.0, 1.0, " (probabilities, e.g. sigmoid(logits))")


def soft_fbeta_loss(preds: Tensor, target: Tensor, *, beta: float = 1.0, reduction: str = "mean",
                    validate_args: bool = True) -> Tensor:
    r"""``1 - soft F-beta``: F-beta computed from soft counts of the predicted probabilities ``p``,

    .. math:: TP = \sum p y, \quad FP = \sum p (1 - y), \quad FN = \sum (1 - p) y, \qquad
       L = 1 - \frac{(1 + \beta^2)\, TP}{(1 + \beta^2)\, TP + \beta^2 FN + FP}

    with the sums over the samples. 1-D input is one binary problem; 2-D input ``(samples, labels)`` is
    multilabel: one soft F-beta per label (column), reduced over the labels (``"mean"``: the macro mean). On hard
    0/1 predictions it equals ``1 - binary_fbeta_score`` / ``1 - multilabel_fbeta_score(average="macro")``
    exactly (with their default ``zero_division=0``). Differentiable everywhere it is defined; O(n).

    Args:
        preds: ``(n,)`` or ``(n, labels)`` floating probabilities in [0, 1] (e.g. ``sigmoid(logits)``).
        target: same shape, 0/1 labels (bool, int or float).
        beta: ``beta`` (> 0): recall counts ``beta`` times as much as precision.
        reduction: over the labels of 2-D input: ``"mean"`` (macro), ``"sum"``, or ``"none"`` (shape
            ``(labels,)``); a 1-D input gives a scalar whatever the reduction.
        validate_args: check that ``target`` holds only 0/1 and ``preds`` lies in [0, 1] (host sync).

    Returns:
        The loss, in ``[0, 1]`` per label. A label without positives in the batch has ``TP = FN = 0``: its F-beta
        is 0 whatever the predictions (the exact metric's ``zero_division=0`` when nothing is predicted either),
        so it gives a loss of 1 and a gradient of exactly 0: nothing to learn from it. An empty batch gives 1.

    Raises:
        TypeError: ``preds`` not floating, tensors of the wrong type.
        ValueError: mismatched shapes, ``preds`` neither 1-D nor 2-D, ``beta`` <= 0, a bad ``reduction``, or
            (``validate_args``) targets other than 0/1 or predictions outside [0, 1].

    References:
        G. Benedict, V. Koops, D. Odijk and M. de Rijke, "sigmoidF1: A Smooth F1 Score Surrogate Loss for
        Multilabel Classification", TMLR 2022 (arXiv:2108.10566, 2021).

    Examples:
        >>> p = torch.tensor([0.9, 0.6, 0.2, 0.1])
        >>> y = torch.tensor([1, 0, 1, 0])
        >>> round(soft_fbeta_loss(p, y).item(), 4)  # TP 1.1, FP 0.7, FN 0.9: 1 - 2.2 / 3.8
        0.4211
    """
    _check_inputs(preds, target, validate_args)
    _check(beta=beta, reduction=reduction)
    p = upcast(preds)
    y = (target != 0).to(p.dtype)
    tp = (p * y).sum(0)
    fp = (p * (1.0 - y)).sum(0)
    fn = ((1.0 - p) * y).sum(0)
    b2 = float(beta) ** 2
    num = (1.0 + b2) * tp
    per_label = 1.0 - num * safe_inverse(num + b2 * fn + fp)
    if p.dim() == 1:
        return per_label
    return reduce(per_label, reduction, per_label.shape)


@module_of(soft_fbeta_loss, _check)
class SoftFBetaLoss(nn.Module):
    """Module form of :func:`soft_fbeta_loss` (same keyword options; ``forward(preds, target)``).

    Examples:
        >>> loss = SoftFBetaLoss(beta=2.0, reduction="none")
        >>> loss(torch.tensor([[1.0, 0.0], [0.0, 0.0]]), torch.tensor([[1, 0], [1, 0]]))  # 1 - 5/9, no positive
        tensor([0.4444, 1.0000])
    """
