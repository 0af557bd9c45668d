"""Multilabel classification modules (conventions in :mod:`torchmetrics_lite.classification`).

``update(preds, target, weight=None)`` with (N, L, ...) inputs; the state is one 2x2 confusion matrix per
label, (L, 2, 2), from ``_base``; each class names its formula. Formulas and options are documented on the functions of
:mod:`torchmetrics_lite.functional.classification`.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch

from torchmetrics_lite._checks import SAMPLE_AVERAGES, check_average, check_beta, check_choice
from torchmetrics_lite.classification._base import _MultilabelMetric, _MultilabelScore
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import (
    NORMALIZE,
    _accuracy_terms,
    _fbeta_terms,
    _hamming_terms,
    _precision_terms,
    _recall_terms,
)
from torchmetrics_lite.functional.classification.multilabel import (
    _multilabel_confusion_matrix_from_stats,
    _multilabel_stat_scores_from_stats,
)

_ = torch  # doctests use torch

__all__ = ["MultilabelStatScores", "MultilabelAccuracy", "MultilabelPrecision", "MultilabelRecall",
           "MultilabelF1Score", "MultilabelFBetaScore", "MultilabelConfusionMatrix", "MultilabelHammingDistance"]


@fill_doc
class MultilabelStatScores(_MultilabelMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_stat_scores`.

    Args:
        {num_labels}
        {threshold}
        {from_logits}
        {ignore_index}
        {average_multilabel}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MultilabelStatScores(2, average=None)
        >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6]]), torch.tensor([[1, 0], [0, 0]]))
        >>> m.compute()
        tensor([[1, 1, 0, 0, 1],
                [0, 1, 1, 0, 0]])
    """

    def __init__(self, num_labels: int, threshold: float = 0.5, average: Optional[str] = "macro", *,
                 multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(num_labels, threshold, multidim_average=multidim_average, **kwargs)
        self.average = check_average(average)

    value_fn = staticmethod(_multilabel_stat_scores_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"average": self.average}



@fill_doc
class MultilabelConfusionMatrix(_MultilabelMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_confusion_matrix`, (L, 2, 2).

    Args:
        {num_labels}
        {threshold}
        {from_logits}
        {ignore_index}
        {normalize}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MultilabelConfusionMatrix(2)
        >>> m.update(torch.tensor([[1, 0], [1, 1]]), torch.tensor([[1, 0], [0, 0]]))
        >>> m.compute()[1]
        tensor([[1, 1],
                [0, 0]])
    """

    def __init__(self, num_labels: int, threshold: float = 0.5, normalize: Optional[str] = None,
                 **kwargs: Any) -> None:
        super().__init__(num_labels, threshold, **kwargs)
        check_choice("normalize", normalize, NORMALIZE)
        self.normalize = normalize

    value_fn = staticmethod(_multilabel_confusion_matrix_from_stats)
    not_offered = ("multidim_average",)  # torchmetrics has no such argument here

    def value_options(self) -> Dict[str, Any]:
        return {"normalize": self.normalize}



@fill_doc
class MultilabelAccuracy(_MultilabelScore):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_accuracy` (per-label accuracy).

    Args:
        {num_labels}
        {threshold}
        {average_multilabel}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MultilabelAccuracy(2, average="micro")
        >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6]]), torch.tensor([[1, 0], [0, 0]]))
        >>> m.compute()
        tensor(0.5000, dtype=torch.float64)
    """

    terms = staticmethod(_accuracy_terms)


@fill_doc
class MultilabelPrecision(_MultilabelScore):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_precision`.

    Args:
        {num_labels}
        {threshold}
        {average_multilabel_samples}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MultilabelPrecision(2, average=None)
        >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6]]), torch.tensor([[1, 0], [0, 0]]))
        >>> m.compute()
        tensor([0.5000, 0.0000], dtype=torch.float64)
    """

    averages = SAMPLE_AVERAGES
    terms = staticmethod(_precision_terms)


@fill_doc
class MultilabelRecall(_MultilabelScore):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_recall`.

    Args:
        {num_labels}
        {threshold}
        {average_multilabel_samples}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MultilabelRecall(2, average="micro")
        >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6]]), torch.tensor([[1, 0], [0, 1]]))
        >>> m.compute()
        tensor(1., dtype=torch.float64)
    """

    averages = SAMPLE_AVERAGES
    terms = staticmethod(_recall_terms)


@fill_doc
class MultilabelF1Score(_MultilabelScore):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_f1_score` (macro: mean of per-label F1).

    Args:
        {num_labels}
        {threshold}
        {average_multilabel_samples}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MultilabelF1Score(2, from_logits=True)
        >>> m.update(torch.tensor([[2.0, -1.0], [0.5, 3.0]]), torch.tensor([[1, 0], [0, 1]]))
        >>> round(m.compute().item(), 4)  # per label: 2/3, 1
        0.8333
    """

    averages = SAMPLE_AVERAGES
    terms = staticmethod(_fbeta_terms(1.0))


@fill_doc
class MultilabelFBetaScore(_MultilabelScore):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_fbeta_score`.

    Args:
        beta: the weight of recall, a number > 0.
        {num_labels}
        {threshold}
        {average_multilabel_samples}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MultilabelFBetaScore(2.0, 2, average="micro")
        >>> m.update(torch.tensor([[1, 0], [1, 1]]), torch.tensor([[1, 0], [0, 1]]))
        >>> round(m.compute().item(), 4)  # 5 * 2 / (5 * 2 + 4 * 0 + 1)
        0.9091
    """

    averages = SAMPLE_AVERAGES

    def __init__(self, beta: float, num_labels: int, threshold: float = 0.5, average: Optional[str] = "macro",
                 **kwargs: Any) -> None:
        super().__init__(num_labels, threshold, average, **kwargs)
        check_beta(beta)
        self.beta = beta
        self.terms = _fbeta_terms(beta)


@fill_doc
class MultilabelHammingDistance(_MultilabelScore):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_hamming_distance` (``"micro"``: scikit-learn's
    ``hamming_loss``).

    Args:
        {num_labels}
        {threshold}
        {average_multilabel}
        {from_logits}
        {ignore_index}
        zero_division: the distance of a label with no counted element (default 1.0, torchmetrics' value).
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MultilabelHammingDistance(2, average="micro")
        >>> m.update(torch.tensor([[0.9, 0.2], [0.7, 0.6]]), torch.tensor([[1, 0], [0, 0]]))
        >>> m.compute()
        tensor(0.5000, dtype=torch.float64)
    """

    higher_is_better = False
    terms = staticmethod(_hamming_terms)

    def __init__(self, num_labels: int, threshold: float = 0.5, average: Optional[str] = "macro", *,
                 zero_division: float = 1.0, from_logits: bool = False, ignore_index: Optional[int] = None,
                 weighted: bool = False, **kwargs: Any) -> None:
        super().__init__(num_labels, threshold, average, zero_division=zero_division, from_logits=from_logits,
                         ignore_index=ignore_index, weighted=weighted, **kwargs)
