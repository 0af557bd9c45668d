"""``ClasswiseWrapper``: a per-class result as a dict ``{name_label: value}``."""
from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional

from torch import Tensor

from torchmetrics_lite._checks.wrappers import (
    check_classwise_value,
    check_labels_list,
    check_optional_str,
    check_wrapped_metric,
)
from torchmetrics_lite.metric import Metric
from torchmetrics_lite.wrappers._stacked import state_spec

__all__ = ["ClasswiseWrapper"]


class ClasswiseWrapper(Metric):
    """The wrapped metric's per-class values as a dict, one key per class, for logging.

    The wrapped metric must return a 1-D tensor of ``C`` values (e.g. ``MulticlassAccuracy(num_classes=C,
    average=None)``). Key ``i`` is ``prefix + label_i + postfix``; when both ``prefix`` and ``postfix`` are None
    or empty it is ``"<class name in lower case>_" + label_i`` (torchmetrics' format: ``multiclassaccuracy_0``),
    and ``label_i`` is ``labels[i]``, or ``str(i)`` without ``labels``. Values are 0-dim tensors.

    The wrapper declares the wrapped metric's states and calls its ``batch_stats``/``compute_from_stats``, so it
    merges, saves and syncs exactly as the wrapped metric does, and shares its statistics with it in a
    :class:`~torchmetrics_lite.MetricCollection` (same ``stats_key``). It holds a reset copy of the metric: the
    instance passed in is not updated.

    Args:
        metric: a metric with a per-class (1-D) result.
        labels: one name per class (a list of str), or None for ``0, 1, ...``.
        prefix: prepended to every label (replaces the class-name prefix).
        postfix: appended to every label.
        sync_timeout: as :class:`~torchmetrics_lite.Metric`'s (default: the wrapped metric's); the other sync
            settings (``process_group``, ``sync_on_compute``) are the wrapped metric's.

    Returns:
        ``compute()`` and ``forward`` give ``dict[str, Tensor]``.

    Raises:
        TypeError: ``metric`` is not a Metric, ``labels`` is not a list of str, ``prefix``/``postfix`` not a str.
        ValueError: (at compute) the value is not 1-D, or ``labels`` has not one entry per value (torchmetrics
            silently drops the extra classes instead).

    References:
        ``torchmetrics.wrappers.ClasswiseWrapper`` (same keys).

    Examples:
        >>> import torch
        >>> from torchmetrics_lite import MulticlassAccuracy
        >>> acc = ClasswiseWrapper(MulticlassAccuracy(num_classes=3, average=None), labels=["cat", "dog", "fish"])
        >>> acc.update(torch.tensor([0, 1, 2, 2]), torch.tensor([0, 1, 1, 2]))
        >>> {k: round(v.item(), 2) for k, v in acc.compute().items()}
        {'multiclassaccuracy_cat': 1.0, 'multiclassaccuracy_dog': 0.5, 'multiclassaccuracy_fish': 1.0}
        >>> acc = ClasswiseWrapper(MulticlassAccuracy(num_classes=3, average=None), prefix="acc/")
        >>> acc.update(torch.tensor([0, 1, 2, 2]), torch.tensor([0, 1, 1, 2]))
        >>> list(acc.compute())
        ['acc/0', 'acc/1', 'acc/2']
    """

    def __init__(self, metric: Metric, labels: Optional[List[str]] = None, prefix: Optional[str] = None,
                 postfix: Optional[str] = None, sync_timeout: Optional[float] = None) -> None:
        check_wrapped_metric("metric", metric, Metric)
        self.labels = check_labels_list(labels)
        check_optional_str("prefix", prefix)
        check_optional_str("postfix", postfix)
        super().__init__(validate_args=metric.validate_args, process_group=metric.process_group,
                         sync_on_compute=metric.sync_on_compute,
                         sync_timeout=sync_timeout if sync_timeout is not None else metric.sync_timeout)
        base = copy.deepcopy(metric)
        base.reset()
        self.metric = base
        # a wrapper points the way its metric does (MetricTracker reads it); per instance, as the metric varies
        self.higher_is_better = getattr(base, "higher_is_better", None)  # type: ignore[misc]
        self.prefix, self.postfix = prefix, postfix
        for name, (default, reduce) in state_spec(base).items():
            self.add_state(name, default, reduce)
        self.stats_key = base.stats_key

    def batch_stats(self, *args: Any, **kwargs: Any) -> Dict[str, Tensor]:
        """The wrapped metric's statistics of one batch."""
        return self.metric.settled_stats(self.metric.batch_stats(*args, **kwargs))

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Dict[str, Tensor]:
        """The wrapped metric's value, one key per class."""
        name = type(self.metric).__name__
        value = check_classwise_value(self.metric.compute_from_stats(state), self.labels, name)
        if not self.prefix and not self.postfix:  # "" counts as not given, as in torchmetrics
            prefix, postfix = f"{name.lower()}_", ""
        else:
            prefix, postfix = self.prefix or "", self.postfix or ""
        labels = self.labels if self.labels is not None else [str(i) for i in range(value.shape[0])]
        return {f"{prefix}{label}{postfix}": v for label, v in zip(labels, value.unbind(0))}
