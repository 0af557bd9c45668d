"""BootStrapper: mean/std/quantiles against a hand-rolled bootstrap drawing from the same seeded generator."""
import copy
import pickle
from functools import partial

import pytest
import torch

from tests.helpers.metric_tester import assert_close, check_rejects, feed, snapshot, states_equal
from tests.helpers.wrapper_batches import binary_batches, cat, multiclass_batches, regression_batches
from torchmetrics_lite import (
    BinaryAUROC,
    BootStrapper,
    ClasswiseWrapper,
    MeanMetric,
    MulticlassAccuracy,
    R2Score,
    SumMetric,
)
from torchmetrics_lite.functional import binary_auroc, multiclass_accuracy, r2_score

B = 6
SIZES = [17, 0, 30, 5, 22]
BIN = binary_batches(SIZES)
MC = multiclass_batches(SIZES)
REG = regression_batches(SIZES)

# (name, metric, batches, functional of one resampled data set)
METRICS = [
    ("auroc_cat_state", BinaryAUROC(), BIN, lambda *d: binary_auroc(*d)),
    ("accuracy_sum_state", MulticlassAccuracy(num_classes=4), MC, lambda *d: multiclass_accuracy(*d, num_classes=4)),
    ("r2_fold_state", R2Score(), REG, lambda *d: r2_score(*d)),
]


def hand_rolled(batches, fn, strategy, seed, b=B):
    """Copy i's data: every batch resampled with the i-th row of the same (B, n) draw the metric makes."""
    gen = torch.Generator().manual_seed(seed)
    copies = [[] for _ in range(b)]
    for batch in batches:
        n = batch[0].shape[0]
        if n == 0:
            continue
        if strategy == "multinomial":
            index = torch.randint(0, n, (b, n), generator=gen)
            picks = [index[i] for i in range(b)]
        else:
            counts = torch.poisson(torch.ones(b, n), generator=gen).long()
            picks = [torch.repeat_interleave(torch.arange(n), counts[i]) for i in range(b)]
        for i in range(b):
            copies[i].append(tuple(x[picks[i]] for x in batch))
    return torch.stack([torch.as_tensor(fn(*cat(c)), dtype=torch.float64) for c in copies])


@pytest.mark.parametrize("strategy", ["poisson", "multinomial"])
@pytest.mark.parametrize("name,metric,batches,fn", METRICS, ids=[m[0] for m in METRICS])
def test_against_hand_rolled_bootstrap(name, metric, batches, fn, strategy):
    q = torch.tensor([0.1, 0.5, 0.9])
    boot = feed(BootStrapper(metric, B, quantile=q, raw=True, sampling_strategy=strategy, seed=11), batches)
    values = hand_rolled(batches, fn, strategy, 11)
    quantile = torch.quantile(values, q.double())
    expected = {"mean": values.mean(), "std": values.std(), "quantile": quantile, "raw": values}
    assert_close(boot.compute(), expected, atol=1e-9)


def test_result_keys_follow_the_options():
    boot = feed(BootStrapper(SumMetric(), 3, mean=False, std=False, quantile=0.5, seed=0), [(torch.ones(4),)])
    assert set(boot.compute()) == {"quantile"} and boot.compute()["quantile"].dim() == 0
    assert set(feed(BootStrapper(SumMetric(), 3), [(torch.ones(4),)]).compute()) == {"mean", "std"}


def test_forward_returns_the_bootstrap_of_the_batch():
    boot = BootStrapper(BinaryAUROC(), B, seed=5)
    first = boot(*BIN[0])
    values = hand_rolled(BIN[:1], binary_auroc, "poisson", 5)
    assert_close(first, {"mean": values.mean(), "std": values.std()})
    boot(*BIN[2])
    assert_close(boot.compute()["mean"], hand_rolled([BIN[0], BIN[2]], binary_auroc, "poisson", 5).mean())


def test_merge_is_associative_and_combines_copy_by_copy():
    parts = [BIN[0:2], BIN[2:4], BIN[4:]]
    a, b, c = (feed(BootStrapper(BinaryAUROC(), B, raw=True, seed=s), p) for s, p in zip((1, 2, 3), parts))
    left = copy.deepcopy(a).merge_state(b).merge_state(c)
    right = copy.deepcopy(a).merge_state(copy.deepcopy(b).merge_state(c))
    assert_close(left.compute(), right.compute())
    # copy i of the merge = the union of each part's copy-i resample
    per_part = []
    for s, part in zip((1, 2, 3), parts):
        gen = torch.Generator().manual_seed(s)
        rows = [[] for _ in range(B)]
        for batch in part:
            counts = torch.poisson(torch.ones(B, batch[0].shape[0]), generator=gen).long()
            for i in range(B):
                rows[i].append(tuple(x.repeat_interleave(counts[i]) for x in batch))
        per_part.append(rows)
    raw = torch.stack([binary_auroc(*cat([r for p in per_part for r in p[i]])) for i in range(B)])
    assert_close(left.compute()["raw"], raw)
    empty = BootStrapper(BinaryAUROC(), B)
    assert_close(copy.deepcopy(left).merge_state(empty).compute(), left.compute())


