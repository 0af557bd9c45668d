"""Hamming distance modules, binary and multiclass: streaming forms of
:mod:`torchmetrics_lite.functional.classification.hamming` on the shared confusion-matrix state (the multilabel
module is in :mod:`~torchmetrics_lite.classification.multilabel`). A 0/0 distance is ``zero_division``, default
1.0 (torchmetrics' value)."""
from __future__ import annotations

from typing import Any, Optional

import torch

from torchmetrics_lite.classification._base import _BinaryScore, _MulticlassScore
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import _hamming_terms, _miss_terms

__all__ = ["BinaryHammingDistance", "MulticlassHammingDistance"]

_ = torch  # doctests use torch


@fill_doc
class BinaryHammingDistance(_BinaryScore):
    """Streaming :func:`~torchmetrics_lite.functional.binary_hamming_distance`: ``(fp + fn) / n``.

    Args:
        {threshold}
        {from_logits}
        {ignore_index}
        zero_division: the value when no sample is counted (default 1.0, torchmetrics' value).
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryHammingDistance()
        >>> m.update(torch.tensor([1, 0, 1, 0, 1]), torch.tensor([1, 0, 0, 0, 1]))
        >>> m.compute()
        tensor(0.2000, dtype=torch.float64)
    """

    higher_is_better = False
    terms = staticmethod(_hamming_terms)

    def __init__(self, threshold: float = 0.5, *, zero_division: float = 1.0, from_logits: bool = False,
                 ignore_index: Optional[int] = None, weighted: bool = False, **kwargs: Any) -> None:
        super().__init__(threshold, zero_division=zero_division, from_logits=from_logits, ignore_index=ignore_index,
                         weighted=weighted, **kwargs)


@fill_doc
class MulticlassHammingDistance(_MulticlassScore):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_hamming_distance`: per class ``fn / (tp + fn)``,
    averaged (``"micro"``: the fraction of wrong predictions).

    Args:
        {num_classes}
        average: ``"micro"``, ``"macro"`` (default; over the classes present in the targets or predictions),
            ``"weighted"`` or ``"none"``.
        {top_k}
        {ignore_index}
        zero_division: the distance of a class without support (default 1.0, torchmetrics' value).
        {weighted}
        {absent}
        {kwargs_module}

    Examples:
        >>> m = MulticlassHammingDistance(3, average=None)
        >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
        >>> m.compute()
        tensor([0.0000, 0.5000, 1.0000], dtype=torch.float64)
    """

    higher_is_better = False
    terms = staticmethod(_miss_terms)

    def __init__(self, num_classes: int, average: Optional[str] = "macro", *, zero_division: float = 1.0,
                 top_k: int = 1, ignore_index: Optional[int] = None, weighted: bool = False, **kwargs: Any) -> None:
        super().__init__(num_classes, average, zero_division=zero_division, top_k=top_k, ignore_index=ignore_index,
                         weighted=weighted, **kwargs)
