"""sync.py across real gloo ranks: cat states of uneven sizes and mixed dtypes, an empty rank, and packing
(one collective per dtype for a whole collection)."""

import pytest
import torch

from tests.helpers.distributed import Case, DistributedRun, shard
from tests.helpers.metric_tester import concat, feed
from tests.helpers.toy import CollectRows
from torchmetrics_lite import MaxMetric, MeanMetric, MetricCollection, MinMetric, SumMetric, sync

GEN = torch.Generator().manual_seed(2)
BATCHES = [(torch.randn(n, generator=GEN), torch.rand(n, generator=GEN) > 0.3) for n in (5, 17, 0, 8, 2, 40, 3)]


def _collection():
    return MetricCollection({
        "s1": SumMetric(), "s2": SumMetric(), "mean": MeanMetric(), "max": MaxMetric(), "min": MinMetric(),
    }, prefix="val/")


class _Counter:
    """Counts the collectives sync.py runs and records the shape of the first one of each compute."""

    NAMES = ("all_reduce", "all_gather", "all_gather_object")

    def __init__(self):
        import torch.distributed as dist

        self.dist, self.real = dist, {name: getattr(dist, name) for name in self.NAMES}
        self.calls = dict.fromkeys(self.NAMES, 0)
        self.first_shapes = []

    def __enter__(self):
        def counted(name):
            def wrapper(*args, **kwargs):
                if not any(self.calls.values()):
                    self.first_shapes.append((name, tuple(args[1].shape) if name == "all_gather" else None))
                self.calls[name] += 1
                return self.real[name](*args, **kwargs)
            return wrapper

        for name in self.NAMES:
            setattr(self.dist, name, counted(name))
        return self

    def __exit__(self, *exc):
        for name, fn in self.real.items():
            setattr(self.dist, name, fn)


def _mismatch(make, rank):
    """Compute a metric that differs across ranks; return (message, seconds) of the RuntimeError (or None)."""
    import time

    m = make(rank)
    start = time.monotonic()
    try:
        m.compute()
    except RuntimeError as err:
        return str(err), time.monotonic() - start
    return None


def _accuracy(rank):
    from torchmetrics_lite import MulticlassAccuracy

    m = MulticlassAccuracy(num_classes=3 + rank)
    m.update(torch.tensor([0, 1, 2]), torch.tensor([0, 1, 1]))
    return m


def _auroc_or_f1(rank):
    from torchmetrics_lite import BinaryAUROC, BinaryF1Score

    m = BinaryAUROC() if rank == 0 else BinaryF1Score()
    m.update(torch.tensor([0.2, 0.7]), torch.tensor([0, 1]))
    return m


def _two_or_one(rank):
    members = {"a": SumMetric(), "b": MeanMetric()} if rank == 0 else {"a": SumMetric()}
    mc = MetricCollection(members)
    mc.update(torch.tensor([1.0, 2.0]))
    return mc


def _scenario(rank, world_size):
    """Runs on every rank, in the group that also checks CASES: cat metrics (one rank feeds float64), counted
    collectives, and the three mismatches of the handshake."""
    out = {}
    m = CollectRows()
    for values, flags in shard(BATCHES, rank, world_size):
        m.update(values.double() if rank == 0 else values, flags)
    with _Counter() as counter:
        out["rows"] = m.compute()
    out["rows_calls"], out["rows_first"] = dict(counter.calls), counter.first_shapes

    mc = _collection()
    for (values, _) in shard(BATCHES, rank, world_size):
        mc.update(values)
    with _Counter() as counter:
        out["collection"] = mc.compute()
    out["calls"], out["first"] = dict(counter.calls), counter.first_shapes
    out["mismatch"] = {name: _mismatch(make, rank) for name, make in
                       (("accuracy", _accuracy), ("auroc_f1", _auroc_or_f1), ("collection", _two_or_one))}
    out["world"] = sync.world_size()
    return out


