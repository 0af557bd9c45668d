"""``MetricCollection``: several metrics fed the same batches, computed with shared statistics and one sync."""
from __future__ import annotations

import copy
import inspect
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import torch
from torch import Tensor, nn

from torchmetrics_lite import sync
from torchmetrics_lite._checks import check_sync_timeout
from torchmetrics_lite._compat import raise_unknown_argument
from torchmetrics_lite.metric import Metric, update_signature

__all__ = ["MetricCollection"]

Members = Union[Metric, "MetricCollection", Sequence[Union[Metric, "MetricCollection"]],
                Mapping[str, Union[Metric, "MetricCollection"]]]


def _check_compute_groups(value: Any) -> None:
    ok = isinstance(value, bool) or (isinstance(value, (list, tuple)) and all(
        isinstance(group, (list, tuple)) and all(isinstance(name, str) for name in group) for group in value))
    if not ok:
        raise TypeError(f"Expected `compute_groups` to be a bool or a list of lists of member names, got {value!r}")


def _keywords(metric: Metric) -> Optional[frozenset]:
    """The keyword arguments ``metric.update`` accepts, or None when it takes ``**kwargs`` (all of them)."""
    signature = inspect.signature(metric.update) if metric.overrides_update else update_signature(metric)
    params = signature.parameters.values()
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return None
    return frozenset(p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


class MetricCollection(nn.ModuleDict):
    """A dict of metrics that are updated, computed and reset together (torchmetrics' ``MetricCollection``).

    Args:
        metrics: a dict ``name -> Metric``, a sequence of metrics (named by their class names), one metric, or
            other collections (nested: their members join this one, named ``"<key>_<member key>"`` in a dict,
            by their own prefixed keys in a sequence).
        *additional_metrics: more metrics when ``metrics`` is a metric or a sequence (as in torchmetrics).
        prefix: added before every key of :meth:`compute`, :meth:`forward`, :meth:`keys` and :meth:`items`.
        postfix: added after every such key.
        sync_timeout: seconds :meth:`compute` waits for every rank to join the sync before it raises a
            ``RuntimeError`` (see :class:`~torchmetrics_lite.Metric`); ``None`` (the default) takes the smallest
            ``sync_timeout`` of the members that sync, or waits as long as the process group when none has one.
        compute_groups: torchmetrics' argument. ``True`` (the default) shares batch statistics between members
            with the same ``stats_key``, found automatically; a list of groups of member names (torchmetrics'
            explicit groups) is accepted and changes nothing (the groups are found from the ``stats_key``
            whatever it says; the values are the same with or without sharing); ``False`` turns sharing off
            (every member computes its own statistics).

    Raises:
        TypeError: a member is not a Metric, an unknown keyword, or ``compute_groups`` neither a bool nor a
            list of lists of names.
        ValueError: two members with the same name.

    * ``update(*args, **kwargs)`` passes the positional arguments to every member and each keyword argument only
      to the members whose ``batch_stats`` accepts it (retrieval's ``indexes=`` beside classification metrics).
      Members that declare the same ``stats_key`` (precision, recall and F1 over the same counts) have their
      batch statistics computed once. Every member validates the batch before any state changes: a batch that
      one member rejects leaves every member unchanged.
    * ``compute()`` syncs all members with one packed collective per dtype (plus the ``cat`` exchanges), then
      returns a flat dict ``{prefix + name + postfix: value}`` of values the caller owns; a member whose value is a
      dict (``ClasswiseWrapper``, ``BootStrapper``) gives its own keys instead of its name, as torchmetrics
      (``{prefix + key + postfix: value}``, so Lightning's ``log_dict`` takes it); two values under one key raise.
    * ``forward`` returns the batch values the same way and merges the batch.
    * ``keys()``/``items()`` give the prefixed names (``keep_base=True``: the members' own names);
      ``collection["name"]`` takes either.
    * States are not in ``state_dict()`` unless :meth:`persistent` is set (as for every metric).

    Examples:
        >>> import torch
        >>> from torchmetrics_lite import MeanMetric, SumMetric, MaxMetric
        >>> mc = MetricCollection({"mean": MeanMetric(), "total": SumMetric(), "peak": MaxMetric()}, prefix="val/")
        >>> mc.update(torch.tensor([1.0, 2.0, 6.0]))
        >>> {k: v.item() for k, v in mc.compute().items()}
        {'val/mean': 3.0, 'val/total': 9.0, 'val/peak': 6.0}
        >>> list(mc.clone("test/").keys())
        ['test/mean', 'test/total', 'test/peak']
    """

    def __init__(self, metrics: Members, *additional_metrics: Metric, prefix: Optional[str] = None,
                 postfix: Optional[str] = None, sync_timeout: Optional[float] = None,
                 compute_groups: Union[bool, List[List[str]]] = True, **kwargs: Any) -> None:
        for name in kwargs:
            raise_unknown_argument(type(self).__name__, name, ["prefix", "postfix", "sync_timeout", "compute_groups"])
        _check_compute_groups(compute_groups)
        super().__init__()  # not super().__init__(metrics): ModuleDict would call our `update` to fill itself
        self._compute_groups = compute_groups
        self.prefix = prefix or ""
        self.postfix = postfix or ""
        self.sync_timeout = check_sync_timeout(sync_timeout)
        self._accepts: Dict[str, Optional[frozenset]] = {}
        self.add_metrics(metrics, *additional_metrics)

    def add_metrics(self, metrics: Members, *additional_metrics: Metric) -> None:
        """Add members (same forms as the constructor's ``metrics``).

        Raises:
            TypeError: a value is neither a Metric nor a MetricCollection.
            ValueError: a name already in the collection.
        """
        if isinstance(metrics, (Metric, MetricCollection)):
            metrics = [metrics]
        if additional_metrics:
            if isinstance(metrics, Mapping):
                raise TypeError("Expected no extra positional metrics after a dict of metrics; put them in the dict")
            metrics = [*metrics, *additional_metrics]
        named: List[Tuple[str, Any]] = []
        if isinstance(metrics, Mapping):
            for key, m in metrics.items():
                if isinstance(m, MetricCollection):
                    named += [(f"{key}_{k}", v) for k, v in m.items()]
                else:
                    named.append((key, m))
        else:
            for m in metrics:
                named += list(m.items()) if isinstance(m, MetricCollection) else [(type(m).__name__, m)]
        for name, m in named:
            if not isinstance(m, Metric):
                raise TypeError(f"Expected every value of `metrics` to be a Metric, "
                                f"got {type(m).__name__} for {name!r}")
            if name in self._modules:
                raise ValueError(f"Expected distinct member names, got {name!r} twice; pass a dict to name them")
            self.add_module(name, m)
            self._accepts[name] = _keywords(m)

    # ------------------------------------------------------------------ updating
    def _groups(self) -> List[Tuple[str, List[Metric]]]:
        """Members grouped by shared statistics (a metric with ``stats_key=None`` is alone)."""
        groups: Dict[Any, Tuple[str, List[Metric]]] = {}
        for name, m in self._members():
            # members share statistics only if they validate alike: group[0]'s checks run for all of them
            shared = m.stats_key is not None and not m.overrides_update and self._compute_groups is not False
            key = (m.stats_key, m.validate_args) if shared else ("__own__", name)
            groups.setdefault(key, (name, []))[1].append(m)
        return list(groups.values())

    def _batch_stats(self, *args: Any, **kwargs: Any) -> List[Tuple[List[Metric], Dict[str, Tensor]]]:
        # validate and compute everything first, so that a rejected batch changes no member
        out = []
        for name, group in self._groups():
            if group[0].overrides_update:
                continue  # a subclass's own update: run by update/forward after every other member validated
            out.append((group, group[0].batch_stats(*args, **self._own(name, kwargs))))
        for _, m in self._members():
            m.check_accepted(args)  # warnings about the accepted batch (from_logits=True on probabilities)
        return out

    def _own(self, name: str, kwargs: Dict[str, Any]) -> Dict[str, Any]:
        accepts = self._accepts[name]
        return kwargs if accepts is None else {k: v for k, v in kwargs.items() if k in accepts}

    def update(self, *args: Any, **kwargs: Any) -> None:
        """Update every member with one batch (each gets the keyword arguments its ``batch_stats`` accepts)."""
        with torch.no_grad():
            for group, stats in self._batch_stats(*args, **kwargs):
                for m in group:
                    m.update_from_stats(stats)
        for name, m in self._members():
            if m.overrides_update:
                m.update(*args, **self._own(name, kwargs))

    def forward(self, *args: Any, **kwargs: Any) -> Dict[str, Any]:
        """Every member's value on this batch alone (prefixed keys); the batch is merged into the states."""
        values = {}
        with torch.no_grad():
            for group, stats in self._batch_stats(*args, **kwargs):
                for m in group:
                    values[id(m)] = m.value_from_stats(stats)
                    m.update_from_stats(stats)
        for name, m in self._members():
            if m.overrides_update:
                values[id(m)] = m(*args, **self._own(name, kwargs))
        return self._flat((name, values[id(m)]) for name, m in self._members())

    def _flat(self, values: Iterable[Tuple[str, Any]]) -> Dict[str, Any]:
        """``{prefix + key + postfix: value}``; a member whose value is a dict (``ClasswiseWrapper``,
        ``BootStrapper``) gives its own keys, flattened as torchmetrics does (Lightning's ``log_dict`` takes no
        nested dicts). Two values under one key raise."""
        out: Dict[str, Any] = {}
        for name, value in values:
            for key, v in (value.items() if isinstance(value, dict) else [(name, value)]):
                full = self._key(key)
                if full in out:
                    raise ValueError(f"Expected distinct keys in the values of a MetricCollection, got {full!r} "
                                     f"twice (member {name!r} returns a dict); give the members prefixes or labels")
                out[full] = v
        return out

    def plot(self, val: Any = None, ax: Any = None, together: bool = False) -> Any:
        """torchmetrics' ``MetricCollection.plot``: a list of ``(fig, ax)``, one per member (``ax``: one axes
        per member), or with ``together=True`` one ``(fig, ax)`` with every value. Needs matplotlib.

        Args:
            val: the collection's value (default :meth:`compute`), or a list of them (one per step).
            ax: a sequence of matplotlib ``Axes`` (one per member; with ``together``: one ``Axes``).
            together: every value on one axes.
        """
        from torchmetrics_lite.plotting.dispatch import plot_collection

        return plot_collection(self, val, ax, together)

    def set_dtype(self, dst_type: Union[str, torch.dtype]) -> "MetricCollection":
        """Every member's results in ``dst_type`` (torchmetrics' ``MetricCollection.set_dtype``; see
        :meth:`Metric.set_dtype`). Returns the collection."""
        for _, m in self._members():
            m.set_dtype(dst_type)
        return self

    # ------------------------------------------------------------------ computing
    def compute(self) -> Dict[str, Any]:
        """Every member's value over everything merged so far, synced in one batched exchange.

        Raises:
            ValueError: members that sync use different process groups.
        """
        pending = [(name, m) for name, m in self._members() if not m.is_computed]
        syncing = [(name, m) for name, m in pending if m.sync_on_compute]
        if len({id(m.process_group) for _, m in syncing}) > 1:
            raise ValueError("Expected every member of a MetricCollection to use the same `process_group`")
        if syncing:
            items = [(m.local_state(), m.state_reductions) for _, m in syncing]
            names = [None if m.sync_identity is None else f"{name} ({m.sync_identity})" for name, m in syncing]
            timeouts = [t for t in [self.sync_timeout] + [m.sync_timeout for _, m in syncing] if t is not None]
            reduced = sync.reduce_states(items, syncing[0][1].process_group, names=names,
                                         options=[m.sync_options for _, m in syncing],
                                         timeout=timeouts[0] if self.sync_timeout is not None else min(
                                             timeouts, default=None))
            for (_, m), state in zip(syncing, reduced):
                m.compute_from_synced(state)
        return self._flat((name, m.compute()) for name, m in self._members())

    def reset(self) -> None:
        """Reset every member."""
        for _, m in self._members():
            m.reset()

    def persistent(self, mode: bool = False) -> None:
        """Choose whether every member's states go into ``state_dict()`` (see :meth:`Metric.persistent`)."""
        for _, m in self._members():
            m.persistent(mode)

    def clone(self, prefix: Optional[str] = None, postfix: Optional[str] = None) -> "MetricCollection":
        """A deep copy with a new prefix/postfix when given (one collection per stage: train/val/test)."""
        new = copy.deepcopy(self)
        if prefix is not None:
            new.prefix = prefix
        if postfix is not None:
            new.postfix = postfix
        return new

    # ------------------------------------------------------------------ dict interface
    @property
    def compute_groups(self) -> Dict[int, List[str]]:
        """The members that share batch statistics, as torchmetrics' property: ``{0: [names], 1: [names], ...}``
        (member names without prefix and postfix)."""
        names = {id(m): name for name, m in self._members()}
        return {i: [names[id(m)] for m in group] for i, (_, group) in enumerate(self._groups())}

    def _members(self) -> Iterable[Tuple[str, Metric]]:
        return self._modules.items()  # type: ignore[return-value]

    def _key(self, name: str) -> str:
        return f"{self.prefix}{name}{self.postfix}"

    def keys(self, keep_base: bool = False) -> Iterator[str]:  # type: ignore[override]
        """Member keys as :meth:`compute` returns them; ``keep_base=True``: without prefix and postfix."""
        for name in self._modules:
            yield name if keep_base else self._key(name)

    def items(self, keep_base: bool = False) -> Iterator[Tuple[str, Metric]]:  # type: ignore[override]
        """``(key, metric)`` pairs, keys as in :meth:`keys`."""
        for name, m in self._members():
            yield (name if keep_base else self._key(name)), m

    def values(self) -> Iterator[Metric]:  # type: ignore[override]
        """The member metrics."""
        for _, m in self._members():
            yield m

    def __iter__(self) -> Iterator[str]:
        return self.keys()

    def __getitem__(self, key: str) -> Metric:
        """A member by its own name or by its prefixed key."""
        if key not in self._modules and key.startswith(self.prefix) and key.endswith(self.postfix):
            key = key[len(self.prefix) : len(key) - len(self.postfix)]
        return self._modules[key]  # type: ignore[return-value]

    def __setitem__(self, key: str, metric: Metric) -> None:  # type: ignore[override]
        self.add_metrics({key: metric})

    def __contains__(self, key: object) -> bool:
        return key in self._modules or (isinstance(key, str) and key in set(self.keys()))

    @property
    def sync_options(self) -> str:
        """Every member's name, class and options (how a wrapped collection appears in a wrapper's options)."""
        return ", ".join(f"{name}={type(m).__qualname__}({m.sync_options})" for name, m in self._members())

    def extra_repr(self) -> str:
        return f"prefix={self.prefix!r}, postfix={self.postfix!r}" if self.prefix or self.postfix else ""
