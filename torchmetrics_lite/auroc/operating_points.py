"""Operating-point modules: recall at fixed precision, precision at fixed recall, sensitivity at specificity and
specificity at sensitivity, binary, multiclass and multilabel (rules in
:mod:`torchmetrics_lite.functional.auroc.operating_points`).

Each keeps the exact state of its task and computes ``(value, threshold)`` over everything seen; the class names
the rule and its constraint (``constraint`` is the name of the constructor argument, as torchmetrics')."""
from __future__ import annotations

from typing import Any, Callable, ClassVar

import torch  # noqa: F401 (the doctests)

from torchmetrics_lite._checks import check_probability
from torchmetrics_lite.auroc._base import (
    EXACT_STATS,
    _add_rank_states,
    _multiclass_states,
    _multilabel_states,
    _weighting,
)
from torchmetrics_lite.functional.auroc import operating_points as F
from torchmetrics_lite.functional.auroc.binary import _binary_rank_stats
from torchmetrics_lite.functional.auroc.multiclass import _multiclass_rank_stats
from torchmetrics_lite.functional.auroc.multilabel import _multilabel_rank_stats
from torchmetrics_lite.metric import Metric

__all__ = ["BinaryRecallAtFixedPrecision", "BinaryPrecisionAtFixedRecall", "BinarySensitivityAtSpecificity",
           "BinarySpecificityAtSensitivity", "MulticlassRecallAtFixedPrecision", "MulticlassPrecisionAtFixedRecall",
           "MulticlassSensitivityAtSpecificity", "MulticlassSpecificityAtSensitivity",
           "MultilabelRecallAtFixedPrecision", "MultilabelPrecisionAtFixedRecall", "MultilabelSensitivityAtSpecificity",
           "MultilabelSpecificityAtSensitivity"]

_DOC = """{summary}; :func:`~torchmetrics_lite.functional.{function}` over everything seen.

    ``update({update})``: no ``weight``.

    Args:
{args}        {constraint}: the constraint, in ``[0, 1]``.
        kwargs: ``validate_args``, ``process_group``, ``sync_on_compute``.

    Returns:
        ``compute()``: ``(value, threshold)``{shape}.

    Raises:
        ValueError: ``{constraint}`` outside ``[0, 1]`` or bad batches as the function.
        TypeError: a ``weight``.

    References:
        torchmetrics' ``{name}`` (``thresholds=None``).

    Examples:
        >>> m = {name}({example})
        >>> m.update({batch})
        >>> [round(v, 4) for v in torch.stack(m.compute()).view(-1).tolist()]
        {result}
"""
_BINARY = dict(update="preds, target", args="", shape="", batch="torch.tensor([0.0, 0.5, 0.7, 0.8]), "
               "torch.tensor([0, 1, 1, 0])")
_MULTICLASS = dict(update="preds (N, C), target (N,)", args="        num_classes: the number of classes.\n"
                   "        from_logits: ``preds`` are logits (a float64 softmax is applied at compute).\n",
                   shape=", each ``(num_classes,)``", batch="torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], "
                   "[0.1, 0.2, 0.7], [0.5, 0.4, 0.1]]), torch.tensor([0, 1, 2, 1])")
_MULTILABEL = dict(update="preds (N, L), target (N, L)", args="        num_labels: the number of labels.\n",
                   shape=", each ``(num_labels,)``", batch="torch.tensor([[0.75, 0.05], [0.45, 0.75], [0.05, 0.55], "
                   "[0.05, 0.65]]), torch.tensor([[1, 0], [0, 0], [0, 1], [1, 1]])")


def _documented(task: dict, summary: str, function: str, constraint: str, example: str, result: str) -> Callable:
    def wrap(cls: Any) -> Any:
        cls.__doc__ = _DOC.format(summary=summary, function=function, constraint=constraint, name=cls.__name__,
                                  example=example, result=result, **task)
        return cls
    return wrap