CASES = [
    Case("sum", SumMetric, [(b[0],) for b in BATCHES]),
    Case("mean_weighted", MeanMetric, [(b[0], b[1].double()) for b in BATCHES]),
]
RUN = DistributedRun(CASES, extra=_scenario)
test_distributed_equals_single_process = RUN.make_test()


@pytest.mark.parametrize("world", [2, 3])
def test_cat_states_gather_with_promotion_and_empty_rank(world):
    single = feed(CollectRows(), BATCHES).compute()
    for res in RUN.extra(world):
        got = res["rows"]
        assert res["world"] == world
        assert got["dtype_is_64"].item(), "a rank's float64 rows must promote every rank's buffer"
        torch.testing.assert_close(got["sorted"], single["sorted"], atol=1e-6, rtol=0)
        assert torch.equal(got["n_flags"], single["n_flags"]) and torch.equal(got["rows"], single["rows"])
        # the handshake carries the cat sizes: one all_gather per cat dtype group (float64, bool, int64) + 1
        assert res["rows_calls"] == {"all_reduce": 1, "all_gather": 4, "all_gather_object": 0}
        assert res["rows_first"] == [("all_gather", (sync.HEADER_WORDS,))]


@pytest.mark.parametrize("world", [2, 3])
def test_collection_syncs_with_one_collective_per_dtype_and_op(world):
    single = feed(_collection(), [(b[0],) for b in BATCHES]).compute()
    for res in RUN.extra(world):
        # five metrics, all float64 states, three reductions (sum, max, min): one all_reduce each, and the
        # handshake's one fixed-size all_gather (the only collective it adds)
        assert res["calls"] == {"all_reduce": 3, "all_gather": 1, "all_gather_object": 0}
        assert res["first"] == [("all_gather", (sync.HEADER_WORDS,))]
        assert set(res["collection"]) == set(single)
        for key, value in single.items():
            torch.testing.assert_close(res["collection"][key], value, atol=1e-9, rtol=0)


@pytest.mark.parametrize("world", [2, 3])
@pytest.mark.parametrize("name, first", [
    ("accuracy", r"rank 0 has 'MulticlassAccuracy\.confmat: sum torch\.int64 \(3, 3\)'; rank 1 has "
                 r"'MulticlassAccuracy\.confmat: sum torch\.int64 \(4, 4\)'"),
    ("auroc_f1", r"rank 0 has 'BinaryAUROC\.\w+: .*'; rank 1 has 'BinaryF1Score\.\w+: .*'"),
    ("collection", r"rank 0 has 'b \(MeanMetric\)\.weighted_sum: sum torch\.float64 \(\)'; rank 1 has nothing"),
])
def test_ranks_that_sync_different_metrics_all_raise_the_same_clear_error(world, name, first):
    import re

    results = [res["mismatch"][name] for res in RUN.extra(world)]
    assert all(r is not None for r in results), f"{name}: a rank did not raise"
    messages = {message for message, _ in results}
    assert len(messages) == 1, f"{name}: ranks raised different errors {messages}"
    message = messages.pop()
    differ = list(range(1, world))  # every rank but 0 differs from rank 0 in all three scenarios
    assert message.startswith(f"Expected every rank to sync the same metric states, but ranks {differ} differ "
                              "from rank 0 at entry "), message
    assert re.search(first, message), message
    assert max(seconds for _, seconds in results) < 10


def test_no_process_group_returns_states_as_they_are():
    state = {"x": torch.tensor(1.0)}
    assert sync.reduce_states([(state, {"x": "sum"})])[0]["x"] is state["x"]
    assert not sync.should_sync() and sync.world_size() == 1


def test_shard_gives_uneven_counts_and_an_empty_rank():
    batches = [(torch.zeros(i + 1),) for i in range(7)]
    sizes2 = [len(shard(batches, r, 2)) for r in range(2)]
    sizes3 = [len(shard(batches, r, 3)) for r in range(3)]
    assert sizes2 == [3, 4] and sizes3 == [3, 4, 0]
    assert sum(sizes2) == 7 and concat(shard(batches, 0, 2))[0].numel() > 0
