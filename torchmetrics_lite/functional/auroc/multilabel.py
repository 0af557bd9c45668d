"""Multilabel AUROC and average precision, one binary problem per label (conventions in
:mod:`torchmetrics_lite.functional.auroc`)."""
from __future__ import annotations

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_multilabel_rank_inputs,
    check_rank_average,
)
from torchmetrics_lite.functional.auroc import _ranking as rk
from torchmetrics_lite.functional.auroc._common import (
    State,
    _columns,
    _multi_ap_from_rows,
    _multi_auroc_from_rows,
    _undefined,
)
from torchmetrics_lite.functional.auroc.binary import _binary_average_precision_from_stats

__all__ = ["multilabel_auroc", "multilabel_average_precision"]




def _multilabel_rank_stats(preds: Tensor, target: Tensor) -> State:
    return {"preds": preds, "target": target}



def _multilabel_auroc_from_stats(state: State, average: str = "macro", strict: bool = False) -> Tensor:
    preds, positive = state["preds"], state["target"].bool()
    if average == "micro":
        value = rk.auroc_from_ranked(rk.rank_binary(preds.reshape(-1), positive.reshape(-1)))
        if bool(torch.isnan(value)):
            _undefined("AUROC", "with one class present", strict)
        return value
    return _multi_auroc_from_rows(*_columns(preds, positive), average, strict)



def multilabel_auroc(preds: Tensor, target: Tensor, num_labels: int, *, average: str = "macro",
                     strict: bool = False, validate_args: bool = True) -> Tensor:
    """Exact AUROC of each label (column), averaged.

    Args:
        preds: ``(N, num_labels)`` floating scores. target: ``(N, num_labels)`` 0/1 labels.
        average: ``"micro"`` (one AUROC over all ``N * num_labels`` score/label pairs), ``"macro"``,
            ``"weighted"`` (by each label's positives) or ``"none"``; undefined labels as in
            :func:`multiclass_auroc`.

    >>> preds = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
    >>> target = torch.tensor([[1, 0], [0, 1], [1, 1], [0, 0]])
    >>> multilabel_auroc(preds, target, 2, average="none").tolist()
    [1.0, 0.75]
    """
    check_rank_average(average, ("micro", "macro", "weighted", "none"))
    state = _multilabel_rank_stats(*check_multilabel_rank_inputs(preds, target, num_labels, validate_args))
    return _multilabel_auroc_from_stats(state, average, strict)



def _multilabel_average_precision_from_stats(state: State, average: str = "macro",
                                             strict: bool = False) -> Tensor:
    preds, positive = state["preds"], state["target"].bool()
    if average == "micro":
        flat = {"preds": preds.reshape(-1), "target": state["target"].reshape(-1)}
        return _binary_average_precision_from_stats(flat, strict)
    return _multi_ap_from_rows(*_columns(preds, positive), average, strict)



def multilabel_average_precision(preds: Tensor, target: Tensor, num_labels: int, *, average: str = "macro",
                                 strict: bool = False, validate_args: bool = True) -> Tensor:
    """Average precision of each label, averaged: ``"micro"`` (all pairs pooled), ``"macro"``,
    ``"weighted"`` (by positives) or ``"none"``, as scikit-learn's ``average_precision_score``.

    >>> preds = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
    >>> target = torch.tensor([[1, 0], [0, 1], [1, 1], [0, 0]])
    >>> [round(v, 4) for v in multilabel_average_precision(preds, target, 2, average="none").tolist()]
    [1.0, 0.8333]
    """
    check_rank_average(average, ("micro", "macro", "weighted", "none"))
    state = _multilabel_rank_stats(*check_multilabel_rank_inputs(preds, target, num_labels, validate_args))
    return _multilabel_average_precision_from_stats(state, average, strict)

