"""The declarative bases of the AUROC family's modules: a class names its formula and the options passed to it.

Every exact rank module keeps the same ``cat`` states (the scores, the labels and, when updates are weighted, the
weights) and differs only in the ``_x_from_stats`` function it calls at compute, so a subclass declares::

    class BinaryAveragePrecision(_BinaryRank):
        formula = staticmethod(F._binary_average_precision_from_stats)
        options = ("strict",)            # attributes passed to the formula as keywords

and its base's ``compute_from_stats`` (:func:`_declared_value`) calls ``formula(state, strict=self.strict)``.

Every base derives from :class:`~torchmetrics_lite.metric.Metric` directly (at most two levels of inheritance): one
base per task and constructor (:class:`_BinaryRank` and :class:`_MultilabelRank` here; the averaged, curve and
operating-point bases in the modules that use them). What they share are the functions below: the states
(:func:`_add_rank_states`), the weighting rule (:func:`_check_weighting`), the declared formula
(:func:`_declared_value`) and one ``batch_stats`` per task (:func:`_binary_batch_stats`,
:func:`_multiclass_batch_stats`, :func:`_multilabel_batch_stats`), bound in every base of the task. They check and
format one batch with the same helpers as the functions, so module and function never disagree.

Weights: an update with ``weight=`` appends the weights to a third ``cat`` state. A metric is weighted in every
update or in none (checked before any state changes: mixing would give some samples an implicit weight).
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Dict, Optional, Protocol, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_positive_int, check_rank_ignore_index, check_thresholds
from torchmetrics_lite.functional.auroc import binned as B
from torchmetrics_lite.functional.auroc._common import State, _class_dtype
from torchmetrics_lite.functional.auroc.binary import _check_binary
from torchmetrics_lite.functional.auroc.multiclass import _check_multiclass
from torchmetrics_lite.functional.auroc.multilabel import _check_multilabel
from torchmetrics_lite.metric import Metric


class _Weighted(Protocol):
    """A rank module as its ``batch_stats`` reads it: whether it takes ``weight=``, and two members of Metric."""

    weighted: ClassVar[bool]
    validate_args: bool

    def local_state(self) -> Dict[str, Tensor]: ...


class _MulticlassModule(_Weighted, Protocol):
    num_classes: int
    from_logits: bool


class _MultilabelModule(_Weighted, Protocol):
    num_labels: int


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


def _binned(metric: Any) -> Optional[Tensor]:
    return getattr(metric, "threshold_values", None)


def _ignored(metric: Any) -> Optional[int]:
    return getattr(metric, "ignore_index", None)


def _check_weighting(metric: _Weighted, weight: Any) -> None:
    """The same weighting as the earlier updates (metadata only, no host sync)."""
    weighted = type(metric).weighted
    if weight is None and not weighted:
        return
    if not weighted:
        raise TypeError(f"Expected no `weight` for {type(metric).__name__} (sample weights are taken by AUROC, "
                        f"average precision and the ROC / precision-recall curves), got {type(weight).__name__}")
    state = metric.local_state()
    seen, weights = state["preds"].shape[0], state["weight"].shape[0]
    if weight is not None and weights != seen:
        raise ValueError(f"Expected `weight` in every update or in none, got one after {seen} unweighted samples")
    if weight is None and weights:
        raise ValueError(f"Expected `weight` in every update or in none, got none after {weights} weighted "
                         f"samples")


def _declared_value(metric: Metric, state: State) -> Any:
    """The ``compute_from_stats`` of a declared rank module: ``formula(state, **options)``, or in the binned mode
    ``binned(state, thresholds, **options)``."""
    declared: Any = type(metric)  # a rank base, or a module of one: ``formula`` and ``options`` are class attributes
    options = {name: getattr(metric, name) for name in declared.options}
    if "confmat" in state:
        return declared.binned(state, _binned(metric), **options)
    return declared.formula(state, **options)


def _binary_batch_stats(metric: _Weighted, preds: Tensor, target: Tensor, weight: Optional[Tensor] = None) -> State:
    """The ``batch_stats`` of the binary rank bases: scores and 0/1 labels of any (same) shape, weights of that
    shape."""
    thresholds = _binned(metric)
    if thresholds is not None:
        return B._binary_binned_stats(preds, target, thresholds, _ignored(metric), metric.validate_args, weight)
    _check_weighting(metric, weight)
    return _check_binary(preds, target, weight, metric.validate_args, _ignored(metric))


def _multiclass_batch_stats(metric: _MulticlassModule, preds: Tensor, target: Tensor,
                            weight: Optional[Tensor] = None) -> State:
    """The ``batch_stats`` of the multiclass rank bases: scores ``(N, C)`` (probabilities, or logits with
    ``from_logits=True``), class indices ``(N,)``, weights ``(N,)``."""
    thresholds = _binned(metric)
    if thresholds is not None:
        return B._multiclass_binned_stats(preds, target, metric.num_classes, thresholds, _ignored(metric),
                                          metric.from_logits, metric.validate_args, weight)
    _check_weighting(metric, weight)
    return _check_multiclass(preds, target, metric.num_classes, weight, metric.from_logits, metric.validate_args,
                             _ignored(metric))


def _multilabel_batch_stats(metric: _MultilabelModule, preds: Tensor, target: Tensor,
                            weight: Optional[Tensor] = None) -> State:
    """The ``batch_stats`` of the multilabel rank bases: scores and 0/1 labels ``(N, L)``, weights ``(N,)``."""
    thresholds = _binned(metric)
    if thresholds is not None:
        return B._multilabel_binned_stats(preds, target, metric.num_labels, thresholds, _ignored(metric),
                                          metric.validate_args, weight)
    _check_weighting(metric, weight)
    return _check_multilabel(preds, target, metric.num_labels, weight, metric.validate_args,
                             _ignored(metric))


class _BinaryRank(Metric):
    """``update(preds, target, weight=None)``: scores and 0/1 labels of any (same) shape, weights of that shape;
    ``compute`` is the declared ``formula``."""

    higher_is_better: ClassVar[Optional[bool]] = True
    #: the ``_x_from_stats(state, **options)`` function this metric computes
    formula: ClassVar[Callable[..., Any]]
    #: names of the attributes passed to ``formula`` as keyword arguments
    options: ClassVar[Tuple[str, ...]] = ()
    #: whether ``update`` takes ``weight=``
    weighted: ClassVar[bool] = True

    #: the ``binned(state, thresholds, **options)`` function of the ``thresholds=`` mode
    binned: ClassVar[Callable[..., Any]]

    def __init__(self, *, thresholds: Any = None, ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_mode(self, thresholds, ignore_index, 1, ("binary",), lambda: _add_rank_states(
            self, type(self).weighted, (), (), torch.uint8, ("binary_rank",)))

    batch_stats = _binary_batch_stats
    compute_from_stats = _declared_value


class _MultilabelRank(Metric):
    """``update(preds, target, weight=None)``: scores and 0/1 labels ``(N, L)``, weights ``(N,)``; ``compute`` is
    the declared ``formula`` (the per-label curves)."""

    formula: ClassVar[Callable[..., Any]]
    binned: ClassVar[Callable[..., Any]]
    options: ClassVar[Tuple[str, ...]] = ()
    weighted: ClassVar[bool] = True

    def __init__(self, num_labels: int, *, thresholds: Any = None, ignore_index: Optional[int] = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_labels", num_labels)
        _declare_mode(self, thresholds, ignore_index, num_labels, ("multilabel", num_labels),
                      lambda: _multilabel_states(self, type(self).weighted, num_labels))
        self.num_labels = num_labels

    batch_stats = _multilabel_batch_stats
    compute_from_stats = _declared_value
