"""The one module that talks to ``torch.distributed``.

``reduce_states`` takes the local states of one or several metrics and returns the global ones:

* ``sum`` / ``max`` / ``min`` states are flattened into one buffer per (reduction, dtype, device) and reduced
  with a single ``all_reduce`` each, whatever the number of metrics (a whole collection travels together);
* ``cat`` states need their row counts and dtypes from every rank (every rank may hold a different number of
  rows, zero included, and a rank that saw float64 scores promotes everyone's buffer), then one padded
  ``all_gather`` per dtype;
* *fold* states (the reduction is a function, for statistics such as Chan-merged moments that do not add up)
  are packed into one buffer per (dtype, device), all-gathered once (every rank's state has the declared
  shape), and each one is folded from the ``(world_size, *shape)`` stack of the ranks' states.

Ranks with no data, uneven sizes and different numbers of updates are all fine: the layout of the exchanged
buffers depends only on the declared states, never on how much data a rank saw.

**Handshake.** Before anything else the ranks all-gather one fixed-size ``int64`` header
(:data:`HEADER_WORDS` words, whatever the metrics): a 128-bit digest of the *fingerprint* of what this rank is
about to sync, the number of fingerprint entries and of ``cat`` states, and the row counts and dtypes of the
first :data:`CAT_SLOTS` ``cat`` states. The fingerprint has one entry per metric and one per state:

* per metric: its label (the collection member's name, its class and its *identity*: where it was built and
  its number there, see ``torchmetrics_lite._identity``; a metric without an identity gets a rank-specific
  entry, so it can never match) and its *options* (every constructor argument that can change the value);
* per state: its name, its reduction (a fold by its function's qualified name), the dtype and shape of
  ``sum``/``max``/``min``/fold states, the row shape of ``cat`` states but not their dtype, which ranks promote.

So a metric with ``cat`` states pays no extra round trip for the handshake, and one without pays one small
``all_gather``. When the digests differ, every rank exchanges its fingerprint and raises the same
``RuntimeError`` naming the first differing entry and the ranks that differ, before any state is exchanged.

**Timeout.** With ``timeout`` (a metric's ``sync_timeout``) the header's ``all_gather`` is issued
asynchronously and waited at most that long; every rank that times out raises the same ``RuntimeError``
(torch's error as its ``__cause__``). The timed-out collective stays queued in the process group: on gloo
every later collective of that group is paired with it and fails or times out, and destroying the group
waits for the group's own timeout, so the message says the group cannot be used again (tested on gloo).
Under NCCL ``Work.wait`` does not block the host unless ``TORCH_NCCL_BLOCKING_WAIT`` is set, so the wait
polls ``is_completed()`` instead; the pending kernel keeps the communicator busy until NCCL's watchdog aborts it
at the group's timeout, so that group cannot be used again either (not tested: it needs two GPUs). Without
``timeout`` the header waits as long as the process group does (30 minutes by default).

**Transport errors.** A backend error in any collective of the sync (a rank that died or left the group
mid-sync) is raised again as a ``RuntimeError`` naming the metric, the collective and the likely causes, with
torch's error as its ``__cause__``.
"""
from __future__ import annotations

import datetime
import hashlib
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch
from torch import Tensor

__all__ = ["CAT_SLOTS", "HEADER_WORDS", "SyncError", "any_rank", "reduce_states", "should_sync", "world_size"]

_DTYPES = (
    torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
    torch.float16, torch.bfloat16, torch.float32, torch.float64,
)
_CODE = {dtype: i for i, dtype in enumerate(_DTYPES)}
_CODE_BITS = 4  # a cat state's row count and dtype code travel as one int64: rows << 4 | code

#: ``cat`` states whose sizes ride in the handshake; more (rare) cost one more ``all_gather``.
CAT_SLOTS = 28
#: Size of the first collective of every sync: digest (2), entry count, cat count, cat slots.
HEADER_WORDS = 4 + CAT_SLOTS

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


def rank(group: Optional[Any] = None) -> int:
    """This process's rank in ``group`` (0 when no process group with more than one rank exists)."""
    return _dist().get_rank(group) if should_sync(group) else 0


