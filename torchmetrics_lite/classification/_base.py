"""The state bases of the classification modules: one per task, each declaring the shared confusion-matrix state
and its ``stats_key``; a concrete metric only names its formula (``_terms`` for the scores, or a
``compute_from_stats``). Weighted counts: ``weighted=True`` at construction makes the state float64 (float32 on a
device without float64) and lets ``update`` take ``weight=``; the dtype is fixed for the metric's life, so merged,
synced and checkpointed states always agree (int64 exact counts otherwise, at full speed)."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_average, check_weighted_update, check_zero_division
from torchmetrics_lite._docs import register, register_group
from torchmetrics_lite.functional.classification._stat_scores import Terms
from torchmetrics_lite.functional.classification.binary import (
    _binary_config,
    _binary_score_from_stats,
    _binary_stat_scores_stats,
)
from torchmetrics_lite.functional.classification.multiclass import (
    _multiclass_config,
    _multiclass_score_from_stats,
    _multiclass_stat_scores_stats,
)
from torchmetrics_lite.functional.classification.multilabel import (
    _multilabel_config,
    _multilabel_score_from_stats,
    _multilabel_stat_scores_stats,
)
from torchmetrics_lite.metric import Metric, float_dtype

register(weighted=("weighted: keep float64 sums of sample weights and accept ``update(preds, target, weight=...)`` "
                   "(default ``False``: exact int64 counts, and a ``weight`` raises)."),
         module_kwargs="kwargs: ``validate_args``, ``process_group``, ``sync_on_compute`` (see :class:`Metric`).")
register_group(module_tail=("weighted", "module_kwargs"))


def _counts_dtype(weighted: bool) -> torch.dtype:
    if not isinstance(weighted, bool):
        raise TypeError(f"Expected `weighted` to be a bool, got {type(weighted).__name__}")
    return torch.float64 if weighted else torch.int64


def _batch_counts(counts: Tensor, weighted: bool) -> Tensor:
    """A batch's counts in the state's dtype: int64 as counted, or floating sums of weights (``float_dtype`` of
    the device: a weighted metric updated without ``weight`` counts each sample as 1.0)."""
    return counts.to(float_dtype(counts.device)) if weighted else counts


class _BinaryMetric(Metric):
    """``update(preds, target, weight=None)`` with binary inputs of any equal shapes; state: the 2x2 confusion
    matrix ``confmat``."""

    is_differentiable = False

    def __init__(self, threshold: float = 0.5, *, from_logits: bool = False, ignore_index: Optional[int] = None,
                 weighted: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._cut = _binary_config(threshold, from_logits, ignore_index)
        self.threshold, self.from_logits = threshold, from_logits
        self.ignore_index, self.weighted = ignore_index, weighted
        self.add_state("confmat", torch.zeros(2, 2, dtype=_counts_dtype(weighted)), reduce="sum")
        self.stats_key = ("binary", self._cut, from_logits, ignore_index, self.validate_args, weighted)

    def batch_stats(self, preds: Tensor, target: Tensor, weight: Optional[Tensor] = None) -> Dict[str, Tensor]:
        check_weighted_update(self.weighted, weight)
        cm = _binary_stat_scores_stats(preds, target, self._cut, self.from_logits, self.ignore_index,
                                       self.validate_args, weight)
        return {"confmat": _batch_counts(cm, self.weighted)}


class _BinaryScore(_BinaryMetric):
    """A binary score named by its ``_terms`` (numerator and denominator from tp, fp, tn, fn)."""

    higher_is_better = True
    _terms: Terms

    def __init__(self, threshold: float = 0.5, *, zero_division: float = 0.0, **kwargs: Any) -> None:
        super().__init__(threshold, **kwargs)
        self.zero_division = check_zero_division(zero_division)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _binary_score_from_stats(state["confmat"], type(self)._terms, self.zero_division)


class _MulticlassMetric(Metric):
    """``update(preds, target, weight=None)``: labels (N, ...) or scores (N, C, ...) and labels (N, ...); state:
    the (C, C) confusion matrix ``confmat`` of the predicted labels (see ``top_k``)."""

    is_differentiable = False

    def __init__(self, num_classes: int, *, top_k: int = 1, ignore_index: Optional[int] = None,
                 weighted: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _multiclass_config(num_classes, top_k, ignore_index)
        self.num_classes, self.top_k, self.ignore_index, self.weighted = num_classes, top_k, ignore_index, weighted
        self.add_state("confmat", torch.zeros(num_classes, num_classes, dtype=_counts_dtype(weighted)), reduce="sum")
        self.stats_key = ("multiclass", num_classes, top_k, ignore_index, self.validate_args, weighted)

    def batch_stats(self, preds: Tensor, target: Tensor, weight: Optional[Tensor] = None) -> Dict[str, Tensor]:
        check_weighted_update(self.weighted, weight)
        cm = _multiclass_stat_scores_stats(preds, target, self.num_classes, self.top_k, self.ignore_index,
                                           self.validate_args, weight)
        return {"confmat": _batch_counts(cm, self.weighted)}


class _MulticlassScore(_MulticlassMetric):
    """A one-vs-rest multiclass score named by its ``_terms``; ``_by_support``: at ``top_k > 1`` the macro mean
    runs over the classes present in the targets (torchmetrics' rule for accuracy, precision and recall)."""

    higher_is_better = True
    _terms: Terms
    _by_support = False

    def __init__(self, num_classes: int, average: Optional[str] = "macro", *, zero_division: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, **kwargs)
        self.average, self.zero_division = check_average(average), check_zero_division(zero_division)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiclass_score_from_stats(state["confmat"], type(self)._terms, self.average, self.zero_division,
                                            by_support=self._by_support and self.top_k > 1)


class _MultilabelMetric(Metric):
    """``update(preds, target, weight=None)`` with (N, L, ...) inputs; state: per-label 2x2 confusion matrices
    ``confmat`` (L, 2, 2)."""

    is_differentiable = False

    def __init__(self, num_labels: int, threshold: float = 0.5, *, from_logits: bool = False,
                 ignore_index: Optional[int] = None, weighted: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._cut = _multilabel_config(num_labels, threshold, from_logits, ignore_index)
        self.num_labels, self.threshold, self.from_logits = num_labels, threshold, from_logits
        self.ignore_index, self.weighted = ignore_index, weighted
        self.add_state("confmat", torch.zeros(num_labels, 2, 2, dtype=_counts_dtype(weighted)), reduce="sum")
        self.stats_key = ("multilabel", num_labels, self._cut, from_logits, ignore_index, self.validate_args,
                          weighted)

    def batch_stats(self, preds: Tensor, target: Tensor, weight: Optional[Tensor] = None) -> Dict[str, Tensor]:
        check_weighted_update(self.weighted, weight)
        cm = _multilabel_stat_scores_stats(preds, target, self.num_labels, self._cut, self.from_logits,
                                           self.ignore_index, self.validate_args, weight)
        return {"confmat": _batch_counts(cm, self.weighted)}


class _MultilabelScore(_MultilabelMetric):
    """A per-label score named by its ``_terms``, averaged over labels."""

    higher_is_better = True
    _terms: Terms

    def __init__(self, num_labels: int, threshold: float = 0.5, average: Optional[str] = "macro", *,
                 zero_division: float = 0.0, **kwargs: Any) -> None:
        super().__init__(num_labels, threshold, **kwargs)
        self.average, self.zero_division = check_average(average), check_zero_division(zero_division)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multilabel_score_from_stats(state["confmat"], type(self)._terms, self.average, self.zero_division)
