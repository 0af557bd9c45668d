"""Multiclass (one-vs-rest) AUROC and average precision modules (see :mod:`torchmetrics_lite.auroc`)."""
from __future__ import annotations

from typing import Any, Dict

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_multiclass_rank_inputs,
    check_positive_int,
    check_rank_average,
)
from torchmetrics_lite.functional.auroc import multiclass as F
from torchmetrics_lite.functional.auroc._common import State, _class_dtype
from torchmetrics_lite.metric import Metric


class _MulticlassRank(Metric):
    def __init__(self, num_classes: int, average: str, strict: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_classes", num_classes)
        self.num_classes, self.average, self.strict = num_classes, check_rank_average(average), strict
        self.add_state("preds", torch.zeros(0, num_classes, dtype=torch.float32), reduce="cat")
        self.add_state("target", torch.zeros(0, dtype=_class_dtype(num_classes)), reduce="cat")
        self.stats_key = ("multiclass_rank", num_classes, self.validate_args)

    def batch_stats(self, preds: Tensor, target: Tensor) -> State:
        checked = check_multiclass_rank_inputs(preds, target, self.num_classes, self.validate_args)
        return F._multiclass_rank_stats(*checked, self.num_classes)

    def _config(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "average": self.average}



class MulticlassAUROC(_MulticlassRank):
    """One-vs-rest exact AUROC per class, ``average="macro" | "weighted" | "none"``; see
    :func:`~torchmetrics_lite.functional.multiclass_auroc`. ``update(preds (N, C), target (N,))``.

    >>> m = MulticlassAUROC(num_classes=3, average="none")
    >>> m.update(torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6]]), torch.tensor([0, 1, 2]))
    >>> m.update(torch.tensor([[0.4, 0.4, 0.2], [0.3, 0.35, 0.35]]), torch.tensor([1, 0]))
    >>> [round(v, 4) for v in m.compute().tolist()]
    [0.8333, 1.0, 1.0]
    """

    def __init__(self, num_classes: int, *, average: str = "macro", strict: bool = False, **kwargs: Any) -> None:
        super().__init__(num_classes, average, strict, **kwargs)

    def compute_from_stats(self, state: State) -> Tensor:
        return F._multiclass_auroc_from_stats(state, self.num_classes, self.average, self.strict)



class MulticlassAveragePrecision(_MulticlassRank):
    """One-vs-rest average precision per class, ``average="macro" | "weighted" | "none"``; see
    :func:`~torchmetrics_lite.functional.multiclass_average_precision`.

    >>> m = MulticlassAveragePrecision(num_classes=3, average="none")
    >>> m.update(torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6]]), torch.tensor([0, 1, 2]))
    >>> m.update(torch.tensor([[0.4, 0.4, 0.2], [0.3, 0.35, 0.35]]), torch.tensor([1, 0]))
    >>> [round(v, 4) for v in m.compute().tolist()]
    [0.8333, 1.0, 1.0]
    """

    def __init__(self, num_classes: int, *, average: str = "macro", strict: bool = False, **kwargs: Any) -> None:
        super().__init__(num_classes, average, strict, **kwargs)

    def compute_from_stats(self, state: State) -> Tensor:
        return F._multiclass_average_precision_from_stats(state, self.num_classes, self.average, self.strict)

