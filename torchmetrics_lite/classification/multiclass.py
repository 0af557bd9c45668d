"""Multiclass classification modules: streaming forms of
:mod:`torchmetrics_lite.functional.classification.multiclass` (conventions in
:mod:`torchmetrics_lite.classification`). Each class names its formula; the state (the (C, C) confusion matrix)
and ``update`` come from ``_base``."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch

from torchmetrics_lite._checks import check_accuracy_normalize, check_average, check_beta, check_choice
from torchmetrics_lite.classification._base import _MulticlassMetric, _MulticlassScore
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import (
    NORMALIZE,
    _fbeta_terms,
    _precision_terms,
    _recall_terms,
)
from torchmetrics_lite.functional.classification.multiclass import (
    _multiclass_accuracy_from_stats,
    _multiclass_confusion_matrix_from_stats,
    _multiclass_stat_scores_from_stats,
)

__all__ = ["MulticlassStatScores", "MulticlassAccuracy", "MulticlassPrecision", "MulticlassRecall",
           "MulticlassFBetaScore", "MulticlassF1Score", "MulticlassConfusionMatrix"]

_ = torch  # doctests use torch


@fill_doc
class MulticlassStatScores(_MulticlassMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_stat_scores`.

    Args:
        {num_classes}
        average: ``"none"``/``None`` (per class), ``"micro"``, ``"macro"`` or ``"weighted"`` (see the function).
        {top_k}
        {ignore_index}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MulticlassStatScores(3, average="micro")
        >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
        >>> m.compute()
        tensor([2, 2, 6, 2, 4])
    """

    value_fn = staticmethod(_multiclass_stat_scores_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"average": self.average}

    def __init__(self, num_classes: int, average: Optional[str] = "macro", *, top_k: int = 1,
                 multidim_average: str = "global", **kwargs: Any) -> None:
        super().__init__(num_classes, top_k=top_k, multidim_average=multidim_average, **kwargs)
        self.average = check_average(average)


@fill_doc
class MulticlassAccuracy(_MulticlassScore):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_accuracy` (``"micro"``: top-k accuracy;
    ``"macro"``: mean per-class recall).

    Args:
        {num_classes}
        {average}
        {top_k}
        {ignore_index}
        {zero_division}
        {absent}
        {multidim_average_module}
        {normalize_accuracy} It counts the samples of ``average="micro"`` (any other average raises).
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MulticlassAccuracy(3, average="micro", top_k=2)
        >>> m.update(torch.tensor([[0.5, 0.3, 0.2], [0.1, 0.2, 0.7]]), torch.tensor([1, 0]))
        >>> m.compute()
        tensor(0.5000, dtype=torch.float64)
    """

    terms = staticmethod(_recall_terms)
    by_support = True
    value_fn = staticmethod(_multiclass_accuracy_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"average": self.average, "zero_division": self.zero_division, "top_k": self.top_k,
                "absent": self.absent, "normalize": self.normalize}

    def __init__(self, num_classes: int, average: Optional[str] = "macro", *, normalize: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, average, **kwargs)
        self.normalize = check_accuracy_normalize(normalize, self.average)


@fill_doc
class MulticlassPrecision(_MulticlassScore):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_precision`.

    Args:
        {num_classes}
        {average}
        {top_k}
        {ignore_index}
        {zero_division}
        {absent}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MulticlassPrecision(3)
        >>> m.update(torch.tensor([0, 0, 0, 0, 1, 2]), torch.tensor([0, 0, 0, 0, 0, 0]))
        >>> m.update(torch.tensor([0, 1, 1, 1, 2, 2]), torch.tensor([1, 1, 1, 2, 2, 2]))
        >>> round(m.compute().item(), 4)
        0.6556
    """

    terms = staticmethod(_precision_terms)
    by_support = True


@fill_doc
class MulticlassRecall(_MulticlassScore):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_recall`.

    Args:
        {num_classes}
        {average}
        {top_k}
        {ignore_index}
        {zero_division}
        {absent}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MulticlassRecall(3, average="weighted")
        >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
        >>> m.compute()
        tensor(0.5000, dtype=torch.float64)
    """

    terms = staticmethod(_recall_terms)
    by_support = True


@fill_doc
class MulticlassFBetaScore(_MulticlassScore):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_fbeta_score`.

    Args:
        beta: the weight of recall, a number > 0.
        {num_classes}
        {average}
        {top_k}
        {ignore_index}
        {zero_division}
        {absent}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MulticlassFBetaScore(0.5, 3, average=None)
        >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
        >>> m.compute()
        tensor([1.0000, 0.5000, 0.0000], dtype=torch.float64)
    """

    def __init__(self, beta: float, num_classes: int, average: Optional[str] = "macro", **kwargs: Any) -> None:
        super().__init__(num_classes, average, **kwargs)
        check_beta(beta)
        self.beta = beta
        self.terms = _fbeta_terms(beta)


@fill_doc
class MulticlassF1Score(_MulticlassScore):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_f1_score` (macro: mean of per-class F1).

    Args:
        {num_classes}
        {average}
        {top_k}
        {ignore_index}
        {zero_division}
        {absent}
        {multidim_average_module}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MulticlassF1Score(3)
        >>> m.update(torch.tensor([[2.0, 0.1, 0.3], [0.0, -1.0, 3.0], [0.2, 0.9, 0.1]]), torch.tensor([0, 1, 1]))
        >>> round(m.compute().item(), 4)  # per class: 1, 2/3, 0
        0.5556
    """

    terms = staticmethod(_fbeta_terms(1.0))


@fill_doc
class MulticlassConfusionMatrix(_MulticlassMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_confusion_matrix` (rows: target).

    Args:
        {num_classes}
        {normalize}
        {ignore_index}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MulticlassConfusionMatrix(3)
        >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
        >>> m.compute()
        tensor([[1, 0, 0],
                [0, 1, 1],
                [0, 1, 0]])
    """

    def __init__(self, num_classes: int, normalize: Optional[str] = None, *, ignore_index: Optional[int] = None,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, ignore_index=ignore_index, **kwargs)
        check_choice("normalize", normalize, NORMALIZE)
        self.normalize = normalize

    value_fn = staticmethod(_multiclass_confusion_matrix_from_stats)
    not_offered = ("top_k", "multidim_average")  # torchmetrics has no such argument here

    def value_options(self) -> Dict[str, Any]:
        return {"normalize": self.normalize}

