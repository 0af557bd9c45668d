"""sync.py across real gloo ranks: cat states of uneven sizes and mixed dtypes, an empty rank, packing (one
collective per dtype for a whole collection), and the handshake: each field of the fingerprint, options,
identities and metrics computed in a different order (scenarios in ``tests/helpers/sync_scenarios.py``)."""

import pytest
import torch

from tests.helpers import sync_scenarios
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
    out["fields"] = sync_scenarios.fields(rank, world_size)
    out["metrics"] = sync_scenarios.metrics(rank, world_size)
    out["world"] = sync.world_size()
    out["any_rank"] = (sync.any_rank(rank == world_size - 1), sync.any_rank(False), sync.any_rank(True))
    out["slots"] = {}
    for n in (sync.CAT_SLOTS, sync.CAT_SLOTS + 1):  # the handshake carries CAT_SLOTS cat sizes; one more costs one
        states = {f"c{i}": torch.full((rank + i % 3, 2), float(rank)) for i in range(n)}
        with _Counter() as counter:
            got = sync.reduce_states([(states, dict.fromkeys(states, "cat"))])[0]
        out["slots"][n] = (counter.calls["all_gather"], [tuple(got[f"c{i}"].shape) for i in range(n)],
                           float(got["c1"].sum()))
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
def test_any_rank_is_true_on_every_rank_when_one_rank_is(world):
    assert [res["any_rank"] for res in RUN.extra(world)] == [(True, False, True)] * world


@pytest.mark.parametrize("world", [2, 3])
def test_the_handshake_carries_cat_slots_sizes_and_one_more_gather_the_rest(world):
    for res in RUN.extra(world):
        for n, gathers in ((sync.CAT_SLOTS, 2), (sync.CAT_SLOTS + 1, 3)):  # header, float32 cats (+ the rest)
            calls, shapes, total = res["slots"][n]
            assert calls == gathers
            assert shapes == [(sum(r + i % 3 for r in range(world)), 2) for i in range(n)]
            assert total == sum(2 * r * (r + 1) for r in range(world))


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


PREFIX = "Expected every rank to sync the same metric states, but ranks {differ} differ from rank 0 at entry "


def _same_error_everywhere(outcomes, what):
    """Every rank raised (no rank got values) and every message is the same; returns it."""
    kinds = [kind for kind, *_ in outcomes]
    assert kinds == ["raised"] * len(outcomes), f"{what}: ranks {kinds} (values must never come back)"
    messages = {message for _, message, *_ in outcomes}
    assert len(messages) == 1, f"{what}: ranks raised different errors {messages}"
    return messages.pop()


# what each rank has at the first differing entry: (rank 0's, the last rank's)
FIELD_ENTRIES = {
    "member name": ("'m: options (k=1)'", "'other: options (k=1)'"),
    "options": ("'m: options (k=1)'", "'m: options (k=2)'"),
    "state name": ("'m.n: sum torch.float64 (3,)'", "'m.other: sum torch.float64 (3,)'"),
    "reduction": ("'m.n: sum torch.float64 (3,)'", "'m.n: max torch.float64 (3,)'"),
    "fold": ("'m.n: fold _fold_sum torch.float64 (3,)'", "'m.n: fold _fold_max torch.float64 (3,)'"),
    "dtype": ("'m.n: sum torch.float64 (3,)'", "'m.n: sum torch.float32 (3,)'"),
    "shape": ("'m.n: sum torch.float64 (3,)'", "'m.n: sum torch.float64 (4,)'"),
    "cat row shape": ("'m.n: cat rows of shape (3,)'", "'m.n: cat rows of shape (4,)'"),
    "cat row shape, empty rank": ("'m.n: cat rows of shape (3,)'", "'m.n: cat rows of shape (4,)'"),
    "one more state": ("nothing", "'m.extra: sum torch.float64 ()'"),
    "one more metric": ("nothing", "'m: options (k=1)'"),
}


