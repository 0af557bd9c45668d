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
    with pytest.raises(TypeError, match=r"Expected every value of `metrics` to be a Metric, got int for 'x'"):
        MetricCollection({"x": 1})
    with pytest.raises(ValueError, match=r"Expected distinct member names, got 'SumMetric' twice; pass a dict"):
        MetricCollection([SumMetric(), SumMetric()])
    with pytest.raises(TypeError, match=r"Expected `compute_groups` to be a bool or a list of lists of member "
                                        r"names, got 'yes'"):
        MetricCollection([SumMetric()], compute_groups="yes")
    with pytest.raises(TypeError, match=r"MetricCollection\(\) got an unexpected keyword argument 'groups'"):
        MetricCollection([SumMetric()], groups=False)


def test_compute_groups_is_torchmetrics_argument_false_turns_sharing_off():
    from torchmetrics_lite import MulticlassF1Score, MulticlassPrecision, MulticlassRecall

    def members():
        return [MulticlassRecall(num_classes=3), MulticlassPrecision(num_classes=3), MulticlassF1Score(num_classes=3)]

    preds, target = torch.tensor([0, 1, 2, 2, 1, 0]), torch.tensor([0, 2, 2, 1, 1, 0])
    names = [["MulticlassRecall", "MulticlassPrecision", "MulticlassF1Score"]]
    collections = {groups: MetricCollection(members(), compute_groups=groups) for groups in (True, False)}
    collections["list"] = MetricCollection(members(), compute_groups=names)  # torchmetrics' explicit groups
    assert [len(mc._groups()) for mc in collections.values()] == [1, 3, 1]
    assert collections[True].compute_groups == {0: names[0]}  # torchmetrics' property
    assert collections[False].compute_groups == {i: [name] for i, name in enumerate(names[0])}
    alone = {type(m).__name__: m(preds, target) for m in members()}
    for mc in collections.values():
        assert {k: v.item() for k, v in mc(preds, target).items()} == {k: v.item() for k, v in alone.items()}


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


# --------------------------------------------------------------------------- torchmetrics' collection API (12.8-12.9)
def test_members_get_only_the_keyword_arguments_their_batch_stats_accepts():
    from torchmetrics_lite import BinaryAccuracy, RetrievalMAP

    preds = torch.tensor([0.9, 0.2, 0.6, 0.4, 0.8, 0.1])
    target = torch.tensor([1, 0, 0, 1, 1, 0])
    indexes = torch.tensor([0, 0, 0, 1, 1, 1])
    mc = MetricCollection({"acc": BinaryAccuracy(), "map": RetrievalMAP()})
    mc.update(preds, target, indexes=indexes)
    acc, rmap = BinaryAccuracy(), RetrievalMAP()
    acc.update(preds, target)
    rmap.update(preds, target, indexes=indexes)
    got = mc.compute()
    assert got["acc"].item() == acc.compute().item() and got["map"].item() == rmap.compute().item()
    assert "indexes" not in mc._accepts["acc"] and "indexes" in mc._accepts["map"]  # inspected once


def test_a_batch_one_member_rejects_leaves_every_member_unchanged():
    from torchmetrics_lite import BinaryAccuracy, MeanSquaredError

    mc = MetricCollection({"mse": MeanSquaredError(), "acc": BinaryAccuracy()})  # the accepting member first
    mc.update(torch.tensor([0.2, 0.9]), torch.tensor([0, 1]))
    before = {name: snapshot(m) for name, m in mc.items()}
    values = mc.compute()
    for call in (mc.update, mc):
        with pytest.raises(ValueError, match="preds"):
            call(torch.tensor([0.2, 1.7]), torch.tensor([0, 1]))  # MSE takes it, accuracy rejects 1.7
    for name, m in mc.items():
        assert states_equal(snapshot(m), before[name]), name
    assert {k: v.item() for k, v in mc.compute().items()} == {k: v.item() for k, v in values.items()}


