"""Matthews correlation coefficient from the shared confusion-matrix statistics (conventions:
:mod:`torchmetrics_lite.functional.classification`).

For a (C, C) confusion matrix with row sums ``t``, column sums ``p``, trace ``c`` and total ``s``:
``MCC = (c s - t.p) / sqrt((s^2 - p.p) (s^2 - t.t))`` (Gorodkin's R_K; for C = 2 the usual
``(tp tn - fp fn) / sqrt((tp + fp)(tp + fn)(tn + fp)(tn + fn))``). A zero denominator (one class only in the
targets or in the predictions, or no sample) gives 0, as scikit-learn. Multilabel: the MCC of the per-label 2x2
matrices summed (torchmetrics' definition).
"""
from __future__ import annotations

from typing import Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification.binary import _binary_stats
from torchmetrics_lite.functional.classification.multiclass import _multiclass_stats
from torchmetrics_lite.functional.classification.multilabel import _multilabel_stats

__all__ = ["binary_matthews_corrcoef", "multiclass_matthews_corrcoef", "multilabel_matthews_corrcoef"]


def _matthews_corrcoef_from_stats(state: Dict[str, Tensor]) -> Tensor:
    """MCC of a (C, C) confusion matrix, or of the sum of (L, 2, 2) per-label matrices."""
    confmat = state["confmat"]
    cm = (confmat.sum(dim=0) if confmat.dim() == 3 else confmat).to(float_dtype(confmat.device))
    t, p, s = cm.sum(dim=1), cm.sum(dim=0), cm.sum()
    cov_tp = cm.trace() * s - (t * p).sum()
    den = (s * s - (p * p).sum()) * (s * s - (t * t).sum())
    return torch.where(den == 0, torch.zeros_like(den), cov_tp / torch.where(den == 0, 1.0, den).sqrt())


@fill_doc
def binary_matthews_corrcoef(preds: Tensor, target: Tensor, threshold: float = 0.5, *, from_logits: bool = False,
                             ignore_index: Optional[int] = None, validate_args: bool = True,
                             weight: Optional[Tensor] = None) -> Tensor:
    """Matthews correlation coefficient ``(tp tn - fp fn) / sqrt((tp + fp)(tp + fn)(tn + fp)(tn + fn))``.

    Args:
        {preds_binary}
        {target_binary}
        {threshold}
        {from_logits}
        {ignore_index}
        {validate_args}
        {weight}

    Returns:
        A float64 scalar in [-1, 1]; a zero denominator gives 0 (scikit-learn; torchmetrics returns other values
        for some such degenerate matrices, see the README).

    Raises:
        {raises_value}
        {raises_type}

    References:
        Matthews, B. W. (1975), Biochimica et Biophysica Acta 405(2); scikit-learn's ``matthews_corrcoef``.

    Examples:
        >>> import torch
        >>> round(binary_matthews_corrcoef(torch.tensor([1, 0, 1, 0, 1]), torch.tensor([1, 0, 0, 1, 1])).item(), 4)
        0.1667
    """
    stats = _binary_stats(preds, target, threshold, from_logits, ignore_index, validate_args, weight)
    return _matthews_corrcoef_from_stats(stats)


@fill_doc
def multiclass_matthews_corrcoef(preds: Tensor, target: Tensor, num_classes: int, *,
                                 ignore_index: Optional[int] = None, validate_args: bool = True,
                                 weight: Optional[Tensor] = None) -> Tensor:
    """Multiclass Matthews correlation coefficient (Gorodkin's R_K) of the confusion matrix.

    Args:
        {preds_multiclass}
        {target_multiclass}
        {num_classes}
        {ignore_index}
        {validate_args}
        {weight}

    Returns:
        A float64 scalar in [-1, 1]; a zero denominator gives 0.

    Raises:
        {raises_value}
        {raises_type}

    References:
        Gorodkin, J. (2004), "Comparing two K-category assignments by a K-category correlation coefficient",
        Computational Biology and Chemistry 28(5); scikit-learn's ``matthews_corrcoef``.

    Examples:
        >>> import torch
        >>> round(multiclass_matthews_corrcoef(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]), 3).item(), 4)
        0.2
    """
    stats = _multiclass_stats(preds, target, num_classes, 1, ignore_index, validate_args, weight)
    return _matthews_corrcoef_from_stats(stats)


@fill_doc
def multilabel_matthews_corrcoef(preds: Tensor, target: Tensor, num_labels: int, threshold: float = 0.5, *,
                                 from_logits: bool = False, ignore_index: Optional[int] = None,
                                 validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """Matthews correlation coefficient of the per-label 2x2 confusion matrices summed over labels.

    Args:
        {preds_multilabel}
        {target_multilabel}
        {num_labels}
        {threshold}
        {from_logits}
        {ignore_index}
        {validate_args}
        {weight_multilabel}

    Returns:
        A float64 scalar in [-1, 1]; a zero denominator gives 0.

    Raises:
        {raises_value}
        {raises_type}

    References:
        torchmetrics' ``multilabel_matthews_corrcoef`` (same pooling); equal to scikit-learn's
        ``matthews_corrcoef`` on the flattened label matrix.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([[1, 0], [1, 1], [0, 1]]), torch.tensor([[1, 0], [0, 0], [0, 1]])
        >>> round(multilabel_matthews_corrcoef(preds, target, 2).item(), 4)
        0.5
    """
    stats = _multilabel_stats(preds, target, num_labels, threshold, from_logits, ignore_index, validate_args, weight)
    return _matthews_corrcoef_from_stats(stats)
