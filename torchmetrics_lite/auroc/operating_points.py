"""Operating-point modules: recall at fixed precision, precision at fixed recall, sensitivity at specificity and
specificity at sensitivity, binary, multiclass and multilabel (rules in
:mod:`torchmetrics_lite.functional.auroc.operating_points`).

Each keeps the exact state of its task and computes ``(value, threshold)`` over everything seen; the class names
the rule and its constraint (``constraint`` is the name of the constructor argument, as torchmetrics')."""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Dict, Optional

import torch  # noqa: F401 (the doctests)

from torchmetrics_lite._checks import check_positive_int, check_probability, warn_binary_logits, warn_multiclass_logits
from torchmetrics_lite.auroc._base import (
    _add_rank_states,
    _checked_mode,
    _mode_states,
    _multiclass_states,
    _multilabel_states,
    _rank_options,
)
from torchmetrics_lite.functional.auroc import operating_points as F
from torchmetrics_lite.functional.auroc._doc_args import fill_doc, register
from torchmetrics_lite.functional.auroc.binary import _binary_rank_stats
from torchmetrics_lite.functional.auroc.multiclass import _multiclass_rank_stats
from torchmetrics_lite.functional.auroc.multilabel import _multilabel_rank_stats
from torchmetrics_lite.metric import Metric

__all__ = ["BinaryRecallAtFixedPrecision", "BinaryPrecisionAtFixedRecall", "BinarySensitivityAtSpecificity",
           "BinarySpecificityAtSensitivity", "MulticlassRecallAtFixedPrecision", "MulticlassPrecisionAtFixedRecall",
           "MulticlassSensitivityAtSpecificity", "MulticlassSpecificityAtSensitivity",
           "MultilabelRecallAtFixedPrecision", "MultilabelPrecisionAtFixedRecall", "MultilabelSensitivityAtSpecificity",
           "MultilabelSpecificityAtSensitivity"]

register(
    sections_point_module=(
        "Returns:\n"
        "    ``compute()``: ``(value, threshold)``{shape}.\n"
        "\n"
        "Raises:\n"
        "    ValueError: ``{constraint}`` outside ``[0, 1]`` or bad batches as the function.\n"
        "    TypeError: a ``weight``.\n"
        "\n"
        "References:\n"
        "    torchmetrics' ``{tm}`` (``thresholds=None``)."
    ),
)


