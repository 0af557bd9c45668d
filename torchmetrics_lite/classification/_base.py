"""The state bases of the classification modules: two per task, each declaring the shared confusion-matrix state,
its ``stats_key`` and the task's counting pass; a concrete metric declares its value (``value_fn`` and
``value_options``, see :class:`~torchmetrics_lite.metric.Metric`). Every base derives from
:class:`~torchmetrics_lite.metric.Metric` directly (at most two levels of inheritance): a task's count base
(``_BinaryMetric``: stat scores, confusion matrix, agreement) and its score base (``_BinaryScore``:
``zero_division``, and the value ``_binary_score_from_stats`` of the class's ``terms``) declare the same state through
one function (``_declare_binary``) and the same ``stats_fn`` (the task's ``_x_stat_scores_stats``).

Weighted counts: ``weighted=True`` at construction makes the state float64 (float32 on a device without float64)
and lets ``update`` take ``weight=``; the dtype is fixed for the metric's life, so merged, synced and checkpointed
states always agree (int64 exact counts otherwise, at full speed)."""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Optional, Tuple

import torch

from torchmetrics_lite._checks import (
    CLASSIFICATION_AVERAGES,
    check_absent,
    check_average,
    check_choice,
    check_samples_average,
    check_zero_division,
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

#: what every binary / multiclass / multilabel module passes to its task's counting pass
BINARY_STATS = ("cut", "from_logits", "ignore_index", "validate_args", "weighted", "multidim_average")
MULTICLASS_STATS = ("num_classes", "top_k", "ignore_index", "validate_args", "weighted", "multidim_average")
MULTILABEL_STATS = ("num_labels", "cut", "from_logits", "ignore_index", "validate_args", "weighted",
                    "multidim_average")


def _counts_dtype(weighted: bool) -> torch.dtype:
    if not isinstance(weighted, bool):
        raise TypeError(f"Expected `weighted` to be a bool, got {type(weighted).__name__}")
    return torch.float64 if weighted else torch.int64


def _add_confmat(metric: Any, shape: Tuple[int, ...], weighted: bool, multidim_average: str) -> None:
    """The ``confmat`` state: one sum of ``shape``, or with ``multidim_average="samplewise"`` (torchmetrics') the
    per-sample matrices as rows of a ``cat`` state (unweighted)."""
    check_choice("multidim_average", multidim_average, MULTIDIM)
    metric.multidim_average = multidim_average
    if multidim_average == "global":
        metric.add_state("confmat", torch.zeros(*shape, dtype=_counts_dtype(weighted)), reduce="sum")
        return
    if weighted:
        raise ValueError("Expected `weighted=False` with multidim_average='samplewise' (per-sample counts), got True")
    metric.add_state("confmat", torch.zeros(0, *shape, dtype=torch.int64), reduce="cat")


def _declare_binary(metric: Any, threshold: float, from_logits: bool, ignore_index: Optional[int],
                    weighted: bool, multidim_average: str = "global") -> None:
    """Check a binary metric's options, set them on ``metric`` (with ``cut``, the threshold on the scale of the
    scores), declare its (2, 2) ``confmat`` state and its ``stats_key``."""
    metric.cut = cut = _binary_config(threshold, from_logits, ignore_index)
    metric.threshold, metric.from_logits, metric.ignore_index, metric.weighted = (threshold, from_logits,
                                                                                  ignore_index, weighted)
    _add_confmat(metric, (2, 2), weighted, multidim_average)
    metric.stats_key = ("binary", cut, from_logits, ignore_index, metric.validate_args, weighted, multidim_average)


def _declare_multiclass(metric: Any, num_classes: int, top_k: int, ignore_index: Optional[int],
                        weighted: bool, multidim_average: str = "global") -> None:
    """Check a multiclass metric's options, set them on ``metric``, declare its (C, C) ``confmat`` state and its
    ``stats_key``."""
    _multiclass_config(num_classes, top_k, ignore_index)
    metric.num_classes, metric.top_k, metric.ignore_index, metric.weighted = num_classes, top_k, ignore_index, weighted
    _add_confmat(metric, (num_classes, num_classes), weighted, multidim_average)
    metric.stats_key = ("multiclass", num_classes, top_k, ignore_index, metric.validate_args, weighted,
                        multidim_average)


def _declare_multilabel(metric: Any, num_labels: int, threshold: float, from_logits: bool,
                        ignore_index: Optional[int], weighted: bool, multidim_average: str = "global",
                        samples: bool = False) -> None:
    """Check a multilabel metric's options, set them on ``metric`` (with ``cut``, the threshold on the scale of
    the scores), declare its (L, 2, 2) ``confmat`` state and its ``stats_key``. ``samples`` (``average="samples"``):
    the two float sums of the per-sample scores instead, ``score_sum`` and ``weight_sum``, and no shared
    statistics (they depend on the score)."""
    metric.cut = cut = _multilabel_config(num_labels, threshold, from_logits, ignore_index)
    metric.num_labels, metric.threshold, metric.from_logits = num_labels, threshold, from_logits
    metric.ignore_index, metric.weighted = ignore_index, weighted
    if samples and check_samples_average("samples", multidim_average):
        _counts_dtype(weighted)
        metric.multidim_average = multidim_average
        for name in ("score_sum", "weight_sum"):
            metric.add_state(name, torch.zeros((), dtype=torch.float64), reduce="sum")
        return
    _add_confmat(metric, (num_labels, 2, 2), weighted, multidim_average)
    metric.stats_key = ("multilabel", num_labels, cut, from_logits, ignore_index, metric.validate_args, weighted,
                        multidim_average)


class _BinaryMetric(Metric):
    """``update(preds, target, weight=None)`` with binary inputs of any equal shapes; state: the 2x2 confusion
    matrix ``confmat``; a subclass declares ``value_fn`` (and ``value_options``)."""

    stats_fn = staticmethod(_binary_stat_scores_stats)
    stats_options = BINARY_STATS
    multidim_average: str = "global"

    def __init__(self, threshold: float = 0.5, *, from_logits: bool = False, ignore_index: Optional[int] = None,
                 weighted: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_binary(self, threshold, from_logits, ignore_index, weighted, self.multidim_average)


class _BinaryScore(Metric):
    """A binary score named by its ``terms`` (numerator and denominator from tp, fp, tn, fn); the state and
    ``update`` of :class:`_BinaryMetric`."""

    stats_fn = staticmethod(_binary_stat_scores_stats)
    stats_options = BINARY_STATS
    value_fn: ClassVar[Callable[..., Any]] = staticmethod(_binary_score_from_stats)
    value_options: ClassVar[Tuple[str, ...]] = ("terms", "zero_division")
    higher_is_better = True
    terms: Terms

    def __init__(self, threshold: float = 0.5, *, zero_division: float = 0.0, from_logits: bool = False,
                 ignore_index: Optional[int] = None, weighted: bool = False, multidim_average: str = "global",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_binary(self, threshold, from_logits, ignore_index, weighted, multidim_average)
        self.zero_division = check_zero_division(zero_division)


class _MulticlassMetric(Metric):
    """``update(preds, target, weight=None)``: labels (N, ...) or scores (N, C, ...) and labels (N, ...); state:
    the (C, C) confusion matrix ``confmat`` of the predicted labels. ``top_k`` is 1 (torchmetrics has no
    ``top_k`` on the confusion matrix, MCC and kappa); :class:`MulticlassStatScores` sets it before this base's
    ``__init__`` reads it."""

    stats_fn = staticmethod(_multiclass_stat_scores_stats)
    stats_options = MULTICLASS_STATS
    top_k: int = 1
    multidim_average: str = "global"

    def __init__(self, num_classes: int, *, ignore_index: Optional[int] = None, weighted: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_multiclass(self, num_classes, self.top_k, ignore_index, weighted, self.multidim_average)


class _MulticlassScore(Metric):
    """A one-vs-rest multiclass score named by its ``terms``, with ``by_support`` (an option of the value:
    torchmetrics' rule for accuracy, precision and recall at ``top_k > 1``, see ``_multiclass_score_from_stats``).
    The state and ``update`` of :class:`_MulticlassMetric`."""

    stats_fn = staticmethod(_multiclass_stat_scores_stats)
    stats_options = MULTICLASS_STATS
    value_fn: ClassVar[Callable[..., Any]] = staticmethod(_multiclass_score_from_stats)
    value_options: ClassVar[Tuple[str, ...]] = ("terms", "average", "zero_division", "by_support", "top_k", "absent")
    higher_is_better = True
    terms: Terms
    by_support = False

    def __init__(self, num_classes: int, average: Optional[str] = "macro", *, zero_division: float = 0.0,
                 top_k: int = 1, ignore_index: Optional[int] = None, weighted: bool = False,
                 multidim_average: str = "global", absent: str = "ignore", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_multiclass(self, num_classes, top_k, ignore_index, weighted, multidim_average)
        self.average, self.zero_division = check_average(average), check_zero_division(zero_division)
        self.absent = check_absent(absent)


class _MultilabelMetric(Metric):
    """``update(preds, target, weight=None)`` with (N, L, ...) inputs; state: per-label 2x2 confusion matrices
    ``confmat`` (L, 2, 2)."""

    stats_fn = staticmethod(_multilabel_stat_scores_stats)
    stats_options = MULTILABEL_STATS
    multidim_average: str = "global"

    def __init__(self, num_labels: int, threshold: float = 0.5, *, from_logits: bool = False,
                 ignore_index: Optional[int] = None, weighted: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_multilabel(self, num_labels, threshold, from_logits, ignore_index, weighted, self.multidim_average)


class _MultilabelScore(Metric):
    """A per-label score named by its ``terms``, averaged over labels; the state and ``update`` of
    :class:`_MultilabelMetric`."""

    stats_fn = staticmethod(_multilabel_score_stats)
    stats_options = MULTILABEL_STATS + ("average", "terms", "zero_division")
    value_fn = staticmethod(_multilabel_score_from_stats)
    value_options = ("terms", "average", "zero_division")
    higher_is_better = True
    terms: Terms
    #: the choices of ``average`` (``SAMPLE_AVERAGES`` where scikit-learn also averages per sample)
    averages: ClassVar[Tuple[str, ...]] = CLASSIFICATION_AVERAGES

    def __init__(self, num_labels: int, threshold: float = 0.5, average: Optional[str] = "macro", *,
                 zero_division: float = 0.0, from_logits: bool = False, ignore_index: Optional[int] = None,
                 weighted: bool = False, multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_multilabel(self, num_labels, threshold, from_logits, ignore_index, weighted, multidim_average,
                            samples=average == "samples" and "samples" in self.averages)
        self.average, self.zero_division = check_average(average, self.averages), check_zero_division(zero_division)
