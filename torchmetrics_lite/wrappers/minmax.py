"""``MinMaxMetric``: a metric's value with the smallest and largest value it has computed."""
from __future__ import annotations

import copy
from typing import Any, Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks.wrappers import check_scalar_value, check_wrapped_metric
from torchmetrics_lite.metric import Metric
from torchmetrics_lite.wrappers._stacked import state_spec

__all__ = ["MinMaxMetric"]


class MinMaxMetric(Metric):
    """The wrapped metric's value (``"raw"``) beside the minimum and maximum of every value computed so far.

    Each ``compute()`` (and each ``forward``, whose value is the batch's) updates the extremes; they survive
    ``reset()``, so over epochs they are the best and worst epoch (torchmetrics' behaviour). The wrapper declares
    the wrapped metric's states and calls its ``batch_stats``/``compute_from_stats``, so the raw value streams,
    merges and syncs exactly as the metric's; the extremes are per process (each rank tracks the synced values it
    computed, which are the same on every rank) and are not merged by ``merge_state``.

    Args:
        base_metric: a metric with a single-number value (torchmetrics' name).
        kwargs: ``process_group``, ``sync_on_compute``, ``sync_timeout`` of :class:`~torchmetrics_lite.Metric`
            (default: the wrapped metric's).

    Returns:
        ``compute()`` and ``forward``: ``{"raw": value, "max": largest, "min": smallest}``, 0-d tensors.

    Raises:
        TypeError: ``base_metric`` is not a Metric.
        ValueError: (at compute) the value is not a single number (torchmetrics: ``RuntimeError``).

    References:
        ``torchmetrics.wrappers.MinMaxMetric`` (same keys).

    Examples:
        >>> import torch
        >>> from torchmetrics_lite import MeanSquaredError
        >>> m = MinMaxMetric(MeanSquaredError())
        >>> for error in (2.0, 1.0, 3.0):
        ...     m.reset()
        ...     m.update(torch.tensor([error]), torch.tensor([0.0]))
        ...     out = m.compute()
        >>> {k: v.item() for k, v in out.items()}
        {'raw': 9.0, 'max': 9.0, 'min': 1.0}
    """

    def __init__(self, base_metric: Metric, **kwargs: Any) -> None:
        check_wrapped_metric("base_metric", base_metric, Metric)
        for name in ("validate_args", "process_group", "sync_on_compute", "sync_timeout"):
            kwargs.setdefault(name, getattr(base_metric, name))
        super().__init__(**kwargs)
        base = copy.deepcopy(base_metric)
        base.reset()
        self.base_metric = base
        self.higher_is_better = getattr(base, "higher_is_better", None)  # type: ignore[misc]
        self.min_val: Optional[Tensor] = None
        self.max_val: Optional[Tensor] = None
        for name, (default, reduce) in state_spec(base).items():
            self.add_state(name, default, reduce)
        self.stats_key = base.stats_key

    def batch_stats(self, *args: Any, **kwargs: Any) -> Dict[str, Tensor]:
        """The wrapped metric's statistics of one batch."""
        return self.base_metric.settled_stats(self.base_metric.batch_stats(*args, **kwargs))

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Dict[str, Tensor]:
        """The wrapped metric's value; the extremes take it in (NaN values are skipped)."""
        value = check_scalar_value(self.base_metric.compute_from_stats(state), type(self.base_metric).__name__,
                                   "MinMaxMetric")
        if self.min_val is None or self.max_val is None:
            self.min_val, self.max_val = value.clone(), value.clone()
        else:
            self.min_val = torch.fmin(self.min_val.to(value), value)
            self.max_val = torch.fmax(self.max_val.to(value), value)
        return {"raw": value, "max": self.max_val.clone(), "min": self.min_val.clone()}
