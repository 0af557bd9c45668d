"""The stateful ``Metric`` base class and its extension contract.

A metric is its sufficient statistics plus an associative merge and a compute (CLU's model). Everything a
stateful metric does (``update``, ``forward``, ``compute`` with its cache and distributed sync, ``merge_state``,
``reset``, ``state_dict``, device moves) lives here, so that the module and the functional form can never
disagree: the functional ``x(...)`` is ``_x_from_stats(_x_stats(...))`` and so is the module.

**Extending: writing a metric.**

A metric author writes exactly these:

* ``__init__``: call ``super().__init__(**kwargs)`` (it takes ``validate_args``, ``process_group``,
  ``sync_on_compute``, ``sync_timeout`` and ``persistent``), then declare each state with :meth:`Metric.add_state`.
* the two steps, **declared** (the usual way: the helpers the metric's function calls) as the class attributes
  ``stats_fn = staticmethod(_x_stats)`` and ``value_fn = staticmethod(_x_from_stats)`` with the two methods
  ``stats_options()`` and ``value_options()`` that return the keywords each receives (a dict of the metric's
  options, written out), from which :meth:`batch_stats` and :meth:`compute_from_stats` follow; **or overridden**
  as these two methods:
* ``batch_stats(*args, **kwargs) -> dict[str, Tensor]``: validate one batch (through ``torchmetrics_lite._checks``)
  and return its statistics, one entry per declared state (same shape as the state for ``sum``/``max``/``min``
  and fold states, rows to append for ``cat`` states). It must not touch the metric's state.
* ``compute_from_stats(state: dict[str, Tensor]) -> Any``: the value from (merged, synced) statistics; pure.
* optionally the class attributes ``higher_is_better`` (``True``/``False``/``None``), ``is_differentiable``
  and ``stats_key`` (metrics with equal non-None keys share their batch statistics in a collection).

A declared metric: the count of values above a threshold, over helpers a function would share:

>>> def _above_stats(values, *, threshold, validate_args):  # _checks would validate here
...     return {"above": (torch.as_tensor(values) > threshold).sum()}
>>> def _above_from_stats(state, *, fraction_of=None):
...     return state["above"] if fraction_of is None else state["above"] / fraction_of
>>> class Above(Metric):
...     stats_fn = staticmethod(_above_stats)
...     value_fn = staticmethod(_above_from_stats)
...     def __init__(self, threshold=0.5, *, fraction_of=None, **kwargs):
...         super().__init__(**kwargs)
...         self.threshold, self.fraction_of = threshold, fraction_of
...         self.add_state("above", torch.zeros((), dtype=torch.int64), reduce="sum")
...     def stats_options(self):
...         return {"threshold": self.threshold, "validate_args": self.validate_args}
...     def value_options(self):
...         return {"fraction_of": self.fraction_of}
>>> above = Above(0.5)
>>> above.update(torch.tensor([0.2, 0.7, 0.9]))  # _above_stats(values, threshold=0.5, validate_args=True)
>>> above.compute()
tensor(2)

Containers (:class:`~torchmetrics_lite.MetricCollection`, wrappers) drive a metric only through the public
methods and this *container contract*, never through private attributes: :meth:`Metric.update_from_stats`,
:attr:`Metric.state_reductions`, :meth:`Metric.local_state`, :attr:`Metric.is_computed`,
:meth:`Metric.compute_from_synced`, :meth:`Metric.synced_state`, :meth:`Metric.value_from_stats` (a batch value in
the result dtype), :meth:`Metric.check_accepted` (after the batch was accepted), :attr:`Metric.overrides_update`
(a subclass with its own ``update``/``compute``, which containers drive through ``update`` and ``forward``),
:attr:`Metric.sync_identity` and :attr:`Metric.sync_options`.

An overriding metric: a running mean kept as ``[count, mean]`` (merged with a :class:`Fold`, because means do not
add up) beside a running maximum (a plain ``"max"`` state):

>>> import torch
>>> from torchmetrics_lite.metric import Fold, Metric
>>> def merge_count_mean(stack):  # (k, 2) rows [count, mean] -> one row; associative, zeros are its identity
...     n = stack[:, 0].sum()
...     return torch.stack([n, (stack[:, 0] * stack[:, 1]).sum() / n.clamp_min(1)])
>>> class MeanAndPeak(Metric):
...     higher_is_better = None  # neither: it describes the data
...     def __init__(self, **kwargs):
...         super().__init__(**kwargs)
...         self.add_state("count_mean", torch.zeros(2, dtype=torch.float64), reduce=Fold(merge_count_mean))
...         self.add_state("peak", torch.tensor(-float("inf"), dtype=torch.float64), reduce="max")
...     def batch_stats(self, x):
...         x = torch.as_tensor(x, dtype=torch.float64).reshape(-1)
...         mean = x.mean() if x.numel() else x.new_zeros(())
...         peak = x.max() if x.numel() else x.new_tensor(-float("inf"))
...         return {"count_mean": torch.stack([x.new_tensor(float(x.numel())), mean]), "peak": peak}
...     def compute_from_stats(self, state):
...         return {"mean": state["count_mean"][1], "peak": state["peak"]}
>>> m = MeanAndPeak()
>>> m.update(torch.tensor([1.0, 2.0]))
>>> m.update(torch.tensor([6.0]))
>>> {k: v.item() for k, v in m.compute().items()}
{'mean': 3.0, 'peak': 6.0}
>>> m
MeanAndPeak()
"""
from __future__ import annotations

import copy
import inspect
import math
import warnings
from typing import (
    Any,
    Callable,
    ClassVar,
    Dict,
    FrozenSet,
    Hashable,
    Iterable,
    List,
    NamedTuple,
    Optional,
    Tuple,
    Union,
    cast,
)

import numpy as np
import torch
from torch import Tensor, nn

from torchmetrics_lite import _dtype, _identity, _interop, sync
from torchmetrics_lite._checks import (
    check_choice,
    check_result_dtype,
    check_sync_timeout,
)
from torchmetrics_lite._compat import init_info, is_noop, raise_unknown_argument, same_value
from torchmetrics_lite._dtype import float_dtype  # noqa: F401 (re-exported for custom metrics)

__all__ = ["Metric", "Fold"]  # in the docs page's order; float_dtype and update_signature stay importable from here

_REDUCTIONS = ("sum", "max", "min", "cat")
_MIN_CAPACITY = 1024
#: a pending state's buffer takes its whole bound (``settle_numel`` elements) at its first growth up to this many
#: elements (64 MiB of float32); a larger ``settle_numel`` grows by doubling, as the other ``cat`` states
_PENDING_AT_ONCE = 1 << 24
#: a metric's pending rows settle once its first pending state holds this many elements (Metric.settle_numel)
_SETTLE_NUMEL = 1 << 20
_NUMPY_DTYPES = {dtype: torch.empty(0, dtype=dtype).numpy().dtype for dtype in (  # looked up once, not per growth
    torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.float32,
    torch.float64)}
