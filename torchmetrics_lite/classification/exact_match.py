"""Exact match modules: the streaming forms of :func:`~torchmetrics_lite.functional.multilabel_exact_match` and
:func:`~torchmetrics_lite.functional.multiclass_exact_match`.

Its state is per-sample: ``correct`` and ``total`` sample counts (float sums of weights with ``weighted=True``);
it cannot share the per-label confusion matrices of the other multilabel metrics (see the functional module)."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch

from torchmetrics_lite._checks import check_choice, check_zero_division, warn_binary_logits
from torchmetrics_lite.classification._base import _counts_dtype
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification.exact_match import (
    _multiclass_exact_match_stats,
    _multilabel_exact_match_from_stats,
    _multilabel_exact_match_stats,
)
from torchmetrics_lite.functional.classification.multiclass import _multiclass_config
from torchmetrics_lite.functional.classification.multilabel import _multilabel_config
from torchmetrics_lite.metric import Metric

__all__ = ["MultilabelExactMatch", "MulticlassExactMatch"]


@fill_doc
class MultilabelExactMatch(Metric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_exact_match` (subset accuracy).

    Args:
        {num_labels}
        {threshold}
        {from_logits}
        ignore_index: label entries whose target equals it count as right.
        {zero_division}
        {weighted}
        {multidim_average_module}
        {kwargs_module}

    Examples:
        >>> m = MultilabelExactMatch(2)
        >>> m.update(torch.tensor([[1, 0], [1, 1]]), torch.tensor([[1, 0], [0, 1]]))
        >>> m.update(torch.tensor([[0, 1]]), torch.tensor([[0, 1]]))
        >>> round(m.compute().item(), 4)
        0.6667
    """

    higher_is_better = True
    is_differentiable = False
    stats_fn = staticmethod(_multilabel_exact_match_stats)
    check_accepted = warn_binary_logits

    def stats_options(self) -> Dict[str, Any]:
        return {"num_labels": self.num_labels, "cut": self.cut, "from_logits": self.from_logits,
                "ignore_index": self.ignore_index, "validate_args": self.validate_args, "weighted": self.weighted,
                "multidim_average": self.multidim_average}

    value_fn = staticmethod(_multilabel_exact_match_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"zero_division": self.zero_division}

    def __init__(self, num_labels: int, threshold: float = 0.5, *, from_logits: bool = False,
                 ignore_index: Optional[int] = None, zero_division: float = 0.0, weighted: bool = False,
                 multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cut = _multilabel_config(num_labels, threshold, from_logits, ignore_index)
        self.num_labels, self.threshold, self.from_logits = num_labels, threshold, from_logits
        self.ignore_index, self.weighted = ignore_index, weighted
        self.zero_division = check_zero_division(zero_division)
        _add_counts(self, weighted, multidim_average)
        self.multidim_average = multidim_average
        self.stats_key = ("multilabel_exact_match", num_labels, self.cut, from_logits, ignore_index,
                          self.validate_args, weighted, multidim_average)


def _add_counts(metric: Metric, weighted: bool, multidim_average: str) -> None:
    """Declare the ``correct`` and ``total`` sums, or with ``multidim_average="samplewise"`` one row per sample of
    a ``cat`` state (unweighted)."""
    check_choice("multidim_average", multidim_average, ("global", "samplewise"))
    dtype = _counts_dtype(weighted)
    if multidim_average == "samplewise":
        if weighted:
            raise ValueError("Expected `weighted=False` with multidim_average='samplewise' (per-sample counts), "
                             "got True")
        metric.add_state("correct", torch.zeros(0, dtype=torch.int64), reduce="cat")
        metric.add_state("total", torch.zeros(0, dtype=torch.int64), reduce="cat")
        return
    metric.add_state("correct", torch.zeros((), dtype=dtype), reduce="sum")
    metric.add_state("total", torch.zeros((), dtype=dtype), reduce="sum")


@fill_doc
class MulticlassExactMatch(Metric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_exact_match`: the fraction of samples whose every
    position is right (``update(preds, target, weight=None)`` with (N, ...) labels or (N, C, ...) scores).

    Args:
        {num_classes}
        ignore_index: positions whose target equals it count as right.
        {zero_division}
        {weighted}
        {multidim_average_module}
        {kwargs_module}

    Examples:
        >>> m = MulticlassExactMatch(3)
        >>> m.update(torch.tensor([[0, 1, 2], [1, 0, 0]]), torch.tensor([[0, 1, 2], [1, 1, 0]]))
        >>> m.compute()
        tensor(0.5000, dtype=torch.float64)
    """

    higher_is_better = True
    is_differentiable = False
    stats_fn = staticmethod(_multiclass_exact_match_stats)

    def stats_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "ignore_index": self.ignore_index,
                "validate_args": self.validate_args, "weighted": self.weighted,
                "multidim_average": self.multidim_average}

    value_fn = staticmethod(_multilabel_exact_match_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"zero_division": self.zero_division}

    def __init__(self, num_classes: int, *, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                 weighted: bool = False, multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _multiclass_config(num_classes, 1, ignore_index)
        self.num_classes, self.ignore_index, self.weighted = num_classes, ignore_index, weighted
        self.zero_division = check_zero_division(zero_division)
        _add_counts(self, weighted, multidim_average)
        self.multidim_average = multidim_average
        self.stats_key = ("multiclass_exact_match", num_classes, ignore_index, self.validate_args, weighted,
                          multidim_average)
