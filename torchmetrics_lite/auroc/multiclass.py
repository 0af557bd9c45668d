"""Multiclass (one-vs-rest) AUROC and average precision modules (see :mod:`torchmetrics_lite.auroc`)."""
from __future__ import annotations

from typing import Any, ClassVar, Dict, Optional

import torch  # noqa: F401 (the doctests)

from torchmetrics_lite._checks import check_positive_int, check_rank_average, warn_multiclass_logits
from torchmetrics_lite.auroc._base import _checked_mode, _mode_states, _multiclass_states, _rank_options
from torchmetrics_lite.functional.auroc import multiclass as F
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.functional.auroc.multiclass import _multiclass_rank_stats
from torchmetrics_lite.functional.auroc.ovo import check_multi_class, check_ovo_options
from torchmetrics_lite.metric import Metric

__all__ = ["MulticlassAUROC", "MulticlassAveragePrecision"]


class _MulticlassAveraged(Metric):
    """``update(preds (N, C), target (N,), weight=None (N,))``; ``compute`` is the declared ``value_fn``, per class
    and averaged (see :mod:`torchmetrics_lite.auroc._base`)."""

    higher_is_better: ClassVar[Optional[bool]] = True
    stats_fn = staticmethod(_multiclass_rank_stats)
    check_accepted = warn_multiclass_logits

    def stats_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "from_logits": self.from_logits, **_rank_options(self)}

    def value_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "average": self.average, "from_logits": self.from_logits,
                "strict": self.strict}

    weighted: ClassVar[bool] = True

    def __init__(self, num_classes: int, *, average: str = "macro", from_logits: bool = False, thresholds: Any = None,
                 ignore_index: Optional[int] = None, strict: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_classes", num_classes)
        self.thresholds, self.threshold_values, self.ignore_index = _checked_mode(thresholds, ignore_index)
        self.stats_key = _mode_states(
            self, self.threshold_values, ignore_index, num_classes, ("multiclass", num_classes, bool(from_logits)),
            lambda: _multiclass_states(self, type(self).weighted, num_classes, bool(from_logits)))
        self.num_classes, self.from_logits = num_classes, bool(from_logits)
        self.average, self.strict = check_rank_average(average), strict


@fill_doc
class MulticlassAUROC(_MulticlassAveraged):
    """One-vs-rest exact AUROC per class, averaged; :func:`~torchmetrics_lite.functional.multiclass_auroc` over
    everything seen.

    ``update(preds (N, C), target (N,), weight=None (N,))``: probabilities, or logits with ``from_logits=True``
    (stored as given; the float64 softmax runs at compute); scores outside ``[0, 1]`` without it raise.

    Args:
        {num_classes_rank}
        average: ``"macro"``, ``"weighted"`` (by positive weight) or ``"none"``.
        from_logits: ``preds`` are logits (a float64 softmax is applied).
        strict: raise instead of warning when a class is undefined.
        {thresholds_module}
        {ignore_index_rank_module}
        multi_class: ``"ovr"`` (default) or ``"ovo"``: scikit-learn's one-vs-one (Hand & Till) mean over class
            pairs, computed at compute time from the kept samples (the rule, the averages and the refused options
            as :func:`~torchmetrics_lite.functional.multiclass_auroc`; a weighted update raises at compute).
        {kwargs_module}

    Raises:
        ValueError, TypeError: bad options or batches as the function, or mixed weighting across updates.

    References:
        Hanley & McNeil (1982); Hand & Till (2001); scikit-learn's ``roc_auc_score(multi_class=...)``.

    Examples:
        >>> m = MulticlassAUROC(num_classes=3, average="none")
        >>> m.update(torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6]]), torch.tensor([0, 1, 2]))
        >>> m.update(torch.tensor([[0.4, 0.4, 0.2], [0.3, 0.35, 0.35]]), torch.tensor([1, 0]))
        >>> [round(v, 4) for v in m.compute().tolist()]
        [0.8333, 1.0, 1.0]
        >>> m = MulticlassAUROC(num_classes=3, multi_class="ovo")
        >>> m.update(torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6]]), torch.tensor([0, 1, 2]))
        >>> m.update(torch.tensor([[0.4, 0.4, 0.2], [0.3, 0.35, 0.35]]), torch.tensor([1, 0]))
        >>> round(m.compute().item(), 4)
        0.9583
    """

    value_fn = staticmethod(F._multiclass_auroc_from_stats)

    def __init__(self, num_classes: int, *, average: str = "macro", from_logits: bool = False, thresholds: Any = None,
                 ignore_index: Optional[int] = None, strict: bool = False, multi_class: str = "ovr",
                 **kwargs: Any) -> None:
        super().__init__(num_classes, average=average, from_logits=from_logits, thresholds=thresholds,
                         ignore_index=ignore_index, strict=strict, **kwargs)
        self.multi_class = check_multi_class(multi_class, self.average)
        if self.multi_class == "ovo":
            check_ovo_options(None, self.threshold_values)

    def value_options(self) -> Dict[str, Any]:
        return {**super().value_options(), "multi_class": self.multi_class}


@fill_doc
class MulticlassAveragePrecision(_MulticlassAveraged):
    """One-vs-rest average precision per class, averaged;
    :func:`~torchmetrics_lite.functional.multiclass_average_precision` over everything seen.

    ``update`` and the arguments as :class:`MulticlassAUROC`.

    Args:
        {num_classes_rank}
        average: ``"macro"``, ``"weighted"`` or ``"none"``.
        from_logits: ``preds`` are logits (a float64 softmax is applied).
        strict: raise instead of warning when a class is undefined.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    Raises:
        ValueError, TypeError: as :class:`MulticlassAUROC`.

    References:
        scikit-learn's ``average_precision_score``.

    Examples:
        >>> m = MulticlassAveragePrecision(num_classes=3, average="none")
        >>> m.update(torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6]]), torch.tensor([0, 1, 2]))
        >>> m.update(torch.tensor([[0.4, 0.4, 0.2], [0.3, 0.35, 0.35]]), torch.tensor([1, 0]))
        >>> [round(v, 4) for v in m.compute().tolist()]
        [0.8333, 1.0, 1.0]
    """

    value_fn = staticmethod(F._multiclass_average_precision_from_stats)
