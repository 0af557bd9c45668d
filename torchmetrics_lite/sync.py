"""The one module that talks to ``torch.distributed``.

``reduce_states`` takes the local states of one or several metrics and returns the global ones:

* ``sum`` / ``max`` / ``min`` states are flattened into one buffer per (reduction, dtype, device) and reduced
  with a single ``all_reduce`` each, whatever the number of metrics (a whole collection travels together);
* ``cat`` states need one ``all_gather`` of their row counts and dtypes (every rank may hold a different
  number of rows, zero included, and a rank that saw float64 scores promotes everyone's buffer), then one
  padded ``all_gather`` per dtype;
* *fold* states (the reduction is a function, for statistics such as Chan-merged moments that do not add up)
  are packed into one buffer per (dtype, device), all-gathered once (every rank's state has the declared
  shape), and each one is folded from the ``(world_size, *shape)`` stack of the ranks' states.

Ranks with no data, uneven sizes and different numbers of updates are all fine: the layout of the exchanged
buffers depends only on the declared states, never on how much data a rank saw.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch
from torch import Tensor

__all__ = ["reduce_states", "should_sync", "world_size"]

_DTYPES = (
    torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
    torch.float16, torch.bfloat16, torch.float32, torch.float64,
)
_CODE = {dtype: i for i, dtype in enumerate(_DTYPES)}

States = Dict[str, Tensor]


def _dist() -> Any:
    import torch.distributed as dist

    return dist


def world_size(group: Optional[Any] = None) -> int:
    """Number of ranks in ``group`` (1 when torch.distributed is unavailable or not initialised)."""
    dist = _dist()
    if not (dist.is_available() and dist.is_initialized()):
        return 1
    return dist.get_world_size(group)


def should_sync(group: Optional[Any] = None) -> bool:
    """True when a process group with more than one rank exists."""
    return world_size(group) > 1


def reduce_states(items: Sequence[Tuple[States, Dict[str, str]]], group: Optional[Any] = None) -> List[States]:
    """Reduce the states of several metrics across ranks, in as few collectives as possible.

    Args:
        items: one ``(states, reductions)`` pair per metric: ``states`` maps names to local tensors
            (``cat`` states trimmed to their rows), ``reductions`` maps the same names to
            ``"sum" | "max" | "min" | "cat"`` or a fold function (see ``Metric.add_state``). Every rank must
            pass the same metrics in the same order.
        group: the process group (default: the world).

    Returns:
        One dict per metric with the global states: new tensors; the inputs are never modified. Without a
        process group of two or more ranks the input states are returned as they are.
    """
    if not should_sync(group):
        return [dict(states) for states, _ in items]
    out: List[States] = [{} for _ in items]
    buckets: Dict[Tuple[str, torch.dtype, torch.device], List[Tuple[int, str, Tensor]]] = {}
    cats: List[Tuple[int, str, Tensor]] = []
    folds: Dict[Tuple[torch.dtype, torch.device], List[Tuple[int, str, Tensor, Callable]]] = {}
    for i, (states, reductions) in enumerate(items):
        for name, tensor in states.items():
            reduce = reductions[name]
            if callable(reduce):
                folds.setdefault((tensor.dtype, tensor.device), []).append((i, name, tensor, reduce))
            elif reduce == "cat":
                cats.append((i, name, tensor))
            else:
                buckets.setdefault((reduce, tensor.dtype, tensor.device), []).append((i, name, tensor))
    for (reduce, dtype, _), entries in buckets.items():
        _all_reduce_packed(reduce, dtype, entries, out, group)
    for fold_entries in folds.values():
        _gather_folds(fold_entries, out, group)
    if cats:
        _gather_cats(cats, out, group)
    return out


def _gather_folds(entries: List[Tuple[int, str, Tensor, Callable]], out: List[States],
                  group: Optional[Any]) -> None:
    """One all_gather of the packed fold states (same dtype and device), then one fold per state."""
    dist = _dist()
    flat = torch.cat([t.reshape(-1) for _, _, t, _ in entries])
    received = [torch.empty_like(flat) for _ in range(dist.get_world_size(group))]
    dist.all_gather(received, flat, group=group)
    stacked = torch.stack(received)  # (world, total)
    offset = 0
    for i, name, t, fold in entries:
        out[i][name] = fold(stacked[:, offset : offset + t.numel()].reshape(-1, *t.shape))
        offset += t.numel()


def _all_reduce_packed(reduce: str, dtype: torch.dtype, entries: List[Tuple[int, str, Tensor]],
                       out: List[States], group: Optional[Any]) -> None:
    dist = _dist()
    op = {"sum": dist.ReduceOp.SUM, "max": dist.ReduceOp.MAX, "min": dist.ReduceOp.MIN}[reduce]
    wire = torch.uint8 if dtype == torch.bool else dtype  # bool sum/max/min == uint8 any/all on the wire
    flat = torch.cat([t.reshape(-1).to(wire) for _, _, t in entries])
    dist.all_reduce(flat, op=op, group=group)
    if dtype == torch.bool:
        flat = flat.bool()
    offset = 0
    for i, name, t in entries:
        out[i][name] = flat[offset : offset + t.numel()].view(t.shape)
        offset += t.numel()


def _gather_cats(cats: List[Tuple[int, str, Tensor]], out: List[States], group: Optional[Any]) -> None:
    dist = _dist()
    n_ranks = dist.get_world_size(group)
    device = cats[0][2].device
    meta = torch.tensor([[t.shape[0], _CODE[t.dtype]] for _, _, t in cats], dtype=torch.int64, device=device)
    gathered = [torch.empty_like(meta) for _ in range(n_ranks)]
    dist.all_gather(gathered, meta, group=group)
    all_meta = torch.stack(gathered).cpu()  # (ranks, cats, 2): the one host sync sizes need
    rows = all_meta[..., 0].tolist()
    groups: Dict[torch.dtype, List[int]] = {}
    for c in range(len(cats)):
        dtype = _DTYPES[int(all_meta[0, c, 1])]
        for r in range(1, n_ranks):
            dtype = torch.promote_types(dtype, _DTYPES[int(all_meta[r, c, 1])])
        groups.setdefault(dtype, []).append(c)
    for dtype, members in groups.items():
        wire = torch.uint8 if dtype == torch.bool else dtype
        row_numel = [_row_numel(cats[c][2]) for c in members]
        sizes = [sum(rows[r][c] * k for c, k in zip(members, row_numel)) for r in range(n_ranks)]
        longest = max(sizes)
        if longest == 0:
            for c in members:
                i, name, t = cats[c]
                out[i][name] = t.to(dtype)
            continue
        local = torch.zeros(longest, dtype=wire, device=device)
        offset = 0
        for c in members:
            t = cats[c][2].reshape(-1)
            local[offset : offset + t.numel()] = t.to(wire)
            offset += t.numel()
        received = [torch.empty_like(local) for _ in range(n_ranks)]
        dist.all_gather(received, local, group=group)
        pieces: Dict[int, List[Tensor]] = {c: [] for c in members}
        for r in range(n_ranks):
            offset = 0
            for c, k in zip(members, row_numel):
                n = rows[r][c] * k
                pieces[c].append(received[r][offset : offset + n])
                offset += n
        for c in members:
            i, name, t = cats[c]
            flat = torch.cat(pieces[c])
            out[i][name] = (flat.bool() if dtype == torch.bool else flat).view(-1, *t.shape[1:])


def _row_numel(t: Tensor) -> int:
    k = 1
    for s in t.shape[1:]:
        k *= s
    return k
