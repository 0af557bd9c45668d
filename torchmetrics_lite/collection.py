"""``MetricCollection``: several metrics fed the same batches, computed with shared statistics and one sync."""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import torch
from torch import Tensor, nn

from torchmetrics_lite import sync
from torchmetrics_lite.metric import Metric

__all__ = ["MetricCollection"]


class MetricCollection(nn.ModuleDict):
    """A dict of metrics that are updated, computed and reset together.

    Args:
        metrics: a dict ``name -> Metric``, or a sequence of metrics (named by their class names).
        prefix, postfix: added to every key of :meth:`compute` and :meth:`forward` results (``"val/"``...).

    * ``update(*args, **kwargs)`` passes the same arguments to every member. Members that declare the same
      ``stats_key`` (precision, recall and F1 over the same counts, say) have their batch statistics computed
      once and merged into each of them.
    * ``compute()`` syncs all members with one packed collective per dtype (plus the ``cat`` exchanges), then
      returns a flat dict ``{prefix + name + postfix: value}``.
    * ``forward`` returns the batch values the same way and merges the batch.

    >>> import torch
    >>> from torchmetrics_lite import MeanMetric, SumMetric, MaxMetric
    >>> mc = MetricCollection({"mean": MeanMetric(), "total": SumMetric(), "peak": MaxMetric()}, prefix="val/")
    >>> mc.update(torch.tensor([1.0, 2.0, 6.0]))
    >>> {k: v.item() for k, v in mc.compute().items()}
    {'val/mean': 3.0, 'val/total': 9.0, 'val/peak': 6.0}
    """

    def __init__(self, metrics: Union[Mapping[str, Metric], Sequence[Metric]], *, prefix: str = "",
                 postfix: str = "") -> None:
        if not isinstance(metrics, Mapping):
            named: Dict[str, Metric] = {}
            for m in metrics:
                name = type(m).__name__
                if name in named:
                    raise ValueError(f"Expected distinct metric classes in a sequence, got {name} twice; pass a dict")
                named[name] = m
            metrics = named
        for name, m in metrics.items():
            if not isinstance(m, Metric):
                raise TypeError(f"Expected every value of `metrics` to be a Metric, "
                                f"got {type(m).__name__} for {name!r}")
        super().__init__()  # not super().__init__(metrics): ModuleDict would call our `update` to fill itself
        for name, m in metrics.items():
            self[name] = m
        self.prefix = prefix
        self.postfix = postfix

    def _groups(self) -> List[List[Metric]]:
        """Members grouped by shared statistics (a metric with ``stats_key=None`` is alone)."""
        groups: Dict[Any, List[Metric]] = {}
        for name, m in self.items():
            # members share statistics only if they validate alike: group[0]'s checks run for all of them
            key = (m.stats_key, m.validate_args) if m.stats_key is not None else ("__own__", name)
            groups.setdefault(key, []).append(m)
        return list(groups.values())

    def _batch_stats(self, *args: Any, **kwargs: Any) -> List[Tuple[List[Metric], Dict[str, Tensor]]]:
        # validate and compute everything first, so that a rejected batch changes no member
        return [(group, group[0].batch_stats(*args, **kwargs)) for group in self._groups()]

    @torch.no_grad()
    def update(self, *args: Any, **kwargs: Any) -> None:
        for group, stats in self._batch_stats(*args, **kwargs):
            for m in group:
                m._merge_stats(stats)

    @torch.no_grad()
    def forward(self, *args: Any, **kwargs: Any) -> Dict[str, Any]:
        values = {}
        for group, stats in self._batch_stats(*args, **kwargs):
            for m in group:
                values[id(m)] = m.compute_from_stats(stats)
                m._merge_stats(stats)
        return {self._key(name): values[id(m)] for name, m in self.items()}

    def compute(self) -> Dict[str, Any]:
        pending = [m for m in self.values() if m._computed is None]
        syncing = [m for m in pending if m.sync_on_compute]
        groups = {id(m.process_group) for m in syncing}
        if len(groups) > 1:
            raise ValueError("Expected every member of a MetricCollection to use the same `process_group`")
        items = [(m.local_state(), m._reductions) for m in syncing]
        reduced = sync.reduce_states(items, syncing[0].process_group) if syncing else []
        for m, state in zip(syncing, reduced):
            m._computed = m._value(state)
        for m in pending:
            if not m.sync_on_compute:
                m.compute()
        return {self._key(name): m._computed for name, m in self.items()}

    def reset(self) -> None:
        for m in self.values():
            m.reset()

    def _key(self, name: str) -> str:
        return f"{self.prefix}{name}{self.postfix}"

    def keys(self, *, prefixed: bool = False) -> Iterator[str]:  # type: ignore[override]
        """Member names; ``prefixed=True`` gives the keys :meth:`compute` returns."""
        for name in super().keys():
            yield self._key(name) if prefixed else name

    def extra_repr(self) -> str:
        return f"prefix={self.prefix!r}, postfix={self.postfix!r}" if self.prefix or self.postfix else ""

    def clone(self, *, prefix: Optional[str] = None, postfix: Optional[str] = None) -> "MetricCollection":
        """A deep copy with fresh prefix/postfix (one collection per stage: train/val/test)."""
        import copy

        new = copy.deepcopy(self)
        new.prefix = self.prefix if prefix is None else prefix
        new.postfix = self.postfix if postfix is None else postfix
        return new
