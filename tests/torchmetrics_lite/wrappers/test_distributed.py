"""BootStrapper and Running over 2 gloo ranks (one spawned group for the module): the synced value equals
merging the ranks' metrics in one process, and the oracle of what each rank saw."""
import pytest
import torch

from tests.helpers.distributed import shard, spawn
from tests.helpers.metric_tester import assert_close, feed
from tests.helpers.wrapper_batches import binary_batches, cat, multiclass_batches, regression_batches
from torchmetrics_lite import (
    BinaryAUROC,
    BootStrapper,
    MinMaxMetric,
    MulticlassAccuracy,
    MultioutputWrapper,
    R2Score,
    Running,
)
from torchmetrics_lite.functional import binary_auroc, multiclass_accuracy, r2_score

WORLD = 2
SIZES = [11, 0, 25, 6, 17, 9, 30, 4]
BIN, MC, REG = binary_batches(SIZES), multiclass_batches(SIZES), regression_batches(SIZES)
REG2 = [(torch.stack([p, 2 * p], 1), torch.stack([t, t], 1)) for p, t in REG]

# name -> (factory of rank r, batches, oracle over the list of the ranks' windows or None)
CASES = {
    "running_auroc": (lambda r: Running(BinaryAUROC(), window=2), BIN, lambda bs: binary_auroc(*cat(bs))),
    "running_accuracy": (lambda r: Running(MulticlassAccuracy(num_classes=4), window=3), MC,
                         lambda bs: multiclass_accuracy(*cat(bs), num_classes=4)),
    "running_r2_fold": (lambda r: Running(R2Score(), window=2), REG, lambda bs: r2_score(*cat(bs))),
    "boot_auroc": (lambda r: BootStrapper(BinaryAUROC(), 5, raw=True, seed=3 + r), BIN, None),
    "boot_accuracy_multinomial": (lambda r: BootStrapper(MulticlassAccuracy(num_classes=4), 4, raw=True, seed=8 + r,
                                                         sampling_strategy="multinomial"), MC, None),
    "boot_r2_fold": (lambda r: BootStrapper(R2Score(), 3, raw=True, seed=1 + r), REG, None),
    "minmax_auroc": (lambda r: MinMaxMetric(BinaryAUROC()), BIN,
                     lambda bs: dict.fromkeys(("raw", "max", "min"), binary_auroc(*cat(bs)))),
    "multioutput_r2_fold": (lambda r: MultioutputWrapper(R2Score(), 2), REG2,
                            lambda bs: torch.stack([r2_score(*cat(bs), multioutput="raw_values")])[0]),
}
WHOLE = {"minmax_auroc", "multioutput_r2_fold"}  # oracles over every batch (not a window)


def _factory(name, rank):
    return CASES[name][0](rank)


def _worker(rank, world_size):
    out = {}
    for name, (_, batches, _) in CASES.items():
        # the seeded BootStrapper adds the rank to its seed itself: every rank builds the rank-0 factory
        m = feed(_factory(name, 0), shard(batches, rank, world_size))
        before = {k: v.clone() for k, v in m.local_state().items()}
        value = m.compute()
        after = m.local_state()
        out[name] = (value, all(torch.equal(before[k], after[k]) for k in before))
    return out


@pytest.fixture(scope="module")
def per_rank():
    return spawn(_worker, WORLD)


@pytest.mark.parametrize("name", list(CASES))
def test_synced_value_is_the_merge_of_the_ranks(per_rank, name):
    _, batches, oracle = CASES[name]
    shards = [shard(batches, r, WORLD) for r in range(WORLD)]
    merged = feed(_factory(name, 0), shards[0])
    for r in range(1, WORLD):
        merged.merge_state(feed(_factory(name, r), shards[r]))
    expected = merged.compute()
    if name in WHOLE:
        assert_close(expected, oracle(batches))
    elif oracle is not None:  # Running: the union of every rank's last `window` batches
        window = merged.window
        assert_close(expected, oracle([b for s in shards for b in s[-window:]]))
    for rank, results in enumerate(per_rank):
        value, unchanged = results[name]
        assert unchanged, f"rank {rank}: compute() changed the local state"
        assert_close(value, expected, path=f"rank {rank}")


def test_ranks_draw_different_resamples(per_rank):
    raw = per_rank[0]["boot_auroc"][0]["raw"]
    single = feed(BootStrapper(BinaryAUROC(), 5, raw=True, seed=3), BIN).compute()["raw"]
    assert not torch.allclose(raw, single)  # rank 1 drew with seed 4, not rank 0's stream continued