def should_sync(group: Optional[Any] = None) -> bool:
    """True when a process group with more than one rank exists."""
    return world_size(group) > 1


def any_rank(flag: bool, group: Optional[Any] = None, device: Optional[torch.device] = None) -> bool:
    """Whether ``flag`` is true on any rank (one small ``all_reduce``; ``flag`` itself without a process group).

    Every rank must call it. ``device``: where the exchanged tensor lives (a CUDA device under NCCL).

    Examples:
        >>> any_rank(True)
        True
    """
    if not should_sync(group):
        return flag
    dist = _dist()
    local = torch.tensor([int(flag)], device=device)
    dist.all_reduce(local, op=dist.ReduceOp.MAX, group=group)
    return bool(local.item())


def reduce_states(items: Sequence[Tuple[States, Dict[str, Any]]], group: Optional[Any] = None,
                  names: Optional[Sequence[Optional[str]]] = None, options: Optional[Sequence[str]] = None,
                  timeout: Optional[float] = None) -> List[States]:
    """Reduce the states of several metrics across ranks, in as few collectives as possible.

    Args:
        items: one ``(states, reductions)`` pair per metric: ``states`` maps names to local tensors
            (``cat`` states trimmed to their rows), ``reductions`` maps the same names to
            ``"sum" | "max" | "min" | "cat"`` or a fold (see ``Metric.add_state``). Every rank must
            pass the same metrics in the same order.
        group: the process group (default: the world).
        names: one label per item, compared in the handshake and shown in errors (a metric's class and
            identity; default: the item's position). ``None`` for an item marks an identity that could not be
            established: the handshake then fails on every rank.
        options: one canonical text per item of the options that change its value, compared in the handshake.
        timeout: seconds to wait for every rank to join the first collective (``None``: as long as the process
            group waits).

    Returns:
        One dict per metric with the global states: new tensors; the inputs are never modified. Without a
        process group of two or more ranks the input states are returned as they are.

    Raises:
        RuntimeError: on every rank alike, when the ranks do not sync the same metrics, states or options; on
            every rank that waited, when a rank did not join within ``timeout``; when the backend fails (a rank
            died). See the module docstring.

    Examples:
        >>> reduce_states([({"n": torch.tensor(3)}, {"n": "sum"})])  # no process group: as it is
        [{'n': tensor(3)}]
    """
    if not should_sync(group):
        return [dict(states) for states, _ in items]
    labels = _labels(items, names, group)
    who = labels[0] if len(labels) == 1 else f"MetricCollection of {len(labels)} ({', '.join(labels[:3])}" + (
        ", ...)" if len(labels) > 3 else ")")
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
    entries = _fingerprint(items, labels, options)
    cat_meta = _handshake(items, entries, cats, group, who, timeout)
    for (reduce, dtype, _), bucket in buckets.items():
        _all_reduce_packed(reduce, dtype, bucket, out, group, who)
    for fold_entries in folds.values():
        _gather_folds(fold_entries, out, group, who)
    if cats:
        _gather_cats(cats, cat_meta, out, group, who)
    return out


def _labels(items: Sequence[Any], names: Optional[Sequence[Optional[str]]], group: Optional[Any]) -> List[str]:
    """The items' labels; an unknown identity becomes a label no other rank can have."""
    if names is None:
        return [f"metric {i}" for i in range(len(items))]
    rank = _dist().get_rank(group)
    return [name if name is not None else f"a metric without identity on rank {rank} (built with "
            "sync_on_compute=False and switched to syncing later, or built outside Metric.__new__)"
            for name in names]


def _fingerprint(items: Sequence[Tuple[States, Dict[str, Any]]], labels: Sequence[str],
                 options: Optional[Sequence[str]]) -> List[str]:
    """One line per metric (label and options) and one per state: what must agree across ranks (not a cat
    state's dtype, which ranks promote)."""
    entries = []
    for i, (states, reductions) in enumerate(items):
        member = labels[i]
        entries.append(f"{member}: options ({options[i] if options is not None else ''})")
        for name, t in states.items():
            reduce = reductions[name]
            if callable(reduce):
                stack = getattr(reduce, "stack", reduce)
                kind = f"fold {getattr(stack, '__qualname__', type(stack).__name__)}"
            else:
                kind = reduce
            shape = f"rows of shape {tuple(t.shape[1:])}" if reduce == "cat" else f"{t.dtype} {tuple(t.shape)}"
            entries.append(f"{member}.{name}: {kind} {shape}")
    return entries


