"""Stacked copies of a metric's states, the layout :class:`BootStrapper` (one copy per bootstrap sample) and
:class:`Running` (one slot per update of the window) hold.

A wrapped metric's state ``s`` of shape ``S`` becomes a state of shape ``(m, *S)`` with the same reduction (sum,
max and min act elementwise, so copy ``i`` only ever merges with copy ``i``; a fold becomes a
:class:`StackedFold`). A ``cat`` state stays a ``cat`` state and gains an int64 ``cat`` state ``s + TAG`` that
says which copy each row belongs to. Both are ordinary metric states, so ``merge_state`` and the one sync module
handle them as they handle any metric.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple, Union

import torch
from torch import Tensor

from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.metric import Fold, Metric

TAG = "__copy"
Reduce = Union[str, Fold]


def state_spec(metric: Metric) -> Dict[str, Tuple[Tensor, Reduce]]:
    """``name -> (default, reduction)`` of every state ``metric`` declares but its pending ones: a wrapper settles
    every batch (``Metric.settled_stats``)."""
    defaults, pending = metric.state_defaults, metric.pending_states
    return {name: (defaults[name], reduce) for name, reduce in metric.state_reductions.items() if name not in pending}


def state_dtype(default: Tensor, device: torch.device) -> torch.dtype:
    """The dtype a state with this ``default`` has on ``device``: a float64 state is ``float_dtype(device)``
    there (float32 on a device without float64, as the metric converts it)."""
    return float_dtype(device) if default.dtype == torch.float64 else default.dtype


def default_on(default: Tensor, device: torch.device) -> Tensor:
    """A state's default as the state is on ``device`` (its device and :func:`state_dtype`)."""
    return default.to(device=device, dtype=state_dtype(default, device))


class StackedFold:
    """A fold over ``(k, m, *S)`` stacks of ``m`` stacked states: copy ``i`` of each is folded with the others'
    copy ``i`` by the wrapped fold (a loop over the ``m`` copies; it runs on merges and syncs, not per update)."""

    def __init__(self, fold: Callable[[Tensor], Tensor]) -> None:
        self.fold = fold

    def __call__(self, stack: Tensor) -> Tensor:
        return torch.stack([self.fold(stack[:, i]) for i in range(stack.shape[1])])


def declare_stacked(owner: Metric, spec: Dict[str, Tuple[Tensor, Reduce]], copies: int) -> None:
    """Declare on ``owner`` the stacked form of every state in ``spec``, ``copies`` copies each."""
    for name, (default, reduce) in spec.items():
        if reduce == "cat":
            owner.add_state(name, default, "cat")
            owner.add_state(name + TAG, torch.zeros(0, dtype=torch.int64), "cat")
        else:
            stacked = default.unsqueeze(0).expand(copies, *default.shape).clone()
            owner.add_state(name, stacked, StackedFold(reduce.stack) if isinstance(reduce, Fold) else reduce)


def fold_copies(spec: Dict[str, Tuple[Tensor, Reduce]], state: Dict[str, Tensor]) -> Dict[str, Tensor]:
    """The wrapped metric's state that merges every copy of a stacked ``state`` (Running: the whole window)."""
    out = {}
    device = next((v.device for v in state.values()), torch.device("cpu"))
    for name, (default, reduce) in spec.items():
        if name not in state:  # an optional state the batch did not fill (AUROC's weights when unweighted)
            out[name] = default_on(default, device)
            continue
        value = state[name]
        if reduce == "cat":
            out[name] = value
        elif reduce == "sum":
            out[name] = value.sum(0).to(state_dtype(default, value.device))
        elif reduce == "max":
            out[name] = value.amax(0)
        elif reduce == "min":
            out[name] = value.amin(0)
        else:
            out[name] = reduce(value)  # type: ignore[operator]
    return out


def split_copies(spec: Dict[str, Tuple[Tensor, Reduce]], state: Dict[str, Tensor],
                 copies: int) -> List[Dict[str, Tensor]]:
    """The wrapped metric's state of each copy of a stacked ``state`` (BootStrapper: one per bootstrap sample).

    ``cat`` rows are grouped by their copy tag with one stable sort (and one host sync for the group sizes)."""
    out: List[Dict[str, Any]] = [{} for _ in range(copies)]
    device = next((v.device for v in state.values()), torch.device("cpu"))
    for name, (default, reduce) in spec.items():
        if name not in state:  # an optional state the batch did not fill (AUROC's weights when unweighted)
            for copy in out:
                copy[name] = default_on(default, device)
            continue
        value = state[name]
        if reduce != "cat":
            for i in range(copies):
                out[i][name] = value[i]
            continue
        tag = state[name + TAG]
        sizes = torch.bincount(tag, minlength=copies).tolist() if tag.numel() else [0] * copies
        grouped = value[torch.argsort(tag, stable=True)] if tag.numel() else value
        for i, rows in enumerate(grouped.split(sizes)):
            out[i][name] = rows
    return out


def stack_copies(spec: Dict[str, Tuple[Tensor, Reduce]], per_copy: List[Dict[str, Tensor]]) -> Dict[str, Tensor]:
    """One batch's statistics of every copy (one dict each, the wrapped metric's) as the stacked states: sum,
    max, min and fold entries stacked along a new first dimension, ``cat`` rows concatenated with their copy tag
    (a ``cat`` state some copy left out is left out)."""
    out = {}
    for name, (default, reduce) in spec.items():
        if reduce == "cat":
            rows = [s[name] for s in per_copy if name in s]
            if len(rows) != len(per_copy):
                continue
            out[name] = torch.cat(rows)
            sizes = torch.tensor([r.shape[0] for r in rows], device=out[name].device)
            copies = torch.arange(len(rows), device=out[name].device)
            out[name + TAG] = torch.repeat_interleave(copies, sizes, output_size=out[name].shape[0])
        else:
            device = next(iter(per_copy[0].values())).device
            dtype = state_dtype(default, device)
            out[name] = torch.stack([s.get(name, default).to(device=device, dtype=dtype) for s in per_copy])
    return out
