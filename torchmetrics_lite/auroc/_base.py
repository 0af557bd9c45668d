"""What the AUROC family's modules share: the rank states, the ``weighting`` option and the two rank bases.

Every exact rank module keeps the same ``cat`` states (the scores, the labels and, when updates are weighted, the
weights) and declares (see :class:`~torchmetrics_lite.metric.Metric`) its task's ``_x_rank_stats`` as ``stats_fn``
and its ``_x_from_stats`` as ``value_fn``::

    class BinaryAveragePrecision(_BinaryRank):
        value_fn = staticmethod(F._binary_average_precision_from_stats)
        value_options = ("strict",)      # attributes passed to the value as keywords

Every base derives from :class:`~torchmetrics_lite.metric.Metric` directly (at most two levels of inheritance): one
base per task and constructor (:class:`_BinaryRank` and :class:`_MultilabelRank` here; the averaged, curve and
operating-point bases in the modules that use them). What they share are the functions below: the states
(:func:`_add_rank_states`) and the ``weighting`` option (:func:`_weighting`, bound as a property), which the
stats functions check against ``weight`` before any state changes.

Weights: an update with ``weight=`` appends the weights to a third ``cat`` state. A metric is weighted in every
update or in none (checked before any state changes: mixing would give some samples an implicit weight).
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Optional, Tuple

import torch

from torchmetrics_lite._checks import Weighting, check_positive_int, check_rank_ignore_index, check_thresholds
from torchmetrics_lite.functional.auroc._common import _class_dtype
from torchmetrics_lite.functional.auroc.binary import _binary_rank_stats
from torchmetrics_lite.functional.auroc.multilabel import _multilabel_rank_stats
from torchmetrics_lite.metric import Metric

#: the ``stats_options`` of the binary rank modules (multiclass and multilabel add ``num_classes``...); those
#: with an exact mode only (no ``thresholds=``/``ignore_index=``) pass ``EXACT_STATS``
EXACT_STATS = ("validate_args", "weighting")
RANK_STATS = (*EXACT_STATS, "ignore_index", "threshold_values")


def _add_rank_states(metric: Metric, weighted: bool, preds_row: Tuple[int, ...], target_row: Tuple[int, ...],
                     target_dtype: torch.dtype, task: Tuple[Any, ...]) -> None:
    """Declare the exact rank states (``preds`` and ``target`` rows, and ``weight`` when ``weighted``) and the
    ``stats_key`` ``(*task, weighted, validate_args)``."""
    metric.add_state("preds", torch.zeros(0, *preds_row, dtype=torch.float32), reduce="cat")
    metric.add_state("target", torch.zeros(0, *target_row, dtype=target_dtype), reduce="cat")
    if weighted:
        metric.add_state("weight", torch.zeros(0, dtype=torch.float32), reduce="cat")
    metric.stats_key = (*task, weighted, metric.validate_args)


def _multiclass_states(metric: Metric, weighted: bool, num_classes: int, from_logits: bool) -> None:
    """Check ``num_classes`` and declare the multiclass rank states: scores ``(N, C)``, class indices ``(N,)``."""
    check_positive_int("num_classes", num_classes)
    _add_rank_states(metric, weighted, (num_classes,), (), _class_dtype(num_classes),
                     ("multiclass_rank", num_classes, from_logits))


def _multilabel_states(metric: Metric, weighted: bool, num_labels: int) -> None:
    """Check ``num_labels`` and declare the multilabel rank states: scores and 0/1 labels ``(N, L)``."""
    check_positive_int("num_labels", num_labels)
    _add_rank_states(metric, weighted, (num_labels,), (num_labels,), torch.uint8, ("multilabel_rank", num_labels))


def _declare_mode(metric: Any, thresholds: Any, ignore_index: Any, columns: int, task: Tuple[Any, ...],
                  exact: Callable[[], None]) -> None:
    """The exact rank states (``exact()``), or with torchmetrics' ``thresholds`` the binned ``confmat`` ``(T,
    columns, 2, 2)`` sum state (``torchmetrics_lite.functional.auroc.binned``); ``ignore_index`` and the
    thresholds enter the ``stats_key``."""
    metric.thresholds = thresholds  # as given; the tensor torchmetrics builds from it:
    metric.threshold_values = check_thresholds(thresholds)
    metric.ignore_index = check_rank_ignore_index(ignore_index)
    values = metric.threshold_values
    if values is None:
        exact()
    else:
        metric.add_state("confmat", torch.zeros(values.numel(), columns, 2, 2, dtype=torch.int64), reduce="sum")
        metric.stats_key = ("binned", *task, tuple(values.tolist()), str(values.dtype), metric.validate_args)
    if ignore_index is not None:
        metric.stats_key = ("ignore_index", ignore_index, metric.stats_key)


def _weighting(metric: Metric) -> Weighting:
    """The ``weighting`` option of a rank module: whether its class takes weights, and the rows appended so far
    (metadata only, no host sync; none in the binned mode, which checks no weighting)."""
    weighted: bool = getattr(type(metric), "weighted")
    if not weighted:
        return Weighting(type(metric).__name__, False, 0, 0)
    filled = metric.__dict__["_cat_len"]  # the rows of each cat state (what local_state() trims to), per update
    return Weighting(type(metric).__name__, weighted, filled.get("preds", 0), filled.get("weight", 0))


class _BinaryRank(Metric):
    """``update(preds, target, weight=None)``: scores and 0/1 labels of any (same) shape, weights of that shape;
    ``compute`` is the declared ``value_fn``."""

    higher_is_better: ClassVar[Optional[bool]] = True
    stats_fn = staticmethod(_binary_rank_stats)
    stats_options = RANK_STATS
    #: whether ``update`` takes ``weight=``
    weighted: ClassVar[bool] = True
    weighting = property(_weighting)

    def __init__(self, *, thresholds: Any = None, ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_mode(self, thresholds, ignore_index, 1, ("binary",), lambda: _add_rank_states(
            self, type(self).weighted, (), (), torch.uint8, ("binary_rank",)))


class _MultilabelRank(Metric):
    """``update(preds, target, weight=None)``: scores and 0/1 labels ``(N, L)``, weights ``(N,)``; ``compute`` is
    the declared ``value_fn`` (the per-label curves)."""

    stats_fn = staticmethod(_multilabel_rank_stats)
    stats_options = ("num_labels", *RANK_STATS)
    weighted: ClassVar[bool] = True
    weighting = property(_weighting)

    def __init__(self, num_labels: int, *, thresholds: Any = None, ignore_index: Optional[int] = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_labels", num_labels)
        _declare_mode(self, thresholds, ignore_index, num_labels, ("multilabel", num_labels),
                      lambda: _multilabel_states(self, type(self).weighted, num_labels))
        self.num_labels = num_labels