def test_prefix_postfix_clone_keys_items_and_getitem_as_in_torchmetrics():
    mc = MetricCollection([SumMetric(), MeanMetric()], prefix="train_", postfix="_x")
    assert list(mc.keys()) == ["train_SumMetric_x", "train_MeanMetric_x"]
    assert list(mc.keys(keep_base=True)) == ["SumMetric", "MeanMetric"]
    assert [k for k, _ in mc.items()] == list(mc.keys()) and list(mc) == list(mc.keys())
    assert mc["train_SumMetric_x"] is mc["SumMetric"] and "train_SumMetric_x" in mc and "SumMetric" in mc
    val = mc.clone("val_")  # positional, as torchmetrics
    assert list(val.keys()) == ["val_SumMetric_x", "val_MeanMetric_x"] and val["SumMetric"] is not mc["SumMetric"]
    assert list(mc.clone(None, "_y").keys()) == ["train_SumMetric_y", "train_MeanMetric_y"]
    mc.update(torch.tensor([1.0, 3.0]))
    v = mc.compute()
    v["train_SumMetric_x"].zero_()  # the caller owns the values
    assert mc.compute()["train_SumMetric_x"].item() == 4.0


def test_add_metrics_positional_metrics_and_nested_collections():
    from torchmetrics_lite import MaxMetric, MinMetric

    mc = MetricCollection(SumMetric(), MeanMetric())
    mc.add_metrics({"peak": MaxMetric()})
    assert list(mc.keys()) == ["SumMetric", "MeanMetric", "peak"]
    inner = MetricCollection({"lo": MinMetric(), "hi": MaxMetric()}, prefix="x_")
    nested = MetricCollection({"scores": inner, "total": SumMetric()})
    assert list(nested.keys()) == ["scores_x_lo", "scores_x_hi", "total"]
    flat = MetricCollection([inner.clone(), SumMetric()], prefix="val/")
    flat.update(torch.tensor([2.0, 5.0]))
    assert {k: v.item() for k, v in flat.compute().items()} == {"val/x_lo": 2.0, "val/x_hi": 5.0, "val/SumMetric": 7.0}
    with pytest.raises(ValueError, match=r"Expected distinct member names, got 'peak' twice"):
        mc.add_metrics({"peak": MaxMetric()})
    with pytest.raises(TypeError, match=r"Expected no extra positional metrics after a dict"):
        MetricCollection({"a": SumMetric()}, MeanMetric())


def test_collection_uses_only_the_public_contract_of_metric():
    import ast
    import inspect

    import torchmetrics_lite.collection as module

    private = {node.attr for node in ast.walk(ast.parse(inspect.getsource(module)))
               if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
               and not (isinstance(node.value, ast.Name) and node.value.id == "self")}
    assert private == set(), f"MetricCollection reaches into private members: {private}"


def test_dict_valued_members_are_flattened_as_torchmetrics():
    tm = pytest.importorskip("torchmetrics")
    from torchmetrics_lite import ClasswiseWrapper, MulticlassAccuracy, MulticlassF1Score

    def build(lib, accuracy, f1, wrapper):
        return lib.MetricCollection({"acc": wrapper(accuracy(num_classes=3, average=None), labels=["a", "b", "c"]),
                                     "f1": f1(num_classes=3)}, prefix="val_")

    preds, target = torch.tensor([0, 1, 2, 2, 1]), torch.tensor([0, 2, 2, 1, 1])
    mine = build(__import__("torchmetrics_lite"), MulticlassAccuracy, MulticlassF1Score, ClasswiseWrapper)
    theirs = build(tm, tm.classification.MulticlassAccuracy, tm.classification.MulticlassF1Score,
                   tm.wrappers.ClasswiseWrapper)
    for got, want in ((mine(preds, target), theirs(preds, target)), (mine.compute(), theirs.compute())):
        assert list(got) == list(want) == ["val_multiclassaccuracy_a", "val_multiclassaccuracy_b",
                                           "val_multiclassaccuracy_c", "val_f1"]
        assert all(not isinstance(v, dict) for v in got.values())  # Lightning's log_dict takes it
        for key in got:
            assert got[key].item() == pytest.approx(want[key].item(), abs=1e-6)
    twice = MetricCollection({"x": ClasswiseWrapper(MulticlassAccuracy(num_classes=2, average=None)),
                              "y": ClasswiseWrapper(MulticlassAccuracy(num_classes=2, average=None))})
    with pytest.raises(ValueError, match=r"Expected distinct keys in the values of a MetricCollection, got "
                                         r"'multiclassaccuracy_0' twice \(member 'y' returns a dict\)"):
        twice(torch.tensor([0, 1]), torch.tensor([0, 1]))
