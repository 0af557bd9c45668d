"""ROC and precision-recall curve modules for every task (see :mod:`torchmetrics_lite.functional.auroc.curves`).

Each keeps the exact state of its task (scores, labels, optional weights) and returns the curve over everything
seen; the multiclass and multilabel forms return one curve per class (lists of tensors, as torchmetrics)."""
from __future__ import annotations

from typing import Any, ClassVar, Dict, Optional

import torch  # noqa: F401 (the doctests)

from torchmetrics_lite._checks import check_positive_int, warn_multiclass_logits
from torchmetrics_lite.auroc._base import (
    _BinaryRank,
    _checked_mode,
    _mode_states,
    _multiclass_states,
    _MultilabelRank,
    _rank_options,
)
from torchmetrics_lite.functional.auroc import curves as F
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.functional.auroc.multiclass import _multiclass_rank_stats
from torchmetrics_lite.metric import Metric

__all__ = ["BinaryROC", "BinaryPrecisionRecallCurve", "MulticlassROC", "MultilabelROC",
           "MulticlassPrecisionRecallCurve", "MultilabelPrecisionRecallCurve"]


@fill_doc
class BinaryROC(_BinaryRank):
    """The ROC curve ``(fpr, tpr, thresholds)`` over everything seen, every distinct score a threshold, starting
    at ``thresholds[0] = inf`` / ``(0, 0)``; :func:`~torchmetrics_lite.functional.binary_roc`.

    ``update(preds, target, weight=None)``: scores and 0/1 labels of the same shape, optional weights.

    Args:
        {thresholds_module}
        {ignore_index_rank_module}
        {drop_intermediate}
        {kwargs_module}

    Raises:
        ValueError, TypeError: bad batches as the function, or mixed weighting across updates.

    References:
        scikit-learn's ``roc_curve`` (``drop_intermediate=False`` by default).

    Examples:
        >>> m = BinaryROC()
        >>> m.update(torch.tensor([0.1, 0.4]), torch.tensor([0, 0]))
        >>> m.update(torch.tensor([0.35, 0.8]), torch.tensor([1, 1]))
        >>> fpr, tpr, _ = m.compute()
        >>> fpr.tolist(), tpr.tolist()
        ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """

    higher_is_better: ClassVar[Optional[bool]] = None
    value_fn = staticmethod(F._binary_roc_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"threshold_values": self.threshold_values, "drop_intermediate": self.drop_intermediate}

    def __init__(self, *, thresholds: Any = None, drop_intermediate: bool = False, **kwargs: Any) -> None:
        super().__init__(thresholds=thresholds, **kwargs)
        F._check_drop_intermediate(drop_intermediate, self.threshold_values)
        self.drop_intermediate = drop_intermediate


@fill_doc
class BinaryPrecisionRecallCurve(_BinaryRank):
    """``(precision, recall, thresholds)`` over everything seen, as scikit-learn's ``precision_recall_curve``
    (thresholds increasing, a final point at precision 1 / recall 0);
    :func:`~torchmetrics_lite.functional.binary_precision_recall_curve`.

    Args:
        {from_logits_bin}
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    Raises:
        ValueError, TypeError: as :class:`BinaryROC`.

    References:
        scikit-learn's ``precision_recall_curve``.

    Examples:
        >>> m = BinaryPrecisionRecallCurve()
        >>> m.update(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
        >>> precision, recall, thresholds = m.compute()
        >>> recall.tolist()
        [1.0, 1.0, 0.5, 0.5, 0.0]
    """

    higher_is_better: ClassVar[Optional[bool]] = None
    value_fn = staticmethod(F._binary_precision_recall_curve_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"threshold_values": self.threshold_values}



