"""Which plot a module draws: its curve (ROC, precision-recall), its confusion matrix, or its values; the plots of
a collection (one per member, or all together) and of a tracker (every step)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from torch import Tensor

from torchmetrics_lite.plotting.confusion import plot_confusion_matrix
from torchmetrics_lite.plotting.curves import plot_curve
from torchmetrics_lite.plotting.values import plot_values

__all__ = ["plot_collection", "plot_metric", "plot_tracker"]

_ROC = (("False positive rate", "True positive rate"), False)
_PR = (("Recall", "Precision"), True)
#: class name (or a base class's) -> (axis labels, whether the curve's first entry is its y)
CURVES: Dict[str, Tuple[Tuple[str, str], bool]] = {
    "BinaryROC": _ROC, "MulticlassROC": _ROC, "MultilabelROC": _ROC,
    "BinaryPrecisionRecallCurve": _PR, "MulticlassPrecisionRecallCurve": _PR, "MultilabelPrecisionRecallCurve": _PR,
    "RetrievalPrecisionRecallCurve": _PR,
}
CONFUSION = ("BinaryConfusionMatrix", "MulticlassConfusionMatrix", "MultilabelConfusionMatrix")
OPTIONS = {"curve": ("score",), "confusion": ("add_text", "labels", "cmap"), "values": ()}


def _kind(metric: Any) -> Tuple[str, Optional[str]]:
    for cls in type(metric).__mro__:
        if cls.__name__ in CURVES:
            return "curve", cls.__name__
        if cls.__name__ in CONFUSION:
            return "confusion", cls.__name__
    return "values", None


def plot_metric(metric: Any, val: Any = None, ax: Any = None, **options: Any) -> Tuple[Any, Any]:
    """``metric.plot(val, ax, **options)``: ``val`` (default ``metric.compute()``) drawn as the metric's kind
    of plot (see :mod:`torchmetrics_lite.plotting`); returns ``(fig, ax)``.

    Raises:
        TypeError: an option the metric's plot does not take (curves: ``score``; confusion matrices:
            ``add_text``, ``labels``, ``cmap``).
    """
    kind, base = _kind(metric)
    name = type(metric).__name__
    unknown = sorted(set(options) - set(OPTIONS[kind]))
    if unknown:
        raise TypeError(f"{name}.plot() got an unexpected keyword argument {unknown[0]!r}; accepted: val, ax"
                        + "".join(f", {o}" for o in OPTIONS[kind]))
    if val is None:
        val = metric.compute()
    if kind == "curve":
        labels, swap = CURVES[base]  # type: ignore[index]
        return plot_curve(val, ax, labels=labels, swap=swap, score=options.get("score"), name=name)
    if kind == "confusion":
        return plot_confusion_matrix(val, ax, name=name, add_text=options.get("add_text", True),
                                     labels=options.get("labels"), cmap=options.get("cmap"))
    return plot_values(val, ax, name=name, higher_is_better=getattr(metric, "higher_is_better", None))


def plot_collection(collection: Any, val: Any = None, ax: Any = None, together: bool = False) -> Any:
    """``MetricCollection.plot``: one ``(fig, ax)`` per member (``ax`` a sequence of axes, one each, or
    ``None``), or with ``together=True`` every value as one marker or line on one axes."""
    if val is None:
        val = collection.compute()
    if together:
        return plot_values(val, ax, name=type(collection).__name__)
    members = list(collection.items(keep_base=True))
    axes: List[Any] = [None] * len(members) if ax is None else list(ax)
    if len(axes) != len(members):
        raise ValueError(f"Expected one axes per member of the collection ({len(members)}), got {len(axes)}")
    values = val if isinstance(val, list) else [val]
    out = []
    for (name, member), member_ax in zip(members, axes):
        key = collection._key(name)
        mine = [v[key] for v in values] if key in values[0] else None
        out.append(member.plot(None if mine is None else (mine if isinstance(val, list) else mine[0]), member_ax))
    return out


def plot_tracker(tracker: Any, val: Any = None, ax: Any = None) -> Tuple[Any, Any]:
    """``MetricTracker.plot``: every step's value (default ``compute_all()``) as a line over the steps."""
    if val is None:
        val = tracker.compute_all()
    if isinstance(val, Tensor):
        val = list(val)
    elif isinstance(val, dict):
        steps = len(next(iter(val.values())))
        val = [{k: v[i] for k, v in val.items()} for i in range(steps)]
    return plot_values(val, ax, name=type(tracker._base_metric).__name__)
