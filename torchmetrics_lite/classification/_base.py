"""The state bases of the classification modules: two per task, each declaring the shared confusion-matrix state
and its ``stats_key``; a concrete metric only names its formula (``_terms`` for the scores, or a
``compute_from_stats``). Every base derives from :class:`~torchmetrics_lite.metric.Metric` directly (at most two
levels of inheritance): a task's score base (``_BinaryScore``: ``zero_division`` and the ``_terms`` formula) and its
count base (``_BinaryMetric``: stat scores, confusion matrix, agreement) declare the same state through one function
(``_declare_binary``); every base binds the one ``batch_stats`` (:func:`_confmat_batch_stats`), which runs the
counting pass its task declares (``_count``, ``_count_options``).

Weighted counts: ``weighted=True`` at construction makes the state float64 (float32 on a device without float64)
and lets ``update`` take ``weight=``; the dtype is fixed for the metric's life, so merged, synced and checkpointed
states always agree (int64 exact counts otherwise, at full speed)."""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Protocol, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_average, check_choice, check_weighted_update, check_zero_division
from torchmetrics_lite._docs import register, register_group
from torchmetrics_lite._dtype import float_dtype
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
    _multilabel_stat_scores_stats,
)
from torchmetrics_lite.metric import Metric

register(multidim_average_module=("multidim_average: ``\"global\"`` (default) or torchmetrics' ``\"samplewise\"``: "
                                  "one score per sample of ``(N, ...)`` inputs (``compute()``: ``(N,)``, or ``(N, C)`` "
                                  "per class), the per-sample confusion matrices kept as rows of a ``cat`` state."),
         weighted=("weighted: keep float64 sums of sample weights and accept ``update(preds, target, weight=...)`` "
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


class _Counting(Protocol):
    """A classification base as :func:`_confmat_batch_stats` reads it: its counting pass ``_count`` (the task's
    ``_x_stat_scores_stats``), the names of the attributes passed to it (``_count_options``), and its options."""

    _count: Callable[..., Tensor]
    _count_options: Tuple[str, ...]
    weighted: bool
    validate_args: bool


def _confmat_batch_stats(metric: _Counting, preds: Tensor, target: Tensor,
                         weight: Optional[Tensor] = None) -> Dict[str, Tensor]:
    """The ``batch_stats`` of every base: the batch's confusion matrix, ``_count(preds, target, *options,
    validate_args, weight)``, as int64 counts or floating sums of weights."""
    check_weighted_update(metric.weighted, weight)
    options = [getattr(metric, name) for name in metric._count_options]
    if getattr(metric, "multidim_average", "global") == "samplewise":  # per-sample matrices, rows of a cat state
        return {"confmat": metric._count(preds, target, *options, metric.validate_args, weight, True)}
    cm = metric._count(preds, target, *options, metric.validate_args, weight)
    return {"confmat": _batch_counts(cm, metric.weighted)}


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
    """Check a binary metric's options, set them on ``metric`` (with ``_cut``, the threshold on the scale of the
    scores), declare its (2, 2) ``confmat`` state and its ``stats_key``."""
    metric._cut = cut = _binary_config(threshold, from_logits, ignore_index)
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
                        ignore_index: Optional[int], weighted: bool, multidim_average: str = "global") -> None:
    """Check a multilabel metric's options, set them on ``metric`` (with ``_cut``, the threshold on the scale of
    the scores), declare its (L, 2, 2) ``confmat`` state and its ``stats_key``."""
    metric._cut = cut = _multilabel_config(num_labels, threshold, from_logits, ignore_index)
    metric.num_labels, metric.threshold, metric.from_logits = num_labels, threshold, from_logits
    metric.ignore_index, metric.weighted = ignore_index, weighted
    _add_confmat(metric, (num_labels, 2, 2), weighted, multidim_average)
    metric.stats_key = ("multilabel", num_labels, cut, from_logits, ignore_index, metric.validate_args, weighted,
                        multidim_average)


class _BinaryMetric(Metric):
    """``update(preds, target, weight=None)`` with binary inputs of any equal shapes; state: the 2x2 confusion
    matrix ``confmat``."""

    _count = staticmethod(_binary_stat_scores_stats)
    _count_options = ("_cut", "from_logits", "ignore_index")

    def __init__(self, threshold: float = 0.5, *, from_logits: bool = False, ignore_index: Optional[int] = None,
                 weighted: bool = False, multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_binary(self, threshold, from_logits, ignore_index, weighted, multidim_average)

    batch_stats = _confmat_batch_stats


class _BinaryScore(Metric):
    """A binary score named by its ``_terms`` (numerator and denominator from tp, fp, tn, fn); the state and
    ``update`` of :class:`_BinaryMetric`."""

    _count = staticmethod(_binary_stat_scores_stats)
    _count_options = ("_cut", "from_logits", "ignore_index")
    higher_is_better = True
    _terms: Terms

    def __init__(self, threshold: float = 0.5, *, zero_division: float = 0.0, from_logits: bool = False,
                 ignore_index: Optional[int] = None, weighted: bool = False, multidim_average: str = "global",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_binary(self, threshold, from_logits, ignore_index, weighted, multidim_average)
        self.zero_division = check_zero_division(zero_division)

    batch_stats = _confmat_batch_stats

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _binary_score_from_stats(state["confmat"], type(self)._terms, self.zero_division)


class _MulticlassMetric(Metric):
    """``update(preds, target, weight=None)``: labels (N, ...) or scores (N, C, ...) and labels (N, ...); state:
    the (C, C) confusion matrix ``confmat`` of the predicted labels (see ``top_k``)."""

    _count = staticmethod(_multiclass_stat_scores_stats)
    _count_options = ("num_classes", "top_k", "ignore_index")

    def __init__(self, num_classes: int, *, top_k: int = 1, ignore_index: Optional[int] = None,
                 weighted: bool = False, multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_multiclass(self, num_classes, top_k, ignore_index, weighted, multidim_average)

    batch_stats = _confmat_batch_stats


class _MulticlassScore(Metric):
    """A one-vs-rest multiclass score named by its ``_terms``; ``_by_support``: at ``top_k > 1`` the macro mean
    runs over the classes present in the targets (torchmetrics' rule for accuracy, precision and recall). The state
    and ``update`` of :class:`_MulticlassMetric`."""

    _count = staticmethod(_multiclass_stat_scores_stats)
    _count_options = ("num_classes", "top_k", "ignore_index")
    higher_is_better = True
    _terms: Terms
    _by_support = False

    def __init__(self, num_classes: int, average: Optional[str] = "macro", *, zero_division: float = 0.0,
                 top_k: int = 1, ignore_index: Optional[int] = None, weighted: bool = False,
                 multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_multiclass(self, num_classes, top_k, ignore_index, weighted, multidim_average)
        self.average, self.zero_division = check_average(average), check_zero_division(zero_division)

    batch_stats = _confmat_batch_stats

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiclass_score_from_stats(state["confmat"], type(self)._terms, self.average, self.zero_division,
                                            by_support=self._by_support and self.top_k > 1)


class _MultilabelMetric(Metric):
    """``update(preds, target, weight=None)`` with (N, L, ...) inputs; state: per-label 2x2 confusion matrices
    ``confmat`` (L, 2, 2)."""

    _count = staticmethod(_multilabel_stat_scores_stats)
    _count_options = ("num_labels", "_cut", "from_logits", "ignore_index")

    def __init__(self, num_labels: int, threshold: float = 0.5, *, from_logits: bool = False,
                 ignore_index: Optional[int] = None, weighted: bool = False, multidim_average: str = "global",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_multilabel(self, num_labels, threshold, from_logits, ignore_index, weighted, multidim_average)

    batch_stats = _confmat_batch_stats


class _MultilabelScore(Metric):
    """A per-label score named by its ``_terms``, averaged over labels; the state and ``update`` of
    :class:`_MultilabelMetric`."""

    _count = staticmethod(_multilabel_stat_scores_stats)
    _count_options = ("num_labels", "_cut", "from_logits", "ignore_index")
    higher_is_better = True
    _terms: Terms

    def __init__(self, num_labels: int, threshold: float = 0.5, average: Optional[str] = "macro", *,
                 zero_division: float = 0.0, from_logits: bool = False, ignore_index: Optional[int] = None,
                 weighted: bool = False, multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _declare_multilabel(self, num_labels, threshold, from_logits, ignore_index, weighted, multidim_average)
        self.average, self.zero_division = check_average(average), check_zero_division(zero_division)

    batch_stats = _confmat_batch_stats

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multilabel_score_from_stats(state["confmat"], type(self)._terms, self.average, self.zero_division)
