"""Stateful classification metrics: thin modules over :mod:`torchmetrics_lite.functional.classification`.

Each module keeps int64 count states on the inputs' device (binary: a 2x2 confusion matrix; multiclass: the
(C, C) confusion matrix, or a (3, C) count table for ``top_k > 1``; multilabel: (L, 2, 2) matrices), adds one
batch's counts per ``update`` (one counting pass, no host sync with ``validate_args=False``), and computes the
value with the same function as the functional form. Options, formulas and edge rules are documented on the
functions. Modules with the same input options (task, classes, ``top_k``/``threshold``, ``ignore_index``)
share a ``stats_key``: in a :class:`~torchmetrics_lite.MetricCollection`, precision, recall and F1 over the
same inputs count each batch once.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_average, check_beta, check_choice, check_zero_division
from torchmetrics_lite._classification_multilabel import (  # noqa: F401  (re-exported)
    MultilabelAccuracy, MultilabelConfusionMatrix, MultilabelF1Score, MultilabelFBetaScore, MultilabelHammingDistance,
    MultilabelPrecision, MultilabelRecall, MultilabelStatScores)
from torchmetrics_lite.functional._multiclass import (
    _multiclass_accuracy_from_stats, _multiclass_config, _multiclass_confusion_matrix_from_stats,
    _multiclass_fbeta_score_from_stats,
    _multiclass_precision_from_stats, _multiclass_recall_from_stats, _multiclass_stat_scores_from_stats,
    _multiclass_stat_scores_stats)
from torchmetrics_lite.functional.classification import (
    NORMALIZE, _binary_accuracy_from_stats, _binary_config, _binary_confusion_matrix_from_stats,
    _binary_fbeta_score_from_stats, _binary_precision_from_stats, _binary_recall_from_stats,
    _binary_stat_scores_from_stats, _binary_stat_scores_stats)
from torchmetrics_lite.metric import Metric

__all__ = [
    "BinaryStatScores", "BinaryAccuracy", "BinaryPrecision", "BinaryRecall", "BinaryF1Score", "BinaryFBetaScore",
    "BinaryConfusionMatrix",
    "MulticlassStatScores", "MulticlassAccuracy", "MulticlassPrecision", "MulticlassRecall", "MulticlassF1Score",
    "MulticlassFBetaScore", "MulticlassConfusionMatrix",
    "MultilabelStatScores", "MultilabelAccuracy", "MultilabelPrecision", "MultilabelRecall", "MultilabelF1Score",
    "MultilabelFBetaScore", "MultilabelConfusionMatrix", "MultilabelHammingDistance",
]


# ------------------------------------------------------------------------------------------------ binary
class _BinaryMetric(Metric):
    """``update(preds, target)`` with binary inputs of any equal shapes; state: the 2x2 confusion matrix."""

    def __init__(self, threshold: float = 0.5, *, from_logits: bool = False, ignore_index: Optional[int] = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._cut = _binary_config(threshold, from_logits, ignore_index)
        self.threshold, self.from_logits, self.ignore_index = threshold, from_logits, ignore_index
        self.add_state("confmat", torch.zeros(2, 2, dtype=torch.int64), reduce="sum")
        self.stats_key = ("binary", self._cut, from_logits, ignore_index, self.validate_args)

    def _stats(self, preds: Tensor, target: Tensor) -> Dict[str, Tensor]:
        return {"confmat": _binary_stat_scores_stats(preds, target, self._cut, self.from_logits, self.ignore_index,
                                                     self.validate_args)}

    def _config(self) -> Dict[str, Any]:
        return {"threshold": self.threshold, "from_logits": self.from_logits, "ignore_index": self.ignore_index}


class BinaryStatScores(_BinaryMetric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_stat_scores`: ``[tp, fp, tn, fn, support]``.

    >>> m = BinaryStatScores()
    >>> m.update(torch.tensor([0.9, 0.2]), torch.tensor([1, 1])); m.update(torch.tensor([0.7]), torch.tensor([0]))
    >>> m.compute()
    tensor([1, 1, 0, 1, 2])
    """

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _binary_stat_scores_from_stats(state["confmat"])


