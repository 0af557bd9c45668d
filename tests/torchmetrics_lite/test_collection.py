"""MetricCollection: fan-out, shared statistics computed once, forward, prefixes, rejected updates."""
import pytest
import torch

from tests.helpers.metric_tester import feed, snapshot, states_equal
from torchmetrics_lite import MeanMetric, MetricCollection, SumMetric
from torchmetrics_lite.metric import Metric

CALLS = []


class CountingSum(SumMetric):
    """A SumMetric whose statistics declare a shared key, counting how often they are computed."""

    stats_key = ("counting_sum",)

    def batch_stats(self, value):
        CALLS.append(type(self).__name__)
        return super().batch_stats(value)


class Doubled(CountingSum):
    def compute_from_stats(self, state):
        return 2 * state["sum_value"]


def test_shared_statistics_are_computed_once_per_batch():
    CALLS.clear()
    mc = MetricCollection({"a": CountingSum(), "b": Doubled(), "mean": MeanMetric()})
    mc.update(torch.tensor([1.0, 2.0]))
    mc.update(torch.tensor([3.0]))
    assert len(CALLS) == 2
    out = mc.compute()
    assert {k: v.item() for k, v in out.items()} == {"a": 6.0, "b": 12.0, "mean": 2.0}


def test_forward_returns_batch_values_and_merges_once():
    mc = MetricCollection([SumMetric(), MeanMetric()], prefix="train/", postfix="_step")
    batch = mc(torch.tensor([4.0, 6.0]))
    assert {k: v.item() for k, v in batch.items()} == {"train/SumMetric_step": 10.0, "train/MeanMetric_step": 5.0}
    mc(torch.tensor([2.0]))
    assert mc.compute()["train/SumMetric_step"].item() == 12.0
    assert list(mc.keys()) == ["train/SumMetric_step", "train/MeanMetric_step"]
    assert list(mc.keys(keep_base=True)) == ["SumMetric", "MeanMetric"]


def test_rejected_batch_changes_no_member():
    mc = MetricCollection({"s": SumMetric(), "m": MeanMetric()})
    mc.update(torch.tensor([1.0]))
    before = {k: snapshot(m) for k, m in mc.items()}
    with pytest.raises(ValueError, match="contain no NaN"):
        mc.update(torch.tensor([float("nan")]))
    assert all(states_equal(snapshot(m), before[k]) for k, m in mc.items())


def test_reset_state_dict_and_clone():
    mc = feed(MetricCollection({"s": SumMetric()}), [(torch.tensor([1.0, 2.0]),)])
    assert mc.state_dict() == {}  # not persistent by default
    mc.persistent(True)
    other = MetricCollection({"s": SumMetric()})
    other.load_state_dict(mc.state_dict())
    assert other.compute()["s"].item() == 3.0
    val = mc.clone(prefix="val/")
    assert list(val.compute()) == ["val/s"] and val["s"] is not mc["s"]
    mc.reset()
    assert mc.compute()["s"].item() == 0.0


def test_constructor_errors():
    with pytest.raises(TypeError, match=r"Expected every value of `metrics` to be a Metric or a MetricCollection, "
                                        r"got int for 'x'"):
        MetricCollection({"x": 1})
    with pytest.raises(ValueError, match=r"Expected distinct member names, got 'SumMetric' twice; pass a dict"):
        MetricCollection([SumMetric(), SumMetric()])
    with pytest.raises(TypeError, match=r"MetricCollection\(\) got an unexpected keyword argument 'compute_groups': "
                                        r"a MetricCollection shares statistics automatically"):
        MetricCollection([SumMetric()], compute_groups=False)


def test_members_without_shared_key_are_independent():
    assert Metric.stats_key is None
    mc = MetricCollection({"a": SumMetric(), "b": SumMetric()})
    assert len(mc._groups()) == 2


def test_members_that_validate_differently_do_not_share_statistics():
    from torchmetrics_lite import MeanSquaredError, RootMeanSquaredError

    mc = MetricCollection({"rmse": RootMeanSquaredError(validate_args=False), "mse": MeanSquaredError()})
    assert len(mc._groups()) == 2 or mc["rmse"].stats_key != mc["mse"].stats_key
    with pytest.raises(ValueError, match="NaN"):
        mc.update(torch.tensor([float("nan"), 1.0]), torch.tensor([0.0, 1.0]))  # the validating member still checks
