"""The one table of torchmetrics constructor arguments that are spelled differently here, or do not exist here.

:class:`~torchmetrics_lite.Metric` and :class:`~torchmetrics_lite.MetricCollection` look an unknown keyword
argument up in :data:`TORCHMETRICS_ARGUMENTS` to say what to write instead, so no metric family repeats it.
"""
from __future__ import annotations

import difflib
from typing import Dict, Iterable, NoReturn, Optional, Tuple

__all__ = ["TORCHMETRICS_ARGUMENTS", "raise_unknown_argument"]

#: torchmetrics' argument name -> (our argument with the same meaning, or None; what to do instead).
TORCHMETRICS_ARGUMENTS: Dict[str, Tuple[Optional[str], str]] = {
    "top_k": ("k", "retrieval metrics take their cut-off as `k=`; this metric has no top-k option"),
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
