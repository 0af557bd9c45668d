"""Multilabel AUROC and average precision modules (see :mod:`torchmetrics_lite.auroc`)."""
from __future__ import annotations

from typing import Any, Dict

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_multilabel_rank_inputs,
    check_positive_int,
    check_rank_average,
)
from torchmetrics_lite.functional.auroc import multilabel as F
from torchmetrics_lite.functional.auroc._common import State
from torchmetrics_lite.metric import Metric


class _MultilabelRank(Metric):
    def __init__(self, num_labels: int, average: str, strict: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_labels", num_labels)
        self.num_labels, self.strict = num_labels, strict
        self.average = check_rank_average(average, ("micro", "macro", "weighted", "none"))
        self.add_state("preds", torch.zeros(0, num_labels, dtype=torch.float32), reduce="cat")
        self.add_state("target", torch.zeros(0, num_labels, dtype=torch.uint8), reduce="cat")
        self.stats_key = ("multilabel_rank", num_labels, self.validate_args)

    def batch_stats(self, preds: Tensor, target: Tensor) -> State:
        checked = check_multilabel_rank_inputs(preds, target, self.num_labels, self.validate_args)
        return F._multilabel_rank_stats(*checked)

    def _config(self) -> Dict[str, Any]:
        return {"num_labels": self.num_labels, "average": self.average}



class MultilabelAUROC(_MultilabelRank):
    """Exact AUROC per label, ``average="micro" | "macro" | "weighted" | "none"``; see
    :func:`~torchmetrics_lite.functional.multilabel_auroc`. ``update(preds (N, L), target (N, L))``.

    >>> m = MultilabelAUROC(num_labels=2, average="none")
    >>> m.update(torch.tensor([[0.9, 0.1], [0.2, 0.8]]), torch.tensor([[1, 0], [0, 1]]))
    >>> m.update(torch.tensor([[0.6, 0.4], [0.3, 0.7]]), torch.tensor([[1, 1], [0, 0]]))
    >>> m.compute().tolist()
    [1.0, 0.75]
    """

    def __init__(self, num_labels: int, *, average: str = "macro", strict: bool = False, **kwargs: Any) -> None:
        super().__init__(num_labels, average, strict, **kwargs)

    def compute_from_stats(self, state: State) -> Tensor:
        return F._multilabel_auroc_from_stats(state, self.average, self.strict)



class MultilabelAveragePrecision(_MultilabelRank):
    """Average precision per label, ``average="micro" | "macro" | "weighted" | "none"``; see
    :func:`~torchmetrics_lite.functional.multilabel_average_precision`.

    >>> m = MultilabelAveragePrecision(num_labels=2, average="micro")
    >>> m.update(torch.tensor([[0.9, 0.1], [0.2, 0.8]]), torch.tensor([[1, 0], [0, 1]]))
    >>> m.update(torch.tensor([[0.6, 0.4], [0.3, 0.7]]), torch.tensor([[1, 1], [0, 0]]))
    >>> round(m.compute().item(), 4)
    0.8875
    """

    def __init__(self, num_labels: int, *, average: str = "macro", strict: bool = False, **kwargs: Any) -> None:
        super().__init__(num_labels, average, strict, **kwargs)

    def compute_from_stats(self, state: State) -> Tensor:
        return F._multilabel_average_precision_from_stats(state, self.average, self.strict)

