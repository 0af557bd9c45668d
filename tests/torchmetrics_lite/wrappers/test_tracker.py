"""MetricTracker: the same steps, values, best values and return types as torchmetrics' MetricTracker; a
dict-valued metric's best is None with a warning (its per-step values stay), and in a collection its keys are
flattened."""
import pytest
import torch
import torchmetrics

from tests.helpers.metric_tester import assert_close
from tests.helpers.wrapper_batches import multiclass_batches, regression_batches
from torchmetrics_lite import (
    ClasswiseWrapper,
    MeanAbsoluteError,
    MeanMetric,
    MeanSquaredError,
    MetricCollection,
    MetricTracker,
    MulticlassAccuracy,
    PairedAUROCTest,
    Running,
    SumMetric,
)
from torchmetrics_lite.functional import paired_auroc_test

EPOCHS = [multiclass_batches([12, 7], c=3, seed=i) for i in range(4)]
REG_EPOCHS = [regression_batches([10, 5], seed=10 + i) for i in range(4)]


def _run(tracker, epochs):
    for batches in epochs:
        tracker.increment()
        for batch in batches:
            tracker.update(*batch)
    return tracker


@pytest.mark.parametrize("maximize", [True, False])
def test_single_metric_matches_torchmetrics(maximize):
    ours = _run(MetricTracker(MulticlassAccuracy(num_classes=3), maximize=maximize), EPOCHS)
    peer = _run(torchmetrics.wrappers.MetricTracker(
        torchmetrics.classification.MulticlassAccuracy(num_classes=3), maximize=maximize), EPOCHS)
    assert ours.n_steps == peer.n_steps == 4
    assert_close(ours.compute_all(), peer.compute_all(), atol=1e-6)
    assert_close(ours.compute(), peer.compute(), atol=1e-6)
    value, step = ours.best_metric(return_step=True)
    peer_value, peer_step = peer.best_metric(return_step=True)
    assert isinstance(value, float) and isinstance(step, int)
    assert step == peer_step and value == pytest.approx(peer_value, abs=1e-6)
    assert ours.best_metric() == value


def test_collection_matches_torchmetrics():
    # per member, in the collection's order: highest MAE, lowest MSE (any directions will do). torchmetrics sorts
    # its members by name and pairs `maximize` with that order; ours keeps insertion order (here the same)
    maximize = [True, False]
    ours = _run(MetricTracker(MetricCollection({"mae": MeanAbsoluteError(), "mse": MeanSquaredError()}),
                              maximize=maximize), REG_EPOCHS)
    peer = _run(torchmetrics.wrappers.MetricTracker(torchmetrics.MetricCollection(
        {"mae": torchmetrics.MeanAbsoluteError(), "mse": torchmetrics.MeanSquaredError()}), maximize=maximize),
        [[tuple(x.float() for x in b) for b in e] for e in REG_EPOCHS])
    all_ours, all_peer = ours.compute_all(), peer.compute_all()
    assert list(all_ours) == list(all_peer) == ["mae", "mse"]
    assert_close(all_ours, {k: v.double() for k, v in all_peer.items()}, atol=1e-5)
    values, steps = ours.best_metric(return_step=True)
    peer_values, peer_steps = peer.best_metric(return_step=True)
    assert steps == peer_steps and values == pytest.approx(peer_values, abs=1e-5)
    assert ours.best_metric() == values
    assert steps["mse"] == int(all_ours["mse"].argmin()) and steps["mae"] == int(all_ours["mae"].argmax())


def test_values_that_do_not_stack_or_have_no_best():
    tracker = _run(MetricTracker(MulticlassAccuracy(num_classes=3, average=None), maximize=True), EPOCHS[:2])
    assert tracker.compute_all().shape == (2, 3)
    with pytest.warns(UserWarning, match=r"the best is probably not defined for it. Returning None"):
        assert tracker.best_metric(return_step=True) == (None, None)


@pytest.mark.parametrize("in_collection", [False, True])
def test_best_metric_of_a_dict_valued_metric_is_per_key_as_torchmetrics(in_collection):
    def wrap(lib, acc):
        metric = lib.ClasswiseWrapper(acc(num_classes=3, average=None))
        return lib.MetricCollection({"cw": metric}) if in_collection else metric

    ours = _run(MetricTracker(wrap(__import__("torchmetrics_lite"), MulticlassAccuracy), maximize=True), EPOCHS)
    tm_lib = type("L", (), {"ClasswiseWrapper": torchmetrics.wrappers.ClasswiseWrapper,
                            "MetricCollection": torchmetrics.MetricCollection})
    peer = _run(torchmetrics.wrappers.MetricTracker(wrap(tm_lib, torchmetrics.classification.MulticlassAccuracy),
                                                    maximize=True), EPOCHS)
    values, steps = ours.best_metric(return_step=True)
    peer_values, peer_steps = peer.best_metric(return_step=True)
    assert list(values) == list(peer_values) == [f"multiclassaccuracy_{i}" for i in range(3)]
    assert steps == peer_steps and values == pytest.approx(peer_values, abs=1e-6)
    if in_collection:  # a list gives each member's direction to all of its (flattened) keys
        low = _run(MetricTracker(wrap(__import__("torchmetrics_lite"), MulticlassAccuracy), maximize=[False]), EPOCHS)
        all_values = low.compute_all()
        assert low.best_metric(return_step=True)[1] == {k: int(v.argmin()) for k, v in all_values.items()}