class _BinaryPoint(Metric):
    """A binary operating point: ``rule`` (a chooser of :mod:`~torchmetrics_lite.functional.auroc.operating_points`)
    applied to the minimum named ``constraint``; ``update(preds, target)`` as the binary rank modules, unweighted."""

    higher_is_better: ClassVar[Any] = None
    stats_fn = staticmethod(_binary_rank_stats)
    stats_options = EXACT_STATS
    value_fn = staticmethod(F._binary_point_from_stats)
    value_options = ("rule", "minimum")
    weighted: ClassVar[bool] = False
    weighting = property(_weighting)
    rule: ClassVar[Callable[..., Any]]
    constraint: ClassVar[str]

    def __init__(self, minimum: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _add_rank_states(self, type(self).weighted, (), (), torch.uint8, ("binary_rank",))
        self.minimum = check_probability(type(self).constraint, minimum)



class _MulticlassPoint(Metric):
    """A multiclass operating point per class (one-vs-rest), as :class:`_BinaryPoint`; ``update(preds (N, C),
    target (N,))``, unweighted."""

    higher_is_better: ClassVar[Any] = None
    stats_fn = staticmethod(_multiclass_rank_stats)
    stats_options = ("num_classes", "from_logits", *EXACT_STATS)
    value_fn = staticmethod(F._multiclass_point_from_stats)
    value_options = ("rule", "num_classes", "minimum", "from_logits")
    weighted: ClassVar[bool] = False
    weighting = property(_weighting)
    rule: ClassVar[Callable[..., Any]]
    constraint: ClassVar[str]

    def __init__(self, num_classes: int, minimum: float, *, from_logits: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _multiclass_states(self, type(self).weighted, num_classes, bool(from_logits))
        self.num_classes, self.from_logits = num_classes, bool(from_logits)
        self.minimum = check_probability(type(self).constraint, minimum)



class _MultilabelPoint(Metric):
    """A multilabel operating point per label, as :class:`_BinaryPoint`; ``update(preds (N, L), target (N, L))``,
    unweighted."""

    higher_is_better: ClassVar[Any] = None
    stats_fn = staticmethod(_multilabel_rank_stats)
    stats_options = ("num_labels", *EXACT_STATS)
    value_fn = staticmethod(F._multilabel_point_from_stats)
    value_options = ("rule", "minimum")
    weighted: ClassVar[bool] = False
    weighting = property(_weighting)
    rule: ClassVar[Callable[..., Any]]
    constraint: ClassVar[str]

    def __init__(self, num_labels: int, minimum: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _multilabel_states(self, type(self).weighted, num_labels)
        self.num_labels = num_labels
        self.minimum = check_probability(type(self).constraint, minimum)


@_documented(_BINARY, "The highest recall whose precision is at least ``min_precision``, and its threshold",
             "binary_recall_at_fixed_precision", "min_precision", "min_precision=0.5", "[1.0, 0.5]")
class BinaryRecallAtFixedPrecision(_BinaryPoint):
    rule = staticmethod(F._recall_at_precision)
    constraint = "min_precision"

    def __init__(self, min_precision: float, **kwargs: Any) -> None:
        super().__init__(min_precision, **kwargs)


@_documented(_BINARY, "The highest precision whose recall is at least ``min_recall``, and its threshold",
             "binary_precision_at_fixed_recall", "min_recall", "min_recall=0.5", "[0.6667, 0.5]")
class BinaryPrecisionAtFixedRecall(_BinaryPoint):
    rule = staticmethod(F._precision_at_recall)
    constraint = "min_recall"

    def __init__(self, min_recall: float, **kwargs: Any) -> None:
        super().__init__(min_recall, **kwargs)


@_documented(_BINARY, "The highest sensitivity whose specificity is at least ``min_specificity``, and its "
             "threshold", "binary_sensitivity_at_specificity", "min_specificity", "min_specificity=0.5",
             "[1.0, 0.5]")
class BinarySensitivityAtSpecificity(_BinaryPoint):
    rule = staticmethod(F._sensitivity_at_specificity)
    constraint = "min_specificity"

    def __init__(self, min_specificity: float, **kwargs: Any) -> None:
        super().__init__(min_specificity, **kwargs)


@_documented(_BINARY, "The highest specificity whose sensitivity is at least ``min_sensitivity``, and its "
             "threshold", "binary_specificity_at_sensitivity", "min_sensitivity", "min_sensitivity=0.5",
             "[0.5, 0.7]")
class BinarySpecificityAtSensitivity(_BinaryPoint):
    rule = staticmethod(F._specificity_at_sensitivity)
    constraint = "min_sensitivity"

    def __init__(self, min_sensitivity: float, **kwargs: Any) -> None:
        super().__init__(min_sensitivity, **kwargs)


@_documented(_MULTICLASS, "Per class, the highest recall whose precision is at least ``min_precision``",
             "multiclass_recall_at_fixed_precision", "min_precision", "num_classes=3, min_precision=0.5",
             "[1.0, 1.0, 1.0, 0.6, 0.4, 0.7]")
class MulticlassRecallAtFixedPrecision(_MulticlassPoint):
    rule = staticmethod(F._recall_at_precision)
    constraint = "min_precision"

    def __init__(self, num_classes: int, min_precision: float, *, from_logits: bool = False, **kwargs: Any) -> None:
        super().__init__(num_classes, min_precision, from_logits=from_logits, **kwargs)


@_documented(_MULTICLASS, "Per class, the highest precision whose recall is at least ``min_recall``",
             "multiclass_precision_at_fixed_recall", "min_recall", "num_classes=3, min_recall=1.0",
             "[1.0, 1.0, 1.0, 0.6, 0.4, 0.7]")
class MulticlassPrecisionAtFixedRecall(_MulticlassPoint):
    rule = staticmethod(F._precision_at_recall)
    constraint = "min_recall"

    def __init__(self, num_classes: int, min_recall: float, *, from_logits: bool = False, **kwargs: Any) -> None:
        super().__init__(num_classes, min_recall, from_logits=from_logits, **kwargs)


@_documented(_MULTICLASS, "Per class, the highest sensitivity whose specificity is at least ``min_specificity``",
             "multiclass_sensitivity_at_specificity", "min_specificity", "num_classes=3, min_specificity=0.9",
             "[1.0, 1.0, 1.0, 0.6, 0.4, 0.7]")
class MulticlassSensitivityAtSpecificity(_MulticlassPoint):
    rule = staticmethod(F._sensitivity_at_specificity)
    constraint = "min_specificity"

    def __init__(self, num_classes: int, min_specificity: float, *, from_logits: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, min_specificity, from_logits=from_logits, **kwargs)


@_documented(_MULTICLASS, "Per class, the highest specificity whose sensitivity is at least ``min_sensitivity``",
             "multiclass_specificity_at_sensitivity", "min_sensitivity", "num_classes=3, min_sensitivity=1.0",
             "[1.0, 1.0, 1.0, 0.6, 0.4, 0.7]")
class MulticlassSpecificityAtSensitivity(_MulticlassPoint):
    rule = staticmethod(F._specificity_at_sensitivity)
    constraint = "min_sensitivity"

    def __init__(self, num_classes: int, min_sensitivity: float, *, from_logits: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(num_classes, min_sensitivity, from_logits=from_logits, **kwargs)




@_documented(_MULTILABEL, "Per label, the highest recall whose precision is at least ``min_precision``",
             "multilabel_recall_at_fixed_precision", "min_precision", "num_labels=2, min_precision=0.6",
             "[0.5, 1.0, 0.75, 0.55]")
class MultilabelRecallAtFixedPrecision(_MultilabelPoint):
    rule = staticmethod(F._recall_at_precision)
    constraint = "min_precision"

    def __init__(self, num_labels: int, min_precision: float, **kwargs: Any) -> None:
        super().__init__(num_labels, min_precision, **kwargs)


@_documented(_MULTILABEL, "Per label, the highest precision whose recall is at least ``min_recall``",
             "multilabel_precision_at_fixed_recall", "min_recall", "num_labels=2, min_recall=0.5",
             "[1.0, 0.6667, 0.75, 0.55]")
class MultilabelPrecisionAtFixedRecall(_MultilabelPoint):
    rule = staticmethod(F._precision_at_recall)
    constraint = "min_recall"

    def __init__(self, num_labels: int, min_recall: float, **kwargs: Any) -> None:
        super().__init__(num_labels, min_recall, **kwargs)


@_documented(_MULTILABEL, "Per label, the highest sensitivity whose specificity is at least ``min_specificity``",
             "multilabel_sensitivity_at_specificity", "min_specificity", "num_labels=2, min_specificity=0.5",
             "[0.5, 1.0, 0.75, 0.55]")
class MultilabelSensitivityAtSpecificity(_MultilabelPoint):
    rule = staticmethod(F._sensitivity_at_specificity)
    constraint = "min_specificity"

    def __init__(self, num_labels: int, min_specificity: float, **kwargs: Any) -> None:
        super().__init__(num_labels, min_specificity, **kwargs)


@_documented(_MULTILABEL, "Per label, the highest specificity whose sensitivity is at least ``min_sensitivity``",
             "multilabel_specificity_at_sensitivity", "min_sensitivity", "num_labels=2, min_sensitivity=1.0",
             "[0.0, 0.5, 0.05, 0.55]")
class MultilabelSpecificityAtSensitivity(_MultilabelPoint):
    rule = staticmethod(F._specificity_at_sensitivity)
    constraint = "min_sensitivity"

    def __init__(self, num_labels: int, min_sensitivity: float, **kwargs: Any) -> None:
        super().__init__(num_labels, min_sensitivity, **kwargs)
