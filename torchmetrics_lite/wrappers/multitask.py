"""``MultitaskWrapper``: one metric (or collection) per task, updated from dicts of per-task inputs."""
from __future__ import annotations

import copy
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, cast

from torch import nn

from torchmetrics_lite._checks.wrappers import check_optional_str, check_task_inputs, check_task_metrics
from torchmetrics_lite.collection import MetricCollection
from torchmetrics_lite.metric import Metric

__all__ = ["MultitaskWrapper"]


class MultitaskWrapper(nn.Module):
    """A metric or :class:`~torchmetrics_lite.MetricCollection` per task: ``update(task_preds, task_targets)``
    takes two dicts keyed by task and updates each task's metric with its pair; ``compute()`` returns
    ``{prefix + task + postfix: value}``.

    Each task's metric is an ordinary submodule (``wrapper.task_metrics[task]``), driven through its public
    ``update``/``forward``/``compute``/``reset``, so it streams, merges and syncs as it does alone. Every update
    checks both dicts' keys before any task's metric changes.

    Args:
        task_metrics: ``{task: Metric or MetricCollection}``.
        prefix: prepended to every task name of the results (and of :meth:`keys`).
        postfix: appended to them.

    Returns:
        ``compute()`` and ``forward``: ``{key: value}``, a collection's value being its dict.

    Raises:
        TypeError: ``task_metrics`` is not a dict of metrics or collections, ``prefix``/``postfix`` not a str
            (torchmetrics: ``ValueError``).
        ValueError: an update whose dicts do not have exactly the tasks' keys.

    References:
        ``torchmetrics.wrappers.MultitaskWrapper`` (same arguments and keys).

    Examples:
        >>> import torch
        >>> from torchmetrics_lite import BinaryAccuracy, MeanSquaredError
        >>> tasks = MultitaskWrapper({"cls": BinaryAccuracy(), "reg": MeanSquaredError()}, prefix="val_")
        >>> tasks.update({"cls": torch.tensor([0.9, 0.2]), "reg": torch.tensor([1.0, 2.0])},
        ...              {"cls": torch.tensor([1, 1]), "reg": torch.tensor([1.0, 4.0])})
        >>> {k: v.item() for k, v in tasks.compute().items()}
        {'val_cls': 0.5, 'val_reg': 2.0}
    """

    def __init__(self, task_metrics: Dict[str, Any], prefix: Optional[str] = None,
                 postfix: Optional[str] = None) -> None:
        check_task_metrics(task_metrics, (Metric, MetricCollection))
        check_optional_str("prefix", prefix)
        check_optional_str("postfix", postfix)
        super().__init__()
        self.task_metrics = nn.ModuleDict(dict(task_metrics))
        self._prefix, self._postfix = prefix or "", postfix or ""

    def _key(self, task: str) -> str:
        return f"{self._prefix}{task}{self._postfix}"

    def items(self, flatten: bool = True) -> Iterator[Tuple[str, nn.Module]]:
        """``(key, metric)`` per task; with ``flatten`` a collection's members as ``task_member`` keys."""
        for task, metric in self.task_metrics.items():
            if flatten and isinstance(metric, MetricCollection):
                for name, member in metric.items():
                    yield f"{self._prefix}{task}_{name}{self._postfix}", member
            else:
                yield self._key(task), metric

    def keys(self, flatten: bool = True) -> Iterator[str]:
        """The keys of :meth:`items`."""
        return (key for key, _ in self.items(flatten))

    def values(self, flatten: bool = True) -> Iterator[nn.Module]:
        """The metrics of :meth:`items`."""
        return (metric for _, metric in self.items(flatten))

    def update(self, task_preds: Dict[str, Any], task_targets: Dict[str, Any]) -> None:
        """Update each task's metric with ``task_preds[task], task_targets[task]``."""
        check_task_inputs(list(self.task_metrics), task_preds, task_targets)
        for task, metric in self.task_metrics.items():
            cast(Any, metric).update(task_preds[task], task_targets[task])

    def forward(self, task_preds: Dict[str, Any], task_targets: Dict[str, Any]) -> Dict[str, Any]:
        """Each task's ``forward`` value (the batch's), keyed as :meth:`compute`."""
        check_task_inputs(list(self.task_metrics), task_preds, task_targets)
        return {self._key(task): metric(task_preds[task], task_targets[task])
                for task, metric in self.task_metrics.items()}

    def compute(self) -> Dict[str, Any]:
        """Each task's value."""
        return {self._key(task): cast(Any, metric).compute() for task, metric in self.task_metrics.items()}

    def reset(self) -> None:
        """Reset every task's metric."""
        for metric in self.task_metrics.values():
            cast(Any, metric).reset()

    def plot(self, val: Any = None, axes: Optional[Sequence[Any]] = None) -> List[Tuple[Any, Any]]:
        """Each task's ``.plot()`` (see :mod:`torchmetrics_lite.plot`): ``val`` a :meth:`compute` dict, a sequence of
        them (a curve over steps), or ``None`` (the current value); ``axes`` one matplotlib axes per task.
        Returns one ``(fig, ax)`` per task, in the tasks' order."""
        if axes is not None and len(axes) != len(self.task_metrics):
            raise ValueError(f"Expected `axes` to hold one axes per task ({len(self.task_metrics)}), got {len(axes)}")
        val = self.compute() if val is None else val
        out = []
        for i, (task, metric) in enumerate(self.task_metrics.items()):
            def pick(v: Dict[str, Any], task: str = task) -> Any:
                return v[self._key(task)] if self._key(task) in v else v[task]
            value = pick(val) if isinstance(val, dict) else [pick(v) for v in val]
            out.append(cast(Any, metric).plot(value, ax=None if axes is None else axes[i]))
        return out

    def clone(self, prefix: Optional[str] = None, postfix: Optional[str] = None) -> "MultitaskWrapper":
        """A deep copy, with a new ``prefix``/``postfix`` when given."""
        check_optional_str("prefix", prefix)
        check_optional_str("postfix", postfix)
        out = copy.deepcopy(self)
        if prefix is not None:
            out._prefix = prefix
        if postfix is not None:
            out._postfix = postfix
        return out