class _Transport:
    """Re-raises a backend error of one collective as ours (which metric, which collective, what probably
    happened), torch's error as the ``__cause__``."""

    def __init__(self, who: str, what: str) -> None:
        self.who, self.what = who, what

    def __enter__(self) -> "_Transport":
        return self

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if isinstance(error, RuntimeError) and not isinstance(error, SyncError):
            raise SyncError(
                f"{self.who}: the {self.what} of the sync across ranks failed in the backend. Another rank "
                "probably died (os._exit, a crash, killed for memory) or raised outside the metric and left the "
                "process group, or the group was destroyed. The process group cannot be used again; torch's "
                "error is the __cause__ of this one."
            ) from error


class SyncError(RuntimeError):
    """The ranks could not sync (mismatch, timeout or a backend failure): a ``RuntimeError``, the same text on
    every rank that raises it."""


def _handshake(items: Sequence[Tuple[States, Dict[str, Any]]], entries: List[str],
               cats: List[Tuple[int, str, Tensor]], group: Optional[Any], who: str,
               timeout: Optional[float]) -> Tensor:
    """The first collective: a fixed-size header on every rank. Returns the cat metadata ``(ranks, n_cats)``
    (``rows << 4 | dtype code``), after raising the same error on every rank if the fingerprints differ."""
    dist = _dist()
    digest = hashlib.blake2b("\n".join(entries).encode(), digest_size=16).digest()
    words = [int.from_bytes(digest[:8], "little", signed=True), int.from_bytes(digest[8:], "little", signed=True),
             len(entries), len(cats)]
    metas = [t.shape[0] << _CODE_BITS | _CODE[t.dtype] for _, _, t in cats]
    header = words + metas[:CAT_SLOTS] + [0] * max(CAT_SLOTS - len(metas), 0)
    device = next((t.device for states, _ in items for t in states.values()), torch.device("cpu"))
    local = torch.tensor(header, dtype=torch.int64, device=device)
    received = [torch.empty_like(local) for _ in range(dist.get_world_size(group))]
    _first_all_gather(received, local, group, who, timeout)
    gathered = torch.stack(received).cpu()  # (ranks, HEADER_WORDS): the one host sync of the sync
    if not bool((gathered[:, :4] == gathered[0, :4]).all()):
        _raise_mismatch(entries, group, who)
    meta = gathered[:, 4 : 4 + min(len(cats), CAT_SLOTS)]
    if len(cats) > CAT_SLOTS:  # agreed above: every rank has the same number of cat states
        rest = torch.tensor(metas[CAT_SLOTS:], dtype=torch.int64, device=device)
        more = [torch.empty_like(rest) for _ in range(len(received))]
        with _Transport(who, "all_gather of cat sizes"):
            dist.all_gather(more, rest, group=group)
        meta = torch.cat([meta, torch.stack(more).cpu()], dim=1)
    return meta


def _first_all_gather(received: List[Tensor], local: Tensor, group: Optional[Any], who: str,
                      timeout: Optional[float]) -> None:
    """The header's ``all_gather``: blocking without ``timeout``, else asynchronous and waited that long."""
    dist = _dist()
    with _Transport(who, "handshake all_gather"):
        if timeout is None:
            dist.all_gather(received, local, group=group)
            return
        start = time.monotonic()
        work = dist.all_gather(received, local, group=group, async_op=True)
        try:
            if dist.get_backend(group) == "nccl":  # its wait() does not block the host: poll
                while not work.is_completed():
                    if time.monotonic() - start > timeout:
                        raise TimeoutError(f"the NCCL all_gather was still pending after {timeout} s")
                    time.sleep(0.001)
                work.wait()
            else:
                work.wait(timeout=datetime.timedelta(seconds=timeout))
        except (RuntimeError, TimeoutError) as error:
            if time.monotonic() - start < timeout and not isinstance(error, TimeoutError):
                raise  # a backend failure before the deadline: a dead rank (see _Transport)
            raise SyncError(
                f"{who}: not every rank joined the sync within sync_timeout={timeout} s. Every rank must call "
                "compute() (on every metric and collection, in the same order). Usual causes: a rank skipped it "
                "(an exception caught on that rank, an early return, a condition on the rank, a different number "
                "of batches or epochs), or is still busy (uneven shards, a slow data loader: raise sync_timeout, "
                "or set it to None to wait as long as the process group does). The timed-out collective stays "
                "queued in the process group, so the group cannot be used again: end the processes. torch's "
                "error is the __cause__ of this one."
            ) from error