#: (batch dtype, cat state dtype) pairs whose append keeps the state's dtype (torch's promotion gives the state's)
_WIDENS = frozenset({(torch.float16, torch.float32), (torch.float16, torch.float64), (torch.bfloat16, torch.float32),
                     (torch.bfloat16, torch.float64), (torch.float32, torch.float64)})


#: a CPU cat buffer, its numpy view, the batch dtypes numpy appends to it, its capacity (Metric._host_view)
_HostView = Tuple[Tensor, np.ndarray, FrozenSet[torch.dtype], int]


def _numpy_appends(kept: torch.dtype) -> FrozenSet[torch.dtype]:
    """The CPU batch dtypes that a numpy copy appends to a ``cat`` buffer of dtype ``kept`` with torch's result:
    ``kept`` itself, the floating dtypes it widens (:data:`_WIDENS`) and every integer and bool dtype (cast to
    ``kept`` as torch's copy casts them; a floating batch of another dtype promotes the state instead)."""
    return frozenset(got for got in _NUMPY_DTYPES if got is kept or (got, kept) in _WIDENS
                     or not got.is_floating_point)


def _grown_buffer(buf: Tensor, shape: Tuple[int, ...], dtype: torch.dtype) -> Tensor:
    """An uninitialized ``cat`` buffer like ``buf``. On the CPU its memory comes from numpy, which asks Linux for
    transparent huge pages on large arrays (torch's allocator does not): filling a fresh buffer then costs a few
    page faults instead of one per 4 KiB, three to four times faster for buffers of tens of MiB."""
    if buf.is_cpu and dtype in _NUMPY_DTYPES and not torch.compiler.is_compiling():
        return torch.from_numpy(np.empty(shape, dtype=_NUMPY_DTYPES[dtype]))
    return buf.new_empty(shape, dtype=dtype)

class Fold(NamedTuple):
    """How a state that does not merge by addition (means, centred moments) merges: ``reduce=Fold(...)``.

    Args:
        stack: ``stack(states) -> state`` merges a stack ``(k, *shape)`` of ``k >= 1`` states into one. It must be
            associative and have the state's default as its identity. Across ranks every rank's state is
            all-gathered and folded once, in rank order.
        pair: optional fast path for local merges: ``pair(state, stats)`` merges ``stats`` into ``state`` in
            place, with the same result as ``stack`` on the two (no stacking).

    Use module-level functions so that the metric pickles. A plain callable given as ``reduce`` is taken as
    ``Fold(stack=callable)``.

    Examples:
        >>> fold = Fold(lambda s: s.sum(0))
        >>> fold(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor([4., 6.])
    """

    stack: Callable[[Tensor], Tensor]
    pair: Optional[Callable[[Tensor, Tensor], None]] = None

    def __call__(self, stacked: Tensor) -> Tensor:
        return self.stack(stacked)


_PLAIN = (int, float, bool, str, type(None))
_UNREAD = object()  # _merge_stats: the cat buffers' host views not read yet (a metric of sums never reads them)


def _grad_free(args: tuple, kwargs: Dict[str, Any]) -> bool:
    """True when no argument can carry autograd history: tensors that do not require grad and plain values."""
    return _plain(args) and (not kwargs or _plain(kwargs.values()))


def _plain(values: Iterable[Any]) -> bool:
    for a in values:
        if isinstance(a, Tensor):
            if a.requires_grad:
                return False
        elif not isinstance(a, _PLAIN):
            return False
    return True


def _cast(value: Tensor, dtype: torch.dtype) -> Tensor:
    """``value`` in ``dtype``: itself when it is (torch's ``to`` parses its overloads first: about 1.5 us for nothing
    on every merge), else converted (``dtype=`` by keyword: a third of the positional call's parsing)."""
    return value if value.dtype is dtype else value.to(dtype=dtype)


