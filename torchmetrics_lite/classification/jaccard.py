"""Jaccard index modules: streaming forms of :mod:`torchmetrics_lite.functional.classification.jaccard`, on the
shared confusion-matrix state."""
from __future__ import annotations

from typing import Any, Dict

import torch

from torchmetrics_lite._checks import SAMPLE_AVERAGES
from torchmetrics_lite.classification._base import _BinaryScore, _MulticlassScore, _MultilabelScore
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import _jaccard_terms
from torchmetrics_lite.functional.classification.jaccard import _multiclass_jaccard_index_from_stats

__all__ = ["BinaryJaccardIndex", "MulticlassJaccardIndex", "MultilabelJaccardIndex"]

_ = torch  # doctests use torch


@fill_doc
class BinaryJaccardIndex(_BinaryScore):
    """Streaming :func:`~torchmetrics_lite.functional.binary_jaccard_index`: ``tp / (tp + fp + fn)``.

    Args:
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryJaccardIndex()
        >>> m.update(torch.tensor([1, 0, 1, 0, 1]), torch.tensor([1, 0, 0, 1, 1]))
        >>> m.compute()
        tensor(0.5000, dtype=torch.float64)
    """

    not_offered = ("multidim_average",)  # torchmetrics has no samplewise form of it

    terms = staticmethod(_jaccard_terms)


@fill_doc
class MulticlassJaccardIndex(_MulticlassScore):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_jaccard_index` (mean IoU for ``"macro"``).

    Args:
        {num_classes}
        {average}
        {top_k}
        {ignore_index}
        {zero_division}
        {absent}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MulticlassJaccardIndex(3)
        >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
        >>> round(m.compute().item(), 4)  # (1 + 1/3 + 0) / 3
        0.4444
    """

    not_offered = ("multidim_average",)  # torchmetrics has no samplewise form of it

    value_fn = staticmethod(_multiclass_jaccard_index_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"average": self.average, "zero_division": self.zero_division, "ignore_index": self.ignore_index,
                "absent": self.absent}



@fill_doc
class MultilabelJaccardIndex(_MultilabelScore):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_jaccard_index`.

    Args:
        {num_labels}
        {threshold}
        {average_multilabel_samples}
        {from_logits}
        {ignore_index}
        {zero_division}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MultilabelJaccardIndex(2)
        >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6], [0.1, 0.8]]), torch.tensor([[1, 0], [0, 0], [0, 1]]))
        >>> m.compute()
        tensor(0.5000, dtype=torch.float64)

        ``average="samples"`` streams two sums (of the per-sample scores and of the weights), not the samples: here
        per sample 1, 0 (no true label, two predicted), 1:

        >>> m = MultilabelJaccardIndex(2, average="samples")
        >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6]]), torch.tensor([[1, 0], [0, 0]]))
        >>> m.update(torch.tensor([[0.1, 0.8]]), torch.tensor([[0, 1]]))
        >>> round(m.compute().item(), 4)
        0.6667
    """

    averages = SAMPLE_AVERAGES

    not_offered = ("multidim_average",)  # torchmetrics has no samplewise form of it

    terms = staticmethod(_jaccard_terms)
