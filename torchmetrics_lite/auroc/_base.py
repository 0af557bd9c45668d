"""The declarative base of the AUROC family's modules: a class names its formula and the options passed to it.

Every exact rank module keeps the same ``cat`` states (the scores, the labels and, when updates are weighted, the
weights) and differs only in the ``_x_from_stats`` function it calls at compute, so a subclass declares::

    class BinaryAveragePrecision(_BinaryRank):
        formula = staticmethod(F._binary_average_precision_from_stats)
        options = ("strict",)            # attributes passed to the formula as keywords

and :meth:`_RankMetric.compute_from_stats` calls ``formula(state, strict=self.strict)``. The task bases
(:class:`_BinaryRank`, :class:`_MulticlassRank`, :class:`_MultilabelRank`) check and format one batch with the
same helpers as the functions, so module and function never disagree.

Weights: an update with ``weight=`` appends the weights to a third ``cat`` state. A metric is weighted in every
update or in none (checked before any state changes: mixing would give some samples an implicit weight).
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_positive_int
from torchmetrics_lite.functional.auroc._common import State, _class_dtype
from torchmetrics_lite.functional.auroc.binary import _check_binary
from torchmetrics_lite.functional.auroc.multiclass import _check_multiclass
from torchmetrics_lite.functional.auroc.multilabel import _check_multilabel
from torchmetrics_lite.metric import Metric


class _RankMetric(Metric):
    """Exact rank state (scores, labels, optional weights) and a declared formula."""

    higher_is_better: ClassVar[Optional[bool]] = True
    is_differentiable: ClassVar[bool] = False
    #: the ``_x_from_stats(state, **options)`` function this metric computes
    formula: ClassVar[Callable[..., Any]]
    #: names of the attributes passed to ``formula`` as keyword arguments
    options: ClassVar[Tuple[str, ...]] = ()
    #: whether ``update`` takes ``weight=``
    weighted: ClassVar[bool] = True

    def _add_rank_states(self, preds_row: Tuple[int, ...], target_row: Tuple[int, ...], target_dtype: torch.dtype,
                         task: Tuple[Any, ...]) -> None:
        self.add_state("preds", torch.zeros(0, *preds_row, dtype=torch.float32), reduce="cat")
        self.add_state("target", torch.zeros(0, *target_row, dtype=target_dtype), reduce="cat")
        if type(self).weighted:
            self.add_state("weight", torch.zeros(0, dtype=torch.float32), reduce="cat")
        self.stats_key = (*task, type(self).weighted, self.validate_args)

    def _check_weighting(self, weight: Any) -> None:
        """The same weighting as the earlier updates (metadata only, no host sync)."""
        if weight is None and not type(self).weighted:
            return
        if not type(self).weighted:
            raise TypeError(f"Expected no `weight` for {type(self).__name__} (sample weights are taken by AUROC, "
                            f"average precision and the ROC / precision-recall curves), got {type(weight).__name__}")
        state = self.local_state()
        seen, weights = state["preds"].shape[0], state["weight"].shape[0]
        if weight is not None and weights != seen:
            raise ValueError(f"Expected `weight` in every update or in none, got one after {seen} unweighted samples")
        if weight is None and weights:
            raise ValueError(f"Expected `weight` in every update or in none, got none after {weights} weighted "
                             f"samples")

    def compute_from_stats(self, state: State) -> Any:
        return type(self).formula(state, **{name: getattr(self, name) for name in type(self).options})


class _BinaryRank(_RankMetric):
    """``update(preds, target, weight=None)``: scores and 0/1 labels of any (same) shape, weights of that shape."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._add_rank_states((), (), torch.uint8, ("binary_rank",))

    def batch_stats(self, preds: Tensor, target: Tensor, weight: Optional[Tensor] = None) -> State:
        self._check_weighting(weight)
        return _check_binary(preds, target, weight, self.validate_args)


class _MulticlassRank(_RankMetric):
    """``update(preds, target, weight=None)``: scores ``(N, C)`` (probabilities, or logits with
    ``from_logits=True``), class indices ``(N,)``, weights ``(N,)``."""

    def __init__(self, num_classes: int, from_logits: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_classes", num_classes)
        self.num_classes, self.from_logits = num_classes, bool(from_logits)
        self._add_rank_states((num_classes,), (), _class_dtype(num_classes),
                              ("multiclass_rank", num_classes, self.from_logits))

    def batch_stats(self, preds: Tensor, target: Tensor, weight: Optional[Tensor] = None) -> State:
        self._check_weighting(weight)
        return _check_multiclass(preds, target, self.num_classes, weight, self.from_logits, self.validate_args)


class _MultilabelRank(_RankMetric):
    """``update(preds, target, weight=None)``: scores and 0/1 labels ``(N, L)``, weights ``(N,)``."""

    def __init__(self, num_labels: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_labels", num_labels)
        self.num_labels = num_labels
        self._add_rank_states((num_labels,), (num_labels,), torch.uint8, ("multilabel_rank", num_labels))

    def batch_stats(self, preds: Tensor, target: Tensor, weight: Optional[Tensor] = None) -> State:
        self._check_weighting(weight)
        return _check_multilabel(preds, target, self.num_labels, weight, self.validate_args)