@pytest.mark.parametrize("world", [2, 3])
@pytest.mark.parametrize("field", sync_scenarios.FIELDS)
def test_a_mismatch_in_one_field_of_the_fingerprint_raises_on_every_rank(world, field):
    message = _same_error_everywhere([res["fields"][field] for res in RUN.extra(world)], field)
    odd = world - 1
    assert message.startswith(PREFIX.format(differ=[odd])), message
    ours, theirs = FIELD_ENTRIES[field]
    assert f"rank 0 has {ours}; rank {odd} has {theirs}." in message, message


# real metrics that differ on the last rank: (regex of rank 0's entry, regex of the last rank's)
SITE = r"built at tests\.helpers\.sync_scenarios\.\w+:\d+ #\d+"
METRIC_ENTRIES = {
    "num_classes": (rf"'MulticlassAccuracy {SITE}: options \(num_classes=3\)'",
                    rf"'MulticlassAccuracy {SITE}: options \(num_classes=4\)'"),
    "class": (rf"'BinaryAUROC {SITE}: options \(\)'", rf"'BinaryF1Score {SITE}: options \(\)'"),
    "member missing": (rf"'b \(MeanMetric {SITE}\): options \(\)'", "nothing"),
    "max_fpr": (rf"'BinaryAUROC {SITE}: options \(max_fpr=0\.5\)'", rf"'BinaryAUROC {SITE}: options \(\)'"),
    "MulticlassAUROC rows": (rf"'MulticlassAUROC {SITE}: options \(num_classes=3\)'",
                             rf"'MulticlassAUROC {SITE}: options \(num_classes=4\)'"),
}


@pytest.mark.parametrize("world", [2, 3])
@pytest.mark.parametrize("name", list(METRIC_ENTRIES))
def test_metrics_that_differ_on_one_rank_raise_the_same_clear_error_on_every_rank(world, name):
    import re

    results = [res["metrics"][name] for res in RUN.extra(world)]
    message = _same_error_everywhere(results, name)
    odd = world - 1
    assert message.startswith(PREFIX.format(differ=[odd])), message
    ours, theirs = METRIC_ENTRIES[name]
    assert re.search(f"rank 0 has {ours}; rank {odd} has {theirs}\\.", message), message
    assert max(seconds for *_, seconds in results) < 60  # the handshake, not the group's 180 s timeout


@pytest.mark.parametrize("world", [2, 3])
@pytest.mark.parametrize("name", ["swapped same site", "swapped attributes"])
def test_two_metrics_of_a_class_computed_in_another_order_raise_instead_of_swapping(world, name):
    import re

    per_rank = [res["metrics"][name] for res in RUN.extra(world)]
    for call in range(2):  # both compute() calls raise on every rank: the values never come back swapped
        message = _same_error_everywhere([outcomes[call] for outcomes in per_rank], f"{name}, call {call}")
        assert message.startswith(PREFIX.format(differ=[world - 1]) + "0: "), message
        found = re.findall(r"'BinaryF1Score built at tests\.helpers\.sync_scenarios\.([\w<>]+):(\d+) #(\d): ", message)
        assert len(found) == 2 and found[0] != found[1], message  # the two identities, shown


@pytest.mark.parametrize("world", [2, 3])
def test_a_metric_without_identity_fails_on_every_rank(world):
    results = [res["metrics"]["no identity"] for res in RUN.extra(world)]
    assert [kind for kind, *_ in results] == ["raised"] * world
    for _, message, _ in results:
        assert message.startswith(PREFIX.format(differ=list(range(1, world)))), message
        assert "'a metric without identity on rank 0 (built with sync_on_compute=False" in message, message


@pytest.mark.parametrize("world", [2, 3])
def test_the_same_options_on_every_rank_sync(world):
    from torchmetrics_lite.functional import binary_auroc

    preds, target = torch.tensor([0.1, 0.4, 0.35, 0.8, 0.6]), torch.tensor([0, 0, 1, 1, 0])
    every = [(preds[r % 2 :: 2], target[r % 2 :: 2]) for r in range(world)]  # what each rank updated with
    expected = binary_auroc(torch.cat([p for p, _ in every]), torch.cat([t for _, t in every]), max_fpr=0.5)
    for kind, value, _ in (res["metrics"]["same"] for res in RUN.extra(world)):
        assert kind == "returned"
        torch.testing.assert_close(value, expected)


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
