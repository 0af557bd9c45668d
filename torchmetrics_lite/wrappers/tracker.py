"""``MetricTracker``: one copy of a metric (or collection) per epoch, and the best epoch."""
from __future__ import annotations

import copy
import warnings
from typing import Any, Dict, List, Optional, Tuple, Union, cast

import torch
from torch import Tensor, nn

from torchmetrics_lite._checks.wrappers import check_maximize, check_tracked
from torchmetrics_lite.collection import MetricCollection
from torchmetrics_lite.metric import Metric
from torchmetrics_lite.wrappers.classwise import ClasswiseWrapper

__all__ = ["MetricTracker"]

Tracked = Union[Metric, MetricCollection]


class MetricTracker(nn.ModuleList):
    """Keeps one copy of a metric or collection per step (epoch) and finds the best step.

    ``increment()`` appends a fresh (reset) copy of the tracked metric; ``update``, ``forward``, ``compute`` and
    ``reset`` act on the latest copy; ``compute_all()`` computes every copy; ``best_metric()`` picks the best
    step. Copies are submodules (``tracker[-1]`` is the current step), so they move with the tracker and sync as
    their metric does.

    Args:
        metric: a :class:`~torchmetrics_lite.Metric` or :class:`~torchmetrics_lite.MetricCollection`.
        maximize: whether higher is better: a bool, or for a collection a list with one bool per member, in the
            collection's order (insertion order; torchmetrics sorts its members by name, so a list written in
            that order means the same in both). The
            default ``None`` takes each metric's ``higher_is_better`` attribute and raises if one has none
            (as torchmetrics >= 1.7; older torchmetrics defaulted to ``True``).

    Returns:
        ``compute_all()``: the values of every step stacked along a new first dimension (a tensor for a metric,
        a dict of tensors for a collection), or a list of the values when they do not stack.
        ``best_metric()``: the best value as a Python number (a dict ``{key: value}`` for a collection, whose
        dict-valued members are flattened, or a ``ClasswiseWrapper``: the best of each key, as torchmetrics);
        ``best_metric(return_step=True)``: ``(value, step)`` (two dicts for a collection). A value that has no
        best (not one number per step) is ``None``, with a warning.

    Raises:
        TypeError: ``metric`` is neither a Metric nor a MetricCollection, or ``maximize`` is not a bool or a
            list of bool.
        ValueError: ``maximize`` is a list for a single metric, or its length is not the collection's;
            ``update``/``compute``/``forward``/``compute_all`` before the first ``increment()``.
        AttributeError: ``maximize=None`` and a metric has no ``higher_is_better``.

    References:
        ``torchmetrics.wrappers.MetricTracker`` (same methods, return types and messages).

    Examples:
        >>> from torchmetrics_lite import MeanSquaredError
        >>> tracker = MetricTracker(MeanSquaredError(), maximize=False)
        >>> for epoch_error in [3.0, 1.0, 2.0]:
        ...     tracker.increment()
        ...     tracker.update(torch.tensor([epoch_error]), torch.tensor([0.0]))
        >>> tracker.compute_all()
        tensor([9., 1., 4.], dtype=torch.float64)
        >>> tracker.best_metric(return_step=True)
        (1.0, 1)
    """

    def __init__(self, metric: Tracked, maximize: Union[bool, List[bool], None] = None) -> None:
        super().__init__()
        members = check_tracked(metric, Metric, MetricCollection)
        self.maximize = _infer_maximize(metric) if maximize is None else check_maximize(maximize, members)
        self._base_metric = copy.deepcopy(metric)
        self._base_metric.reset()
        self._increment_called = False

    @property
    def n_steps(self) -> int:
        """Number of steps (``increment()`` calls) so far."""
        return len(self) - 1

    def increment(self) -> None:
        """Start a new step with a fresh copy of the tracked metric."""
        self._increment_called = True
        self.append(copy.deepcopy(self._base_metric))

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """``forward`` of the current step's metric."""
        self._check_for_increment("forward")
        return self._current()(*args, **kwargs)

    def update(self, *args: Any, **kwargs: Any) -> None:
        """``update`` of the current step's metric."""
        self._check_for_increment("update")
        self._current().update(*args, **kwargs)

    def compute(self) -> Any:
        """``compute`` of the current step's metric."""
        self._check_for_increment("compute")
        return self._current().compute()

    def compute_all(self) -> Any:
        """The value of every step, stacked (see the class docstring)."""
        self._check_for_increment("compute_all")
        res: List[Any] = [cast(Any, m).compute() for m in list(self)[1:]]
        try:
            if isinstance(res[0], dict):
                return {k: torch.stack([r[k] for r in res], dim=0) for k in res[0]}
            if isinstance(res[0], list):
                return torch.stack([torch.stack(r, dim=0) for r in res], dim=0)
            return torch.stack(res, dim=0)
        except TypeError:  # values that do not stack (nested dicts, ...) are returned as they are
            return res

    def reset(self) -> None:
        """Reset the current step's metric."""
        self._current().reset()

    def reset_all(self) -> None:
        """Reset every step's metric."""
        for m in self:
            cast(Any, m).reset()

    def best_metric(self, return_step: bool = False) -> Any:
        """The best value over the steps, and with ``return_step=True`` its step (see the class docstring)."""
        res = self.compute_all()
        if isinstance(res, list):
            warnings.warn("Encountered a nested structure (a collection or wrapper inside a collection), which "
                          "best_metric() does not support; returning None", UserWarning, stacklevel=2)
            return (None, None) if return_step else None
        if isinstance(self._base_metric, Metric) and not isinstance(self._base_metric, ClasswiseWrapper):
            value, step = _best(res, bool(self.maximize), "the metric")
            return (value, step) if return_step else value
        values: Dict[str, Optional[float]] = {}
        steps: Dict[str, Optional[int]] = {}
        for key, up in self._maximize_per_key(res).items():
            values[key], steps[key] = _best(res[key], up, f"metric {key}")
        return (values, steps) if return_step else values

    def _maximize_per_key(self, res: Dict[str, Any]) -> Dict[str, bool]:
        """Each key of a dict of values (a dict-valued metric's keys, or a collection's, dict-valued members
        flattened) -> its ``maximize`` (a list gives each member's to all of that member's keys)."""
        if not isinstance(self.maximize, list):
            return {key: bool(self.maximize) for key in res}
        current = self._current()
        out: Dict[str, bool] = {}
        for (name, m), up in zip(current.items(keep_base=True), self.maximize):
            out.update((key, up) for key in current._flat([(name, m.compute())]))
        return out

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """torchmetrics' ``MetricTracker.plot``: every step's value (default :meth:`compute_all`) as a line over
        the steps; returns ``(fig, ax)``. Needs matplotlib.

        Args:
            val: the per-step values as :meth:`compute_all` returns them.
            ax: a matplotlib ``Axes``.
        """
        from torchmetrics_lite.plotting.dispatch import plot_tracker

        return plot_tracker(self, val, ax)

    def _current(self) -> Any:
        return self[-1]

    def _check_for_increment(self, method: str) -> None:
        if not self._increment_called:
            raise ValueError(f"`{method}` cannot be called before `.increment()` has been called.")


