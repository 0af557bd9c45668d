"""A rank that never calls compute() (``sync_timeout``) and a rank that dies mid-run, on real gloo ranks.

Both leave the process group unusable, so they run in one spawned world of three ranks that ends with
``os._exit`` (``spawn(..., broken=True)``) instead of destroying the group: the timeout first, on the default
group, then the death of a rank, on a second group made at the start (its own connections, untouched by the
timed-out collective of the first).
"""
import datetime
import time

import pytest
import torch

from tests.helpers.distributed import spawn
from torchmetrics_lite import BinaryAUROC, MetricCollection, SumMetric, sync

WORLD = 3
TIMEOUT = 1.0


def _error(fn):
    start = time.monotonic()
    try:
        fn()
    except RuntimeError as err:
        cause = err.__cause__
        return {"type": type(err).__name__, "message": str(err), "cause": type(cause).__name__,
                "cause_message": str(cause), "seconds": time.monotonic() - start}
    return None


def _scenario(rank, world):
    import torch.distributed as dist

    fresh = dist.new_group(list(range(world)))
    return {"skipped": _skips_compute(rank, world), "died": _dies(rank, world, fresh)}


def _skips_compute(rank, world):
    """Ranks 0 and 1 compute a collection with sync_timeout; the last rank never does. Then every rank tries
    one more collective on the same group."""
    import torch.distributed as dist

    mc = MetricCollection({"total": SumMetric(), "auroc": BinaryAUROC()}, sync_timeout=TIMEOUT)
    mc["total"].update(torch.tensor([1.0, 2.0]))
    mc["auroc"].update(torch.tensor([0.2, 0.7]), torch.tensor([0, 1]))
    out = {"error": None}
    if rank < world - 1:
        out["error"] = _error(mc.compute)
    else:
        time.sleep(2 * TIMEOUT)  # it returned early, caught an exception... and comes back to the group later
    probe = torch.tensor([1.0])
    try:
        dist.all_reduce(probe, async_op=True).wait(timeout=datetime.timedelta(seconds=2))
        out["probe"] = probe.item()
    except RuntimeError as err:
        out["probe"] = f"raised: {err}"
    return out


def _dies(rank, world, group):
    """The last rank exits (os._exit) after its updates; the others compute two metrics, the first without a
    timeout, the second with one."""
    import os

    plain, timed = SumMetric(process_group=group), SumMetric(process_group=group, sync_timeout=60)
    plain.update(torch.tensor([1.0]))
    timed.update(torch.tensor([2.0]))
    if rank == world - 1:
        os._exit(0)
    return {"plain": _error(plain.compute), "timed": _error(timed.compute)}


@pytest.fixture(scope="module")
def per_rank():
    return spawn(_scenario, WORLD, broken=True, timeout=60)


@pytest.fixture(scope="module")
def skipped(per_rank):
    return [res["skipped"] for res in per_rank[:-1]]  # the last rank died: it saved nothing


@pytest.fixture(scope="module")
def died(per_rank):
    return per_rank


def test_ranks_that_wait_for_a_rank_that_skips_compute_raise_after_sync_timeout(skipped):
    errors = [res["error"] for res in skipped]
    assert all(e is not None for e in errors), "the waiting ranks must raise"
    assert len({e["message"] for e in errors}) == 1, "every rank that times out raises the same text"
    message = errors[0]["message"]
    assert message.startswith("MetricCollection of 2 (total (SumMetric built at tests.torchmetrics_lite."
                              "test_sync_failures._skips_compute:"), message
    assert f"not every rank joined the sync within sync_timeout={TIMEOUT} s" in message
    assert "a rank skipped it (an exception caught on that rank, an early return" in message
    assert "the group cannot be used again" in message
    for e in errors:
        assert e["type"] == "SyncError" and e["cause"] == "RuntimeError"  # torch's error, kept as the cause
        assert "timed out" in e["cause_message"].lower() and "timed out" not in message.split(".")[0]
        assert e["seconds"] >= TIMEOUT  # it waited for the timeout (not the group's 60 s)


def test_a_timed_out_collective_leaves_the_gloo_group_unusable(skipped):
    # what the error message says: the next collective of the group is paired with the pending one
    probes = [res["probe"] for res in skipped]  # the waiting ranks'
    assert probes != [float(WORLD)] * len(probes), probes
    assert any(isinstance(p, str) and p.startswith("raised") for p in probes), probes


@pytest.mark.parametrize("which", ["plain", "timed"])
def test_survivors_of_a_dead_rank_get_our_error_with_torchs_as_cause(died, which):
    assert died[-1] is None  # the dead rank saved nothing
    errors = [res["died"][which] for res in died[:-1]]
    assert all(e is not None for e in errors), "the survivors must raise"
    for e in errors:
        assert e["type"] == "SyncError" and e["cause"] in ("RuntimeError", "DistBackendError")
        assert e["message"].startswith("SumMetric built at tests.torchmetrics_lite.test_sync_failures._dies:")
        assert "the handshake all_gather of the sync across ranks failed in the backend. Another rank probably " \
               "died (os._exit, a crash, killed for memory)" in e["message"]
        assert e["cause_message"] and e["cause_message"] not in e["message"]


def test_collection_takes_its_own_timeout_or_the_smallest_of_its_members(monkeypatch):
    seen = []
    monkeypatch.setattr(sync, "reduce_states", lambda items, group, **kw: seen.append(kw["timeout"]) or [
        dict(states) for states, _ in items])
    members = {"a": SumMetric(sync_timeout=5), "b": SumMetric(sync_timeout=2.5), "c": SumMetric()}
    for own, expected in ((None, 2.5), (30, 30.0)):
        mc = MetricCollection({k: m.clone() for k, m in members.items()}, sync_timeout=own)
        mc.update(torch.tensor([1.0]))
        mc.compute()
        assert seen[-1] == expected
    mc = MetricCollection({"c": SumMetric()})
    mc.update(torch.tensor([1.0]))
    mc.compute()
    assert seen[-1] is None  # no timeout anywhere: as long as the process group waits


@pytest.mark.parametrize("bad, error, match", [
    (0, ValueError, r"Expected `sync_timeout` to be a positive, finite number of seconds or None, got 0"),
    (float("inf"), ValueError, r"positive, finite number of seconds or None, got inf"),
    ("10", TypeError, r"Expected `sync_timeout` to be a number of seconds or None, got str"),
    (True, TypeError, r"got bool"),
])
def test_bad_sync_timeout_is_rejected(bad, error, match):
    with pytest.raises(error, match=match):
        SumMetric(sync_timeout=bad)
    with pytest.raises(error, match=match):
        MetricCollection({"s": SumMetric()}, sync_timeout=bad)


def test_every_metric_class_takes_sync_timeout():
    import inspect

    import torchmetrics_lite
    from torchmetrics_lite._compat import init_info
    from torchmetrics_lite.metric import Metric

    public = [getattr(torchmetrics_lite, name) for name in dir(torchmetrics_lite)]  # lazy exports included
    classes = [c for c in public if inspect.isclass(c) and issubclass(c, Metric)]
    assert len(classes) > 50
    assert [c.__name__ for c in classes if "sync_timeout" not in init_info(c, Metric).accepted] == []
