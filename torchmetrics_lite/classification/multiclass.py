"""Multiclass classification modules: thin streaming forms of
:mod:`torchmetrics_lite.functional.classification.multiclass` (conventions in
:mod:`torchmetrics_lite.classification`)."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_average, check_beta, check_choice, check_zero_division
from torchmetrics_lite.functional.classification._stat_scores import NORMALIZE
from torchmetrics_lite.functional.classification.multiclass import (
    _multiclass_accuracy_from_stats,
    _multiclass_config,
    _multiclass_confusion_matrix_from_stats,
    _multiclass_fbeta_score_from_stats,
    _multiclass_precision_from_stats,
    _multiclass_recall_from_stats,
    _multiclass_stat_scores_from_stats,
    _multiclass_stat_scores_stats,
)
from torchmetrics_lite.metric import Metric

__all__ = ["MulticlassStatScores", "MulticlassAccuracy", "MulticlassPrecision", "MulticlassRecall",
           "MulticlassFBetaScore", "MulticlassF1Score", "MulticlassConfusionMatrix"]


class _MulticlassMetric(Metric):
    """``update(preds, target)``: labels (N, ...) or scores (N, C, ...) and labels (N, ...); state: the (C, C)
    confusion matrix (``top_k=1``) or the (3, C) table of predicted / support / hit counts (``top_k > 1``)."""

    def __init__(self, num_classes: int, *, top_k: int = 1, ignore_index: Optional[int] = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _multiclass_config(num_classes, top_k, ignore_index)
        self.num_classes, self.top_k, self.ignore_index = num_classes, top_k, ignore_index
        self._state_name = "confmat" if top_k == 1 else "topk_table"
        shape = (num_classes, num_classes) if top_k == 1 else (3, num_classes)
        self.add_state(self._state_name, torch.zeros(shape, dtype=torch.int64), reduce="sum")
        self.stats_key = ("multiclass", num_classes, top_k, ignore_index, self.validate_args)

    def batch_stats(self, preds: Tensor, target: Tensor) -> Dict[str, Tensor]:
        return {self._state_name: _multiclass_stat_scores_stats(preds, target, self.num_classes, self.top_k,
                                                                self.ignore_index, self.validate_args)}

    def _config(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "top_k": self.top_k, "ignore_index": self.ignore_index}



class MulticlassStatScores(_MulticlassMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_stat_scores`.

    >>> m = MulticlassStatScores(3, average="micro")
    >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
    >>> m.compute()
    tensor([2, 2, 6, 2, 4])
    """

    def __init__(self, num_classes: int, average: Optional[str] = "macro", **kwargs: Any) -> None:
        super().__init__(num_classes, **kwargs)
        self.average = check_average(average)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiclass_stat_scores_from_stats(state[self._state_name], self.top_k, self.average)



class MulticlassAccuracy(_MulticlassMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_accuracy` (``"micro"``: top-k accuracy;
    ``"macro"``: mean per-class recall).

    >>> m = MulticlassAccuracy(3, average="micro", top_k=2)
    >>> m.update(torch.tensor([[0.5, 0.3, 0.2], [0.1, 0.2, 0.7]]), torch.tensor([1, 0]))
    >>> m.compute()
    tensor(0.5000, dtype=torch.float64)
    """

    def __init__(self, num_classes: int, average: Optional[str] = "macro", *, zero_division: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, **kwargs)
        self.average, self.zero_division = check_average(average), check_zero_division(zero_division)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiclass_accuracy_from_stats(state[self._state_name], self.top_k, self.average, self.zero_division)



class MulticlassPrecision(_MulticlassMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_precision`.

    >>> m = MulticlassPrecision(3)
    >>> m.update(torch.tensor([0, 0, 0, 0, 1, 2]), torch.tensor([0, 0, 0, 0, 0, 0]))
    >>> m.update(torch.tensor([0, 1, 1, 1, 2, 2]), torch.tensor([1, 1, 1, 2, 2, 2]))
    >>> round(m.compute().item(), 4)
    0.6556
    """

    def __init__(self, num_classes: int, average: Optional[str] = "macro", *, zero_division: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, **kwargs)
        self.average, self.zero_division = check_average(average), check_zero_division(zero_division)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiclass_precision_from_stats(state[self._state_name], self.top_k, self.average,
                                                self.zero_division)



class MulticlassRecall(_MulticlassMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_recall`.

    >>> m = MulticlassRecall(3, average="weighted")
    >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
    >>> m.compute()
    tensor(0.5000, dtype=torch.float64)
    """

    def __init__(self, num_classes: int, average: Optional[str] = "macro", *, zero_division: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, **kwargs)
        self.average, self.zero_division = check_average(average), check_zero_division(zero_division)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiclass_recall_from_stats(state[self._state_name], self.top_k, self.average, self.zero_division)



class MulticlassFBetaScore(_MulticlassMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_fbeta_score`.

    >>> m = MulticlassFBetaScore(0.5, 3, average=None)
    >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
    >>> m.compute()
    tensor([1.0000, 0.5000, 0.0000], dtype=torch.float64)
    """

    def __init__(self, beta: float, num_classes: int, average: Optional[str] = "macro", *,
                 zero_division: float = 0.0, **kwargs: Any) -> None:
        super().__init__(num_classes, **kwargs)
        check_beta(beta)
        self.beta, self.average = beta, check_average(average)
        self.zero_division = check_zero_division(zero_division)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiclass_fbeta_score_from_stats(state[self._state_name], self.beta, self.top_k, self.average,
                                                  self.zero_division)



class MulticlassF1Score(_MulticlassMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_f1_score` (macro: mean of per-class F1).

    >>> m = MulticlassF1Score(3)
    >>> m.update(torch.tensor([[2.0, 0.1, 0.3], [0.0, -1.0, 3.0], [0.2, 0.9, 0.1]]), torch.tensor([0, 1, 1]))
    >>> round(m.compute().item(), 4)  # per class: 1, 2/3, 0
    0.5556
    """

    def __init__(self, num_classes: int, average: Optional[str] = "macro", *, zero_division: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, **kwargs)
        self.average, self.zero_division = check_average(average), check_zero_division(zero_division)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiclass_fbeta_score_from_stats(state[self._state_name], 1.0, self.top_k, self.average,
                                                  self.zero_division)



class MulticlassConfusionMatrix(_MulticlassMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_confusion_matrix` (rows: target).

    >>> m = MulticlassConfusionMatrix(3)
    >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
    >>> m.compute()
    tensor([[1, 0, 0],
            [0, 1, 1],
            [0, 1, 0]])
    """

    def __init__(self, num_classes: int, normalize: Optional[str] = None, *, ignore_index: Optional[int] = None,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, top_k=1, ignore_index=ignore_index, **kwargs)
        check_choice("normalize", normalize, NORMALIZE)
        self.normalize = normalize

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiclass_confusion_matrix_from_stats(state["confmat"], self.normalize)