def _map_tensors(fn: Callable[[Tensor], Tensor], value: Any) -> Any:
    """``fn`` applied to every tensor of a value (a tensor, or dicts, tuples, named tuples and lists of them)."""
    if isinstance(value, Tensor):
        return fn(value)
    if isinstance(value, dict):
        return type(value)((k, _map_tensors(fn, v)) for k, v in value.items())
    if isinstance(value, (tuple, list)):
        items = [_map_tensors(fn, v) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    return value


def _owned(value: Any) -> Any:
    """A copy of a computed value that the caller owns: tensors cloned, containers rebuilt."""
    return _map_tensors(Tensor.clone, value)


def _to_float32(value: Any) -> Any:
    return _map_tensors(lambda t: t.float() if t.dtype == torch.float64 else t, value)


def _as_dtype(value: Any, dtype: torch.dtype) -> Any:
    """Every floating tensor of a value as ``dtype``, correctly rounded (:func:`~torchmetrics_lite._dtype.rounded`);
    integer tensors (counts) and other values unchanged."""
    return _map_tensors(lambda t: _dtype.rounded(t, dtype), value)


class _NamedConstruction(type):
    """The metaclass of :class:`Metric`: a call that does not fit the constructor's signature (a required
    argument missing, too many positional ones) raises a ``TypeError`` that names the class called, as
    ``MulticlassF1Score()``, and the argument, instead of the private base whose ``__init__`` Python reports
    (``_MulticlassScore.__init__()``). Only construction goes through here, never unpickling or copying."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except TypeError as err:
            try:
                inspect.signature(cls.__init__).bind(None, *args, **kwargs)  # type: ignore[misc]
            except TypeError as mismatch:  # the call itself does not fit: say so with the public names
                raise TypeError(f"{cls.__name__}(): {mismatch} (its arguments: "
                                f"{cls.__name__}{_public_signature(cls)})") from None
            raise err  # raised inside the constructor: the check's own message

    @property
    def __signature__(cls) -> inspect.Signature:
        """The constructor's signature without ``self``: what ``inspect.signature(cls)`` (and the docs) show,
        rather than this ``__call__``'s ``(*args, **kwargs)``."""
        sig = inspect.signature(cls.__init__)  # type: ignore[misc]
        return sig.replace(parameters=list(sig.parameters.values())[1:])


def _public_signature(cls: type) -> str:
    """``(num_classes, average='macro', *, ..., **kwargs)``: the constructor's parameters, without ``self`` and
    the annotations."""
    params = [p.replace(annotation=p.empty) for p in inspect.signature(cls).parameters.values()]
    return str(inspect.Signature(params))


class Metric(nn.Module, metaclass=_NamedConstruction):
    """Base class of every stateful metric.

    Args:
        validate_args: run the input checks that need a device-to-host sync (value ranges, NaN). Shape and dtype
            checks, which cost nothing, always run.
        process_group: the ``torch.distributed`` group to sync over in :meth:`compute` (default: the world).
        sync_on_compute: set ``False`` to compute on the local state only, even in a process group.
        sync_timeout: seconds :meth:`compute` waits for every rank to join the sync before it raises a
            ``RuntimeError`` (``None``, the default: as long as the process group waits, 30 minutes unless set
            otherwise, so a slow but healthy rank never fails). Set it to fail fast when a rank may skip
            ``compute()``; after a timeout the process group cannot be used again (see ``sync``).
        persistent: put the states into ``state_dict()`` (default ``False``, as in torchmetrics; see
            :meth:`persistent`).
        torchmetrics_noops: torchmetrics' arguments whose value is a no-op here (``multidim_average="global"``,
            see ``_compat.TORCHMETRICS_NOOPS``), accepted and ignored.

    Raises:
        TypeError: an unknown constructor argument; the message names the metric and, for torchmetrics'
            argument names (``top_k`` on retrieval, ``empty_target_action``, ``compute_on_cpu``,
            ``dist_sync_on_step``, ``thresholds``...), what to write instead.

    States follow the metric's device moves (``.to(device)``, ``.cuda()``; dtype casts such as ``.half()`` or
    ``.to(torch.float64)`` leave them as they are, so a model cast to half precision keeps exact metric
    states). They are deliberately *not* registered buffers: ``DistributedDataParallel`` broadcasts buffers
    from rank 0 at every forward pass, which would overwrite every other rank's statistics. As in torchmetrics
    they are *not* in ``state_dict()`` by default, so a model that gains a metric still loads its old weights
    with ``strict=True``; ``persistent=True`` (or :meth:`persistent`) saves them (``cat`` states trimmed to their
    filled rows) for an exact mid-epoch resume. A ``cat`` state grows in a preallocated buffer whose capacity
    doubles when full. A state reads as an attribute (``metric.name``).

    On a device without float64 (Apple MPS, see ``_dtype.NO_FLOAT64_DEVICES``) floating states and results are
    float32, with one warning at the first update: sums then carry about 7 significant digits instead of 16.

    In a process group every rank must call :meth:`compute` (it runs collectives); afterwards every rank holds
    the same value and its local state is unchanged, so training can go on after a mid-epoch compute. Ranks
    first agree on what they sync: a rank whose metric differs (other arguments, other class) makes every rank
    raise the same ``RuntimeError``. They compare each metric's class, its options (every constructor argument
    that can change the value) and its identity (where it was built, and its number there), so two metrics
    computed in a different order on two ranks raise instead of exchanging their states.

    Class attributes: ``higher_is_better`` (``True``, ``False``, or ``None`` when neither, the default),
    ``is_differentiable`` (``False``: values carry no gradient; see the ``losses`` package), ``stats_key``.

    Examples:
        >>> from torchmetrics_lite import MeanMetric
        >>> m = MeanMetric()
        >>> m.update(torch.tensor([1.0, 2.0]))
        >>> m(torch.tensor([6.0]))  # forward: the batch value, and the batch is merged into the state
        tensor(6., dtype=torch.float64)
        >>> m.compute()
        tensor(3., dtype=torch.float64)
        >>> m.update_count
        2
    """

    #: Metrics with equal, non-None ``stats_key`` compute identical batch statistics from the same update
    #: arguments; a :class:`~torchmetrics_lite.MetricCollection` computes them once per batch for all of them.
    stats_key: Optional[Hashable] = None
    #: ``True`` if a larger value is better, ``False`` if smaller is, ``None`` if neither (or not set).
    higher_is_better: ClassVar[Optional[bool]] = None
    #: Metric values carry no gradient (``forward`` and ``update`` run without autograd).
    is_differentiable: ClassVar[bool] = False
    #: The declaration (see the module docstring): ``stats_fn`` is the functional ``_x_stats`` that
    #: :meth:`batch_stats` calls with the update's arguments and, as keywords, what :meth:`stats_options`
    #: returns; ``value_fn`` is the functional ``_x_from_stats`` that :meth:`compute_from_stats` calls with the
    #: state and what :meth:`value_options` returns. Declare them with ``staticmethod``.
    stats_fn: Optional[Callable[..., Dict[str, Tensor]]] = None
    value_fn: Optional[Callable[..., Any]] = None
    #: The declared form of :meth:`settle` for a metric with pending states: ``settle_fn(pending,
    #: **value_options())`` returns the statistics of the pending rows for the other states.
    settle_fn: Optional[Callable[..., Dict[str, Tensor]]] = None
    #: The pending rows settle (:meth:`settle`) once the first pending state holds this many elements (rows times
    #: row size; an instance may set its own): the reduction runs once per that many, and the memory stays bounded.
    settle_numel: int = _SETTLE_NUMEL
    #: Constructor arguments a base takes that this class does not offer (Jaccard's ``multidim_average``, the
    #: exact-only rank classes' ``thresholds``): the class answers them as unknown arguments, with torchmetrics'
    #: advice, while its ``**kwargs`` still reach the base.
    not_offered: ClassVar[Tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("stats_options", "value_options"):
            declared = cls.__dict__.get(name)
            if declared is not None and not callable(declared):  # the attribute-name tuples of earlier releases
                raise TypeError(f"Expected `{cls.__name__}.{name}` to be a method that returns the keywords its "
                                f"function receives (`def {name}(self): return {{'name': self.name}}`), got "
                                f"{declared!r}")

    def __new__(cls, *args: Any, **kwargs: Any) -> "Metric":
        self = super().__new__(cls)
        info = init_info(cls, Metric)
        for name in kwargs:
            if name not in info.accepted and not is_noop(name, kwargs[name]):
                raise_unknown_argument(cls.__name__, name, info.accepted, kwargs[name],
                                       getattr(cls, "_torchmetrics_hints", None))
        bound = dict(zip(info.positional, args))
        bound.update((k, v) for k, v in kwargs.items() if k in info.accepted)
        self.__dict__["_init_args"] = bound  # for repr; pickle and deepcopy call __new__(cls) and restore it
        # compared in the sync handshake; a copy (clone, deepcopy, unpickling) gets a new one, see __setstate__
        syncs = kwargs.get("sync_on_compute", True) is not False
        self.__dict__["_sync_id"] = _identity.next_identity(cls) if syncs else None
        return self

    def __getstate__(self) -> Dict[str, Any]:
        state = super().__getstate__()
        state.pop("_host", None)  # numpy views of the cat buffers: a copy would write into its own copy of them
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        identity = self.__dict__.get("_sync_id")  # given by __new__ to this copy
        super().__setstate__(state)
        self.__dict__["_sync_id"] = identity
        self.__dict__["_host"] = {}
        self.__dict__.setdefault("_pending", ())  # a metric pickled before pending states existed
        self.__dict__.setdefault("_exposed", set())
        self.__dict__.pop("_sync_options", None)

    def __init__(
        self,
        *,
        validate_args: bool = True,
        process_group: Optional[Any] = None,
        sync_on_compute: bool = True,
        sync_timeout: Optional[float] = None,
        persistent: bool = False,
        **torchmetrics_noops: Any,  # multidim_average="global" (_compat.TORCHMETRICS_NOOPS), checked in __new__
    ) -> None:
        super().__init__()
        self.validate_args = validate_args
        self.process_group = process_group
        self.sync_on_compute = sync_on_compute
        self.sync_timeout = check_sync_timeout(sync_timeout)
        self._persistent = persistent
        self._defaults: Dict[str, Tensor] = {}
        self._reductions: Dict[str, Union[str, Fold]] = {}
        self._cat_len: Dict[str, int] = {}
        self._pending: Tuple[str, ...] = ()  # the cat states whose rows settle (add_state(pending=True))
        self._exposed: set = set()  # the cat states a view of whose buffer was handed out (reset: fresh memory)
        self._state: Dict[str, Tensor] = {}
        self._host: Dict[str, _HostView] = {}  # the CPU cat buffers' numpy views (_merge_stats)
        self._computed: Any = None
        self._update_count = 0
        self._forward_cache: Any = None  # the last forward() value (Lightning's on_step logging reads it)
        self._float32 = False  # the float64-less device policy is active
        self._result_dtype: Optional[torch.dtype] = None  # set_dtype(): results in this dtype (states unchanged)
        self._warned: set = set()

    # ------------------------------------------------------------------ declaration
    def add_state(self, name: str, default: Tensor, reduce: Union[str, Fold, Callable[[Tensor], Tensor]], *,
                  pending: bool = False) -> None:
        """Declare a state.

        Args:
            name: attribute name of the state.
            default: its value after :meth:`reset` (the identity of the reduction: zeros for ``sum``, ``-inf``
                or the dtype's minimum for ``max``...). For ``cat`` it is an empty tensor of shape
                ``(0, *row_shape)`` whose dtype is the storage dtype (floating inputs of a wider dtype promote it).
            reduce: ``"sum" | "max" | "min" | "cat"``: how two states merge, locally and across ranks; or a
                :class:`Fold` (a plain callable is taken as ``Fold(stack=callable)``).
            pending: a ``cat`` state whose rows wait to be reduced into the other states (an amortized flush):
                ``update`` only appends them, and :meth:`settle` reduces them once :attr:`settle_numel` elements
                are held and before anything reads or merges the state (``compute``, the sync, ``local_state``, a
                state attribute, ``merge_state``, ``state_dict``), which therefore see it empty, with the
                default's row shape. The rows of a batch whose row shape differs from the held rows' settle
                those first (so a row length may change between batches). The value never depends on when rows
                settle.

        Raises:
            ValueError: an unknown ``reduce``, a ``cat`` default whose first dimension is not 0, or a pending
                state that is not ``cat``.
            TypeError: ``default`` is not a tensor.
        """
        if callable(reduce) and not isinstance(reduce, Fold):
            reduce = Fold(reduce)
        if not isinstance(reduce, Fold):
            check_choice("reduce", reduce, _REDUCTIONS)
        if not isinstance(default, Tensor):
            raise TypeError(f"Expected `default` to be a torch.Tensor, got {type(default).__name__}")
        if reduce == "cat" and (default.dim() == 0 or default.shape[0] != 0):
            raise ValueError(f"Expected `default` of a cat state to have shape (0, ...), got {tuple(default.shape)}")
        if pending and reduce != "cat":
            raise ValueError(f"Expected a pending state to have reduce='cat', got {reduce!r}")
        if default.dtype == torch.float64 and default.device.type in _dtype.NO_FLOAT64_DEVICES:
            default = default.float()
        self._defaults[name] = default.detach().clone()
        self._reductions[name] = reduce
        if reduce == "cat":
            self._cat_len[name] = 0
        if pending:
            self._pending = (*self._pending, name)
        self._state[name] = default.detach().clone()

    # ------------------------------------------------------------------ the declaration, or the two hooks

    def stats_options(self) -> Dict[str, Any]:
        """The keyword arguments :meth:`batch_stats` passes to ``stats_fn`` beside the update's arguments: a
        declared metric returns them from its options (``{"threshold": self.threshold, ...}``); none by default."""
        return {}

    def value_options(self) -> Dict[str, Any]:
        """The keyword arguments :meth:`compute_from_stats` passes to ``value_fn`` beside the state; none by
        default."""
        return {}

    def batch_stats(self, *args: Any, **kwargs: Any) -> Dict[str, Tensor]:
        """Validate one batch and return its statistics (one entry per state); never touch the state.

        A declared metric gets ``stats_fn(*args, **kwargs, **self.stats_options())``; a metric without ``stats_fn``
        overrides this.
        """
        fn = self.stats_fn
        if fn is None:
            raise NotImplementedError(f"{type(self).__name__} declares no `stats_fn` and overrides no `batch_stats`")
        return fn(*args, **kwargs, **self.stats_options())

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Any:
        """The metric value from (merged, synced) statistics; pure.

        A declared metric gets ``value_fn(state, **self.value_options())``; a metric without ``value_fn`` overrides
        this.
        """
        fn = self.value_fn
        if fn is None:
            raise NotImplementedError(f"{type(self).__name__} declares no `value_fn` and overrides no "
                                      "`compute_from_stats`")
        return fn(state, **self.value_options())

    def settle(self, pending: Dict[str, Tensor]) -> Dict[str, Tensor]:
        """The statistics of the rows held in the pending states (``pending``: their filled rows), one entry per
        other state they change, as a batch's: merged into those states when the rows settle, after which the
        pending states are empty. Pure. A declared metric gets ``settle_fn(pending, **self.value_options())``;
        :meth:`compute_from_stats` must give the same value from a state whose rows are pending or settled."""
        fn = self.settle_fn
        if fn is None:
            raise NotImplementedError(f"{type(self).__name__} declares pending states but no `settle_fn` and "
                                      "overrides no `settle`")
        return fn(pending, **self.value_options())

    def check_accepted(self, args: Tuple[Any, ...]) -> None:
        """Warnings about a batch that :meth:`batch_stats` accepted (value checks that must not fire for a rejected
        batch, such as ``from_logits=True`` on scores that look like probabilities): run by ``update`` and
        ``forward``, and by a collection for the batches it shares, before the merge. None by default."""

    # ------------------------------------------------------------------ public API
    def update(self, *args: Any, **kwargs: Any) -> None:
        """Validate one batch and merge its statistics into the state (nothing changes if it is rejected).

        Runs without autograd: metric states never hold a graph, whatever the inputs require.
        """
        switch = torch.is_grad_enabled() and not _grad_free(args, kwargs)
        if switch:  # called as a function: cheaper than entering torch.no_grad() (hot path)
            torch.set_grad_enabled(False)
        try:
            try:
                stats = self.batch_stats(*args, **kwargs)
            except TypeError:
                self._raise_if_unfit(args, kwargs)
                raise
            self.check_accepted(args)
            self._merge_stats(stats)  # also without autograd: a statistic may be an input that requires grad
        finally:
            if switch:
                torch.set_grad_enabled(True)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Return the metric of this batch alone and merge the batch into the running state.

        The batch statistics are computed once and used twice; ``update`` is not run a second time. The value
        carries no gradient (use the ``losses`` package for differentiable surrogates).
        """
        if self.overrides_update:
            return self._forward_through_update(*args, **kwargs)  # a subclass's own update or compute
        switch = torch.is_grad_enabled() and not _grad_free(args, kwargs)
        if switch:
            torch.set_grad_enabled(False)
        try:
            try:
                stats = self.batch_stats(*args, **kwargs)
            except TypeError:
                self._raise_if_unfit(args, kwargs)
                raise
            value = self.compute_from_stats(stats)
            self.check_accepted(args)
            self._merge_stats(stats)
        finally:
            if switch:
                torch.set_grad_enabled(True)
        d = self.__dict__
        if d["_float32"] or d["_result_dtype"] is not None:
            value = self._cast_result(value)
        d["_forward_cache"] = value
        return value

    def _forward_through_update(self, *args: Any, **kwargs: Any) -> Any:
        """``forward`` of a subclass that overrides ``update`` or ``compute`` (torchmetrics' pattern: a wrapper
        that drops an argument, then calls ``super().update``): the batch goes through the subclass's ``update``
        on an empty state, its value through the subclass's ``compute`` (local: no sync, as torchmetrics'
        forward), then the batch's state is merged into the running one."""
        saved = (dict(self._state), dict(self._cat_len), self._update_count, self._computed, self.sync_on_compute)
        exposed = set(self._exposed)  # the running buffers' views handed out, which the reset below forgets
        self._exposed.update(self._cat_len)  # saved above: the reset must not hand these buffers to the batch
        self.reset()
        try:
            self.update(*args, **kwargs)
            batch, count = self.local_state(), self._update_count
            self.sync_on_compute = False
            value = self.compute()
        finally:
            self._state, self._cat_len, self._update_count, self._computed, self.sync_on_compute = saved
        self._computed = None
        self.__dict__["_exposed"] = exposed
        if count:
            self._settle()  # the running state's pending rows come before the batch's
            with torch.no_grad():
                self._merge_stats(batch)
            self._update_count += count - 1  # _merge_stats counted one; the batch brings the updates it ran
        self._forward_cache = value
        return value

    def _cast_result(self, value: Any) -> Any:
        """A computed value in the result dtype: :meth:`set_dtype`'s, or float32 on a device without float64."""
        if self._float32 and self._result_dtype in (None, torch.float64):
            return _to_float32(value)
        return _as_dtype(value, cast(torch.dtype, self._result_dtype))

    def _raise_if_unfit(self, args: Any, kwargs: Any) -> None:
        """After ``batch_stats`` raised a ``TypeError``: if the call does not fit its signature, raise one naming
        this metric and the arguments ``update`` takes (not the private base that defines ``batch_stats``)."""
        signature = update_signature(self)
        try:
            signature.bind(*args, **kwargs)
        except TypeError as unbound:
            shown = ", ".join(p.name if p.default is p.empty else f"{p.name}={p.default!r}"
                              for p in signature.parameters.values())
            raise TypeError(f"{type(self).__name__}.update({shown}) {unbound}") from None

    def compute(self) -> Any:
        """The metric over everything merged so far, synced across ranks.

        Returns:
            A value the caller owns (tensors are copies, also inside dict and tuple results): editing it never
            changes a later ``compute()``. The value is cached until the state changes.

        Warns:
            UserWarning: once per metric, when called before any ``update()`` (the value is that of an empty
            state: 0, ``nan`` or ``-inf`` depending on the metric).
        """
        if self._computed is None:
            self.compute_from_synced(self._synced())
        return _owned(self._computed)

    def reset(self) -> None:
        """Return every state to its default (the identity of :meth:`merge_state`).

        A ``cat`` state keeps the capacity it reached, so that the next epoch of the same size grows its buffer no
        more: its own memory when no view of it was handed out since it was allocated (``m.preds``,
        :meth:`local_state`, :meth:`synced_state`), else fresh (uninitialized) memory, so that such a view still
        reads what it read. ``compute()`` hands out copies: an epoch of ``update``, ``compute``, ``reset`` reuses
        the memory (no page faults to fill it again)."""
        exposed = self.__dict__.setdefault("_exposed", set())
        for name, default in self._defaults.items():
            buf = self._state[name]
            dtype = self._storage_dtype(default.dtype, buf.device)
            if name in self._cat_len:
                self._cat_len[name] = 0
                if name in exposed or buf.dtype != dtype:
                    self._state[name] = _grown_buffer(buf, (buf.shape[0], *default.shape[1:]), dtype)
                    self._host.pop(name, None)
            else:
                self._state[name] = default.to(device=buf.device, dtype=dtype, copy=True)
        exposed.clear()
        self._computed = None
        self._update_count = 0
        self._forward_cache = None

    def merge_state(self, other: Union["Metric", Dict[str, Tensor], Iterable["Metric"]]) -> "Metric":
        """Merge another metric's state (or a dict of states, or several metrics) into this one. Associative.

        Raises:
            TypeError: ``other`` is a metric of another class.
            ValueError: ``other`` counts other statistics (another ``stats_key``: thresholds, ``top_k``...).
        """
        if isinstance(other, Metric):
            if type(other) is not type(self):
                raise TypeError(f"Expected `other` to be a {type(self).__name__}, got {type(other).__name__}")
            if other.stats_key != self.stats_key:  # other thresholds, top_k, ignore_index...: other counts
                raise ValueError(f"Expected `other` to count the same statistics (stats_key {self.stats_key!r}), "
                                 f"got stats_key {other.stats_key!r}")
            self._settle()  # this metric's pending rows come before what other brings (the order of cat rows)
            self._merge_stats(other._views())
            self._update_count += other.update_count - 1  # the merge counted one; it brings other's updates
        elif isinstance(other, dict):
            self._settle()
            self._merge_stats(other)
        else:
            for item in cast(Iterable[Metric], other):
                self.merge_state(item)
        return self

    def clone(self) -> "Metric":
        """A deep copy (state, options and all), as torchmetrics' ``Metric.clone``."""
        return copy.deepcopy(self)

    def persistent(self, mode: bool = False) -> None:
        """Choose whether the states go into ``state_dict()`` (torchmetrics' signature: ``mode=False``).

        With ``True`` a checkpoint taken mid-epoch resumes exactly; with ``False`` (the default) the model's
        ``state_dict()`` holds no metric state, so adding a metric to a model never breaks ``strict=True`` loads.
        """
        self._persistent = bool(mode)

    @property
    def dtype(self) -> torch.dtype:
        """The floating dtype of the results (torchmetrics' ``Metric.dtype``): ``torch.float64`` (exact) unless
        :meth:`set_dtype` chose another; ``torch.float32`` on a device without float64."""
        if self._result_dtype is not None and not (self._float32 and self._result_dtype == torch.float64):
            return self._result_dtype
        return torch.float32 if self._float32 else torch.float64

    def set_dtype(self, dst_type: Union[str, torch.dtype]) -> "Metric":
        """Return results in ``dst_type`` (torchmetrics' ``set_dtype``): ``m.set_dtype(torch.float32)`` makes
        ``compute()`` and ``forward`` return float32 values, correctly rounded from the exact float64 ones.

        Unlike torchmetrics the states keep their exact types (int64 counts, float64 sums), so merging and
        syncing stay exact; integer results (confusion matrices, stat scores) stay integers.

        Args:
            dst_type: a floating ``torch.dtype`` or its name (``"float32"``, ``"torch.float16"``).

        Returns:
            The metric itself.

        Raises:
            ValueError: ``dst_type`` is not a floating dtype.

        Examples:
            >>> from torchmetrics_lite import MeanMetric
            >>> m = MeanMetric().set_dtype(torch.float32)
            >>> m.update(torch.tensor([1.0, 2.0]))
            >>> m.compute(), m.dtype
            (tensor(1.5000), torch.float32)
        """
        self._result_dtype = check_result_dtype(dst_type)
        self._computed = None
        return self

    def plot(self, val: Any = None, ax: Any = None, **options: Any) -> Any:
        """torchmetrics' ``plot``: draw ``val`` (default :meth:`compute`; a list of values: a line over the
        steps) into ``ax`` (default: a new figure) and return ``(fig, ax)``; curve metrics draw the curve
        (``score=True`` adds its area), confusion matrices a heat map (``add_text``, ``labels``, ``cmap``).
        Needs matplotlib; see :mod:`torchmetrics_lite.plotting`.

        Args:
            val: a value of this metric, or a list of them (one per step).
            ax: a matplotlib ``Axes``.
            **options: the kind of plot's options (above).

        Raises:
            ImportError: matplotlib is not installed (``pip install matplotlib``).
            TypeError: an option this metric's plot does not take.
        """
        from torchmetrics_lite.plotting import plot_metric

        return plot_metric(self, val, ax, **options)

    @property
    def device(self) -> torch.device:
        """The device the states are on (the inputs' device after the first update)."""
        return next((t.device for t in self._state.values()), torch.device("cpu"))

    @property
    def update_count(self) -> int:
        """Number of updates (and merged metrics' updates) since construction or the last :meth:`reset`."""
        return self._update_count

    @property
    def update_called(self) -> bool:
        """Whether :meth:`update` (or ``forward``, or a merge) ran since the last :meth:`reset`."""
        return self._update_count > 0

    def local_state(self) -> Dict[str, Tensor]:
        """This process's states, ``cat`` states trimmed to their filled rows (views, do not modify); pending rows
        settle first."""
        self._exposed.update(self._cat_len)  # handed out: the next reset takes fresh memory
        return self._views()

    def _views(self) -> Dict[str, Tensor]:
        """:meth:`local_state` for this class's own reads, whose views never outlive the call (or live in the
        computed value, dropped by ``reset``). A subclass that shows its states otherwise (Running: without the
        dead rows) overrides this, and ``local_state``, ``compute`` and ``state_dict`` all see it."""
        pending = self._pending
        if pending:
            self._settle()
        out = {}
        for name in self._reductions:
            buf = self._state[name]
            if name in pending:
                out[name] = self._settled_view(name)
            else:
                out[name] = buf[: self._cat_len[name]] if name in self._cat_len else buf
        return out

    def _settled_view(self, name: str) -> Tensor:
        """What a read shows of a pending state once its rows settled: empty, with the default's row shape (the
        same on every rank, whatever row shape the buffer took)."""
        return self._state[name].new_empty((0, *self._defaults[name].shape[1:]))

    # ------------------------------------------------------------------ container contract
    @property
    def state_reductions(self) -> Dict[str, Union[str, Fold]]:
        """Each state's reduction (``"sum" | "max" | "min" | "cat"`` or a :class:`Fold`); do not modify."""
        return self._reductions

    @property
    def pending_states(self) -> Tuple[str, ...]:
        """The states declared ``pending`` (:meth:`add_state`), in declaration order."""
        return self._pending

    def settled_stats(self, stats: Dict[str, Tensor]) -> Dict[str, Tensor]:
        """One batch's statistics (:meth:`batch_stats`) with its pending rows reduced by :meth:`settle`: the
        statistics of the other states alone, for a container that keeps no pending rows (the wrappers).

        Raises:
            ValueError: the settled statistics and the batch's own name the same state.
        """
        if not self._pending:
            return stats
        rows = {name: stats[name] for name in self._pending if name in stats}
        out = {name: value for name, value in stats.items() if name not in rows}
        settled = self.settle(rows) if rows else {}
        both = sorted(set(out) & set(settled))
        if both:
            raise ValueError(f"Expected the batch statistics of {type(self).__name__} and its settled pending rows "
                             f"to name different states, got {both} in both")
        out.update(settled)
        return out

    @property
    def state_defaults(self) -> Dict[str, Tensor]:
        """Each state's value after :meth:`reset` (the identity of its reduction); do not modify."""
        return self._defaults

    @property
    def is_computed(self) -> bool:
        """Whether a cached value from :meth:`compute` is still valid (no update since)."""
        return self._computed is not None

    def update_from_stats(self, stats: Dict[str, Tensor]) -> None:
        """Merge one batch's statistics (the output of :meth:`batch_stats`) into the state: the second half of
        :meth:`update`, for containers that compute shared statistics once. Counts one update."""
        with torch.no_grad():
            self._merge_stats(stats)

    def value_from_stats(self, stats: Dict[str, Tensor]) -> Any:
        """:meth:`compute_from_stats` in the result dtype (:attr:`dtype`): a batch's value, as ``forward`` gives
        it, for containers that compute shared statistics once."""
        value = self.compute_from_stats(stats)
        return self._cast_result(value) if self._float32 or self._result_dtype is not None else value

    @property
    def overrides_update(self) -> bool:
        """Whether the class overrides ``update`` or ``compute`` (torchmetrics' subclass pattern): containers
        then call its ``update`` and ``forward`` rather than sharing :meth:`batch_stats`."""
        cls = type(self)
        return cls.update is not Metric.update or cls.compute is not Metric.compute

    def synced_state(self) -> Dict[str, Tensor]:
        """The global state: the local one synced across ranks (when :attr:`sync_on_compute` and a group exist).

        Every rank must call it. The local state is not modified."""
        self._exposed.update(self._cat_len)
        return self._synced()

    def _synced(self) -> Dict[str, Tensor]:
        state = self._views()
        if self.sync_on_compute:
            state = sync.reduce_states([(state, self._reductions)], self.process_group, names=[self.sync_identity],
                                       options=[self.sync_options], timeout=self.sync_timeout)[0]
        return state

    @property
    def sync_identity(self) -> Optional[str]:
        """``"<Class> built at <module.function:line> #<n>"``: which metric this is, the same on every rank when
        the same code builds the metrics (compared in the sync handshake); ``None`` when it cannot be
        established (built with ``sync_on_compute=False``)."""
        return self.__dict__.get("_sync_id")

    @property
    def sync_options(self) -> str:
        """The constructor arguments that can change the value, in a canonical text (compared in the sync
        handshake; see ``torchmetrics_lite._identity``)."""
        options = self.__dict__.get("_sync_options")
        if options is None:
            defaults = init_info(type(self), Metric).defaults
            options = self.__dict__["_sync_options"] = _identity.describe_options(self.__dict__.get("_init_args", {}),
                                                                             defaults)
        return options

    def compute_from_synced(self, state: Dict[str, Tensor]) -> Any:
        """Compute from an already synced global ``state``, cache it, and return a value the caller owns (how a
        collection computes its members after one batched sync)."""
        return self._keep_computed(self.compute_from_stats(state))

    def _keep_computed(self, value: Any) -> Any:
        """The second half of :meth:`compute_from_synced`, for a subclass that computes the value of the synced
        state itself (with what else it keeps of the same evaluation): warn before any update, cache the value in
        the result dtype, return a copy the caller owns."""
        if self._update_count == 0 and "compute" not in self._warned:
            self._warned.add("compute")
            warnings.warn(f"{type(self).__name__}.compute() was called before any update() on this process; the "
                          "value is that of an empty state", UserWarning, stacklevel=4)
        self._computed = self._cast_result(value) if self._float32 or self._result_dtype is not None else value
        return _owned(self._computed)

    # ------------------------------------------------------------------ merging
    def _merge_stats(self, stats: Dict[str, Tensor]) -> None:
        d = self.__dict__  # plain dict access: this is the per-update hot path
        if d["_update_count"] == 0:
            self._first_update(stats)
        buffers, filled, reductions = d["_state"], d["_cat_len"], d["_reductions"]
        host: Any = _UNREAD  # the CPU cat buffers' numpy views (None while tracing), read at the first cat state
        for name in d["_pending"]:
            rows = stats.get(name)
            if rows is not None and rows.shape[1:] != buffers[name].shape[1:]:
                stats = self._reshape_pending(stats)  # rare: another row shape
                break
        for name, value in stats.items():
            buf = buffers[name]
            reduce = reductions[name]
            if reduce == "sum":
                if value.is_cpu and buf.is_cpu or value.device == buf.device:
                    buf.add_(value)  # a sum, on its device
                    continue
            elif reduce == "cat":
                # the common append: a CPU batch into a CPU buffer it fits, through the buffer's numpy view (half
                # the cost of torch's indexed copy, with the same casts: bool and integers to floating, float32
                # to float64); the view records the buffer, its capacity and the batch dtypes numpy copies as torch
                if host is _UNREAD:
                    host = None if torch.compiler.is_compiling() else d["_host"]  # no numpy while tracing
                view = None if host is None else host.get(name)
                if view is not None and view[0] is buf and value.dtype in view[2]:
                    n = filled[name]
                    end = n + value.shape[0]
                    if end <= view[3]:
                        try:
                            view[1][n:end] = value.numpy()
                        except (TypeError, RuntimeError):  # a batch on another device, or one that requires grad
                            pass
                        else:
                            filled[name] = end
                            continue
            elif type(reduce) is Fold and reduce.pair is not None and (value.is_cpu and buf.is_cpu
                                                                       or value.device == buf.device):
                reduce.pair(buf, _cast(value, buf.dtype))
                continue
            self._merge_one(name, buf, value)
        d["_update_count"] += 1
        d["_computed"] = None
        pending = d["_pending"]
        if pending and filled[pending[0]] * buffers[pending[0]].stride(0) >= self.settle_numel:
            self._settle()

    def _settle(self) -> None:
        """Reduce the rows of the pending states into the other states (:meth:`settle`) and empty them; the value
        does not change, so a cached one stays valid."""
        d = self.__dict__
        pending, filled, buffers = d["_pending"], d["_cat_len"], d["_state"]
        if not any(filled[name] for name in pending):
            return
        stats = self.settle({name: buffers[name][: filled[name]] for name in pending})
        for name in pending:
            filled[name] = 0
        with torch.no_grad():
            for name, value in stats.items():
                self._merge_one(name, buffers[name], value)

    def _reshape_pending(self, stats: Dict[str, Tensor]) -> Dict[str, Tensor]:
        """Before merging ``stats`` whose pending rows have another row shape than the held ones: settle the held
        rows, then give those pending states the new row shape (empty); rows of another shape that are none (an
        empty batch, an empty state read) are dropped. Returns the statistics to merge."""
        kept = dict(stats)
        for name in self._pending:
            rows, buf = stats.get(name), self._state[name]
            if rows is None or rows.shape[1:] == buf.shape[1:]:
                continue
            if rows.shape[0] == 0:
                del kept[name]
                continue
            self._settle()
            self._state[name] = buf.new_empty((0, *rows.shape[1:]))
            self._host.pop(name, None)
        return kept

    def _merge_one(self, name: str, buf: Tensor, value: Tensor) -> None:
        """Merge one statistic into its state: the general path of :meth:`_merge_stats` (a state on another
        device, growth, a promoting dtype, the sums, extremes and folds)."""
        if not (value.is_cpu and buf.is_cpu) and value.device != buf.device:
            self.to(value.device)  # states accumulate on the inputs' device
            buf = self._state[name]
        reduce = self._reductions[name]
        if reduce == "cat":
            n = self._cat_len[name]
            end = n + value.shape[0]
            got, kept = value.dtype, buf.dtype
            if end > buf.shape[0] or not (got is kept or (got, kept) in _WIDENS or not value.is_floating_point()):
                self._append(name, value)  # growth, or a floating dtype that promotes the state
                return
            view = self._host_view(name, buf) if not torch.compiler.is_compiling() else None
            if view is not None and got in view[2] and not value.requires_grad:
                view[1][n:end] = value.numpy()
            else:
                buf[n:end] = value
            self._cat_len[name] = end
        elif reduce == "sum":
            buf.add_(value)
        elif reduce == "max":
            torch.maximum(buf, _cast(value, buf.dtype), out=buf)
        elif reduce == "min":
            torch.minimum(buf, _cast(value, buf.dtype), out=buf)
        else:
            fold = cast(Fold, reduce)
            if fold.pair is not None:
                fold.pair(buf, _cast(value, buf.dtype))
            else:
                buf.copy_(fold.stack(torch.stack([buf, _cast(value, buf.dtype)])))

    def _host_view(self, name: str, buf: Tensor) -> Optional[_HostView]:
        """The numpy view of a CPU ``cat`` buffer numpy can view, remembered until the buffer changes (with its
        capacity and the batch dtypes whose numpy copy casts as torch's), else ``None``."""
        if not buf.is_cpu or buf.dtype not in _NUMPY_DTYPES or buf.requires_grad:
            self._host.pop(name, None)
            return None
        view = self._host[name] = (buf, buf.numpy(), _numpy_appends(buf.dtype), buf.shape[0])
        return view

    def _first_update(self, stats: Dict[str, Tensor]) -> None:
        """Before the first merge after construction or reset: apply the float64-less device policy."""
        device = next((v.device for v in stats.values()), None)
        if device is None or device.type not in _dtype.NO_FLOAT64_DEVICES:
            return
        self._float32 = True
        for name, buf in self._state.items():
            if buf.dtype == torch.float64:
                self._state[name] = buf.float()
        if "float32" not in self._warned:
            self._warned.add("float32")
            warnings.warn(f"{type(self).__name__}: the {device.type!r} device has no float64, so floating states "
                          "and results are float32 (about 7 significant digits instead of 16)", UserWarning,
                          stacklevel=4)

    def _storage_dtype(self, dtype: torch.dtype, device: torch.device) -> torch.dtype:
        if dtype == torch.float64 and (self._float32 or device.type in _dtype.NO_FLOAT64_DEVICES):
            return torch.float32
        return dtype

    def _append(self, name: str, rows: Tensor) -> None:
        buf = self._state[name]
        n, m = self._cat_len[name], rows.shape[0]
        dtype = buf.dtype
        if rows.dtype != dtype and rows.is_floating_point():
            dtype = self._storage_dtype(torch.promote_types(dtype, rows.dtype), buf.device)
        if n + m > buf.shape[0] or dtype != buf.dtype:
            capacity = buf.shape[0] if n + m <= buf.shape[0] else max(2 * buf.shape[0], n + m, _MIN_CAPACITY)
            if name in self._pending and n + m > buf.shape[0] and self.settle_numel <= _PENDING_AT_ONCE:
                # pending rows settle at settle_numel elements: their bound (and the batch that crosses it) at
                # once, so no doubling copies them again; the pages are touched only as rows arrive
                capacity = max(n + m, -(-self.settle_numel // max(math.prod(buf.shape[1:]), 1)) + m)
            grown = _grown_buffer(buf, (capacity, *buf.shape[1:]), dtype)
            grown[:n] = buf[:n]
            self._state[name] = buf = grown
            self._host.pop(name, None)
        buf[n : n + m] = rows
        self._cat_len[name] = n + m

    # ------------------------------------------------------------------ persistence
    def _save_to_state_dict(self, destination: Dict[str, Any], prefix: str, keep_vars: bool) -> None:
        super()._save_to_state_dict(destination, prefix, keep_vars)
        if self._persistent:
            for name, value in self._views().items():
                destination[prefix + name] = value.detach().clone()

    def _load_from_state_dict(self, state_dict: Dict[str, Any], prefix: str, local_metadata: Any, strict: bool,
                              missing_keys: List[str], unexpected_keys: List[str], error_msgs: List[str]) -> None:
        loaded = False
        for name in self._reductions:
            saved = state_dict.get(prefix + name)
            if saved is None:
                if strict and self._persistent:
                    missing_keys.append(prefix + name)
                continue
            current = self._state[name]
            if name not in self._cat_len and saved.shape != current.shape:
                error_msgs.append(f"Expected state {prefix + name} of shape {tuple(current.shape)}, "
                                  f"got {tuple(saved.shape)}")
                continue
            dtype = self._storage_dtype(saved.dtype, current.device)  # a float64 checkpoint on a float64-less device
            self._state[name] = saved.to(device=current.device, dtype=dtype, copy=True).detach()
            loaded = True
            if name in self._cat_len:
                self._cat_len[name] = saved.shape[0]
        if loaded:  # a resumed metric has seen data: no "compute() before update()" warning
            self._update_count = max(self._update_count, 1)
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
                dtype = self._storage_dtype(value.dtype, target.device)
                self._state[name] = value.to(device=target.device, dtype=dtype)
        return super()._apply(fn, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        state = self.__dict__.get("_state")
        if state is not None and name in state:
            pending = self.__dict__.get("_pending")
            if pending:
                self._settle()
                if name in pending:
                    return self._settled_view(name)
            if name in self._cat_len:
                self._exposed.add(name)  # a view handed out: the next reset takes fresh memory
                return state[name][: self._cat_len[name]]
            return state[name]
        return super().__getattr__(name)

    def extra_repr(self) -> str:
        """Every constructor argument that differs from its default (required ones always), as passed."""
        defaults = init_info(type(self), Metric).defaults
        empty = inspect.Parameter.empty
        shown = [f"{k}={v!r}" for k, v in self.__dict__.get("_init_args", {}).items()
                 if defaults.get(k, empty) is empty or not same_value(v, defaults[k])]
        return ", ".join(shown)


# Lightning's self.log(name, metric) tests isinstance(value, torchmetrics.Metric): register ours as its virtual
# subclass when torchmetrics is imported (never importing it here; see _interop)
_interop.register_with_torchmetrics(Metric)
_SIGNATURES: Dict[Tuple[type, Any], inspect.Signature] = {}  # (class, stats_fn) -> update's signature


def update_signature(metric: Metric) -> inspect.Signature:
    """What ``metric.update`` takes: the signature of its ``batch_stats`` or, for a declared metric, of its
    ``stats_fn`` without the keywords of its ``stats_options()`` (read once per class and function). Containers
    route keyword arguments by it."""
    cls = type(metric)
    fn = metric.stats_fn
    key = (cls, fn)  # the function too: a stats_fn replaced later (a test's patch, a mode) must not reuse an entry
    found = _SIGNATURES.get(key)
    if found is None:
        if fn is None or cls.batch_stats is not Metric.batch_stats:
            return inspect.signature(metric.batch_stats)
        options = metric.stats_options()
        params = [p for p in inspect.signature(fn).parameters.values() if p.name not in options]
        found = _SIGNATURES[key] = inspect.Signature(params)
    return found