def _best(values: Any, maximize: bool, what: str) -> Tuple[Optional[Any], Optional[int]]:
    if not isinstance(values, Tensor):  # a dict-valued metric (a test's statistic and p-value...): no one best
        shown = f" with keys {sorted(values)}" if isinstance(values, dict) else ""
        warnings.warn(f"The value of {what} is a {type(values).__name__}{shown}, not one number per step; "
                      "best_metric() returns None for it", UserWarning, stacklevel=3)
        return None, None
    try:
        value, idx = (torch.max if maximize else torch.min)(values, 0)
        return value.item(), int(idx.item())
    except (ValueError, RuntimeError) as error:
        warnings.warn(f"Encountered the following error when trying to get the best value of {what}: {error}; "
                      "the best is probably not defined for it. Returning None.", UserWarning, stacklevel=3)
        return None, None


def _infer_maximize(metric: Tracked) -> Union[bool, List[bool]]:
    members = [("metric", metric)] if isinstance(metric, Metric) else list(metric.items())
    out = []
    for name, m in members:
        higher = getattr(m, "higher_is_better", None)
        if higher is None:
            raise AttributeError(f"The metric {name!r} ({type(m).__name__}) has no `higher_is_better` attribute; "
                                 "pass `maximize` explicitly")
        out.append(bool(higher))
    return out[0] if isinstance(metric, Metric) else out
