"""The state bases of the classification modules: two per task, each declaring the shared confusion-matrix state,
its ``stats_key`` and the task's counting pass; a concrete metric declares its value (``value_fn`` and
``value_options``, see :class:`~torchmetrics_lite.metric.Metric`). Every base derives from
:class:`~torchmetrics_lite.metric.Metric` directly (at most two levels of inheritance): a task's count base
(``_BinaryMetric``: stat scores, confusion matrix, agreement) and its score base (``_BinaryScore``:
``zero_division``, and the value ``_binary_score_from_stats`` of the class's ``terms``) declare the same state through
the same ``stats_fn`` (the task's ``_x_stat_scores_stats``) with the same options (``_binary_options``...,
bound as their ``stats_options``), and derive the ``stats_key`` from those options.

Weighted counts: ``weighted=True`` at construction makes the state float64 (float32 on a device without float64)
and lets ``update`` take ``weight=``; the dtype is fixed for the metric's life, so merged, synced and checkpointed
states always agree (int64 exact counts otherwise, at full speed)."""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Dict, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    CLASSIFICATION_AVERAGES,
    check_absent,
    check_average,
    check_choice,
    check_samples_average,
    check_zero_division,
    warn_binary_logits,
)
from torchmetrics_lite._docs import register
from torchmetrics_lite.functional.classification._stat_scores import MULTIDIM, Terms
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
    _multilabel_score_stats,
    _multilabel_stat_scores_stats,
)
from torchmetrics_lite.metric import Metric

register(multidim_average_module=("multidim_average: ``\"global\"`` (default) or torchmetrics' ``\"samplewise\"``: "
                                  "one score per sample of ``(N, ...)`` inputs (``compute()``: ``(N,)``, or ``(N, C)`` "
                                  "per class), the per-sample confusion matrices kept as rows of a ``cat`` state."),
         weighted=("weighted: keep float64 sums of sample weights and accept ``update(preds, target, weight=...)`` "
                   "(default ``False``: exact int64 counts, and a ``weight`` raises)."))

def _counts_dtype(weighted: bool) -> torch.dtype:
    if not isinstance(weighted, bool):
        raise TypeError(f"Expected `weighted` to be a bool, got {type(weighted).__name__}")
    return torch.float64 if weighted else torch.int64


def _confmat(shape: Tuple[int, ...], weighted: bool, multidim_average: str) -> Tuple[Tensor, str]:
    """The ``confmat`` state's default and reduction: one sum of ``shape``, or with
    ``multidim_average="samplewise"`` (torchmetrics') the per-sample matrices as rows of a ``cat`` state
    (unweighted)."""
    check_choice("multidim_average", multidim_average, MULTIDIM)
    if multidim_average == "global":
        return torch.zeros(*shape, dtype=_counts_dtype(weighted)), "sum"
    if weighted:
        raise ValueError("Expected `weighted=False` with multidim_average='samplewise' (per-sample counts), got True")
    return torch.zeros(0, *shape, dtype=torch.int64), "cat"


def _binary_options(metric: Any) -> Dict[str, Any]:
    """What every binary module passes to ``_binary_stat_scores_stats`` (``cut``: the threshold on the scale of
    the scores); its ``stats_key`` is ``("binary", *these values)``."""
    return {"cut": metric.cut, "from_logits": metric.from_logits, "ignore_index": metric.ignore_index,
            "validate_args": metric.validate_args, "weighted": metric.weighted,
            "multidim_average": metric.multidim_average}


def _multiclass_options(metric: Any) -> Dict[str, Any]:
    """What every multiclass module passes to ``_multiclass_stat_scores_stats``; its ``stats_key`` is
    ``("multiclass", *these values)``."""
    return {"num_classes": metric.num_classes, "top_k": metric.top_k, "ignore_index": metric.ignore_index,
            "validate_args": metric.validate_args, "weighted": metric.weighted,
            "multidim_average": metric.multidim_average}


