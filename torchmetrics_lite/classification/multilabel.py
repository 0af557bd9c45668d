"""Multilabel classification modules (conventions in :mod:`torchmetrics_lite.classification`).

``update(preds, target)`` with (N, L, ...) inputs; the state is one int64 2x2 confusion matrix per label,
(L, 2, 2). Formulas and options are documented on the functions of
:mod:`torchmetrics_lite.functional.classification`.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_average, check_beta, check_choice, check_zero_division
from torchmetrics_lite.functional.classification._stat_scores import (
    NORMALIZE,
    Terms,
    _accuracy_terms,
    _fbeta_terms,
    _hamming_terms,
    _precision_terms,
    _recall_terms,
)
from torchmetrics_lite.functional.classification.multilabel import (
    _multilabel_config,
    _multilabel_confusion_matrix_from_stats,
    _multilabel_score_from_stats,
    _multilabel_stat_scores_from_stats,
    _multilabel_stat_scores_stats,
)
from torchmetrics_lite.metric import Metric

__all__ = ["MultilabelStatScores", "MultilabelAccuracy", "MultilabelPrecision", "MultilabelRecall",
           "MultilabelF1Score", "MultilabelFBetaScore", "MultilabelConfusionMatrix", "MultilabelHammingDistance"]


class _MultilabelMetric(Metric):
    """State: per-label 2x2 confusion matrices (L, 2, 2). A score class sets ``_terms`` (its numerator and
    denominator from the counts) and is averaged by ``average`` with the ``zero_division`` rule."""

    _terms: Optional[Terms] = None

    def __init__(self, num_labels: int, threshold: float = 0.5, average: Optional[str] = "macro", *,
                 from_logits: bool = False, ignore_index: Optional[int] = None, zero_division: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._cut = _multilabel_config(num_labels, threshold, from_logits, ignore_index)
        self.num_labels, self.threshold, self.from_logits = num_labels, threshold, from_logits
        self.ignore_index, self.average = ignore_index, check_average(average)
        self.zero_division = check_zero_division(zero_division)
        self.add_state("confmat", torch.zeros(num_labels, 2, 2, dtype=torch.int64), reduce="sum")
        self.stats_key = ("multilabel", num_labels, self._cut, from_logits, ignore_index, self.validate_args)

    def batch_stats(self, preds: Tensor, target: Tensor) -> Dict[str, Tensor]:
        return {"confmat": _multilabel_stat_scores_stats(preds, target, self.num_labels, self._cut, self.from_logits,
                                                         self.ignore_index, self.validate_args)}

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        terms = type(self)._terms
        assert terms is not None, "a multilabel score class sets _terms"
        return _multilabel_score_from_stats(state["confmat"], terms, self.average, self.zero_division)

    def _config(self) -> Dict[str, Any]:
        return {"num_labels": self.num_labels, "threshold": self.threshold, "average": self.average}


class MultilabelStatScores(_MultilabelMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_stat_scores`.

    >>> m = MultilabelStatScores(2, average=None)
    >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6]]), torch.tensor([[1, 0], [0, 0]]))
    >>> m.compute()
    tensor([[1, 1, 0, 0, 1],
            [0, 1, 1, 0, 0]])
    """

    def __init__(self, num_labels: int, threshold: float = 0.5, average: Optional[str] = "macro", *,
                 from_logits: bool = False, ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(num_labels, threshold, average, from_logits=from_logits, ignore_index=ignore_index,
                         **kwargs)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multilabel_stat_scores_from_stats(state["confmat"], self.average)


class MultilabelConfusionMatrix(_MultilabelMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_confusion_matrix`, (L, 2, 2).

    >>> m = MultilabelConfusionMatrix(2)
    >>> m.update(torch.tensor([[1, 0], [1, 1]]), torch.tensor([[1, 0], [0, 0]]))
    >>> m.compute()[1]
    tensor([[1, 1],
            [0, 0]])
    """

    def __init__(self, num_labels: int, threshold: float = 0.5, normalize: Optional[str] = None, *,
                 from_logits: bool = False, ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(num_labels, threshold, from_logits=from_logits, ignore_index=ignore_index, **kwargs)
        check_choice("normalize", normalize, NORMALIZE)
        self.normalize = normalize

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multilabel_confusion_matrix_from_stats(state["confmat"], self.normalize)


class MultilabelAccuracy(_MultilabelMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_accuracy` (per-label accuracy).

    >>> m = MultilabelAccuracy(2, average="micro")
    >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6]]), torch.tensor([[1, 0], [0, 0]]))
    >>> m.compute()
    tensor(0.5000, dtype=torch.float64)
    """

    _terms = staticmethod(_accuracy_terms)


class MultilabelPrecision(_MultilabelMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_precision`.

    >>> m = MultilabelPrecision(2, average=None)
    >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6]]), torch.tensor([[1, 0], [0, 0]]))
    >>> m.compute()
    tensor([0.5000, 0.0000], dtype=torch.float64)
    """

    _terms = staticmethod(_precision_terms)


class MultilabelRecall(_MultilabelMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_recall`.

    >>> m = MultilabelRecall(2, average="micro")
    >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6]]), torch.tensor([[1, 0], [0, 1]]))
    >>> m.compute()
    tensor(1., dtype=torch.float64)
    """

    _terms = staticmethod(_recall_terms)


class MultilabelF1Score(_MultilabelMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_f1_score` (macro: mean of per-label F1).

    >>> m = MultilabelF1Score(2, from_logits=True)
    >>> m.update(torch.tensor([[2.0, -1.0], [0.5, 3.0]]), torch.tensor([[1, 0], [0, 1]]))
    >>> round(m.compute().item(), 4)  # per label: 2/3, 1
    0.8333
    """

    _terms = staticmethod(_fbeta_terms(1.0))


class MultilabelFBetaScore(_MultilabelMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_fbeta_score`.

    >>> m = MultilabelFBetaScore(2.0, 2, average="micro")
    >>> m.update(torch.tensor([[1, 0], [1, 1]]), torch.tensor([[1, 0], [0, 1]]))
    >>> round(m.compute().item(), 4)  # 5 * 2 / (5 * 2 + 4 * 0 + 1)
    0.9091
    """

    def __init__(self, beta: float, num_labels: int, threshold: float = 0.5, average: Optional[str] = "macro",
                 **kwargs: Any) -> None:
        super().__init__(num_labels, threshold, average, **kwargs)
        check_beta(beta)
        self.beta = beta

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return _multilabel_score_from_stats(state["confmat"], _fbeta_terms(self.beta), self.average,
                                            self.zero_division)


class MultilabelHammingDistance(_MultilabelMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_hamming_distance` (``"micro"``: scikit-learn's
    ``hamming_loss``).

    >>> m = MultilabelHammingDistance(2, average="micro")
    >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6]]), torch.tensor([[1, 0], [0, 0]]))
    >>> m.compute()
    tensor(0.5000, dtype=torch.float64)
    """

    _terms = staticmethod(_hamming_terms)
