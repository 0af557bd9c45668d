"""The two steps a retrieval module declares (see :class:`~torchmetrics_lite.metric.Metric`): the statistics of
one batch (:func:`_retrieval_batch_stats`: dense rows reduced at once to three sums, flat rows kept to be grouped
later) and the value of merged statistics (:func:`_retrieval_value`, any ``aggregation``; :func:`_retrieval_summary`
also keeps the per-query values and the skip count). The functions call the same two steps on dense input."""
from __future__ import annotations

from typing import Any, Callable, Dict, NamedTuple, Optional, Union

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_module_indexes,
    check_retrieval_aggregated,
    check_retrieval_inputs,
    check_retrieval_values,
)
from torchmetrics_lite._checks.retrieval import flat_retrieval_rows
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.retrieval._torch_kernels import RELEVANT, Measure, PerQuery, _rank, _reduce

__all__: list = []  # private: the module-facing steps of the retrieval family

_SUMS = ("value_sum", "n_queries", "n_skipped")
Aggregation = Union[str, Callable[..., Tensor]]


class Summary(NamedTuple):
    """Everything one evaluation of a state gives."""

    value: Tensor  # the aggregated value
    values: Optional[Tensor]  # per-query values (when kept), else None
    skipped: Tensor  # int64: queries left out by empty="skip"


def _retrieval_batch_stats(preds: Any, target: Any, indexes: Any = None, mask: Any = None, *, measure: Measure,
                           measure_options: Dict[str, Any], ties: str = "average", empty: str = "zero",
                           ignore_index: Optional[int] = None, validate_args: bool = True, keep: bool = False,
                           need: str = RELEVANT, require_indexes: bool = False) -> Dict[str, Tensor]:
    """Dense ``(queries, items)`` input: the three sums (and with ``keep`` the per-query values). Flat input with
    ``indexes``: the checked rows, those dropped by ``mask`` / ``ignore_index`` marked by a ``nan`` target (no
    host sync); without either, bool or integer grades are returned as given (the floating ``target`` state
    converts them when it copies them in). ``require_indexes`` (the modules: they gather the items of many
    queries over their updates) refuses 1-D input without ``indexes``."""
    if require_indexes and indexes is None:
        check_module_indexes(preds)
    fast = None if mask is not None or ignore_index is not None else \
        flat_retrieval_rows(preds, target, indexes, validate_args)
    if fast is not None:  # the common flat batch, checked in one frame; the grades stay bool/integer here: the
        preds, target, indexes = fast  # copy into the floating cat state converts them (exact), as _flat_values
        return {"preds": preds, "target": target,
                "indexes": indexes if indexes.dtype is torch.int64 else indexes.to(torch.int64)}
    preds, target, indexes, mask = check_retrieval_inputs(preds, target, indexes, mask, validate_args)
    if indexes is None:
        ranked = _rank(preds, target, None, mask, ties=ties, ignore_index=ignore_index,
                          validate_args=validate_args, cut=measure_options.get("k"))
        return _reduce(measure(ranked, **measure_options), empty, need, keep=keep)
    kept = mask
    if ignore_index is not None:
        kept = (target != ignore_index) if kept is None else kept & (target != ignore_index)
    if validate_args:
        check_retrieval_values(preds, target, kept)
    target = target.to(float_dtype(target.device))
    if kept is not None:
        target = torch.where(kept, target, float("nan"))
    return {"preds": preds, "target": target, "indexes": indexes.to(dtype=torch.int64)}


def _flat_values(state: Dict[str, Tensor], measure: Measure, measure_options: Dict[str, Any],
                 ties: str) -> PerQuery:
    """Per-query values of the flat rows of ``state`` (rows marked as dropped removed first)."""
    preds, target, indexes = state["preds"], state["target"], state["indexes"]
    if not target.is_floating_point():  # a batch's bool/integer grades (forward), as the state would hold them
        target = target.to(float_dtype(target.device))
    dropped = torch.isnan(target)
    kept = None if not bool(dropped.any()) else ~dropped
    ranked = _rank(preds, target, indexes, kept, ties=ties, ignore_index=None, validate_args=False,
                      cut=measure_options.get("k"))
    return measure(ranked, **measure_options)


def _retrieval_summary(state: Dict[str, Tensor], *, measure: Measure, measure_options: Dict[str, Any],
                       ties: str = "average", empty: str = "zero", keep: bool = False, need: str = RELEVANT,
                       aggregation: Aggregation = "mean") -> Summary:
    """The value, the per-query values and the skip count of merged statistics."""
    device = next(iter(state.values())).device
    dtype = float_dtype(device)
    zero = torch.zeros((), dtype=torch.int64, device=device)
    totals = {"value_sum": state.get("value_sum", torch.zeros((), dtype=dtype, device=device)),
              "n_queries": state.get("n_queries", zero), "n_skipped": state.get("n_skipped", zero)}
    values = [state["query_values"]] if "query_values" in state else []
    # flat rows keep their per-query values (the README's promise); dense ones only with keep_per_query
    keep = keep or not bool(totals["n_queries"])
    if "preds" in state and state["preds"].numel():
        part = _reduce(_flat_values(state, measure, measure_options, ties), empty, need, dense=False, keep=keep)
        totals = {name: totals[name] + part[name] for name in _SUMS}
        if keep:
            values.append(part["query_values"])
    every = torch.cat(values) if keep and values else None
    if isinstance(aggregation, str) and aggregation == "mean":
        value = totals["value_sum"] / totals["n_queries"].to(totals["value_sum"].dtype)
    elif every is None or bool(torch.isnan(every).all()):
        value = torch.tensor(float("nan"), dtype=dtype, device=device)
    elif callable(aggregation):
        value = check_retrieval_aggregated(aggregation, aggregation(every[~torch.isnan(every)], dim=None))
    else:  # median: the lower one, as torchmetrics
        value = getattr(torch, aggregation)(every[~torch.isnan(every)])
    return Summary(value, every, totals["n_skipped"])


def _retrieval_value(state: Dict[str, Tensor], *, measure: Measure, measure_options: Dict[str, Any],
                     ties: str = "average", empty: str = "zero", keep: bool = False, need: str = RELEVANT,
                     aggregation: Aggregation = "mean") -> Tensor:
    """The aggregated value of merged statistics (see :func:`_retrieval_summary`; a module evaluates the summary
    once itself, for the value, the per-query values and the skip count)."""
    if "preds" not in state and isinstance(aggregation, str) and aggregation == "mean":  # dense sums alone
        return state["value_sum"] / state["n_queries"].to(state["value_sum"].dtype)  # nan when none counted
    return _retrieval_summary(state, measure=measure, measure_options=measure_options, ties=ties, empty=empty,
                              keep=keep, need=need, aggregation=aggregation).value
