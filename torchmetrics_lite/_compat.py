"""Constructor arguments of metrics: what each class accepts (read from the signatures, once per class) and the
one table of torchmetrics' arguments that are spelled differently here, or do not exist here.

:class:`~torchmetrics_lite.Metric` and :class:`~torchmetrics_lite.MetricCollection` look an unknown keyword
argument up in ``TORCHMETRICS_ARGUMENTS`` to say what to write instead, and ``Metric``'s ``repr`` shows the
arguments that differ from their defaults, so no metric family repeats either.
"""
from __future__ import annotations

import difflib
import inspect
import math
from typing import Any, Dict, FrozenSet, Iterable, NamedTuple, NoReturn, Optional, Tuple

from torch import Tensor

__all__ = ["TORCHMETRICS_ARGUMENTS", "InitInfo", "init_info", "raise_unknown_argument", "same_value"]

#: torchmetrics' argument name -> (our argument with the same meaning, or None; what to do instead).
TORCHMETRICS_ARGUMENTS: Dict[str, Tuple[Optional[str], str]] = {
    "top_k": ("k", "this metric has no top-k option (the multiclass stat-score metrics take `top_k=`, "
                   "retrieval metrics their cut-off as `k=`)"),
    "empty_target_action": ("empty", "a query without relevant items follows `empty=` "
                            "('zero' as torchmetrics' 'neg', 'skip', 'one' as 'pos', 'error')"),
    "compute_on_cpu": (None, "states stay on the inputs' device; move the metric with `.to('cpu')` "
                       "(cat states grow in one preallocated buffer, not a list of tensors)"),
    "dist_sync_on_step": (None, "forward() returns the batch value of this process; compute() syncs "
                          "across ranks (pass `sync_on_compute=False` to keep it local)"),
    "compute_groups": (None, "a MetricCollection shares statistics automatically between members with the "
                       "same `stats_key` (the values are the same as without sharing)"),
    "thresholds": ("bins", "curves and rank metrics are exact over every distinct score; binned "
                   "approximations, where a metric offers them, are `bins=`"),
    "multidim_average": (None, "only torchmetrics' multidim_average='global' exists here: flatten the extra "
                         "dimensions into samples"),
    "task": (None, "there is no task-string dispatch: use the Binary*, Multiclass* or Multilabel* class"),
    "dist_sync_fn": (None, "syncing is built in (torch.distributed); pass `process_group=` to choose the group"),
    "distributed_available_fn": (None, "syncing happens whenever a process group with 2+ ranks exists; pass "
                                 "`sync_on_compute=False` to keep values local"),
    "ignore_index": (None, "this metric has no `ignore_index`: drop those samples before update "
                     "(`keep = target != ignore_index; m.update(preds[keep], target[keep])`)"),
    "nan_strategy": (None, "NaN inputs raise a ValueError (with `validate_args=True`); drop them before update"),
}


def raise_unknown_argument(owner: str, name: str, accepted: Iterable[str]) -> NoReturn:
    """Raise the ``TypeError`` for an unknown constructor argument ``name`` of ``owner``.

    Args:
        owner: the class name to show (``"RetrievalMAP"``).
        name: the unknown keyword argument.
        accepted: every keyword the class accepts (to name a replacement or a close spelling).

    Raises:
        TypeError: always; the message names ``owner`` and, for torchmetrics' names, what to write instead.

    Examples:
        >>> raise_unknown_argument("RetrievalMAP", "top_k", ["k", "empty"])
        Traceback (most recent call last):
        ...
        TypeError: RetrievalMAP() got an unexpected keyword argument 'top_k': torchmetrics' `top_k` is `k=` here
    """
    accepted = sorted(accepted)
    message = f"{owner}() got an unexpected keyword argument {name!r}"
    entry = TORCHMETRICS_ARGUMENTS.get(name)
    if entry is not None:
        ours, advice = entry
        if ours is not None and ours in accepted:
            raise TypeError(f"{message}: torchmetrics' `{name}` is `{ours}=` here")
        raise TypeError(f"{message}: {advice}")
    close = difflib.get_close_matches(name, accepted, n=1)
    hint = f"; did you mean `{close[0]}`?" if close else f"; accepted: {', '.join(accepted)}"
    raise TypeError(message + hint)


class InitInfo(NamedTuple):
    """A metric class's constructor arguments (see :func:`init_info`)."""

    positional: Tuple[str, ...]  # the leaf __init__'s positional parameters, in order
    accepted: FrozenSet[str]  # every keyword a user can pass (forwarded through **kwargs included)
    defaults: Dict[str, Any]  # name -> default (inspect.Parameter.empty when required)


_INIT_INFO: Dict[type, InitInfo] = {}


def init_info(cls: type, base: type) -> InitInfo:
    """The constructor arguments of ``cls``, read once per class from the ``__init__`` signatures of its MRO,
    from ``cls`` up to ``base`` or the first ``__init__`` that forwards no ``**kwargs``."""
    info = _INIT_INFO.get(cls)
    if info is not None:
        return info
    positional: Optional[Tuple[str, ...]] = None
    accepted: set = set()
    defaults: Dict[str, Any] = {}
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        params = list(inspect.signature(init).parameters.values())[1:]
        if positional is None:
            positional = tuple(p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
        for p in params:
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                accepted.add(p.name)
                defaults.setdefault(p.name, p.default)
        if klass is base or not any(p.kind == p.VAR_KEYWORD for p in params):
            break  # nothing further up is reachable from the user
    info = _INIT_INFO[cls] = InitInfo(positional or (), frozenset(accepted), defaults)
    return info


def same_value(value: Any, default: Any) -> bool:
    """Whether a constructor argument equals its default (NaN equals NaN; tensors never do).

    Examples:
        >>> same_value(float("nan"), float("nan")), same_value(1, 1.0), same_value("macro", "macro")
        (True, False, True)
    """
    if value is default:
        return True
    if isinstance(value, Tensor) or isinstance(default, Tensor) or type(value) is not type(default):
        return False
    if isinstance(value, float) and math.isnan(value) and math.isnan(default):
        return True
    try:
        return bool(value == default)
    except Exception:  # noqa: BLE001 - an argument without a usable ==: show it
        return False
