"""The stateful ``Metric`` base class.

A metric is its sufficient statistics plus an associative merge and a compute (CLU's model). Subclasses
declare their states with :meth:`Metric.add_state` and implement two pure hooks:

* ``batch_stats(*args, **kwargs) -> dict[str, Tensor]``: validate one batch and return its statistics, one entry
  per declared state (same shape as the state for ``sum``/``max``/``min`` states, rows to append for ``cat``).
* ``compute_from_stats(state: dict[str, Tensor]) -> Any``: the metric value from (merged) statistics.

Everything else (``update``, ``forward``, ``compute`` with its cache and distributed sync, ``merge_state``,
``reset``, ``state_dict``, device moves) lives here, so that the module and the functional form can never
disagree: the functional ``x(...)`` is ``_x_from_stats(_x_stats(...))`` and so is the module.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Hashable, Iterable, Optional, Union

import torch
from torch import Tensor, nn

from torchmetrics_lite import sync
from torchmetrics_lite._checks import check_choice

__all__ = ["Metric"]

_REDUCTIONS = ("sum", "max", "min", "cat")
_MIN_CAPACITY = 1024


class Metric(nn.Module):
    """Base class of every stateful metric.

    Args:
        validate_args: run the input checks that need a device-to-host sync (value ranges, NaN). Shape and dtype
            checks, which cost nothing, always run.
        process_group: the ``torch.distributed`` group to sync over in :meth:`compute` (default: the world).
        sync_on_compute: set ``False`` to compute on the local state only, even in a process group.

    States follow the metric's device moves (``.to(device)``, ``.cuda()``; dtype casts such as ``.half()`` or
    ``.to(torch.float64)`` leave them as they are, so a model cast to half precision keeps exact metric
    states), are saved by ``state_dict()`` (``cat`` states trimmed to their filled rows) and restored exactly by
    ``load_state_dict()``. They are deliberately *not* registered buffers: ``DistributedDataParallel``
    broadcasts buffers from rank 0 at every forward pass (``broadcast_buffers=True``), which would overwrite every
    other rank's statistics. A ``cat`` state grows in a preallocated buffer whose capacity doubles when full
    (amortised O(1) appends). A state reads as an attribute (``metric.name``). A *fold* state (``reduce``
    given as a function) holds statistics that do not merge by addition, such as means and centred moments
    merged with Chan's formula (see :meth:`add_state`).

    In a process group every rank must call :meth:`compute` (it runs collectives); afterwards every rank holds
    the same value and its local state is unchanged, so training can go on after a mid-epoch compute.

    >>> from torchmetrics_lite import MeanMetric
    >>> m = MeanMetric()
    >>> m.update(torch.tensor([1.0, 2.0]))
    >>> m(torch.tensor([6.0]))  # forward: the batch value, and the batch is merged into the state
    tensor(6., dtype=torch.float64)
    >>> m.compute()
    tensor(3., dtype=torch.float64)
    """

    #: Metrics with equal, non-None ``stats_key`` compute identical batch statistics from the same update
    #: arguments; a :class:`~torchmetrics_lite.MetricCollection` computes them once per batch for all of them.
    stats_key: Optional[Hashable] = None

    def __init__(
        self,
        *,
        validate_args: bool = True,
        process_group: Optional[Any] = None,
        sync_on_compute: bool = True,
    ) -> None:
        super().__init__()
        self.validate_args = validate_args
        self.process_group = process_group
        self.sync_on_compute = sync_on_compute
        self._defaults: Dict[str, Tensor] = {}
        self._reductions: Dict[str, str] = {}
        self._cat_len: Dict[str, int] = {}
        self._state: Dict[str, Tensor] = {}
        self._computed: Any = None

    # ------------------------------------------------------------------ declaration
    def add_state(self, name: str, default: Tensor, reduce: Union[str, Callable[[Tensor], Tensor]]) -> None:
        """Declare a state.

        Args:
            name: attribute name of the state.
            default: its value after :meth:`reset` (the identity of the reduction: zeros for ``sum``, ``-inf``
                or the dtype's minimum for ``max``...). For ``cat`` it is an empty tensor of shape
                ``(0, *row_shape)`` whose dtype is the storage dtype (floating inputs of a wider dtype promote it).
            reduce: ``"sum" | "max" | "min" | "cat"``; how two states merge, locally and across ranks. Or a
                *fold*: a function ``fold(stack) -> state`` that merges a stack ``(k, *shape)`` of ``k >= 1``
                states of ``default``'s shape into one; it must be associative and have ``default`` as its
                identity. Local merges call ``fold(torch.stack([state, stats]))``, or, when the fold has a
                ``pair`` attribute, ``fold.pair(state, stats)``, which must merge ``stats`` into ``state`` in
                place with the same result (a fast path without the stack); across ranks every rank's
                state is all-gathered (one collective per dtype) and folded once, in rank order. A fold
                should be a module-level function so that the metric pickles.
        """
        if not callable(reduce):
            check_choice("reduce", reduce, _REDUCTIONS)
        if not isinstance(default, Tensor):
            raise TypeError(f"Expected `default` to be a torch.Tensor, got {type(default).__name__}")
        if reduce == "cat" and (default.dim() == 0 or default.shape[0] != 0):
            raise ValueError(f"Expected `default` of a cat state to have shape (0, ...), got {tuple(default.shape)}")
        self._defaults[name] = default.detach().clone()
        self._reductions[name] = reduce
        if reduce == "cat":
            self._cat_len[name] = 0
        self._state[name] = default.detach().clone()

    # ------------------------------------------------------------------ hooks
    def batch_stats(self, *args: Any, **kwargs: Any) -> Dict[str, Tensor]:
        raise NotImplementedError

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Any:
        raise NotImplementedError

    # ------------------------------------------------------------------ public API
    def update(self, *args: Any, **kwargs: Any) -> None:
        """Validate one batch and merge its statistics into the state (nothing changes if it is rejected).

        Runs without autograd: metric states never hold a graph, whatever the inputs require."""
        enabled = torch.is_grad_enabled()
        torch._C._set_grad_enabled(False)  # torch.no_grad() without the context-manager object: hot path
        try:
            self._merge_stats(self.batch_stats(*args, **kwargs))
        finally:
            torch._C._set_grad_enabled(enabled)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Return the metric of this batch alone and merge the batch into the running state.

        The batch statistics are computed once and used twice; ``update`` is not run a second time. The value
        carries no gradient (use the ``losses`` package for differentiable surrogates).
        """
        enabled = torch.is_grad_enabled()
        torch._C._set_grad_enabled(False)
        try:
            stats = self.batch_stats(*args, **kwargs)
            value = self.compute_from_stats(stats)
            self._merge_stats(stats)
        finally:
            torch._C._set_grad_enabled(enabled)
        return value

    def compute(self) -> Any:
        """The metric over everything merged so far, synced across ranks; cached until the next change."""
        if self._computed is None:
            state = self.local_state()
            if self.sync_on_compute:
                state = sync.reduce_states([(state, self._reductions)], self.process_group)[0]
            self._computed = self._value(state)
        return self._computed

    def _value(self, state: Dict[str, Tensor]) -> Any:
        """``compute_from_stats(state)``, with any result tensor that shares memory with a state buffer copied (a
        confusion matrix, a sum or a max is the state itself): a value once returned never changes with later
        updates, and writing into it cannot corrupt the state."""
        value = self.compute_from_stats(state)
        owned = {buf.untyped_storage().data_ptr() for buf in self._state.values() if buf.numel()}
        if not owned:
            return value

        def own(v: Any) -> Any:
            if isinstance(v, Tensor) and v.numel() and v.untyped_storage().data_ptr() in owned:
                return v.clone()
            return v

        if isinstance(value, dict):
            return {k: own(v) for k, v in value.items()}
        if isinstance(value, (tuple, list)):
            items = [own(v) for v in value]
            return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
        return own(value)

    def reset(self) -> None:
        """Return every state to its default (the identity of :meth:`merge_state`)."""
        for name, default in self._defaults.items():
            device = self._state[name].device
            self._state[name] = default.to(device=device, copy=True)
            if name in self._cat_len:
                self._cat_len[name] = 0
        self._computed = None

    def merge_state(self, other: Union["Metric", Dict[str, Tensor], Iterable["Metric"]]) -> "Metric":
        """Merge another metric's state (or a dict of states, or several metrics) into this one. Associative."""
        if isinstance(other, Metric):
            if type(other) is not type(self):
                raise TypeError(f"Expected `other` to be a {type(self).__name__}, got {type(other).__name__}")
            if other.stats_key != self.stats_key:  # other thresholds, top_k, ignore_index...: other counts
                raise ValueError(f"Expected `other` to count the same statistics (stats_key {self.stats_key!r}), "
                                 f"got stats_key {other.stats_key!r}")
            self._merge_stats(other.local_state())
        elif isinstance(other, dict):
            self._merge_stats(other)
        else:
            for item in other:
                self.merge_state(item)
        return self

    def local_state(self) -> Dict[str, Tensor]:
        """This process's states, ``cat`` states trimmed to their filled rows (views, do not modify)."""
        out = {}
        for name in self._reductions:
            buf = self._state[name]
            out[name] = buf[: self._cat_len[name]] if name in self._cat_len else buf
        return out

    # ------------------------------------------------------------------ merging
    def _merge_stats(self, stats: Dict[str, Tensor]) -> None:
        buffers, reductions = self._state, self._reductions
        for name, value in stats.items():
            buf = buffers[name]
            if value.device != buf.device:
                self.to(value.device)  # states accumulate on the inputs' device
                buf = buffers[name]
            reduce = reductions[name]
            if reduce == "sum":
                buf.add_(value)
            elif reduce == "cat":
                self._append(name, value)
            elif reduce == "max":
                torch.maximum(buf, value.to(buf.dtype), out=buf)
            elif callable(reduce):
                pair = getattr(reduce, "pair", None)
                if pair is not None:
                    pair(buf, value.to(buf.dtype))
                else:
                    buf.copy_(reduce(torch.stack([buf, value.to(buf.dtype)])))
            else:
                torch.minimum(buf, value.to(buf.dtype), out=buf)
        object.__setattr__(self, "_computed", None)  # skips nn.Module.__setattr__'s bookkeeping (hot path)

    def _append(self, name: str, rows: Tensor) -> None:
        buf = self._state[name]
        n, m = self._cat_len[name], rows.shape[0]
        dtype = buf.dtype
        if rows.dtype != dtype and rows.is_floating_point():
            dtype = torch.promote_types(dtype, rows.dtype)
        if n + m > buf.shape[0] or dtype != buf.dtype:
            capacity = buf.shape[0] if n + m <= buf.shape[0] else max(2 * buf.shape[0], n + m, _MIN_CAPACITY)
            grown = buf.new_empty((capacity, *buf.shape[1:]), dtype=dtype)
            grown[:n] = buf[:n]
            self._state[name] = buf = grown
        buf[n : n + m] = rows
        self._cat_len[name] = n + m

    # ------------------------------------------------------------------ persistence
    def _save_to_state_dict(self, destination: Dict[str, Any], prefix: str, keep_vars: bool) -> None:
        super()._save_to_state_dict(destination, prefix, keep_vars)
        for name, value in self.local_state().items():
            destination[prefix + name] = value.detach().clone()

    def _load_from_state_dict(self, state_dict: Dict[str, Any], prefix: str, local_metadata: Any, strict: bool,
                              missing_keys: list, unexpected_keys: list, error_msgs: list) -> None:
        for name in self._reductions:
            saved = state_dict.get(prefix + name)
            if saved is None:
                if strict:
                    missing_keys.append(prefix + name)
                continue
            current = self._state[name]
            if name not in self._cat_len and saved.shape != current.shape:
                error_msgs.append(f"Expected state {prefix + name} of shape {tuple(current.shape)}, "
                                  f"got {tuple(saved.shape)}")
                continue
            self._state[name] = saved.detach().to(device=current.device, copy=True)
            if name in self._cat_len:
                self._cat_len[name] = saved.shape[0]
        own = {prefix + name for name in self._reductions}
        rest = {k: v for k, v in state_dict.items() if k not in own}
        super()._load_from_state_dict(rest, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        self._computed = None

    def _apply(self, fn: Any, *args: Any, **kwargs: Any) -> "Metric":
        """Module moves reach the states for their device only (see the class docstring)."""
        self._computed = None
        for name, value in self._state.items():
            target = fn(torch.empty(0, device=value.device))
            if target.device != value.device:
                self._state[name] = value.to(target.device)
        return super()._apply(fn, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        state = self.__dict__.get("_state")
        if state is not None and name in state:
            return state[name][: self._cat_len[name]] if name in self._cat_len else state[name]
        return super().__getattr__(name)

    def extra_repr(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in self._config().items())

    def _config(self) -> Dict[str, Any]:
        return {}