class _MulticlassCurve(Metric):
    """``update(preds (N, C), target (N,), weight=None (N,))``; ``compute`` is the declared ``value_fn``, one curve
    per class (see :mod:`torchmetrics_lite.auroc._base`)."""

    higher_is_better: ClassVar[Optional[bool]] = None
    stats_fn = staticmethod(_multiclass_rank_stats)
    check_accepted = warn_multiclass_logits

    def stats_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "from_logits": self.from_logits, **_rank_options(self)}

    def value_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "from_logits": self.from_logits,
                "threshold_values": self.threshold_values}

    weighted: ClassVar[bool] = True

    def __init__(self, num_classes: int, *, from_logits: bool = False, thresholds: Any = None,
                 ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_classes", num_classes)
        self.thresholds, self.threshold_values, self.ignore_index = _checked_mode(thresholds, ignore_index)
        self.stats_key = _mode_states(
            self, self.threshold_values, ignore_index, num_classes, ("multiclass", num_classes, bool(from_logits)),
            lambda: _multiclass_states(self, type(self).weighted, num_classes, bool(from_logits)))
        self.num_classes, self.from_logits = num_classes, bool(from_logits)


@fill_doc
class MulticlassROC(_MulticlassCurve):
    """One-vs-rest ROC curve per class over everything seen: ``(fpr, tpr, thresholds)`` as three lists of
    ``num_classes`` tensors; :func:`~torchmetrics_lite.functional.multiclass_roc`.

    ``update(preds (N, C), target (N,), weight=None (N,))``.

    Args:
        {num_classes_rank}
        from_logits: ``preds`` are logits (a float64 softmax is applied at compute; thresholds are probabilities).
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    Raises:
        ValueError, TypeError: bad batches as the function, or mixed weighting across updates.

    References:
        torchmetrics' ``MulticlassROC`` (``thresholds=None``, lists per class).

    Examples:
        >>> m = MulticlassROC(num_classes=3)
        >>> m.update(torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3]]), torch.tensor([0, 1]))
        >>> m.update(torch.tensor([[0.1, 0.3, 0.6], [0.4, 0.4, 0.2]]), torch.tensor([2, 1]))
        >>> fpr, tpr, thresholds = m.compute()
        >>> len(fpr), tpr[1].tolist()
        (3, [0.0, 0.5, 1.0, 1.0, 1.0])
    """

    value_fn = staticmethod(F._multiclass_roc_from_stats)


@fill_doc
class MulticlassPrecisionRecallCurve(_MulticlassCurve):
    """One-vs-rest precision-recall curve per class over everything seen (three lists of tensors);
    :func:`~torchmetrics_lite.functional.multiclass_precision_recall_curve`.

    Args:
        {num_classes_rank}
        {from_logits_module}
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    Raises:
        ValueError, TypeError: as :class:`MulticlassROC`.

    References:
        torchmetrics' ``MulticlassPrecisionRecallCurve`` (``thresholds=None``).

    Examples:
        >>> m = MulticlassPrecisionRecallCurve(num_classes=3)
        >>> m.update(torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3]]), torch.tensor([0, 1]))
        >>> m.update(torch.tensor([[0.1, 0.3, 0.6], [0.4, 0.4, 0.2]]), torch.tensor([2, 1]))
        >>> precision, recall, thresholds = m.compute()
        >>> recall[0].tolist()
        [1.0, 1.0, 1.0, 1.0, 0.0]
    """

    value_fn = staticmethod(F._multiclass_precision_recall_curve_from_stats)


@fill_doc
class MultilabelROC(_MultilabelRank):
    """ROC curve per label over everything seen (three lists of ``num_labels`` tensors);
    :func:`~torchmetrics_lite.functional.multilabel_roc`. ``update(preds (N, L), target (N, L), weight=None)``.

    Args:
        {num_labels_rank}
        {from_logits_bin}
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    Raises:
        ValueError, TypeError: bad batches as the function, or mixed weighting across updates.

    References:
        torchmetrics' ``MultilabelROC`` (``thresholds=None``).

    Examples:
        >>> m = MultilabelROC(num_labels=2)
        >>> m.update(torch.tensor([[0.9, 0.1], [0.2, 0.8]]), torch.tensor([[1, 0], [0, 1]]))
        >>> m.update(torch.tensor([[0.6, 0.4], [0.3, 0.7]]), torch.tensor([[1, 1], [0, 0]]))
        >>> fpr, tpr, thresholds = m.compute()
        >>> tpr[0].tolist()
        [0.0, 0.5, 1.0, 1.0, 1.0]
    """

    higher_is_better: ClassVar[Optional[bool]] = None
    value_fn = staticmethod(F._multilabel_roc_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"threshold_values": self.threshold_values}



@fill_doc
class MultilabelPrecisionRecallCurve(_MultilabelRank):
    """Precision-recall curve per label over everything seen (three lists of tensors);
    :func:`~torchmetrics_lite.functional.multilabel_precision_recall_curve`.

    Args:
        {num_labels_rank}
        {from_logits_bin}
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    Raises:
        ValueError, TypeError: as :class:`MultilabelROC`.

    References:
        torchmetrics' ``MultilabelPrecisionRecallCurve`` (``thresholds=None``).

    Examples:
        >>> m = MultilabelPrecisionRecallCurve(num_labels=2)
        >>> m.update(torch.tensor([[0.9, 0.1], [0.2, 0.8]]), torch.tensor([[1, 0], [0, 1]]))
        >>> m.update(torch.tensor([[0.6, 0.4], [0.3, 0.7]]), torch.tensor([[1, 1], [0, 0]]))
        >>> precision, recall, thresholds = m.compute()
        >>> recall[1].tolist()
        [1.0, 1.0, 0.5, 0.5, 0.0]
    """

    higher_is_better: ClassVar[Optional[bool]] = None
    value_fn = staticmethod(F._multilabel_precision_recall_curve_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"threshold_values": self.threshold_values}

