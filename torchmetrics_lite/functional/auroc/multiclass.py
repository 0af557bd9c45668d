"""Multiclass (one-vs-rest) AUROC and average precision (conventions in :mod:`torchmetrics_lite.functional.auroc`)."""
from __future__ import annotations

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_multiclass_rank_inputs,
    check_rank_average,
)
from torchmetrics_lite.functional.auroc._common import (
    State,
    _class_dtype,
    _columns,
    _multi_ap_from_rows,
    _multi_auroc_from_rows,
)

__all__ = ["multiclass_auroc", "multiclass_average_precision"]




def _multiclass_rank_stats(preds: Tensor, target: Tensor, num_classes: int) -> State:
    """Rows for one checked multiclass batch: scores ``(N, C)`` and the class index in the narrowest dtype."""
    return {"preds": preds, "target": target.to(_class_dtype(num_classes))}



def _multiclass_auroc_from_stats(state: State, num_classes: int, average: str = "macro",
                                 strict: bool = False) -> Tensor:
    preds, target = state["preds"], state["target"].long()
    positive = target.unsqueeze(1) == torch.arange(num_classes, device=target.device)
    return _multi_auroc_from_rows(*_columns(preds, positive), average, strict)



def multiclass_auroc(preds: Tensor, target: Tensor, num_classes: int, *, average: str = "macro",
                     strict: bool = False, validate_args: bool = True) -> Tensor:
    """One-vs-rest exact AUROC of each class, averaged.

    Class ``c``'s AUROC ranks the samples by ``preds[:, c]`` with class ``c`` positive and every other class
    negative (scikit-learn's ``multi_class="ovr"`` on the columns as given: no softmax, any real scores).

    Args:
        preds: ``(N, num_classes)`` floating scores. target: ``(N,)`` class indices in ``[0, num_classes)``.
        average: ``"macro"`` (mean over classes), ``"weighted"`` (weighted by each class's count in
            ``target``) or ``"none"`` (the ``(num_classes,)`` per-class values). A class that is absent (or the
            only one present) is ``nan`` with a warning and left out of the averages (``strict=True`` raises).

    >>> preds = torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.4, 0.4, 0.2],
    ...                       [0.3, 0.35, 0.35]])
    >>> target = torch.tensor([0, 1, 2, 1, 0])
    >>> [round(v, 4) for v in multiclass_auroc(preds, target, 3, average="none").tolist()]
    [0.8333, 1.0, 1.0]
    """
    check_rank_average(average)
    state = _multiclass_rank_stats(*check_multiclass_rank_inputs(preds, target, num_classes, validate_args),
                                   num_classes)
    return _multiclass_auroc_from_stats(state, num_classes, average, strict)



def _multiclass_average_precision_from_stats(state: State, num_classes: int, average: str = "macro",
                                             strict: bool = False) -> Tensor:
    preds, target = state["preds"], state["target"].long()
    positive = target.unsqueeze(1) == torch.arange(num_classes, device=target.device)
    return _multi_ap_from_rows(*_columns(preds, positive), average, strict)



def multiclass_average_precision(preds: Tensor, target: Tensor, num_classes: int, *, average: str = "macro",
                                 strict: bool = False, validate_args: bool = True) -> Tensor:
    """One-vs-rest average precision of each class (column ``c`` scores, class ``c`` positive), averaged.

    ``average``: ``"macro"``, ``"weighted"`` (by class counts) or ``"none"``; a class absent from ``target``
    is ``nan`` with a warning and left out of the averages (``strict=True`` raises).

    >>> preds = torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.4, 0.4, 0.2],
    ...                       [0.3, 0.35, 0.35]])
    >>> target = torch.tensor([0, 1, 2, 1, 0])
    >>> [round(v, 4) for v in multiclass_average_precision(preds, target, 3, average="none").tolist()]
    [0.8333, 1.0, 1.0]
    """
    check_rank_average(average)
    state = _multiclass_rank_stats(*check_multiclass_rank_inputs(preds, target, num_classes, validate_args),
                                   num_classes)
    return _multiclass_average_precision_from_stats(state, num_classes, average, strict)