class BinaryAccuracy(_BinaryMetric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_accuracy`: ``(tp + tn) / n``.

    >>> m = BinaryAccuracy()
    >>> m.update(torch.tensor([1, 1, 1, 0, 1]), torch.tensor([1, 1, 1, 1, 0]))
    >>> m.update(torch.tensor([1, 0, 0, 0, 0]), torch.tensor([0, 0, 0, 0, 0]))
    >>> m.compute()
    tensor(0.7000, dtype=torch.float64)
    """

    def __init__(self, threshold: float = 0.5, *, zero_division: float = 0.0, **kwargs: Any) -> None:
        super().__init__(threshold, **kwargs)
        self.zero_division = check_zero_division(zero_division)

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _binary_accuracy_from_stats(state["confmat"], self.zero_division)


class BinaryPrecision(_BinaryMetric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_precision`: ``tp / (tp + fp)``.

    >>> m = BinaryPrecision()
    >>> m.update(torch.tensor([1, 1, 1, 0, 1]), torch.tensor([1, 1, 1, 1, 0]))
    >>> m.update(torch.tensor([1, 0, 0, 0, 0]), torch.tensor([0, 0, 0, 0, 0]))
    >>> m.compute()
    tensor(0.6000, dtype=torch.float64)
    """

    def __init__(self, threshold: float = 0.5, *, zero_division: float = 0.0, **kwargs: Any) -> None:
        super().__init__(threshold, **kwargs)
        self.zero_division = check_zero_division(zero_division)

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _binary_precision_from_stats(state["confmat"], self.zero_division)


class BinaryRecall(_BinaryMetric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_recall`: ``tp / (tp + fn)``.

    >>> m = BinaryRecall()
    >>> m.update(torch.tensor([1, 1, 1, 0, 1]), torch.tensor([1, 1, 1, 1, 0]))
    >>> m.compute()
    tensor(0.7500, dtype=torch.float64)
    """

    def __init__(self, threshold: float = 0.5, *, zero_division: float = 0.0, **kwargs: Any) -> None:
        super().__init__(threshold, **kwargs)
        self.zero_division = check_zero_division(zero_division)

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _binary_recall_from_stats(state["confmat"], self.zero_division)


class BinaryFBetaScore(_BinaryMetric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_fbeta_score`.

    >>> m = BinaryFBetaScore(beta=2.0)
    >>> m.update(torch.tensor([1, 1, 1, 0, 1, 1]), torch.tensor([1, 1, 1, 1, 0, 0]))
    >>> round(m.compute().item(), 4)
    0.7143
    """

    def __init__(self, beta: float, threshold: float = 0.5, *, zero_division: float = 0.0, **kwargs: Any) -> None:
        super().__init__(threshold, **kwargs)
        check_beta(beta)
        self.beta, self.zero_division = beta, check_zero_division(zero_division)

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _binary_fbeta_score_from_stats(state["confmat"], self.beta, self.zero_division)


class BinaryF1Score(_BinaryMetric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_f1_score`: ``2 tp / (2 tp + fn + fp)``.

    >>> m = BinaryF1Score(from_logits=True)
    >>> m.update(torch.tensor([2.0, 1.5, 0.3, -1.0, 4.0, 0.1]), torch.tensor([1, 1, 1, 1, 0, 0]))
    >>> m.compute().item() == 2 / 3
    True
    """

    def __init__(self, threshold: float = 0.5, *, zero_division: float = 0.0, **kwargs: Any) -> None:
        super().__init__(threshold, **kwargs)
        self.zero_division = check_zero_division(zero_division)

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _binary_fbeta_score_from_stats(state["confmat"], 1.0, self.zero_division)


class BinaryConfusionMatrix(_BinaryMetric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_confusion_matrix`: ``[[tn, fp], [fn, tp]]``.

    >>> m = BinaryConfusionMatrix(normalize="true")
    >>> m.update(torch.tensor([0.9, 0.2, 0.6, 0.4]), torch.tensor([1, 0, 0, 1]))
    >>> m.compute()
    tensor([[0.5000, 0.5000],
            [0.5000, 0.5000]], dtype=torch.float64)
    """

    def __init__(self, threshold: float = 0.5, *, normalize: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(threshold, **kwargs)
        check_choice("normalize", normalize, NORMALIZE)
        self.normalize = normalize

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _binary_confusion_matrix_from_stats(state["confmat"], self.normalize)


# -------------------------------------------------------------------------------------------- multiclass
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

    def _stats(self, preds: Tensor, target: Tensor) -> Dict[str, Tensor]:
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

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def _from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multiclass_confusion_matrix_from_stats(state["confmat"], self.normalize)