def _raise_mismatch(entries: List[str], group: Optional[Any], who: str) -> None:
    """Every rank gathers every fingerprint and raises the same message (they all see the same lists)."""
    dist = _dist()
    lists: List[Any] = [None] * dist.get_world_size(group)
    with _Transport(who, "all_gather_object of fingerprints"):
        dist.all_gather_object(lists, entries, group=group)
    differ = [r for r, other in enumerate(lists) if other != lists[0]]
    first = min(next((k for k, (a, b) in enumerate(zip(lists[0], other)) if a != b), min(len(lists[0]), len(other)))
                for other in (lists[r] for r in differ))

    def entry(r: int) -> str:
        return repr(lists[r][first]) if first < len(lists[r]) else "nothing"

    seen = "; ".join(f"rank {r} has {entry(r)}" for r in [0, *differ])
    raise SyncError(
        f"Expected every rank to sync the same metric states, but ranks {differ} differ from rank 0 at entry "
        f"{first}: {seen}. Build the same metrics with the same arguments on every rank (the same code builds "
        "them in the same order) and call compute() in the same order on every rank."
    )


def _gather_folds(entries: List[Tuple[int, str, Tensor, Callable]], out: List[States],
                  group: Optional[Any], who: str) -> None:
    """One all_gather of the packed fold states (same dtype and device), then one fold per state."""
    dist = _dist()
    flat = torch.cat([t.reshape(-1) for _, _, t, _ in entries])
    received = [torch.empty_like(flat) for _ in range(dist.get_world_size(group))]
    with _Transport(who, "all_gather of fold states"):
        dist.all_gather(received, flat, group=group)
    stacked = torch.stack(received)  # (world, total)
    offset = 0
    for i, name, t, fold in entries:
        out[i][name] = fold(stacked[:, offset : offset + t.numel()].reshape(-1, *t.shape))
        offset += t.numel()


def _all_reduce_packed(reduce: str, dtype: torch.dtype, entries: List[Tuple[int, str, Tensor]],
                       out: List[States], group: Optional[Any], who: str) -> None:
    dist = _dist()
    op = {"sum": dist.ReduceOp.SUM, "max": dist.ReduceOp.MAX, "min": dist.ReduceOp.MIN}[reduce]
    wire = torch.uint8 if dtype == torch.bool else dtype  # bool sum/max/min == uint8 any/all on the wire
    flat = torch.cat([t.reshape(-1).to(wire) for _, _, t in entries])
    with _Transport(who, f"all_reduce ({reduce}) of {dtype} states"):
        dist.all_reduce(flat, op=op, group=group)
    if dtype == torch.bool:
        flat = flat.bool()
    offset = 0
    for i, name, t in entries:
        out[i][name] = flat[offset : offset + t.numel()].view(t.shape)
        offset += t.numel()


def _gather_cats(cats: List[Tuple[int, str, Tensor]], meta: Tensor, out: List[States],
                 group: Optional[Any], who: str) -> None:
    dist = _dist()
    n_ranks = dist.get_world_size(group)
    device = cats[0][2].device
    rows = (meta >> _CODE_BITS).tolist()
    codes = (meta & ((1 << _CODE_BITS) - 1)).tolist()
    groups: Dict[torch.dtype, List[int]] = {}
    for c in range(len(cats)):
        dtype = _DTYPES[codes[0][c]]
        for r in range(1, n_ranks):
            dtype = torch.promote_types(dtype, _DTYPES[codes[r][c]])
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
        with _Transport(who, f"all_gather of {dtype} cat states"):
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