def test_state_dict_pickle_and_deepcopy_keep_the_copies():
    boot = feed(BootStrapper(MulticlassAccuracy(num_classes=4), B, raw=True, seed=4), MC[:3])
    if hasattr(boot, "persistent"):  # states become opt-in persistent in the core
        boot.persistent(True)
    resumed = BootStrapper(MulticlassAccuracy(num_classes=4), B, raw=True, seed=4)
    if hasattr(resumed, "persistent"):
        resumed.persistent(True)
    resumed.load_state_dict(boot.state_dict())
    for clone in (resumed, pickle.loads(pickle.dumps(boot)), copy.deepcopy(boot)):
        assert states_equal(snapshot(clone), snapshot(boot))
        assert_close(clone.compute(), boot.compute())
    # a pickled or copied metric also continues the generator exactly
    for clone in (pickle.loads(pickle.dumps(boot)), copy.deepcopy(boot)):
        assert_close(feed(clone, MC[3:]).compute(), feed(copy.deepcopy(boot), MC[3:]).compute())
    assert_close(feed(copy.deepcopy(boot), MC[3:]).compute()["raw"],
                 hand_rolled(MC, lambda *d: multiclass_accuracy(*d, num_classes=4), "poisson", 4))


def test_unseeded_draws_come_from_the_global_generator():
    torch.manual_seed(123)
    a = feed(BootStrapper(MeanMetric(), B, raw=True), [(torch.arange(10.0),)]).compute()["raw"]
    torch.manual_seed(123)
    b = feed(BootStrapper(MeanMetric(), B, raw=True), [(torch.arange(10.0),)]).compute()["raw"]
    assert torch.equal(a, b) and a.unique().numel() > 1


def test_arguments_without_the_batch_dimension_pass_unchanged():
    boot = BootStrapper(MeanMetric(), B, raw=True, seed=2, sampling_strategy="multinomial")
    boot.update(torch.arange(5.0), torch.tensor(2.0))  # a scalar weight is not resampled
    index = torch.randint(0, 5, (B, 5), generator=torch.Generator().manual_seed(2))
    assert_close(boot.compute()["raw"], index.double().mean(dim=1))


def test_rejected_batch_leaves_every_copy_unchanged():
    check_rejects(partial(BootStrapper, BinaryAUROC(), B, seed=0), BIN[:2], (BIN[0][0], BIN[0][1] * 2), ValueError,
                  r"Expected `target` to hold only 0 and 1 .*got value 2")


def test_errors():
    with pytest.raises(TypeError, match=r"Expected `metric` to be a torchmetrics_lite Metric, got int"):
        BootStrapper(3)
    for bad in (1, 0, 2.5, True):
        with pytest.raises(ValueError, match=r"Expected `num_bootstraps` to be an int >= 2"):
            BootStrapper(SumMetric(), bad)
    with pytest.raises(ValueError, match=r"Expected `sampling_strategy` to be one of \('poisson', 'multinomial'\)"):
        BootStrapper(SumMetric(), sampling_strategy="jackknife")
    with pytest.raises(TypeError, match=r"Expected `seed` to be None or an int, got str"):
        BootStrapper(SumMetric(), seed="1")
    for bad in (1.5, -0.1, torch.tensor([[0.5]]), float("nan"), "x"):
        with pytest.raises(ValueError, match=r"Expected `quantile` to be None, a float in \[0, 1\] or a 1-D tensor"):
            BootStrapper(SumMetric(), quantile=bad)
    with pytest.raises(ValueError, match=r"Expected at least one tensor argument with a first \(sample\) dimension"):
        BootStrapper(SumMetric()).update(torch.tensor(3.0))
    boot = BootStrapper(ClasswiseWrapper(MulticlassAccuracy(num_classes=4, average=None)), seed=0)
    boot.update(*MC[0])
    with pytest.raises(TypeError, match=r"Expected ClasswiseWrapper to return a tensor to bootstrap, got dict"):
        boot.compute()
