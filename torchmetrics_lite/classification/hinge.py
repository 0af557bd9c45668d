"""Hinge loss modules: streaming forms of :mod:`torchmetrics_lite.functional.classification.hinge`. The state is
two floating sums (float64, or float32 on a device without float64): ``measure`` (the summed losses; (C,) one-vs-all)
and ``total`` (the number, or weight, of samples); ``update(preds, target, weight=None)`` takes sample weights
directly (an unweighted sample weighs 1)."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch

from torchmetrics_lite._checks import (
    HINGE_MODES,
    check_choice,
    check_hinge_options,
    check_ignore_index,
    check_num_classes_hinge,
    warn_binary_logits,
    warn_multiclass_logits,
)
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification.hinge import (
    _binary_hinge_loss_stats,
    _hinge_loss_from_stats,
    _multiclass_hinge_loss_stats,
)
from torchmetrics_lite.metric import Metric

__all__ = ["BinaryHingeLoss", "MulticlassHingeLoss"]


def _declare_sums(metric: Metric, shape: tuple) -> None:
    metric.add_state("measure", torch.zeros(shape, dtype=torch.float64), reduce="sum")
    metric.add_state("total", torch.zeros((), dtype=torch.float64), reduce="sum")


@fill_doc
class BinaryHingeLoss(Metric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_hinge_loss`: the mean of ``max(0, 1 - y p)``.

    Args:
        {squared}
        {ignore_index_hinge}
        {from_logits_hinge}
        {margins}
        {kwargs_module}

    Examples:
        >>> m = BinaryHingeLoss()
        >>> m.update(torch.tensor([0.9, 0.2]), torch.tensor([1, 0]))
        >>> m.update(torch.tensor([0.6]), torch.tensor([0]))
        >>> m.compute()
        tensor(0.9667, dtype=torch.float64)
    """

    higher_is_better = False

    def __init__(self, squared: bool = False, ignore_index: Optional[int] = None, *, from_logits: bool = False,
                 margins: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_hinge_options(squared, from_logits, margins)
        check_ignore_index(ignore_index)
        self.squared, self.ignore_index, self.from_logits, self.margins = squared, ignore_index, from_logits, margins
        _declare_sums(self, ())

    stats_fn = staticmethod(_binary_hinge_loss_stats)
    check_accepted = warn_binary_logits

    def stats_options(self) -> Dict[str, Any]:
        return {"squared": self.squared, "from_logits": self.from_logits, "margins": self.margins,
                "ignore_index": self.ignore_index, "validate_args": self.validate_args}

    value_fn = staticmethod(_hinge_loss_from_stats)


@fill_doc
class MulticlassHingeLoss(Metric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_hinge_loss` (Crammer-Singer, or one value per
    class one-vs-all).

    Args:
        num_classes: the number of classes C (at least 2).
        {squared}
        multiclass_mode: ``"crammer-singer"`` (default) or ``"one-vs-all"``.
        {ignore_index_hinge}
        {from_logits_hinge}
        {margins}
        {kwargs_module}

    Examples:
        >>> m = MulticlassHingeLoss(3)
        >>> m.update(torch.tensor([[0.7, 0.2, 0.1], [0.3, 0.3, 0.4]]), torch.tensor([0, 1]))
        >>> m.compute()
        tensor(0.8000, dtype=torch.float64)
    """

    higher_is_better = False

    def __init__(self, num_classes: int, squared: bool = False, multiclass_mode: str = "crammer-singer",
                 ignore_index: Optional[int] = None, *, from_logits: bool = False, margins: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_num_classes_hinge(num_classes)
        check_hinge_options(squared, from_logits, margins)
        check_choice("multiclass_mode", multiclass_mode, HINGE_MODES)
        check_ignore_index(ignore_index)
        self.num_classes, self.squared, self.multiclass_mode = num_classes, squared, multiclass_mode
        self.ignore_index, self.from_logits, self.margins = ignore_index, from_logits, margins
        _declare_sums(self, (num_classes,) if multiclass_mode == "one-vs-all" else ())

    stats_fn = staticmethod(_multiclass_hinge_loss_stats)
    check_accepted = warn_multiclass_logits

    def stats_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "squared": self.squared, "multiclass_mode": self.multiclass_mode,
                "from_logits": self.from_logits, "margins": self.margins, "ignore_index": self.ignore_index,
                "validate_args": self.validate_args}

    value_fn = staticmethod(_hinge_loss_from_stats)
