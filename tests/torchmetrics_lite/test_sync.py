"""sync.py across real gloo ranks: cat states of uneven sizes and mixed dtypes, an empty rank, and packing
(one collective per dtype for a whole collection)."""

import pytest
import torch

from tests.helpers.distributed import Case, check_distributed, run_cases, shard, spawn
from tests.helpers.metric_tester import concat, feed
from tests.helpers.toy import CollectRows
from torchmetrics_lite import MaxMetric, MeanMetric, MetricCollection, MinMetric, SumMetric, sync

GEN = torch.Generator().manual_seed(2)
BATCHES = [(torch.randn(n, generator=GEN), torch.rand(n, generator=GEN) > 0.3) for n in (5, 17, 0, 8, 2, 40, 3)]


def _collection():
    return MetricCollection({
        "s1": SumMetric(), "s2": SumMetric(), "mean": MeanMetric(), "max": MaxMetric(), "min": MinMetric(),
    }, prefix="val/")


def _scenario(rank, world_size):
    """Runs on every rank: cat metrics (one rank feeds float64), and a counted collection sync."""
    import torch.distributed as dist

    out = {}
    # cat states with dtype promotion decided on one rank only
    m = CollectRows()
    for values, flags in shard(BATCHES, rank, world_size):
        m.update(values.double() if rank == 0 else values, flags)
    out["rows"] = m.compute()

    # count collectives for a collection of five sum/max/min metrics (all float64 states)
    calls = {"all_reduce": 0, "all_gather": 0}
    real = {name: getattr(dist, name) for name in calls}

    def counted(name):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return real[name](*args, **kwargs)
        return wrapper

    mc = _collection()
    for (values, _) in shard(BATCHES, rank, world_size):
        mc.update(values)
    for name in calls:
        setattr(dist, name, counted(name))
    try:
        out["collection"] = mc.compute()
    finally:
        for name, fn in real.items():
            setattr(dist, name, fn)
    out["calls"] = dict(calls)
    out["world"] = sync.world_size()
    return out


@pytest.fixture(scope="module")
def scenario():
    return {w: spawn(_scenario, w) for w in (2, 3)}


@pytest.mark.parametrize("world", [2, 3])
def test_cat_states_gather_with_promotion_and_empty_rank(scenario, world):
    single = feed(CollectRows(), BATCHES).compute()
    for res in scenario[world]:
        got = res["rows"]
        assert res["world"] == world
        assert got["dtype_is_64"].item(), "a rank's float64 rows must promote every rank's buffer"
        torch.testing.assert_close(got["sorted"], single["sorted"], atol=1e-6, rtol=0)
        assert torch.equal(got["n_flags"], single["n_flags"]) and torch.equal(got["rows"], single["rows"])


@pytest.mark.parametrize("world", [2, 3])
def test_collection_syncs_with_one_collective_per_dtype_and_op(scenario, world):
    single = feed(_collection(), [(b[0],) for b in BATCHES]).compute()
    for res in scenario[world]:
        # five metrics, all float64 states, three reductions (sum, max, min): one all_reduce each, no gather
        assert res["calls"] == {"all_reduce": 3, "all_gather": 0}
        assert set(res["collection"]) == set(single)
        for key, value in single.items():
            torch.testing.assert_close(res["collection"][key], value, atol=1e-9, rtol=0)


CASES = [
    Case("sum", SumMetric, [(b[0],) for b in BATCHES]),
    Case("mean_weighted", MeanMetric, [(b[0], b[1].double()) for b in BATCHES]),
]


@pytest.fixture(scope="module")
def dist_cases():
    return {w: run_cases(CASES, w) for w in (2, 3)}


@pytest.mark.parametrize("world", [2, 3])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_cases(dist_cases, case, world):
    check_distributed(case, dist_cases[world])


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
