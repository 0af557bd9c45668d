"""Running: the metric over the last `window` updates, checked against recomputing on those batches."""
import copy
import pickle
from functools import partial

import pytest
import torch

from tests.helpers.metric_tester import assert_close, check_metric, check_rejects, feed
from tests.helpers.wrapper_batches import binary_batches, cat, multiclass_batches, regression_batches
from torchmetrics_lite import (
    BinaryAUROC,
    MaxMetric,
    MeanMetric,
    MetricCollection,
    MulticlassAccuracy,
    R2Score,
    Running,
    SumMetric,
)
from torchmetrics_lite.functional import binary_auroc, multiclass_accuracy, r2_score

# batches of 0 and 1 rows hold no sample or one class: their AUROC (forward's batch value) is nan with a warning,
# by design
pytestmark = pytest.mark.filterwarnings("ignore:AUROC is undefined with")

SIZES = [13, 0, 40, 7, 25, 1, 31, 18, 9, 22]
BIN = binary_batches(SIZES)
MC = multiclass_batches(SIZES)
REG = regression_batches(SIZES)



def _max_of(batches):
    return torch.cat([cat(batches)[0], torch.tensor([-float("inf")], dtype=torch.float64)]).max()


# (name, metric, batches, functional over a list of batches)
METRICS = [
    ("auroc_cat_state", BinaryAUROC(), BIN, lambda bs: binary_auroc(*cat(bs))),
    ("accuracy_sum_state", MulticlassAccuracy(num_classes=4, average="macro"), MC,
     lambda bs: multiclass_accuracy(*cat(bs), num_classes=4, average="macro")),
    ("r2_fold_state", R2Score(), REG, lambda bs: r2_score(*cat(bs))),
    ("max_state", MaxMetric(), [(b[0],) for b in REG], _max_of),
]


@pytest.mark.parametrize("name,metric,batches,fn", METRICS, ids=[m[0] for m in METRICS])
def test_window_covering_every_batch_is_the_metric(name, metric, batches, fn):
    # 12 slots > the 10 batches, the <= 6 parts of any split and the merge parts: the harness's oracle holds
    check_metric(partial(Running, metric, window=12), batches, fn(batches), batch_value=lambda *b: fn([b]),
                 max_examples=8, atol=1e-9)


@pytest.mark.parametrize("window", [1, 3, 4])
@pytest.mark.parametrize("name,metric,batches,fn", METRICS, ids=[m[0] for m in METRICS])
def test_value_is_the_metric_of_the_last_window_batches(name, metric, batches, fn, window):
    running = Running(metric, window=window)
    for i, batch in enumerate(batches):
        batch_value = running(*batch)
        assert_close(batch_value, fn([batch]), path=f"forward {i}")
        assert_close(running.compute(), fn(batches[max(0, i + 1 - window): i + 1]), path=f"after update {i}")


def test_long_stream_compacts_and_stays_exact():
    gen = torch.Generator().manual_seed(3)
    sizes = torch.randint(0, 400, (60,), generator=gen).tolist()
    batches = binary_batches(sizes, gen)
    running = Running(BinaryAUROC(), window=5)
    for i, batch in enumerate(batches):
        running.update(*batch)
        if i % 7 == 0 or i == len(batches) - 1:
            assert_close(running.compute(), binary_auroc(*cat(batches[max(0, i - 4): i + 1])), path=f"update {i}")
    live = sum(sizes[-5:])
    assert running.local_state()["preds"].shape == (live,)
    assert running.preds.shape[0] <= max(2 * live, 4096) + max(sizes)  # dead rows are dropped by compaction


def test_empty_window_gives_the_metrics_empty_value():
    with pytest.warns(UserWarning):
        empty = BinaryAUROC().compute()
    with pytest.warns(UserWarning):
        assert_close(Running(BinaryAUROC(), window=3).compute(), empty)
    assert Running(SumMetric(), window=2).compute().item() == 0.0


