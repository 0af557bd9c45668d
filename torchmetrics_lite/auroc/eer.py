"""Equal error rate and LogAUC modules for every task (see :mod:`torchmetrics_lite.functional.auroc.eer` and
:mod:`torchmetrics_lite.functional.auroc.logauc`).

Each keeps the exact state of its task (scores and labels, unweighted) and reads the value off the exact ROC curve
of everything seen; the class names its formula and options (:mod:`torchmetrics_lite.auroc._base`)."""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Dict, Optional, Tuple

import torch  # noqa: F401 (the doctests)

from torchmetrics_lite._checks import (
    check_eer_average,
    check_fpr_range,
    check_positive_int,
    check_rank_average,
    warn_multiclass_logits,
)
from torchmetrics_lite.auroc._base import (
    _BinaryRank,
    _checked_mode,
    _mode_states,
    _multiclass_states,
    _MultilabelRank,
    _rank_options,
)
from torchmetrics_lite.functional.auroc import eer as E
from torchmetrics_lite.functional.auroc import logauc as G
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.functional.auroc.multiclass import _multiclass_rank_stats
from torchmetrics_lite.metric import Metric

__all__ = ["BinaryEER", "MulticlassEER", "MultilabelEER", "BinaryLogAUC", "MulticlassLogAUC", "MultilabelLogAUC"]


@fill_doc
class BinaryEER(_BinaryRank):
    """Equal error rate over everything seen; :func:`~torchmetrics_lite.functional.binary_eer` (interpolated
    where ``fpr`` and ``fnr`` cross on the exact ROC curve). ``update(preds, target)``: no ``weight``.

    Args:
        {from_logits_bin}
        {thresholds_module}
        {ignore_index_rank}
        {kwargs_module}

    Raises:
        ValueError, TypeError: bad batches as the function, or a ``weight``.

    References:
        torchmetrics' ``BinaryEER`` (exact: ``thresholds=None``, where it does not interpolate, see the function;
        binned: its value).

    Examples:
        >>> m = BinaryEER()
        >>> m.update(torch.tensor([0.1, 0.3]), torch.tensor([0, 0]))
        >>> m.update(torch.tensor([0.3, 0.3, 0.9]), torch.tensor([1, 1, 1]))
        >>> round(m.compute().item(), 4)  # 2/7
        0.2857
    """

    higher_is_better: ClassVar[Optional[bool]] = False
    weighted: ClassVar[bool] = False
    value_fn = staticmethod(E._binary_eer_from_stats)  # thresholds=: torchmetrics' binned EER


class _MulticlassRead(Metric):
    """``update(preds (N, C), target (N,))``, unweighted; ``compute`` is the declared ``formula`` with
    ``num_classes``, ``from_logits`` and the class's ``options``; ``thresholds=``: torchmetrics' binned
    ``confmat`` state instead of the rows."""

    higher_is_better: ClassVar[Optional[bool]] = None
    stats_fn = staticmethod(_multiclass_rank_stats)
    check_accepted = warn_multiclass_logits

    def stats_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "from_logits": self.from_logits, **_rank_options(self)}

    value_fn: Callable[..., Any]

    def value_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "from_logits": self.from_logits}

    weighted: ClassVar[bool] = False

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
class MulticlassEER(_MulticlassRead):
    """One-vs-rest equal error rate per class (or ``"micro"``, or ``"macro"``) over everything seen;
    :func:`~torchmetrics_lite.functional.multiclass_eer`. ``update(preds (N, C), target (N,))``.

    Args:
        {num_classes_rank}
        average: ``None``/``"none"`` (per class, the default as torchmetrics), ``"micro"`` or ``"macro"`` (the
            EER of the classes' mean ROC curve).
        {from_logits_module}
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    Raises:
        ValueError, TypeError: an unknown ``average``, bad batches as the function, or a ``weight``.

    References:
        torchmetrics' ``MulticlassEER``.

    Examples:
        >>> m = MulticlassEER(num_classes=3)
        >>> m.update(torch.tensor([[0.75, 0.05, 0.2], [0.05, 0.75, 0.2]]), torch.tensor([0, 1]))
        >>> m.update(torch.tensor([[0.1, 0.1, 0.8], [0.3, 0.5, 0.2]]), torch.tensor([2, 0]))
        >>> m.compute().tolist()
        [0.0, 0.0, 0.0]
    """

    higher_is_better: ClassVar[Optional[bool]] = False
    value_fn = staticmethod(E._multiclass_eer_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "from_logits": self.from_logits, "average": self.average}

    def __init__(self, num_classes: int, *, average: Optional[str] = None, from_logits: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, from_logits=from_logits, **kwargs)
        self.average = check_eer_average(average)


@fill_doc
class MultilabelEER(_MultilabelRank):
    """Equal error rate per label over everything seen; :func:`~torchmetrics_lite.functional.multilabel_eer`.
    ``update(preds (N, L), target (N, L))``.

    Args:
        {num_labels_rank}
        {from_logits_bin}
        {thresholds_module}
        {ignore_index_rank}
        {kwargs_module}

    Raises:
        ValueError, TypeError: bad batches as the function, or a ``weight``.

    References:
        torchmetrics' ``MultilabelEER``.

    Examples:
        >>> m = MultilabelEER(num_labels=2)
        >>> m.update(torch.tensor([[0.75, 0.05], [0.45, 0.75]]), torch.tensor([[1, 0], [0, 0]]))
        >>> m.update(torch.tensor([[0.05, 0.55], [0.05, 0.65]]), torch.tensor([[0, 1], [1, 1]]))
        >>> m.compute().tolist()
        [0.5, 0.5]
    """

    higher_is_better: ClassVar[Optional[bool]] = False
    weighted: ClassVar[bool] = False
    value_fn = staticmethod(E._multilabel_eer_from_stats)  # thresholds=: torchmetrics' binned EER


