"""What the AUROC family's modules share: the rank states, the rank options and the two rank bases.

Every exact rank module keeps the same ``cat`` states (the scores, the labels and, when updates are weighted, the
weights) and declares (see :class:`~torchmetrics_lite.metric.Metric`) its task's ``_x_rank_stats`` as ``stats_fn``
and its ``_x_from_stats`` as ``value_fn``, each with the options it receives::

    class BinaryAveragePrecision(_BinaryRank):
        value_fn = staticmethod(F._binary_average_precision_from_stats)

        def value_options(self):  # the keywords the value receives
            return {"strict": self.strict}

Every base derives from :class:`~torchmetrics_lite.metric.Metric` directly (at most two levels of inheritance): one
base per task and constructor (:class:`_BinaryRank` and :class:`_MultilabelRank` here; the averaged, curve and
operating-point bases in the modules that use them). What they share are the functions below: the mode options
(:func:`_checked_mode`), the states (:func:`_mode_states`, which returns the ``stats_key``) and the options every
rank stats function receives (:func:`_rank_options`), among them the ``weighting`` of the rows appended so far
(:func:`_weighting`), which the stats functions check against ``weight`` before any state changes.

Weights: an update with ``weight=`` appends the weights to a third ``cat`` state. A metric is weighted in every
update or in none (checked before any state changes: mixing would give some samples an implicit weight).
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Dict, Hashable, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    Weighting,
    check_positive_int,
    check_rank_ignore_index,
    check_thresholds,
    warn_binary_logits,
)
from torchmetrics_lite.functional.auroc._common import _class_dtype
from torchmetrics_lite.functional.auroc.binary import _binary_rank_stats
from torchmetrics_lite.functional.auroc.multilabel import _multilabel_rank_stats
from torchmetrics_lite.metric import Metric


def _add_rank_states(metric: Metric, weighted: bool, preds_row: Tuple[int, ...], target_row: Tuple[int, ...],
                     target_dtype: torch.dtype, task: Tuple[Any, ...]) -> Hashable:
    """Declare the exact rank states (``preds`` and ``target`` rows, and ``weight`` when ``weighted``); return
    their ``stats_key`` ``(*task, weighted, validate_args)``."""
    metric.add_state("preds", torch.zeros(0, *preds_row, dtype=torch.float32), reduce="cat")
    metric.add_state("target", torch.zeros(0, *target_row, dtype=target_dtype), reduce="cat")
    if weighted:
        metric.add_state("weight", torch.zeros(0, dtype=torch.float32), reduce="cat")
    return (*task, weighted, metric.validate_args)


def _multiclass_states(metric: Metric, weighted: bool, num_classes: int, from_logits: bool) -> Hashable:
    """Check ``num_classes`` and declare the multiclass rank states: scores ``(N, C)``, class indices ``(N,)``."""
    check_positive_int("num_classes", num_classes)
    return _add_rank_states(metric, weighted, (num_classes,), (), _class_dtype(num_classes),
                            ("multiclass_rank", num_classes, from_logits))


def _multilabel_states(metric: Metric, weighted: bool, num_labels: int) -> Hashable:
    """Check ``num_labels`` and declare the multilabel rank states: scores and 0/1 labels ``(N, L)``."""
    check_positive_int("num_labels", num_labels)
    return _add_rank_states(metric, weighted, (num_labels,), (num_labels,), torch.uint8,
                            ("multilabel_rank", num_labels))


def _checked_mode(thresholds: Any, ignore_index: Any) -> Tuple[Any, Optional[Tensor], Optional[int]]:
    """The mode options of a rank module: ``thresholds`` as given, the tensor torchmetrics builds from it (``None``:
    the exact mode) and the checked ``ignore_index``."""
    return thresholds, check_thresholds(thresholds), check_rank_ignore_index(ignore_index)


def _mode_states(metric: Metric, threshold_values: Optional[Tensor], ignore_index: Any, columns: int,
                 task: Tuple[Any, ...], exact: Callable[[], Hashable]) -> Hashable:
    """Declare the exact rank states (``exact()``, which returns their key), or with torchmetrics' thresholds the
    binned ``confmat`` ``(T, columns, 2, 2)`` sum state (``torchmetrics_lite.functional.auroc.binned``); return the
    ``stats_key``, which ``ignore_index``, the thresholds and (binned: set it first) ``from_logits`` enter."""
    if threshold_values is None:
        key = exact()
    else:
        metric.add_state("confmat", torch.zeros(threshold_values.numel(), columns, 2, 2, dtype=torch.int64),
                         reduce="sum")
        key = ("binned", *task, tuple(threshold_values.tolist()), str(threshold_values.dtype), metric.validate_args,
               metric.__dict__.get("from_logits", False))
    return key if ignore_index is None else ("ignore_index", ignore_index, key)


def _weighting(metric: Metric) -> Weighting:
    """What a rank module has appended so far, for the stats function's check that an update is weighted as the
    earlier ones: whether its class takes weights, and the rows of ``preds`` and ``weight`` (metadata only, no host
    sync; none in the binned mode, which checks no weighting)."""
    weighted: bool = getattr(type(metric), "weighted")
    if not weighted:
        return Weighting(type(metric).__name__, False, 0, 0)
    filled = metric.__dict__["_cat_len"]  # the rows of each cat state (what local_state() trims to), per update
    return Weighting(type(metric).__name__, weighted, filled.get("preds", 0), filled.get("weight", 0))


def _rank_options(metric: Any) -> Dict[str, Any]:
    """What every rank module passes to its task's ``_x_rank_stats`` beside the task's own options
    (``num_classes``...): ``validate_args``, the ``weighting`` of the rows appended so far, the mode
    (``ignore_index``, ``threshold_values``) and ``from_logits`` (``False`` on a module without it)."""
    return {"validate_args": metric.validate_args, "weighting": _weighting(metric),
            "ignore_index": metric.ignore_index, "threshold_values": metric.threshold_values,
            "from_logits": metric.__dict__.get("from_logits", False)}


class _BinaryRank(Metric):
    """``update(preds, target, weight=None)``: scores and 0/1 labels of any (same) shape, weights of that shape;
    ``compute`` is the declared ``value_fn``."""

    higher_is_better: ClassVar[Optional[bool]] = True
    stats_fn = staticmethod(_binary_rank_stats)
    check_accepted = warn_binary_logits
    #: whether ``update`` takes ``weight=``
    weighted: ClassVar[bool] = True

    def __init__(self, *, thresholds: Any = None, ignore_index: Optional[int] = None, from_logits: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.from_logits = bool(from_logits)  # the binned mode's sigmoid (the exact mode ranks scores as given)
        self.thresholds, self.threshold_values, self.ignore_index = _checked_mode(thresholds, ignore_index)
        self.stats_key = _mode_states(
            self, self.threshold_values, ignore_index, 1, ("binary",),
            lambda: _add_rank_states( self, type(self).weighted, (), (), torch.uint8, ("binary_rank",)))

    def stats_options(self) -> Dict[str, Any]:
        return _rank_options(self)


class _MultilabelRank(Metric):
    """``update(preds, target, weight=None)``: scores and 0/1 labels ``(N, L)``, weights ``(N,)``; ``compute`` is
    the declared ``value_fn`` (the per-label curves)."""

    stats_fn = staticmethod(_multilabel_rank_stats)
    check_accepted = warn_binary_logits
    weighted: ClassVar[bool] = True

    def __init__(self, num_labels: int, *, thresholds: Any = None, ignore_index: Optional[int] = None,
                 from_logits: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.from_logits = bool(from_logits)  # the binned mode's sigmoid (the exact mode ranks scores as given)
        check_positive_int("num_labels", num_labels)
        self.thresholds, self.threshold_values, self.ignore_index = _checked_mode(thresholds, ignore_index)
        self.num_labels = num_labels
        self.stats_key = _mode_states(
            self, self.threshold_values, ignore_index, num_labels, ("multilabel", num_labels),
            lambda: _multilabel_states(self, type(self).weighted, num_labels))

    def stats_options(self) -> Dict[str, Any]:
        return {"num_labels": self.num_labels, **_rank_options(self)}
