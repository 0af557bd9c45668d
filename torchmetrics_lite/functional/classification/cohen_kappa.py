"""Cohen's kappa from the shared confusion-matrix statistics (conventions:
:mod:`torchmetrics_lite.functional.classification`).

``kappa = 1 - sum(w * O) / sum(w * E)``, with ``O`` the confusion matrix, ``E`` the outer product of its row and
column sums over the total (agreement by chance) and ``w`` the disagreement weights: ``None`` (0 on the diagonal,
1 elsewhere), ``"linear"`` ``|i - j|`` or ``"quadratic"`` ``(i - j)^2``. Undefined (``sum(w * E) = 0``: one
class only, or no sample) gives NaN, as scikit-learn and torchmetrics.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_choice
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.classification._doc_args import fill_doc, register
from torchmetrics_lite.functional.classification.binary import _binary_stats
from torchmetrics_lite.functional.classification.multiclass import _multiclass_stats

__all__ = ["binary_cohen_kappa", "multiclass_cohen_kappa"]

KAPPA_WEIGHTS = (None, "none", "linear", "quadratic")

register(weights_kappa=("weights: the disagreement weights, ``None`` (or ``\"none\"``: unweighted kappa), "
                        "``\"linear\"`` ``|i - j|`` or ``\"quadratic\"`` ``(i - j)^2``."))


def _check_weights_kappa(weights: Any) -> Optional[str]:
    check_choice("weights", weights, KAPPA_WEIGHTS)
    return None if weights == "none" else weights


def _cohen_kappa_from_stats(state: Dict[str, Tensor], *, weights: Optional[str] = None) -> Tensor:
    confmat = state["confmat"]
    cm = confmat.to(float_dtype(confmat.device))
    c = cm.shape[0]
    expected = torch.outer(cm.sum(dim=1), cm.sum(dim=0)) / cm.sum()
    idx = torch.arange(c, dtype=cm.dtype, device=cm.device)
    diff = idx[:, None] - idx[None, :]
    w = (diff != 0).to(cm.dtype) if weights is None else diff.abs() if weights == "linear" else diff * diff
    return 1.0 - (w * cm).sum() / (w * expected).sum()


@fill_doc
def binary_cohen_kappa(preds: Tensor, target: Tensor, threshold: float = 0.5, *, weights: Optional[str] = None,
                       from_logits: bool = False, ignore_index: Optional[int] = None, validate_args: bool = True,
                       weight: Optional[Tensor] = None) -> Tensor:
    """Cohen's kappa of binary decisions against the targets (agreement beyond chance).

    Args:
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        {weights_kappa}
        {validate_args}
        {weight}

    Returns:
        A float64 scalar (at most 1); undefined gives NaN.

    Raises:
        {raises_value}
        {raises_type}

    References:
        Cohen, J. (1960), Educational and Psychological Measurement 20(1); scikit-learn's ``cohen_kappa_score``.

    Examples:
        >>> import torch
        >>> round(binary_cohen_kappa(torch.tensor([1, 0, 1, 0, 1]), torch.tensor([1, 0, 0, 1, 1])).item(), 4)
        0.1667
    """
    w = _check_weights_kappa(weights)
    stats = _binary_stats(preds, target, threshold, from_logits, ignore_index, validate_args, weight)
    return _cohen_kappa_from_stats(stats, weights=w)


@fill_doc
def multiclass_cohen_kappa(preds: Tensor, target: Tensor, num_classes: int, *, weights: Optional[str] = None,
                           ignore_index: Optional[int] = None, validate_args: bool = True,
                           weight: Optional[Tensor] = None) -> Tensor:
    """Cohen's kappa of the predicted classes against the targets, optionally weighted by class distance.

    Args:
        {preds_multiclass}
        {target_multiclass}
        {num_classes}
        {weights_kappa}
        {ignore_index}
        {validate_args}
        {weight}

    Returns:
        A float64 scalar (at most 1); undefined gives NaN.

    Raises:
        {raises_value}
        {raises_type}

    References:
        Cohen, J. (1968), "Weighted kappa", Psychological Bulletin 70(4); scikit-learn's ``cohen_kappa_score``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2])
        >>> round(multiclass_cohen_kappa(preds, target, 3, weights="quadratic").item(), 4)
        0.5
    """
    w = _check_weights_kappa(weights)
    stats = _multiclass_stats(preds, target, num_classes, 1, ignore_index, validate_args, weight)
    return _cohen_kappa_from_stats(stats, weights=w)
