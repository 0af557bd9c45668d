"""Real multi-process checks: gloo process groups on loopback, spawned once per test module.

Each spawned group costs a few seconds (every rank imports torch), so a test module gathers all its cases
into one list and makes its one distributed test with one call (a group is spawned once per world size, at
the first test that needs it)::

    CASES = [Case("auroc", partial(BinaryAUROC), batches), ...]

    test_distributed_equals_single_process = distributed_test(CASES)

A module that also needs its own multi-rank checks runs them in the same spawned groups through
:class:`DistributedRun` (``extra=``), instead of spawning again.

Sharding (:func:`shard`) makes the hard cases on purpose: ranks get different numbers of ``update`` calls and
uneven row counts, and with three ranks the last one sees no data at all.
"""
from __future__ import annotations

import os
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import pytest
import torch

from tests.helpers.metric_tester import Batch, assert_close, feed


@dataclass
class Case:
    """One metric to check across ranks: a picklable factory and its batches."""

    name: str
    factory: Callable[[], Any]
    batches: List[Batch]
    tol: Dict[str, float] = field(default_factory=lambda: {"atol": 1e-9, "rtol": 1e-7})


def shard(batches: Sequence[Batch], rank: int, world_size: int) -> List[Batch]:
    """Rank ``rank``'s share: with 2 ranks rank 0 gets every third batch and rank 1 the rest; with 3 or more
    the last rank gets nothing and the others split the batches unevenly the same way."""
    data_ranks = world_size if world_size == 2 else world_size - 1
    if rank >= data_ranks:
        return []
    owner = [min(i % (data_ranks + 1), data_ranks - 1) for i in range(len(batches))]
    return [b for b, o in zip(batches, owner) if o == rank]


#: the wall-clock limit of one spawned group (seconds): a rank that hangs (a broken handshake, a collective that
#: never completes) fails its test after this long instead of the group's 180 s timeout twice over;
#: ``TML_SPAWN_DEADLINE`` shortens it (a mutation run of the handshake)
SPAWN_DEADLINE = float(os.environ.get("TML_SPAWN_DEADLINE", "150"))


def free_ports(n: int) -> List[int]:
    """``n`` distinct TCP ports on loopback that no process holds now (the OS picks them), for rendezvous or
    ``MASTER_PORT``: never fixed numbers, so that two test workers (or two suites on one machine) cannot collide."""
    import socket

    socks = [socket.socket() for _ in range(n)]
    try:
        for sock in socks:
            sock.bind(("127.0.0.1", 0))
        return [int(sock.getsockname()[1]) for sock in socks]
    finally:
        for sock in socks:
            sock.close()


def free_port() -> int:
    """One port of :func:`free_ports`."""
    return free_ports(1)[0]


def spawn(fn: Callable[..., Any], world_size: int, *args: Any, timeout: float = 180.0,
          broken: bool = False) -> List[Any]:
    """Run ``fn(rank, world_size, *args)`` on ``world_size`` gloo ranks; returns each rank's result.

    ``fn`` must be a module-level function (it is pickled into freshly spawned interpreters). ``broken=True``
    for a function that leaves the group unusable (a timed-out collective, a rank that exits): each rank ends
    with ``os._exit(0)`` after saving its result instead of destroying the group (which would wait for the
    group's timeout), and a rank that saved nothing (it exited early) has the result ``None``. The whole group
    gets ``min(2 * timeout, SPAWN_DEADLINE)`` seconds, then its ranks are killed and a ``TimeoutError``
    raised."""
    with tempfile.TemporaryDirectory() as tmp:
        ctx = torch.multiprocessing.spawn(
            _worker, args=(world_size, tmp, fn, args, timeout, broken), nprocs=world_size, join=False
        )
        limit = min(2 * timeout, SPAWN_DEADLINE)
        deadline = time.monotonic() + limit
        while not ctx.join(timeout=1):
            if time.monotonic() > deadline:
                for p in ctx.processes:
                    p.kill()
                raise TimeoutError(f"{world_size} ranks did not finish {fn.__name__} in {limit:.0f} s")
        paths = [os.path.join(tmp, f"rank{r}.pt") for r in range(world_size)]
        return [torch.load(p, weights_only=False) if os.path.exists(p) or not broken else None for p in paths]


