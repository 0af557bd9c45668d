"""Multilabel AUROC and average precision modules (see :mod:`torchmetrics_lite.auroc`)."""
from __future__ import annotations

from typing import Any, ClassVar, Dict, Optional

import torch  # noqa: F401 (the doctests)

from torchmetrics_lite._checks import check_positive_int, check_rank_average, warn_binary_logits
from torchmetrics_lite.auroc._base import _checked_mode, _mode_states, _multilabel_states, _rank_options
from torchmetrics_lite.functional.auroc import multilabel as F
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.metric import Metric

__all__ = ["MultilabelAUROC", "MultilabelAveragePrecision"]


class _MultilabelAveraged(Metric):
    """``update(preds (N, L), target (N, L), weight=None (N,))``; ``compute`` is the declared ``value_fn``, per label
    and averaged (see :mod:`torchmetrics_lite.auroc._base`)."""

    higher_is_better: ClassVar[Optional[bool]] = True
    stats_fn = staticmethod(F._multilabel_rank_stats)
    check_accepted = warn_binary_logits

    def stats_options(self) -> Dict[str, Any]:
        return {"num_labels": self.num_labels, **_rank_options(self)}

    def value_options(self) -> Dict[str, Any]:
        return {"average": self.average, "strict": self.strict}

    weighted: ClassVar[bool] = True

    def __init__(self, num_labels: int, *, average: str = "macro", from_logits: bool = False, thresholds: Any = None,
                 ignore_index: Optional[int] = None, strict: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.from_logits = bool(from_logits)  # the binned mode's sigmoid (the exact mode ranks scores as given)
        check_positive_int("num_labels", num_labels)
        self.thresholds, self.threshold_values, self.ignore_index = _checked_mode(thresholds, ignore_index)
        self.stats_key = _mode_states(
            self, self.threshold_values, ignore_index, num_labels, ("multilabel", num_labels),
            lambda: _multilabel_states(self, type(self).weighted, num_labels))
        self.num_labels = num_labels
        self.average, self.strict = check_rank_average(average, F.AVERAGES), strict


@fill_doc
class MultilabelAUROC(_MultilabelAveraged):
    """Exact AUROC per label, averaged; :func:`~torchmetrics_lite.functional.multilabel_auroc` over everything
    seen. ``update(preds (N, L), target (N, L), weight=None (N,))``.

    Args:
        {num_labels_rank}
        average: ``"micro"``, ``"macro"``, ``"weighted"`` or ``"none"``.
        from_logits: with ``thresholds``, a sigmoid of the logits first (torchmetrics' numbers); exact mode: changes
            nothing (a sigmoid keeps each label's order).
        strict: raise instead of warning when a label is undefined.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    Raises:
        ValueError, TypeError: bad options or batches as the function, or mixed weighting across updates.

    References:
        Hanley & McNeil (1982).

    Examples:
        >>> m = MultilabelAUROC(num_labels=2, average="none")
        >>> m.update(torch.tensor([[0.9, 0.1], [0.2, 0.8]]), torch.tensor([[1, 0], [0, 1]]))
        >>> m.update(torch.tensor([[0.6, 0.4], [0.3, 0.7]]), torch.tensor([[1, 1], [0, 0]]))
        >>> m.compute().tolist()
        [1.0, 0.75]
    """

    value_fn = staticmethod(F._multilabel_auroc_from_stats)


@fill_doc
class MultilabelAveragePrecision(_MultilabelAveraged):
    """Average precision per label, averaged; :func:`~torchmetrics_lite.functional.multilabel_average_precision`
    over everything seen.

    Args:
        {num_labels_rank}
        average: ``"micro"``, ``"macro"``, ``"weighted"`` or ``"none"``.
        from_logits: with ``thresholds``, a sigmoid of the logits first; exact mode: changes nothing.
        strict: raise instead of warning when a label is undefined.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    Raises:
        ValueError, TypeError: as :class:`MultilabelAUROC`.

    References:
        scikit-learn's ``average_precision_score``.

    Examples:
        >>> m = MultilabelAveragePrecision(num_labels=2, average="micro")
        >>> m.update(torch.tensor([[0.9, 0.1], [0.2, 0.8]]), torch.tensor([[1, 0], [0, 1]]))
        >>> m.update(torch.tensor([[0.6, 0.4], [0.3, 0.7]]), torch.tensor([[1, 1], [0, 0]]))
        >>> round(m.compute().item(), 4)
        0.8875
    """

    value_fn = staticmethod(F._multilabel_average_precision_from_stats)