def _multilabel_options(metric: Any) -> Dict[str, Any]:
    """What every multilabel module passes to ``_multilabel_stat_scores_stats``; its ``stats_key`` is
    ``("multilabel", *these values)``."""
    return {"num_labels": metric.num_labels, "cut": metric.cut, "from_logits": metric.from_logits,
            "ignore_index": metric.ignore_index, "validate_args": metric.validate_args, "weighted": metric.weighted,
            "multidim_average": metric.multidim_average}


class _BinaryMetric(Metric):
    """``update(preds, target, weight=None)`` with binary inputs of any equal shapes; state: the 2x2 confusion
    matrix ``confmat``; a subclass declares ``value_fn`` (and ``value_options``). ``multidim_average`` is for the
    subclasses that offer it (the others list it in ``not_offered``)."""

    stats_fn = staticmethod(_binary_stat_scores_stats)
    stats_options = _binary_options
    check_accepted = warn_binary_logits

    def __init__(self, threshold: float = 0.5, *, from_logits: bool = False, ignore_index: Optional[int] = None,
                 weighted: bool = False, multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cut = _binary_config(threshold, from_logits, ignore_index)
        self.threshold, self.from_logits, self.ignore_index = threshold, from_logits, ignore_index
        self.weighted, self.multidim_average = weighted, multidim_average
        self.add_state("confmat", *_confmat((2, 2), weighted, multidim_average))
        self.stats_key = ("binary", *self.stats_options().values())


class _BinaryScore(Metric):
    """A binary score named by its ``terms`` (numerator and denominator from tp, fp, tn, fn); the state and
    ``update`` of :class:`_BinaryMetric`."""

    stats_fn = staticmethod(_binary_stat_scores_stats)
    stats_options = _binary_options
    check_accepted = warn_binary_logits
    value_fn: Callable[..., Any] = staticmethod(_binary_score_from_stats)
    higher_is_better = True
    terms: Terms

    def __init__(self, threshold: float = 0.5, *, zero_division: float = 0.0, from_logits: bool = False,
                 ignore_index: Optional[int] = None, weighted: bool = False, multidim_average: str = "global",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cut = _binary_config(threshold, from_logits, ignore_index)
        self.threshold, self.from_logits, self.ignore_index = threshold, from_logits, ignore_index
        self.weighted, self.multidim_average = weighted, multidim_average
        self.add_state("confmat", *_confmat((2, 2), weighted, multidim_average))
        self.stats_key = ("binary", *self.stats_options().values())
        self.zero_division = check_zero_division(zero_division)

    def value_options(self) -> Dict[str, Any]:
        return {"terms": self.terms, "zero_division": self.zero_division}


class _MulticlassMetric(Metric):
    """``update(preds, target, weight=None)``: labels (N, ...) or scores (N, C, ...) and labels (N, ...); state:
    the (C, C) confusion matrix ``confmat`` of the predicted labels. ``top_k`` and ``multidim_average`` are for
    the subclasses that offer them (torchmetrics has no ``top_k`` on the confusion matrix, MCC and kappa: they
    list both in ``not_offered``)."""

    stats_fn = staticmethod(_multiclass_stat_scores_stats)
    stats_options = _multiclass_options

    def __init__(self, num_classes: int, *, top_k: int = 1, ignore_index: Optional[int] = None,
                 weighted: bool = False, multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _multiclass_config(num_classes, top_k, ignore_index)
        self.num_classes, self.top_k, self.ignore_index = num_classes, top_k, ignore_index
        self.weighted, self.multidim_average = weighted, multidim_average
        self.add_state("confmat", *_confmat((num_classes, num_classes), weighted, multidim_average))
        self.stats_key = ("multiclass", *self.stats_options().values())


class _MulticlassScore(Metric):
    """A one-vs-rest multiclass score named by its ``terms``, with ``by_support`` (an option of the value:
    torchmetrics' rule for accuracy, precision and recall at ``top_k > 1``, see ``_multiclass_score_from_stats``).
    The state and ``update`` of :class:`_MulticlassMetric`."""

    stats_fn = staticmethod(_multiclass_stat_scores_stats)
    stats_options = _multiclass_options
    value_fn: Callable[..., Any] = staticmethod(_multiclass_score_from_stats)
    higher_is_better = True
    terms: Terms
    by_support = False

    def __init__(self, num_classes: int, average: Optional[str] = "macro", *, zero_division: float = 0.0,
                 top_k: int = 1, ignore_index: Optional[int] = None, weighted: bool = False,
                 multidim_average: str = "global", absent: str = "ignore", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _multiclass_config(num_classes, top_k, ignore_index)
        self.num_classes, self.top_k, self.ignore_index = num_classes, top_k, ignore_index
        self.weighted, self.multidim_average = weighted, multidim_average
        self.add_state("confmat", *_confmat((num_classes, num_classes), weighted, multidim_average))
        self.stats_key = ("multiclass", *self.stats_options().values())
        self.average, self.zero_division = check_average(average), check_zero_division(zero_division)
        self.absent = check_absent(absent)

    def value_options(self) -> Dict[str, Any]:
        return {"terms": self.terms, "average": self.average, "zero_division": self.zero_division,
                "by_support": self.by_support, "top_k": self.top_k, "absent": self.absent}


class _MultilabelMetric(Metric):
    """``update(preds, target, weight=None)`` with (N, L, ...) inputs; state: per-label 2x2 confusion matrices
    ``confmat`` (L, 2, 2). ``multidim_average`` as on :class:`_BinaryMetric`."""

    stats_fn = staticmethod(_multilabel_stat_scores_stats)
    stats_options = _multilabel_options
    check_accepted = warn_binary_logits

    def __init__(self, num_labels: int, threshold: float = 0.5, *, from_logits: bool = False,
                 ignore_index: Optional[int] = None, weighted: bool = False, multidim_average: str = "global",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cut = _multilabel_config(num_labels, threshold, from_logits, ignore_index)
        self.num_labels, self.threshold, self.from_logits = num_labels, threshold, from_logits
        self.ignore_index, self.weighted, self.multidim_average = ignore_index, weighted, multidim_average
        self.add_state("confmat", *_confmat((num_labels, 2, 2), weighted, multidim_average))
        self.stats_key = ("multilabel", *self.stats_options().values())


class _MultilabelScore(Metric):
    """A per-label score named by its ``terms``, averaged over labels; the state and ``update`` of
    :class:`_MultilabelMetric`."""

    stats_fn = staticmethod(_multilabel_score_stats)
    check_accepted = warn_binary_logits
    value_fn = staticmethod(_multilabel_score_from_stats)
    higher_is_better = True
    terms: Terms
    #: the choices of ``average`` (``SAMPLE_AVERAGES`` where scikit-learn also averages per sample)
    averages: ClassVar[Tuple[str, ...]] = CLASSIFICATION_AVERAGES

    def __init__(self, num_labels: int, threshold: float = 0.5, average: Optional[str] = "macro", *,
                 zero_division: float = 0.0, from_logits: bool = False, ignore_index: Optional[int] = None,
                 weighted: bool = False, multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cut = _multilabel_config(num_labels, threshold, from_logits, ignore_index)
        self.num_labels, self.threshold, self.from_logits = num_labels, threshold, from_logits
        self.ignore_index, self.weighted, self.multidim_average = ignore_index, weighted, multidim_average
        if average == "samples" and "samples" in self.averages and check_samples_average(average, multidim_average):
            # the two float sums of the per-sample scores: no statistics shared (they depend on the score)
            for name in ("score_sum", "weight_sum"):
                self.add_state(name, torch.zeros((), dtype=torch.float64), reduce="sum")
        else:
            self.add_state("confmat", *_confmat((num_labels, 2, 2), weighted, multidim_average))
            self.stats_key = ("multilabel", *_multilabel_options(self).values())
        self.average, self.zero_division = check_average(average, self.averages), check_zero_division(zero_division)

    def stats_options(self) -> Dict[str, Any]:
        # the averaged score's own options too: with average="samples" the statistics are its per-sample sums
        return {**_multilabel_options(self), "average": self.average, "terms": self.terms,
                "zero_division": self.zero_division}

    def value_options(self) -> Dict[str, Any]:
        return {"terms": self.terms, "average": self.average, "zero_division": self.zero_division}
