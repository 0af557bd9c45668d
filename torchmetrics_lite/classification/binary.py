"""Binary classification modules: thin streaming forms of :mod:`torchmetrics_lite.functional.classification.binary`
(conventions in :mod:`torchmetrics_lite.classification`)."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_beta, check_choice, check_zero_division
from torchmetrics_lite.functional.classification._stat_scores import NORMALIZE
from torchmetrics_lite.functional.classification.binary import (
    _binary_accuracy_from_stats,
    _binary_config,
    _binary_confusion_matrix_from_stats,
    _binary_fbeta_score_from_stats,
    _binary_precision_from_stats,
    _binary_recall_from_stats,
    _binary_stat_scores_from_stats,
    _binary_stat_scores_stats,
)
from torchmetrics_lite.metric import Metric

__all__ = ["BinaryStatScores", "BinaryAccuracy", "BinaryPrecision", "BinaryRecall", "BinaryFBetaScore", "BinaryF1Score",
           "BinaryConfusionMatrix"]


class _BinaryMetric(Metric):
    """``update(preds, target)`` with binary inputs of any equal shapes; state: the 2x2 confusion matrix."""

    def __init__(self, threshold: float = 0.5, *, from_logits: bool = False, ignore_index: Optional[int] = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._cut = _binary_config(threshold, from_logits, ignore_index)
        self.threshold, self.from_logits, self.ignore_index = threshold, from_logits, ignore_index
        self.add_state("confmat", torch.zeros(2, 2, dtype=torch.int64), reduce="sum")
        self.stats_key = ("binary", self._cut, from_logits, ignore_index, self.validate_args)

    def batch_stats(self, preds: Tensor, target: Tensor) -> Dict[str, Tensor]:
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

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
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

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _binary_confusion_matrix_from_stats(state["confmat"], self.normalize)

