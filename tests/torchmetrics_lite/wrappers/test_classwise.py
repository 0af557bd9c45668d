"""ClasswiseWrapper: torchmetrics' keys, the wrapped metric's values, statistics shared in a collection."""
from functools import partial

import pytest
import torchmetrics

from tests.helpers.metric_tester import assert_close, check_metric, check_rejects
from tests.helpers.wrapper_batches import cat, multiclass_batches
from torchmetrics_lite import (
    ClasswiseWrapper,
    MeanMetric,
    MetricCollection,
    MulticlassAccuracy,
    MulticlassF1Score,
    MulticlassRecall,
)
from torchmetrics_lite.functional import multiclass_accuracy

C = 4
BATCHES = multiclass_batches([9, 0, 14, 6], c=C)
OPTIONS = [{}, {"labels": ["a", "b", "c", "d"]}, {"prefix": "acc/"}, {"postfix": "_acc"},
           {"labels": ["a", "b", "c", "d"], "prefix": "p-", "postfix": "-q"}, {"prefix": ""}]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_keys_and_values_match_torchmetrics(options):
    ours = ClasswiseWrapper(MulticlassAccuracy(num_classes=C, average=None), **options)
    peer = torchmetrics.wrappers.ClasswiseWrapper(
        torchmetrics.classification.MulticlassAccuracy(num_classes=C, average=None), **options)
    for batch in BATCHES:
        ours.update(*batch)
        if batch[1].numel():  # torchmetrics cannot take an empty batch
            peer.update(*batch)
    got, expected = ours.compute(), peer.compute()
    assert list(got) == list(expected)
    assert_close(got, {k: v.double() for k, v in expected.items()}, atol=1e-6)


def test_common_harness():
    labels = ["w", "x", "y", "z"]

    def fn(*batch):
        values = multiclass_accuracy(*batch, num_classes=C, average=None)
        return {f"multiclassaccuracy_{label}": v for label, v in zip(labels, values)}

    check_metric(partial(ClasswiseWrapper, MulticlassAccuracy(num_classes=C, average=None), labels), BATCHES,
                 fn(*cat(BATCHES)), batch_value=fn, max_examples=5)


def test_shares_statistics_with_the_plain_metric_in_a_collection():
    plain = MulticlassRecall(num_classes=C, average=None)
    wrapped = ClasswiseWrapper(MulticlassRecall(num_classes=C, average=None), prefix="recall_")
    f1 = ClasswiseWrapper(MulticlassF1Score(num_classes=C, average=None))
    assert wrapped.stats_key == plain.stats_key
    mc = MetricCollection({"plain": plain, "wrapped": wrapped, "f1": f1})
    for batch in BATCHES:
        mc.update(*batch)
    out = mc.compute()  # the wrappers' dicts flattened into the collection's (torchmetrics)
    assert_close({k: v for k, v in out.items() if k.startswith("recall_")},
                 {f"recall_{i}": v for i, v in enumerate(out["plain"])})
    assert list(out) == ["plain", *[f"recall_{i}" for i in range(C)], *[f"multiclassf1score_{i}" for i in range(C)]]


def test_wrapped_instance_is_left_alone_and_rejects_leave_state_unchanged():
    base = MulticlassAccuracy(num_classes=C, average=None)
    wrapper = ClasswiseWrapper(base)
    wrapper.update(*BATCHES[0])
    assert all(int(v.sum()) == 0 for v in base.local_state().values())
    bad = (BATCHES[0][0], BATCHES[0][1] + C)
    check_rejects(partial(ClasswiseWrapper, MulticlassAccuracy(num_classes=C, average=None)), BATCHES[:1], bad,
                  ValueError, r"Expected `target` to hold labels in \[0, 3\]")


def test_errors():
    with pytest.raises(TypeError, match=r"Expected `metric` to be a torchmetrics_lite Metric, got list"):
        ClasswiseWrapper([])
    with pytest.raises(TypeError, match=r"Expected `labels` to be None or a list of str, got \[0, 1\]"):
        ClasswiseWrapper(MeanMetric(), labels=[0, 1])
    with pytest.raises(TypeError, match=r"Expected `prefix` to be None or a str, got int"):
        ClasswiseWrapper(MeanMetric(), prefix=1)
    with pytest.raises(TypeError, match=r"Expected `postfix` to be None or a str, got bytes"):
        ClasswiseWrapper(MeanMetric(), postfix=b"x")
    scalar = ClasswiseWrapper(MulticlassAccuracy(num_classes=C))
    scalar.update(*BATCHES[0])
    with pytest.raises(ValueError, match=r"Expected MulticlassAccuracy to return a 1-D tensor of per-class values "
                                         r"\(e.g. average=None\), got shape \(\)"):
        scalar.compute()
    short = ClasswiseWrapper(MulticlassAccuracy(num_classes=C, average=None), labels=["a", "b"])
    short.update(*BATCHES[0])
    with pytest.raises(ValueError, match=r"Expected `labels` to name every class: MulticlassAccuracy returned 4 "
                                         r"values, got 2 labels"):
        short.compute()