def test_merge_is_the_slotwise_union_and_associative():
    a, b, c = (feed(Running(BinaryAUROC(), window=3), BIN[i::3]) for i in range(3))
    left = copy.deepcopy(a).merge_state(b).merge_state(c)
    right = copy.deepcopy(a).merge_state(copy.deepcopy(b).merge_state(c))
    union = [x for part in (BIN[0::3], BIN[1::3], BIN[2::3]) for x in part[-3:]]
    expected = binary_auroc(*cat(union))
    assert_close(left.compute(), expected)
    assert_close(right.compute(), expected)
    m = feed(Running(MulticlassAccuracy(num_classes=4, average="micro"), window=2), MC[:5])
    m.merge_state(feed(Running(MulticlassAccuracy(num_classes=4, average="micro"), window=2), MC[5:]))
    assert_close(m.compute(), multiclass_accuracy(*cat(MC[3:5] + MC[-2:]), num_classes=4, average="micro"))


@pytest.mark.parametrize("name,metric,batches,fn", METRICS[:3], ids=[m[0] for m in METRICS[:3]])
def test_state_dict_pickle_and_deepcopy_resume_exactly_mid_window(name, metric, batches, fn):
    m = feed(Running(metric, window=3), batches[:6])
    if hasattr(m, "persistent"):  # states become opt-in persistent in the core
        m.persistent(True)
    resumed = Running(metric, window=3)
    if hasattr(resumed, "persistent"):
        resumed.persistent(True)
    resumed.load_state_dict(m.state_dict())
    for clone in (resumed, pickle.loads(pickle.dumps(m)), copy.deepcopy(m), m):
        for i, batch in enumerate(batches[6:], start=6):
            clone.update(*batch)
            assert_close(clone.compute(), fn(batches[i - 2: i + 1]), path=f"resumed, update {i}")


def test_members_of_a_collection_move_their_windows():
    mc = MetricCollection({"auroc": Running(BinaryAUROC(), window=2), "all": Running(BinaryAUROC(), window=50),
                           "mean": Running(MeanMetric(), window=3)})
    for batch in BIN:
        mc.update(batch[0], batch[1])  # MeanMetric: value, weight (the 0/1 labels)
    out = mc.compute()
    assert_close(out["auroc"], binary_auroc(*cat(BIN[-2:])))
    assert_close(out["all"], binary_auroc(*cat(BIN)))
    last = cat(BIN[-3:])
    assert_close(out["mean"], (last[0].double() * last[1]).sum() / last[1].sum())


def test_rejected_batch_leaves_the_window_unchanged():
    check_rejects(partial(Running, BinaryAUROC(), window=2), BIN[:4], (BIN[0][0], BIN[0][1] * 2), ValueError,
                  r"Expected `target` to hold only 0 and 1 .*got value 2")


def test_wrapped_instance_is_left_alone():
    base = feed(SumMetric(), [(torch.tensor([5.0]),)])
    running = Running(base, window=2)
    running.update(torch.tensor([1.0]))
    assert running.compute().item() == 1.0 and base.compute().item() == 5.0


def test_argument_errors():
    with pytest.raises(TypeError, match=r"Expected `metric` to be a torchmetrics_lite Metric, got str"):
        Running("auroc")
    for bad in (0, -1, 2.0, True):
        with pytest.raises(ValueError, match=r"Expected `window` to be a positive int, got"):
            Running(SumMetric(), window=bad)
    with pytest.raises(ValueError, match=r"Expected `other` to be a Running\(SumMetric, window=2\), "
                                         r"got Running\(SumMetric, window=3\)"):
        Running(SumMetric(), window=2).merge_state(Running(SumMetric(), window=3))
    with pytest.raises(ValueError, match=r"got Running\(MaxMetric, window=2\)"):
        Running(SumMetric(), window=2).merge_state(Running(MaxMetric(), window=2))
