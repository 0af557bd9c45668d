"""MetricTracker.best_metric on a dict-valued metric (issue 23 item 8): None with a warning, as its docstring
promises, instead of torch's raw TypeError; the per-step values stay available through compute_all(). In a
collection its keys are flattened (torchmetrics), each with its best."""
import pytest
import torch

from torchmetrics_lite import MeanMetric, MetricCollection, MetricTracker, PairedAUROCTest
from torchmetrics_lite.functional import paired_auroc_test

GEN = torch.Generator().manual_seed(8)
STEPS = [(torch.rand(30, generator=GEN), torch.rand(30, generator=GEN), torch.arange(30) % 2) for _ in range(3)]


def _tracked(metric):
    tracker = MetricTracker(metric, maximize=True)
    for a, b, target in STEPS:
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
    for step, (a, b, target) in enumerate(STEPS):
        for key, value in paired_auroc_test(a, b, target).items():
            torch.testing.assert_close(values[key][step], value)


def test_a_collection_with_a_dict_valued_member_has_its_keys_flattened():
    # a collection flattens a dict member's keys into its own (torchmetrics), so each key has its best
    tracker = MetricTracker(MetricCollection({"test": PairedAUROCTest(), "mean": MeanMetric()}), maximize=True)
    for a, b, target in STEPS:
        tracker.increment()
        tracker[-1]["test"].update(a, b, target)
        tracker[-1]["mean"].update(a)
    values, steps = tracker.best_metric(return_step=True)
    all_values = tracker.compute_all()
    assert list(values) == list(all_values) and "mean" in values and len(values) > 2
    assert steps == {k: int(v.argmax()) for k, v in all_values.items()}