class _BinaryPoint(Metric):
    """A binary operating point: ``rule`` (a chooser of :mod:`~torchmetrics_lite.functional.auroc.operating_points`)
    applied to the minimum named ``constraint``; ``update(preds, target)`` as the binary rank modules, unweighted."""

    higher_is_better: ClassVar[Any] = None
    stats_fn = staticmethod(_binary_rank_stats)
    check_accepted = warn_binary_logits

    def stats_options(self) -> Dict[str, Any]:
        return _rank_options(self)

    value_fn = staticmethod(F._binary_point_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"rule": self.rule, "minimum": self.minimum, "threshold_values": self.threshold_values}

    weighted: ClassVar[bool] = False
    rule: ClassVar[Callable[..., Any]]
    constraint: ClassVar[str]

    def __init__(self, minimum: float, *, thresholds: Any = None, ignore_index: Optional[int] = None,
                 from_logits: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.from_logits = bool(from_logits)  # the binned mode's sigmoid (the exact mode ranks scores as given)
        self.thresholds, self.threshold_values, self.ignore_index = _checked_mode(thresholds, ignore_index)
        self.stats_key = _mode_states(
            self, self.threshold_values, ignore_index, 1, ("binary",),
            lambda: _add_rank_states( self, type(self).weighted, (), (), torch.uint8, ("binary_rank",)))
        self.minimum = check_probability(type(self).constraint, minimum)


class _MulticlassPoint(Metric):
    """A multiclass operating point per class (one-vs-rest), as :class:`_BinaryPoint`; ``update(preds (N, C),
    target (N,))``, unweighted."""

    higher_is_better: ClassVar[Any] = None
    stats_fn = staticmethod(_multiclass_rank_stats)
    check_accepted = warn_multiclass_logits

    def stats_options(self) -> Dict[str, Any]:
        return {"num_classes": self.num_classes, "from_logits": self.from_logits, **_rank_options(self)}

    value_fn = staticmethod(F._multiclass_point_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"rule": self.rule, "num_classes": self.num_classes, "minimum": self.minimum,
                "from_logits": self.from_logits, "threshold_values": self.threshold_values}

    weighted: ClassVar[bool] = False
    rule: ClassVar[Callable[..., Any]]
    constraint: ClassVar[str]

    def __init__(self, num_classes: int, minimum: float, *, from_logits: bool = False, thresholds: Any = None,
                 ignore_index: Optional[int] = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_classes", num_classes)
        self.thresholds, self.threshold_values, self.ignore_index = _checked_mode(thresholds, ignore_index)
        self.stats_key = _mode_states(
            self, self.threshold_values, ignore_index, num_classes, ("multiclass", num_classes, bool(from_logits)),
            lambda: _multiclass_states(self, type(self).weighted, num_classes, bool(from_logits)))
        self.num_classes, self.from_logits = num_classes, bool(from_logits)
        self.minimum = check_probability(type(self).constraint, minimum)


class _MultilabelPoint(Metric):
    """A multilabel operating point per label, as :class:`_BinaryPoint`; ``update(preds (N, L), target (N, L))``,
    unweighted."""

    higher_is_better: ClassVar[Any] = None
    stats_fn = staticmethod(_multilabel_rank_stats)
    check_accepted = warn_binary_logits

    def stats_options(self) -> Dict[str, Any]:
        return {"num_labels": self.num_labels, **_rank_options(self)}

    value_fn = staticmethod(F._multilabel_point_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"rule": self.rule, "minimum": self.minimum, "threshold_values": self.threshold_values}

    weighted: ClassVar[bool] = False
    rule: ClassVar[Callable[..., Any]]
    constraint: ClassVar[str]

    def __init__(self, num_labels: int, minimum: float, *, thresholds: Any = None,
                 ignore_index: Optional[int] = None, from_logits: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.from_logits = bool(from_logits)  # the binned mode's sigmoid (the exact mode ranks scores as given)
        check_positive_int("num_labels", num_labels)
        self.thresholds, self.threshold_values, self.ignore_index = _checked_mode(thresholds, ignore_index)
        self.stats_key = _mode_states(
            self, self.threshold_values, ignore_index, num_labels, ("multilabel", num_labels),
            lambda: _multilabel_states(self, type(self).weighted, num_labels))
        self.num_labels = num_labels
        self.minimum = check_probability(type(self).constraint, minimum)


@fill_doc(constraint="min_precision", shape="", tm="BinaryRecallAtFixedPrecision")
class BinaryRecallAtFixedPrecision(_BinaryPoint):
    """The highest recall whose precision is at least ``min_precision``, and its threshold;
    :func:`~torchmetrics_lite.functional.binary_recall_at_fixed_precision` over everything seen.

    ``update(preds, target)``: no ``weight``.

    Args:
        min_precision: the constraint, in ``[0, 1]``.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = BinaryRecallAtFixedPrecision(min_precision=0.5)
        >>> m.update(torch.tensor([0.0, 0.5, 0.7, 0.8]), torch.tensor([0, 1, 1, 0]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [1.0, 0.5]
    """

    rule = staticmethod(F._recall_at_precision)
    constraint = "min_precision"

    def __init__(self, min_precision: float, **kwargs: Any) -> None:
        super().__init__(min_precision, **kwargs)


@fill_doc(constraint="min_recall", shape="", tm="BinaryPrecisionAtFixedRecall")
class BinaryPrecisionAtFixedRecall(_BinaryPoint):
    """The highest precision whose recall is at least ``min_recall``, and its threshold;
    :func:`~torchmetrics_lite.functional.binary_precision_at_fixed_recall` over everything seen.

    ``update(preds, target)``: no ``weight``.

    Args:
        min_recall: the constraint, in ``[0, 1]``.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = BinaryPrecisionAtFixedRecall(min_recall=0.5)
        >>> m.update(torch.tensor([0.0, 0.5, 0.7, 0.8]), torch.tensor([0, 1, 1, 0]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [0.6667, 0.5]
    """

    rule = staticmethod(F._precision_at_recall)
    constraint = "min_recall"

    def __init__(self, min_recall: float, **kwargs: Any) -> None:
        super().__init__(min_recall, **kwargs)


@fill_doc(constraint="min_specificity", shape="", tm="BinarySensitivityAtSpecificity")
class BinarySensitivityAtSpecificity(_BinaryPoint):
    """The highest sensitivity whose specificity is at least ``min_specificity``, and its threshold;
    :func:`~torchmetrics_lite.functional.binary_sensitivity_at_specificity` over everything seen.

    ``update(preds, target)``: no ``weight``.

    Args:
        min_specificity: the constraint, in ``[0, 1]``.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = BinarySensitivityAtSpecificity(min_specificity=0.5)
        >>> m.update(torch.tensor([0.0, 0.5, 0.7, 0.8]), torch.tensor([0, 1, 1, 0]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [1.0, 0.5]
    """

    rule = staticmethod(F._sensitivity_at_specificity)
    constraint = "min_specificity"

    def __init__(self, min_specificity: float, **kwargs: Any) -> None:
        super().__init__(min_specificity, **kwargs)


@fill_doc(constraint="min_sensitivity", shape="", tm="BinarySpecificityAtSensitivity")
class BinarySpecificityAtSensitivity(_BinaryPoint):
    """The highest specificity whose sensitivity is at least ``min_sensitivity``, and its threshold;
    :func:`~torchmetrics_lite.functional.binary_specificity_at_sensitivity` over everything seen.

    ``update(preds, target)``: no ``weight``.

    Args:
        min_sensitivity: the constraint, in ``[0, 1]``.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = BinarySpecificityAtSensitivity(min_sensitivity=0.5)
        >>> m.update(torch.tensor([0.0, 0.5, 0.7, 0.8]), torch.tensor([0, 1, 1, 0]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [0.5, 0.7]
    """

    rule = staticmethod(F._specificity_at_sensitivity)
    constraint = "min_sensitivity"

    def __init__(self, min_sensitivity: float, **kwargs: Any) -> None:
        super().__init__(min_sensitivity, **kwargs)


@fill_doc(constraint="min_precision", shape=", each ``(num_classes,)``", tm="MulticlassRecallAtFixedPrecision")
class MulticlassRecallAtFixedPrecision(_MulticlassPoint):
    """Per class, the highest recall whose precision is at least ``min_precision``;
    :func:`~torchmetrics_lite.functional.multiclass_recall_at_fixed_precision` over everything seen.

    ``update(preds (N, C), target (N,))``: no ``weight``.

    Args:
        {num_classes_rank}
        min_precision: the constraint, in ``[0, 1]``.
        {from_logits_module}
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = MulticlassRecallAtFixedPrecision(num_classes=3, min_precision=0.5)
        >>> m.update(torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.5, 0.4, 0.1]]),
        ...          torch.tensor([0, 1, 2, 1]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [1.0, 1.0, 1.0, 0.6, 0.4, 0.7]
    """

    rule = staticmethod(F._recall_at_precision)
    constraint = "min_precision"

    def __init__(self, num_classes: int, min_precision: float, *, from_logits: bool = False, **kwargs: Any) -> None:
        super().__init__(num_classes, min_precision, from_logits=from_logits, **kwargs)


@fill_doc(constraint="min_recall", shape=", each ``(num_classes,)``", tm="MulticlassPrecisionAtFixedRecall")
class MulticlassPrecisionAtFixedRecall(_MulticlassPoint):
    """Per class, the highest precision whose recall is at least ``min_recall``;
    :func:`~torchmetrics_lite.functional.multiclass_precision_at_fixed_recall` over everything seen.

    ``update(preds (N, C), target (N,))``: no ``weight``.

    Args:
        {num_classes_rank}
        min_recall: the constraint, in ``[0, 1]``.
        {from_logits_module}
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = MulticlassPrecisionAtFixedRecall(num_classes=3, min_recall=1.0)
        >>> m.update(torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.5, 0.4, 0.1]]),
        ...          torch.tensor([0, 1, 2, 1]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [1.0, 1.0, 1.0, 0.6, 0.4, 0.7]
    """

    rule = staticmethod(F._precision_at_recall)
    constraint = "min_recall"

    def __init__(self, num_classes: int, min_recall: float, *, from_logits: bool = False, **kwargs: Any) -> None:
        super().__init__(num_classes, min_recall, from_logits=from_logits, **kwargs)


@fill_doc(constraint="min_specificity", shape=", each ``(num_classes,)``", tm="MulticlassSensitivityAtSpecificity")
class MulticlassSensitivityAtSpecificity(_MulticlassPoint):
    """Per class, the highest sensitivity whose specificity is at least ``min_specificity``;
    :func:`~torchmetrics_lite.functional.multiclass_sensitivity_at_specificity` over everything seen.

    ``update(preds (N, C), target (N,))``: no ``weight``.

    Args:
        {num_classes_rank}
        min_specificity: the constraint, in ``[0, 1]``.
        {from_logits_module}
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = MulticlassSensitivityAtSpecificity(num_classes=3, min_specificity=0.9)
        >>> m.update(torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.5, 0.4, 0.1]]),
        ...          torch.tensor([0, 1, 2, 1]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [1.0, 1.0, 1.0, 0.6, 0.4, 0.7]
    """

    rule = staticmethod(F._sensitivity_at_specificity)
    constraint = "min_specificity"

    def __init__(self, num_classes: int, min_specificity: float, *, from_logits: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, min_specificity, from_logits=from_logits, **kwargs)


@fill_doc(constraint="min_sensitivity", shape=", each ``(num_classes,)``", tm="MulticlassSpecificityAtSensitivity")
class MulticlassSpecificityAtSensitivity(_MulticlassPoint):
    """Per class, the highest specificity whose sensitivity is at least ``min_sensitivity``;
    :func:`~torchmetrics_lite.functional.multiclass_specificity_at_sensitivity` over everything seen.

    ``update(preds (N, C), target (N,))``: no ``weight``.

    Args:
        {num_classes_rank}
        min_sensitivity: the constraint, in ``[0, 1]``.
        {from_logits_module}
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = MulticlassSpecificityAtSensitivity(num_classes=3, min_sensitivity=1.0)
        >>> m.update(torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.5, 0.4, 0.1]]),
        ...          torch.tensor([0, 1, 2, 1]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [1.0, 1.0, 1.0, 0.6, 0.4, 0.7]
    """

    rule = staticmethod(F._specificity_at_sensitivity)
    constraint = "min_sensitivity"

    def __init__(self, num_classes: int, min_sensitivity: float, *, from_logits: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, min_sensitivity, from_logits=from_logits, **kwargs)


@fill_doc(constraint="min_precision", shape=", each ``(num_labels,)``", tm="MultilabelRecallAtFixedPrecision")
class MultilabelRecallAtFixedPrecision(_MultilabelPoint):
    """Per label, the highest recall whose precision is at least ``min_precision``;
    :func:`~torchmetrics_lite.functional.multilabel_recall_at_fixed_precision` over everything seen.

    ``update(preds (N, L), target (N, L))``: no ``weight``.

    Args:
        {num_labels_rank}
        min_precision: the constraint, in ``[0, 1]``.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = MultilabelRecallAtFixedPrecision(num_labels=2, min_precision=0.6)
        >>> m.update(torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], [0.05, 0.65]]),
        ...          torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [0.5, 1.0, 0.75, 0.55]
    """

    rule = staticmethod(F._recall_at_precision)
    constraint = "min_precision"

    def __init__(self, num_labels: int, min_precision: float, **kwargs: Any) -> None:
        super().__init__(num_labels, min_precision, **kwargs)


@fill_doc(constraint="min_recall", shape=", each ``(num_labels,)``", tm="MultilabelPrecisionAtFixedRecall")
class MultilabelPrecisionAtFixedRecall(_MultilabelPoint):
    """Per label, the highest precision whose recall is at least ``min_recall``;
    :func:`~torchmetrics_lite.functional.multilabel_precision_at_fixed_recall` over everything seen.

    ``update(preds (N, L), target (N, L))``: no ``weight``.

    Args:
        {num_labels_rank}
        min_recall: the constraint, in ``[0, 1]``.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = MultilabelPrecisionAtFixedRecall(num_labels=2, min_recall=0.5)
        >>> m.update(torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], [0.05, 0.65]]),
        ...          torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [1.0, 0.6667, 0.75, 0.55]
    """

    rule = staticmethod(F._precision_at_recall)
    constraint = "min_recall"

    def __init__(self, num_labels: int, min_recall: float, **kwargs: Any) -> None:
        super().__init__(num_labels, min_recall, **kwargs)


@fill_doc(constraint="min_specificity", shape=", each ``(num_labels,)``", tm="MultilabelSensitivityAtSpecificity")
class MultilabelSensitivityAtSpecificity(_MultilabelPoint):
    """Per label, the highest sensitivity whose specificity is at least ``min_specificity``;
    :func:`~torchmetrics_lite.functional.multilabel_sensitivity_at_specificity` over everything seen.

    ``update(preds (N, L), target (N, L))``: no ``weight``.

    Args:
        {num_labels_rank}
        min_specificity: the constraint, in ``[0, 1]``.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = MultilabelSensitivityAtSpecificity(num_labels=2, min_specificity=0.5)
        >>> m.update(torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], [0.05, 0.65]]),
        ...          torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [0.5, 1.0, 0.75, 0.55]
    """

    rule = staticmethod(F._sensitivity_at_specificity)
    constraint = "min_specificity"

    def __init__(self, num_labels: int, min_specificity: float, **kwargs: Any) -> None:
        super().__init__(num_labels, min_specificity, **kwargs)


@fill_doc(constraint="min_sensitivity", shape=", each ``(num_labels,)``", tm="MultilabelSpecificityAtSensitivity")
class MultilabelSpecificityAtSensitivity(_MultilabelPoint):
    """Per label, the highest specificity whose sensitivity is at least ``min_sensitivity``;
    :func:`~torchmetrics_lite.functional.multilabel_specificity_at_sensitivity` over everything seen.

    ``update(preds (N, L), target (N, L))``: no ``weight``.

    Args:
        {num_labels_rank}
        min_sensitivity: the constraint, in ``[0, 1]``.
        {thresholds_module}
        {ignore_index_rank_module}
        {kwargs_module}

    {sections_point_module}

    Examples:
        >>> m = MultilabelSpecificityAtSensitivity(num_labels=2, min_sensitivity=1.0)
        >>> m.update(torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], [0.05, 0.65]]),
        ...          torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]]))
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        [0.0, 0.5, 0.05, 0.55]
    """

    rule = staticmethod(F._specificity_at_sensitivity)
    constraint = "min_sensitivity"

    def __init__(self, num_labels: int, min_sensitivity: float, **kwargs: Any) -> None:
        super().__init__(num_labels, min_sensitivity, **kwargs)
