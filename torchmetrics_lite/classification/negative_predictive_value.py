"""Negative predictive value modules: streaming forms of
:mod:`torchmetrics_lite.functional.classification.negative_predictive_value`, on the shared confusion-matrix state
(a collection with F1 over the same inputs counts each batch once)."""
from __future__ import annotations

import torch

from torchmetrics_lite.classification._base import _BinaryScore, _MulticlassScore, _MultilabelScore
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import _npv_terms

__all__ = ["BinaryNegativePredictiveValue", "MulticlassNegativePredictiveValue", "MultilabelNegativePredictiveValue"]

_ = torch  # doctests use torch


@fill_doc
class BinaryNegativePredictiveValue(_BinaryScore):
    """Streaming :func:`~torchmetrics_lite.functional.binary_negative_predictive_value`: ``tn / (tn + fn)``.

    Args:
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryNegativePredictiveValue()
        >>> m.update(torch.tensor([1, 0, 1, 0, 0]), torch.tensor([1, 0, 0, 1, 0]))
        >>> m.compute()
        tensor(0.6667, dtype=torch.float64)
    """

    terms = staticmethod(_npv_terms)


@fill_doc
class MulticlassNegativePredictiveValue(_MulticlassScore):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_negative_predictive_value` (one-vs-rest).

    Args:
        {num_classes}
        {average}
        {top_k}
        {ignore_index}
        {zero_division}
        {absent}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MulticlassNegativePredictiveValue(3, average=None)
        >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
        >>> m.compute()
        tensor([1.0000, 0.5000, 0.6667], dtype=torch.float64)
    """

    terms = staticmethod(_npv_terms)
    by_support = True


@fill_doc
class MultilabelNegativePredictiveValue(_MultilabelScore):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_negative_predictive_value`.

    Args:
        {num_labels}
        {threshold}
        {average_multilabel}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MultilabelNegativePredictiveValue(2, average=None)
        >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [1, 1]]))
        >>> m.compute()
        tensor([0., 1.], dtype=torch.float64)
    """

    terms = staticmethod(_npv_terms)