@fill_doc
class BinaryLogAUC(_BinaryRank):
    """LogAUC over everything seen: the ROC area on a log-scaled false-positive-rate axis over ``fpr_range``,
    exact on the tie-aware curve; :func:`~torchmetrics_lite.functional.binary_logauc`. ``update(preds, target)``.

    Args:
        fpr_range: ``(lo, hi)`` with ``0 < lo < hi <= 1`` (default ``(0.001, 0.1)``).
        {thresholds_module}
        {ignore_index_rank}
        strict: raise instead of warning when the value is undefined (one class).
        {kwargs_module}

    Raises:
        ValueError, TypeError: a bad ``fpr_range``, bad batches as the function, or a ``weight``.

    References:
        torchmetrics' ``BinaryLogAUC`` (a trapezoid in log space: see the function).

    Examples:
        >>> m = BinaryLogAUC(fpr_range=(0.1, 1.0))
        >>> m.update(torch.tensor([0.9, 0.8]), torch.tensor([1, 0]))
        >>> m.update(torch.tensor([0.7, 0.6]), torch.tensor([1, 0]))
        >>> round(m.compute().item(), 6)
        0.650515
    """

    weighted: ClassVar[bool] = False
    value_fn = staticmethod(G._binary_logauc_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"fpr_range": self.fpr_range, "strict": self.strict}

    def __init__(self, fpr_range: Tuple[float, float] = (0.001, 0.1), *, strict: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fpr_range, self.strict = check_fpr_range(fpr_range), strict


@fill_doc
class MulticlassLogAUC(_MulticlassRead):
    """One-vs-rest LogAUC per class, averaged, over everything seen;
    :func:`~torchmetrics_lite.functional.multiclass_logauc`. ``update(preds (N, C), target (N,))``.

    Args:
        {num_classes_rank}
        fpr_range: ``(lo, hi)`` with ``0 < lo < hi <= 1``.
        average: ``None``/``"none"`` (default: one value per class, as torchmetrics' class; its function
            defaults to ``"macro"``, and so does ours) or ``"macro"``.
        {from_logits_module}
        {thresholds_module}
        {ignore_index_rank_module}
        strict: raise instead of warning when a class is undefined.
        {kwargs_module}

    Raises:
        ValueError, TypeError: bad options or batches as the function, or a ``weight``.

    References:
        torchmetrics' ``MulticlassLogAUC``.

    Examples:
        >>> m = MulticlassLogAUC(num_classes=3, average=None)
        >>> m.update(torch.tensor([[0.75, 0.05, 0.2], [0.05, 0.75, 0.2]]), torch.tensor([0, 1]))
        >>> m.update(torch.tensor([[0.1, 0.1, 0.8], [0.3, 0.5, 0.2]]), torch.tensor([2, 0]))
        >>> m.compute().tolist()
        [1.0, 1.0, 1.0]
    """

    higher_is_better: ClassVar[Optional[bool]] = True
    value_fn = staticmethod(G._multiclass_logauc_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "fpr_range": self.fpr_range, "average": self.average,
                "from_logits": self.from_logits, "strict": self.strict}

    def __init__(self, num_classes: int, fpr_range: Tuple[float, float] = (0.001, 0.1), *,
                 average: Optional[str] = None, from_logits: bool = False, strict: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, from_logits=from_logits, **kwargs)
        self.fpr_range, self.strict = check_fpr_range(fpr_range), strict
        self.average = check_rank_average(average, G.AVERAGES)


@fill_doc
class MultilabelLogAUC(_MultilabelRank):
    """LogAUC per label, averaged, over everything seen; :func:`~torchmetrics_lite.functional.multilabel_logauc`.
    ``update(preds (N, L), target (N, L))``.

    Args:
        {num_labels_rank}
        fpr_range: ``(lo, hi)`` with ``0 < lo < hi <= 1``.
        average: ``None``/``"none"`` (default: one value per label, as torchmetrics' class; its function
            defaults to ``"macro"``, and so does ours) or ``"macro"``.
        {thresholds_module}
        {ignore_index_rank}
        strict: raise instead of warning when a label is undefined.
        {kwargs_module}

    Raises:
        ValueError, TypeError: bad options or batches as the function, or a ``weight``.

    References:
        torchmetrics' ``MultilabelLogAUC``.

    Examples:
        >>> m = MultilabelLogAUC(num_labels=2, average=None)
        >>> m.update(torch.tensor([[0.75, 0.05], [0.45, 0.75]]), torch.tensor([[1, 0], [0, 0]]))
        >>> m.update(torch.tensor([[0.05, 0.55], [0.05, 0.65]]), torch.tensor([[0, 1], [1, 1]]))
        >>> m.compute().tolist()
        [0.5, 0.0]
    """

    higher_is_better: ClassVar[Optional[bool]] = True
    weighted: ClassVar[bool] = False
    value_fn = staticmethod(G._multilabel_logauc_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"fpr_range": self.fpr_range, "average": self.average, "strict": self.strict}

    def __init__(self, num_labels: int, fpr_range: Tuple[float, float] = (0.001, 0.1), *,
                 average: Optional[str] = None, strict: bool = False, **kwargs: Any) -> None:
        super().__init__(num_labels, **kwargs)
        self.fpr_range, self.strict = check_fpr_range(fpr_range), strict
        self.average = check_rank_average(average, G.AVERAGES)