def _worker(rank: int, world_size: int, tmp: str, fn: Callable[..., Any], args: tuple, timeout: float,
            broken: bool = False) -> None:
    import datetime

    import torch.distributed as dist

    torch.set_num_threads(1)
    dist.init_process_group(
        "gloo", init_method=f"file://{os.path.join(tmp, 'store')}", rank=rank, world_size=world_size,
        timeout=datetime.timedelta(seconds=timeout),
    )
    try:
        result = fn(rank, world_size, *args)
        torch.save(result, os.path.join(tmp, f"rank{rank}.pt"))
    finally:
        if broken:
            os._exit(0)
        dist.destroy_process_group()


def _run_cases(rank: int, world_size: int, cases: Sequence[Case],
               extra: Optional[Callable[[int, int], Any]] = None) -> Dict[str, Any]:
    warnings.simplefilter("ignore", UserWarning)  # a rank without data warns that it computes an empty state
    out: Dict[str, Any] = {"__extra__": extra(rank, world_size) if extra is not None else None}
    for case in cases:
        m = feed(case.factory(), shard(case.batches, rank, world_size))
        before = {k: v.clone() for k, v in m.local_state().items()}
        value = m.compute()
        after = m.local_state()
        unchanged = all(torch.equal(before[k], after[k]) for k in before)
        out[case.name] = {"value": value, "local_state_unchanged": unchanged}
    return out


def run_cases(cases: Sequence[Case], world_size: int,
              extra: Optional[Callable[[int, int], Any]] = None) -> List[Dict[str, Any]]:
    """Feed every case's shards on ``world_size`` ranks and compute; one result dict per rank.

    ``extra(rank, world_size)`` (a module-level function) runs first in the same group; its result is under
    ``"__extra__"``."""
    return spawn(_run_cases, world_size, list(cases), extra)


def check_distributed(case: Case, per_rank: List[Dict[str, Any]]) -> None:
    """Every rank's synced value equals the single-process value and no rank's local state changed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        expected = feed(case.factory(), case.batches).compute()
    for rank, results in enumerate(per_rank):
        got = results[case.name]
        assert got["local_state_unchanged"], f"rank {rank}: compute() modified the local state"
        assert_close(got["value"], expected, path=f"rank {rank} of {len(per_rank)}", **case.tol)


class DistributedRun:
    """The cases of one test module on gloo groups of each size in ``worlds``, spawned once per size, lazily.

    Args:
        cases: the metrics to check (see :class:`Case`).
        worlds: the group sizes.
        extra: optional module-level ``extra(rank, world_size)`` run first in the same groups (per-rank
            results in :meth:`extra`).
    """

    def __init__(self, cases: Sequence[Case], worlds: Tuple[int, ...] = (2, 3),
                 extra: Optional[Callable[[int, int], Any]] = None) -> None:
        self.cases, self.worlds, self._extra = list(cases), worlds, extra
        self._results: Dict[int, List[Dict[str, Any]]] = {}

    def results(self, world: int) -> List[Dict[str, Any]]:
        if world not in self._results:
            self._results[world] = run_cases(self.cases, world, self._extra)
        return self._results[world]

    def extra(self, world: int) -> List[Any]:
        """Each rank's result of ``extra``."""
        return [r["__extra__"] for r in self.results(world)]

    def make_test(self) -> Callable[..., None]:
        """The parametrized test: every case on every world size equals the single-process value."""
        @pytest.mark.parametrize("world", self.worlds)
        @pytest.mark.parametrize("case", self.cases, ids=lambda c: c.name)
        def test_distributed_equals_single_process(case: Case, world: int) -> None:
            check_distributed(case, self.results(world))

        return test_distributed_equals_single_process


def distributed_test(cases: Sequence[Case], worlds: Tuple[int, ...] = (2, 3)) -> Callable[..., None]:
    """A test module's whole distributed check in one call: assign it to a ``test_*`` name."""
    return DistributedRun(cases, worlds).make_test()