def test_steps_are_independent_copies_and_reset_acts_on_the_last():
    tracker = MetricTracker(SumMetric(), maximize=True)
    for value in (1.0, 5.0, 2.0):
        tracker.increment()
        tracker(torch.tensor([value]))
    assert tracker.compute_all().tolist() == [1.0, 5.0, 2.0]
    tracker.reset()
    assert tracker.compute_all().tolist() == [1.0, 5.0, 0.0]
    assert tracker.best_metric(return_step=True) == (5.0, 1)
    tracker.reset_all()
    assert tracker.compute_all().tolist() == [0.0, 0.0, 0.0]


def test_maximize_is_inferred_from_higher_is_better():
    class Lower(SumMetric):
        higher_is_better = False

    tracker = _run(MetricTracker(Lower()), [[(torch.tensor([v]),)] for v in (3.0, 1.0, 2.0)])
    assert tracker.maximize is False and tracker.best_metric(return_step=True) == (1.0, 1)
    higher = type("Higher", (SumMetric,), {"higher_is_better": True})()
    both = MetricTracker(MetricCollection({"a": Lower(), "b": higher}))
    assert both.maximize == [False, True]


def test_errors():
    with pytest.raises(TypeError, match=r"Expected `metric` to be a Metric or a MetricCollection, got int"):
        MetricTracker(1)
    with pytest.raises(AttributeError, match=r"has no `higher_is_better` attribute; pass `maximize` explicitly"):
        MetricTracker(type("NoHint", (SumMetric,), {"higher_is_better": None})())
    with pytest.raises(TypeError, match=r"Expected `maximize` to be a bool or a list of bool, got 'yes'"):
        MetricTracker(SumMetric(), maximize="yes")
    with pytest.raises(ValueError, match=r"Expected `maximize` to be a single bool when tracking a single Metric"):
        MetricTracker(SumMetric(), maximize=[True])
    with pytest.raises(ValueError, match=r"Expected `maximize` to hold one bool per member of the collection \(2\), "
                                         r"got 1"):
        MetricTracker(MetricCollection({"a": SumMetric(), "b": SumMetric()}), maximize=[True])
    tracker = MetricTracker(SumMetric(), maximize=True)
    for method in ("update", "compute", "compute_all", "forward"):
        with pytest.raises(ValueError, match=rf"`{method}` cannot be called before `.increment\(\)` has been called."):
            getattr(tracker, method)(*([torch.ones(1)] if method in ("update", "forward") else []))


def test_wrappers_pass_on_higher_is_better():
    class Lower(SumMetric):
        higher_is_better = False

    assert MetricTracker(Running(Lower(), window=2)).maximize is False
    assert MetricTracker(MetricCollection({"cw": ClasswiseWrapper(Lower())})).maximize == [False]


# ----------------------------------------------- a dict-valued metric (issue 23 item 8)
# best_metric() is None with a warning, as its docstring promises, instead of torch's raw TypeError; the per-step
# values stay available through compute_all(). In a collection its keys are flattened (torchmetrics), each with
# its best.
DICT_GEN = torch.Generator().manual_seed(8)
DICT_STEPS = [(torch.rand(30, generator=DICT_GEN), torch.rand(30, generator=DICT_GEN), torch.arange(30) % 2)
              for _ in range(3)]


def _tracked(metric):
    tracker = MetricTracker(metric, maximize=True)
    for a, b, target in DICT_STEPS:
        tracker.increment()
        tracker.update(a, b, target)
    return tracker


@pytest.mark.parametrize("return_step, expected", [(False, None), (True, (None, None))])
def test_best_metric_of_a_dict_valued_metric_is_none_with_a_warning(return_step, expected):
    tracker = _tracked(PairedAUROCTest())
    with pytest.warns(UserWarning, match=r"The value of the metric is a dict with keys \[.*\], not one number per "
                                         r"step; best_metric\(\) returns None for it"):
        assert tracker.best_metric(return_step=return_step) == expected
    values = tracker.compute_all()  # still there, per step, equal to the function on each step's data
    for step, (a, b, target) in enumerate(DICT_STEPS):
        for key, value in paired_auroc_test(a, b, target).items():
            torch.testing.assert_close(values[key][step], value)


def test_a_collection_with_a_dict_valued_member_has_its_keys_flattened():
    # a collection flattens a dict member's keys into its own (torchmetrics), so each key has its best
    tracker = MetricTracker(MetricCollection({"test": PairedAUROCTest(), "mean": MeanMetric()}), maximize=True)
    for a, b, target in DICT_STEPS:
        tracker.increment()
        tracker[-1]["test"].update(a, b, target)
        tracker[-1]["mean"].update(a)
    values, steps = tracker.best_metric(return_step=True)
    all_values = tracker.compute_all()
    assert list(values) == list(all_values) and "mean" in values and len(values) > 2
    assert steps == {k: int(v.argmax()) for k, v in all_values.items()}
