"""Binary classification modules: streaming forms of :mod:`torchmetrics_lite.functional.classification.binary`
(conventions in :mod:`torchmetrics_lite.classification`). Each class names its formula; the state (the 2x2
confusion matrix) and ``update`` come from ``_base``."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch

from torchmetrics_lite._checks import check_beta, check_binary_top_k, check_bool, check_choice
from torchmetrics_lite.classification._base import _BinaryMetric, _BinaryScore
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import (
    NORMALIZE,
    _accuracy_terms,
    _fbeta_terms,
    _precision_terms,
    _recall_terms,
)
from torchmetrics_lite.functional.classification.binary import (
    _binary_accuracy_from_stats,
    _binary_confusion_matrix_from_stats,
    _binary_stat_scores_from_stats,
)

__all__ = ["BinaryStatScores", "BinaryAccuracy", "BinaryPrecision", "BinaryRecall", "BinaryFBetaScore", "BinaryF1Score",
           "BinaryConfusionMatrix"]

_ = torch  # doctests use torch


@fill_doc
class BinaryStatScores(_BinaryMetric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_stat_scores`: ``[tp, fp, tn, fn, support]``.

    Args:
        {threshold}
        {from_logits}
        {ignore_index}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryStatScores()
        >>> m.update(torch.tensor([0.9, 0.2]), torch.tensor([1, 1])); m.update(torch.tensor([0.7]), torch.tensor([0]))
        >>> m.compute()
        tensor([1, 1, 0, 1, 2])
    """

    value_fn = staticmethod(_binary_stat_scores_from_stats)

    def __init__(self, threshold: float = 0.5, *, multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(threshold, multidim_average=multidim_average, **kwargs)


@fill_doc
class BinaryAccuracy(_BinaryScore):
    """Streaming :func:`~torchmetrics_lite.functional.binary_accuracy`: ``(tp + tn) / n``.

    Args:
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {normalize_accuracy}
        {top_k_binary}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryAccuracy()
        >>> m.update(torch.tensor([1, 1, 1, 0, 1]), torch.tensor([1, 1, 1, 1, 0]))
        >>> m.update(torch.tensor([1, 0, 0, 0, 0]), torch.tensor([0, 0, 0, 0, 0]))
        >>> m.compute()
        tensor(0.7000, dtype=torch.float64)
    """

    terms = staticmethod(_accuracy_terms)
    value_fn = staticmethod(_binary_accuracy_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"zero_division": self.zero_division, "normalize": self.normalize, "top_k": self.top_k}

    def __init__(self, threshold: float = 0.5, *, normalize: bool = True, top_k: int = 1, **kwargs: Any) -> None:
        super().__init__(threshold, **kwargs)
        check_bool("normalize", normalize)
        self.normalize, self.top_k = normalize, check_binary_top_k(top_k)


@fill_doc
class BinaryPrecision(_BinaryScore):
    """Streaming :func:`~torchmetrics_lite.functional.binary_precision`: ``tp / (tp + fp)``.

    Args:
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryPrecision(weighted=True)
        >>> m.update(torch.tensor([1, 1, 1, 0]), torch.tensor([1, 1, 0, 1]), weight=torch.tensor([1.0, 1.0, 2.0, 1.0]))
        >>> m.compute()
        tensor(0.5000, dtype=torch.float64)
    """

    terms = staticmethod(_precision_terms)


@fill_doc
class BinaryRecall(_BinaryScore):
    """Streaming :func:`~torchmetrics_lite.functional.binary_recall`: ``tp / (tp + fn)``.

    Args:
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryRecall()
        >>> m.update(torch.tensor([1, 1, 1, 0, 1]), torch.tensor([1, 1, 1, 1, 0]))
        >>> m.compute()
        tensor(0.7500, dtype=torch.float64)
    """

    terms = staticmethod(_recall_terms)


@fill_doc
class BinaryFBetaScore(_BinaryScore):
    """Streaming :func:`~torchmetrics_lite.functional.binary_fbeta_score`.

    Args:
        beta: the weight of recall, a number > 0.
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryFBetaScore(beta=2.0)
        >>> m.update(torch.tensor([1, 1, 1, 0, 1, 1]), torch.tensor([1, 1, 1, 1, 0, 0]))
        >>> round(m.compute().item(), 4)
        0.7143
    """

    def __init__(self, beta: float, threshold: float = 0.5, **kwargs: Any) -> None:
        super().__init__(threshold, **kwargs)
        check_beta(beta)
        self.beta = beta
        self.terms = _fbeta_terms(beta)


@fill_doc
class BinaryF1Score(_BinaryScore):
    """Streaming :func:`~torchmetrics_lite.functional.binary_f1_score`: ``2 tp / (2 tp + fn + fp)``.

    Args:
        {threshold}
        {from_logits}
        {ignore_index}
        {zero_division}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryF1Score(from_logits=True)
        >>> m.update(torch.tensor([2.0, 1.5, 0.3, -1.0, 4.0, 0.1]), torch.tensor([1, 1, 1, 1, 0, 0]))
        >>> m.compute().item() == 2 / 3
        True
    """

    terms = staticmethod(_fbeta_terms(1.0))


@fill_doc
class BinaryConfusionMatrix(_BinaryMetric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_confusion_matrix`: ``[[tn, fp], [fn, tp]]``.

    Args:
        {threshold}
        {from_logits}
        {ignore_index}
        {normalize}
        {weighted}
        {kwargs_module}

    Examples:
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

    value_fn = staticmethod(_binary_confusion_matrix_from_stats)
    not_offered = ("multidim_average",)  # torchmetrics has no such argument here

    def value_options(self) -> Dict[str, Any]:
        return {"normalize": self.normalize}

