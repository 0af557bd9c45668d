"""Constructor arguments of metrics: what each class accepts (read from the signatures, once per class) and the
one table of torchmetrics' arguments that are spelled differently here, or do not exist here.

:class:`~torchmetrics_lite.Metric` and :class:`~torchmetrics_lite.MetricCollection` look an unknown keyword
argument up in ``TORCHMETRICS_ARGUMENTS`` to say what to write instead, and ``Metric``'s ``repr`` shows the
arguments that differ from their defaults, so no metric family repeats either.
"""
from __future__ import annotations

import difflib
import functools
import inspect
import math
import re
from typing import Any, Callable, Dict, FrozenSet, Iterable, MutableMapping, NamedTuple, NoReturn, Optional, Tuple

from torch import Tensor

__all__ = ["TORCHMETRICS_ARGUMENTS", "TORCHMETRICS_NOOPS", "InitInfo", "advise", "advise_exports", "init_info",
           "is_noop", "raise_unknown_argument", "same_value"]

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
    "thresholds": (None, "this metric has no binned mode (torchmetrics' `thresholds=` is taken by AUROC, average "
                   "precision, the ROC / precision-recall curves, the operating points, EER and LogAUC); leave it "
                   "out or pass "
                   "thresholds=None: rank metrics here are exact over every distinct score"),
    "multidim_average": (None, "this metric has only torchmetrics' multidim_average='global' (the default: leave "
                         "it out); 'samplewise' is taken by the stat-score metrics (StatScores, Accuracy, "
                         "Precision, Recall, F-beta, F1, Specificity, Hamming distance, NPV, exact match)"),
    "task": (None, "there is no task-string dispatch: use the Binary*, Multiclass* or Multilabel* class"),
    "dist_sync_fn": (None, "syncing is built in (torch.distributed); pass `process_group=` to choose the group"),
    "distributed_available_fn": (None, "syncing happens whenever a process group with 2+ ranks exists; pass "
                                 "`sync_on_compute=False` to keep values local"),
    "ignore_index": (None, "this metric has no `ignore_index`: drop those samples before update "
                     "(`keep = target != ignore_index; m.update(preds[keep], target[keep])`)"),
    "nan_strategy": (None, "NaN inputs raise a ValueError (with `validate_args=True`); drop them before update"),
    "num_outputs": ("multioutput", "the number of outputs is read from the inputs' shape: `multioutput='raw_values'` "
                    "gives the per-output values (torchmetrics' num_outputs=d), 'uniform_average' their mean"),
}

#: torchmetrics' arguments whose value here is a no-op: accepted (and ignored) by every metric and public function
#: that does not take them itself. ``multidim_average="samplewise"`` is not one (its TORCHMETRICS_ARGUMENTS row
#: says what to do); a metric that implements ``multidim_average`` declares it and never reaches this table.
#: ``thresholds=None`` is torchmetrics' exact mode, the only mode of EER, LogAUC and DeLong here (a binned
#: ``thresholds`` gets the TORCHMETRICS_ARGUMENTS row's advice).
TORCHMETRICS_NOOPS: Dict[str, Any] = {"multidim_average": "global", "thresholds": None}


def is_noop(name: str, value: Any) -> bool:
    """Whether ``name=value`` is torchmetrics' no-op default here (``multidim_average="global"``,
    ``thresholds=None``)."""
    if name not in TORCHMETRICS_NOOPS:
        return False
    noop = TORCHMETRICS_NOOPS[name]
    return value is None if noop is None else isinstance(value, str) and value == noop


_UNEXPECTED = re.compile(r"got an unexpected keyword argument '(\w+)'")


def advise(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as a public function that answers torchmetrics' arguments as the classes do: an unknown keyword
    raises the ``TypeError`` of :func:`raise_unknown_argument` (what to write instead, or the nearest name), and
    a no-op one (``multidim_average="global"``) is dropped. Only a failed call pays (the wrapper retries or
    rewrites the message): a call that binds runs ``fn`` at once; a ``TypeError`` raised inside ``fn`` passes.

    Examples:
        >>> def binary_thing(preds, *, k=1):
        ...     return preds
        >>> advise(binary_thing)(1, multidim_average="global")
        1
        >>> advise(binary_thing)(1, top_k=2)
        Traceback (most recent call last):
        ...
        TypeError: binary_thing() got an unexpected keyword argument 'top_k': torchmetrics' `top_k` is `k=` here
    """

    @functools.wraps(fn)
    def public(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except TypeError as err:
            found = _UNEXPECTED.search(str(err))
            if found is None or err.__traceback__ is None or err.__traceback__.tb_next is not None:
                raise  # not the call's own binding error: raised inside fn
            name = found.group(1)
            if is_noop(name, kwargs.get(name)):
                del kwargs[name]
                return public(*args, **kwargs)
            accepted = [p.name for p in inspect.signature(fn).parameters.values()
                        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
            try:
                raise_unknown_argument(fn.__name__, name, accepted)
            except TypeError as advice:
                raise advice from None

    public.__advised__ = True  # type: ignore[attr-defined]
    return public


def advise_exports(namespace: MutableMapping[str, Any]) -> None:
    """:func:`advise` every public function of a module or package namespace (its ``__all__``), once: the family
    packages of :mod:`torchmetrics_lite.functional` call it after their imports, so that every path to a public
    function (the family, ``torchmetrics_lite.functional``) gives the same advised object."""
    for name in namespace.get("__all__", ()):
        value = namespace.get(name)
        if inspect.isfunction(value) and not getattr(value, "__advised__", False):
            namespace[name] = advise(value)


def raise_unknown_argument(owner: str, name: str, accepted: Iterable[str], value: Any = None,
                           hints: Optional[Dict[str, str]] = None) -> NoReturn:
    """Raise the ``TypeError`` for an unknown constructor argument ``name`` of ``owner``.

    Args:
        owner: the class name to show (``"RetrievalMAP"``).
        name: the unknown keyword argument.
        accepted: every keyword the class accepts (to name a replacement or a close spelling).
        value: the value passed (shown by a class's own hint as ``{value}``).
        hints: the class's own advice per torchmetrics argument (``_torchmetrics_hints``), appended to the
            message, formatted with ``value``.

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
    extra = (hints or {}).get(name)
    extra = "" if extra is None else "; " + extra.format(value=value)
    if entry is not None:
        ours, advice = entry
        if ours is not None and ours in accepted:
            raise TypeError(f"{message}: torchmetrics' `{name}` is `{ours}=` here{extra}")
        raise TypeError(f"{message}: {advice}{extra}")
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
    from ``cls`` up to ``base`` or the first ``__init__`` that forwards no ``**kwargs``, less the names in the
    class attribute ``not_offered`` (arguments a base takes that the class does not offer: Jaccard's
    ``multidim_average``, DeLong's ``thresholds``, the aggregation wrappers' ``metric``)."""
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
    accepted -= set(getattr(cls, "not_offered", ()))  # offered by a base, not by this class
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
