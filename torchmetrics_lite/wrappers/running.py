"""``Running``: a metric over the last ``window`` updates only."""
from __future__ import annotations

import copy
from typing import Any, Dict, Optional, Union

import torch
from torch import Tensor

from torchmetrics_lite._checks.wrappers import check_same_running, check_window, check_wrapped_metric
from torchmetrics_lite.metric import Metric
from torchmetrics_lite.wrappers._stacked import TAG, declare_stacked, default_on, fold_copies, state_spec

__all__ = ["Running"]

_UPDATES = "window__updates"
_MIN_COMPACT_ROWS = 4096


class Running(Metric):
    """The wrapped metric over its last ``window`` updates (a sliding window of batches).

    The value is the wrapped metric computed from the statistics of the last ``window`` calls of ``update`` (or
    ``forward``) only, exactly as if those batches had been fed to a fresh metric: a window of
    :class:`~torchmetrics_lite.BinaryAUROC` is the exact AUROC of the last ``window`` batches' scores.
    ``forward`` returns the value of the batch alone (as the wrapped metric's ``forward``) and moves the window.

    States (ordinary metric states, so ``merge_state``, ``state_dict`` and the distributed sync handle them):
    a ring of ``window`` slots per state of the wrapped metric, slot ``u % window`` written by update ``u``
    (a sum/max/min/fold state of shape ``S`` becomes ``(window, *S)`` with the same reduction); a ``cat`` state
    keeps its rows plus an int64 slot tag per row, and a row whose slot is overwritten is marked dead (tag -1)
    and dropped at the next compaction. ``compute`` folds the live slots and calls the wrapped metric's
    ``compute_from_stats``, so an empty window gives the wrapped metric's empty value.

    Merging (``merge_state`` and the sync in a process group) is the slot-wise union, as in torchmetrics: after
    a sync the value covers every rank's last ``window`` updates; later updates overwrite slot by slot, merged
    contributions included. Cost: an update writes one slot (no host sync) for sum/max/min/fold states; with
    ``cat`` states, a compaction (one host sync) runs when the buffer has grown to twice its live rows, which
    is about once every ``window`` updates.

    Args:
        metric: the metric to run over the window (copied and reset; the instance passed is left unchanged).
        window: number of most recent updates the value covers (default 5, as torchmetrics).
        kwargs: ``process_group`` and ``sync_on_compute`` of :class:`~torchmetrics_lite.Metric`; the wrapped
            metric's ``validate_args`` applies to its inputs.

    Raises:
        TypeError: ``metric`` is not a Metric.
        ValueError: ``window`` is not a positive int.

    References:
        ``torchmetrics.wrappers.Running`` (same value; it keeps ``window`` copies of the state, as here).

    Examples:
        >>> from torchmetrics_lite import SumMetric
        >>> running = Running(SumMetric(), window=3)
        >>> [running(torch.tensor([float(i)])).item() for i in range(5)]  # forward: the batch value
        [0.0, 1.0, 2.0, 3.0, 4.0]
        >>> running.compute().item()  # 2 + 3 + 4
        9.0
    """

    def __init__(self, metric: Metric, window: int = 5, **kwargs: Any) -> None:
        check_wrapped_metric("metric", metric, Metric)
        check_window(window)
        kwargs.setdefault("validate_args", metric.validate_args)
        super().__init__(**kwargs)
        base = copy.deepcopy(metric)
        base.reset()
        self.metric = base
        # a wrapper points the way its metric does (MetricTracker reads it); per instance, as the metric varies
        self.higher_is_better = getattr(base, "higher_is_better", None)  # type: ignore[misc]
        self.window = window
        self._spec = state_spec(base)
        self._cats = [name for name, (_, reduce) in self._spec.items() if reduce == "cat"]
        declare_stacked(self, self._spec, window)
        self.add_state(_UPDATES, torch.zeros((), dtype=torch.int64), "max")
        self._updates: Optional[int] = 0  # host mirror of the update counter (None: read it from the state)
        self._compacted_rows = 0
        self.stats_key = None if base.stats_key is None else ("Running", window, base.stats_key)

    # ------------------------------------------------------------------ hooks
    def batch_stats(self, *args: Any, **kwargs: Any) -> Dict[str, Tensor]:
        """The wrapped metric's statistics of one batch (its checks run here)."""
        return self.metric.settled_stats(self.metric.batch_stats(*args, **kwargs))

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Any:
        """The wrapped metric's value: of a window (ring states) or of one batch (its own statistics)."""
        if _UPDATES in state:
            state = fold_copies(self._spec, state)
        return self.metric.compute_from_stats(state)

    # ------------------------------------------------------------------ the ring
    def _merge_stats(self, stats: Dict[str, Tensor]) -> None:
        """Ring-form stats (a merge, a sync, a compaction) merge slot-wise; one batch's stats take the next slot."""
        if _UPDATES in stats:
            super()._merge_stats(stats)
            self._updates = None
            return
        self._write(stats)

    def _write(self, stats: Dict[str, Tensor]) -> None:
        if self.update_count == 0:  # the float64-less device policy converts the states before they are read
            self._first_update(stats)
        raw = Metric._views(self)  # the buffers themselves (cat states: views of their filled rows)
        if stats:
            device = next(iter(stats.values())).device
            if raw[_UPDATES].device != device:
                self.to(device)
                raw = Metric._views(self)
        counter = raw[_UPDATES]
        if self._updates is None:
            self._updates = int(counter)
        slot = self._updates % self.window
        appended: Dict[str, Tensor] = {}
        for name, (default, reduce) in self._spec.items():
            if reduce == "cat":
                tags = raw[name + TAG]  # a view of the buffer: marking in place evicts the old slot
                tags.masked_fill_(tags == slot, -1)
                if name in stats:
                    rows = stats[name]
                    appended[name] = rows
                    appended[name + TAG] = torch.full((rows.shape[0],), slot, dtype=torch.int64, device=rows.device)
            else:
                raw[name][slot] = stats[name] if name in stats else default_on(default, raw[name].device)
        counter.add_(1)
        self._updates += 1
        super()._merge_stats(appended)  # appends the cat rows and drops the cached value
        self._maybe_compact()

    def _maybe_compact(self) -> None:
        if not self._cats:
            return
        raw = Metric._views(self)
        physical = max(raw[name].shape[0] for name in self._cats)
        if physical <= max(2 * self._compacted_rows, _MIN_COMPACT_ROWS):
            return
        live = {name: value.clone() for name, value in self._views().items()}
        self._compacted_rows = max(live[name].shape[0] for name in self._cats)
        updates = self._updates
        Metric.reset(self)
        super()._merge_stats(live)
        self._updates = updates

    def _views(self) -> Dict[str, Tensor]:
        """The states without the dead rows of ``cat`` states (what ``local_state``, compute, merging and
        ``state_dict`` see)."""
        state = super()._views()
        for name in self._cats:
            tags = state[name + TAG]
            live = tags >= 0
            state[name], state[name + TAG] = state[name][live], tags[live]
        return state

    # ------------------------------------------------------------------ Metric API
    def reset(self) -> None:
        super().reset()
        self._updates = 0
        self._compacted_rows = 0

    def merge_state(self, other: Union[Metric, Dict[str, Tensor], Any]) -> "Running":
        if isinstance(other, Running):
            check_same_running(self, other)
        super().merge_state(other)
        return self

    def _load_from_state_dict(self, *args: Any, **kwargs: Any) -> None:
        super()._load_from_state_dict(*args, **kwargs)
        self._updates = None
        self._compacted_rows = 0
