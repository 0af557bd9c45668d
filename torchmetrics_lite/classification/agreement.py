"""Matthews correlation and Cohen's kappa modules: streaming forms of
:mod:`torchmetrics_lite.functional.classification.matthews_corrcoef` and
:mod:`~torchmetrics_lite.functional.classification.cohen_kappa`, on the shared confusion-matrix state."""
from __future__ import annotations

from typing import Any, Dict, Optional

import torch

from torchmetrics_lite.classification._base import _BinaryMetric, _MulticlassMetric, _MultilabelMetric
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification.cohen_kappa import _check_weights_kappa, _cohen_kappa_from_stats
from torchmetrics_lite.functional.classification.matthews_corrcoef import _matthews_corrcoef_from_stats

__all__ = ["BinaryMatthewsCorrCoef", "MulticlassMatthewsCorrCoef", "MultilabelMatthewsCorrCoef", "BinaryCohenKappa",
           "MulticlassCohenKappa"]

_ = torch  # doctests use torch


@fill_doc
class BinaryMatthewsCorrCoef(_BinaryMetric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_matthews_corrcoef`.

    Args:
        {threshold}
        {from_logits}
        {ignore_index}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryMatthewsCorrCoef()
        >>> m.update(torch.tensor([1, 0, 1, 0, 1]), torch.tensor([1, 0, 0, 1, 1]))
        >>> round(m.compute().item(), 4)
        0.1667
    """

    higher_is_better = True

    value_fn = staticmethod(_matthews_corrcoef_from_stats)
    not_offered = ("multidim_average",)  # torchmetrics has no such argument here


@fill_doc
class MulticlassMatthewsCorrCoef(_MulticlassMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_matthews_corrcoef`.

    Args:
        {num_classes}
        {ignore_index}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MulticlassMatthewsCorrCoef(3)
        >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
        >>> round(m.compute().item(), 4)
        0.2
    """

    higher_is_better = True

    def __init__(self, num_classes: int, *, ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(num_classes, ignore_index=ignore_index, **kwargs)

    value_fn = staticmethod(_matthews_corrcoef_from_stats)
    not_offered = ("top_k", "multidim_average")  # torchmetrics has no such argument here


@fill_doc
class MultilabelMatthewsCorrCoef(_MultilabelMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multilabel_matthews_corrcoef` (labels pooled).

    Args:
        {num_labels}
        {threshold}
        {from_logits}
        {ignore_index}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MultilabelMatthewsCorrCoef(2)
        >>> m.update(torch.tensor([[1, 0], [1, 1], [0, 1]]), torch.tensor([[1, 0], [0, 0], [0, 1]]))
        >>> round(m.compute().item(), 4)
        0.5
    """

    higher_is_better = True

    value_fn = staticmethod(_matthews_corrcoef_from_stats)
    not_offered = ("multidim_average",)  # torchmetrics has no such argument here


@fill_doc
class BinaryCohenKappa(_BinaryMetric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_cohen_kappa`.

    Args:
        {threshold}
        {from_logits}
        {ignore_index}
        {weights_kappa}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryCohenKappa()
        >>> m.update(torch.tensor([1, 0, 1, 0, 1]), torch.tensor([1, 0, 0, 1, 1]))
        >>> round(m.compute().item(), 4)
        0.1667
    """

    higher_is_better = True

    def __init__(self, threshold: float = 0.5, *, weights: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(threshold, **kwargs)
        self.weights = _check_weights_kappa(weights)

    value_fn = staticmethod(_cohen_kappa_from_stats)
    not_offered = ("multidim_average",)  # torchmetrics has no such argument here

    def value_options(self) -> Dict[str, Any]:
        return {"weights": self.weights}



@fill_doc
class MulticlassCohenKappa(_MulticlassMetric):
    """Streaming :func:`~torchmetrics_lite.functional.multiclass_cohen_kappa`.

    Args:
        {num_classes}
        {weights_kappa}
        {ignore_index}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = MulticlassCohenKappa(3, weights="quadratic")
        >>> m.update(torch.tensor([0, 2, 1, 1]), torch.tensor([0, 1, 1, 2]))
        >>> round(m.compute().item(), 4)
        0.5
    """

    higher_is_better = True

    def __init__(self, num_classes: int, *, weights: Optional[str] = None, ignore_index: Optional[int] = None,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, ignore_index=ignore_index, **kwargs)
        self.weights = _check_weights_kappa(weights)

    value_fn = staticmethod(_cohen_kappa_from_stats)
    not_offered = ("top_k", "multidim_average")  # torchmetrics has no such argument here

    def value_options(self) -> Dict[str, Any]:
        return {"weights": self.weights}

