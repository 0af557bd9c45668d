"""The Metric base class: cat buffers, dtype promotion, persistence, device moves, declaration errors."""
import copy
import pickle

import pytest
import torch

from tests.helpers.metric_tester import concat, states_equal
from tests.helpers.toy import CollectRows
from torchmetrics_lite import Metric, SumMetric

GEN = torch.Generator().manual_seed(1)
BATCHES = [(torch.randn(n, generator=GEN), torch.rand(n, generator=GEN) > 0.5) for n in (4, 0, 9, 1, 30)]


def _expected(batches):
    values, flags = concat(batches)
    return CollectRows().compute_from_stats({"values": values, "flags": flags,
                                      "pairs": torch.cat([CollectRows().batch_stats(*b)["pairs"] for b in batches]),
                                      "n_updates": torch.tensor(len(batches))})


def test_cat_metric_through_harness():
    expected = _expected(BATCHES)
    # pairs_sum depends on batch boundaries (arange per batch), so compare the split-invariant parts only
    m = CollectRows()
    for b in BATCHES:
        m.update(*b)
    got = m.compute()
    for key in ("sorted", "n_flags", "rows"):
        assert torch.equal(got[key], expected[key])


def test_cat_buffer_doubles_and_trims():
    m = CollectRows(persistent=True)
    m.update(torch.ones(10), torch.ones(10, dtype=torch.bool))
    assert m._state["values"].shape[0] == 1024  # preallocated capacity
    m.update(torch.ones(2000), torch.ones(2000, dtype=torch.bool))
    assert m._state["values"].shape[0] == 2048 and m.local_state()["values"].shape[0] == 2010
    m.update(torch.ones(100), torch.ones(100, dtype=torch.bool))
    assert m._state["values"].shape[0] == 4096
    sd = m.state_dict()
    assert sd["values"].shape == (2110,) and sd["pairs"].shape == (2110, 2)


def test_float64_input_promotes_cat_buffer_without_loss():
    m = CollectRows()
    m.update(torch.tensor([0.5]), torch.tensor([True]))
    x = torch.tensor([1.0 + 1e-12], dtype=torch.float64)
    m.update(x, torch.tensor([False]))
    assert m.values.dtype == torch.float64
    assert m.compute()["sorted"][1].item() == x.item()


def test_state_dict_round_trip_and_load_into_fresh():
    m = CollectRows(persistent=True)
    for b in BATCHES:
        m.update(*b)
    fresh = CollectRows()
    fresh.load_state_dict(m.state_dict())
    assert states_equal(fresh.local_state(), m.local_state())
    fresh.update(*BATCHES[0])
    m.update(*BATCHES[0])
    assert torch.equal(fresh.compute()["sorted"], m.compute()["sorted"])


def test_state_dict_inside_a_model():
    model = torch.nn.Module()
    model.metric = SumMetric()
    model.metric.update(torch.tensor([2.0, 3.0]))
    assert "metric.sum_value" not in model.state_dict()  # not persistent by default, as in torchmetrics
    model.metric.persistent(True)
    assert model.state_dict()["metric.sum_value"].item() == 5.0
    other = torch.nn.Module()
    other.metric = SumMetric()
    other.load_state_dict(model.state_dict())  # a persistent checkpoint loads into a default metric
    assert other.metric.compute().item() == 5.0


def test_a_model_that_gains_a_metric_loads_its_old_weights_strictly():
    from torchmetrics_lite import MetricCollection, MulticlassAccuracy

    old = torch.nn.Linear(3, 2)
    new = torch.nn.Linear(3, 2)
    new.acc = MulticlassAccuracy(3)
    new.mc = MetricCollection({"s": SumMetric()})
    new.load_state_dict(old.state_dict(), strict=True)
    assert torch.equal(new.weight, old.weight)
    new.mc.persistent(True)
    new.mc.update(torch.tensor([4.0]))
    assert new.state_dict()["mc.s.sum_value"].item() == 4.0
    with pytest.raises(RuntimeError, match=r'Missing key\(s\) in state_dict: "mc.s.sum_value"'):
        new.load_state_dict(old.state_dict(), strict=True)


def test_pickle_and_deepcopy_keep_cat_state():
    m = CollectRows()
    for b in BATCHES:
        m.update(*b)
    for clone in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
        assert states_equal(clone.local_state(), m.local_state())
        clone.update(*BATCHES[0])
        assert clone.local_state()["values"].shape[0] == m.local_state()["values"].shape[0] + 4


def test_compute_is_cached_until_update():
    m = SumMetric()
    m.update(torch.tensor([1.0]))
    first = m.compute()
    assert m.is_computed and torch.equal(m.compute(), first) and m.compute() is not first
    m.update(torch.tensor([1.0]))
    assert m.compute().item() == 2.0
    m.reset()
    assert m.compute().item() == 0.0


def test_to_moves_states_and_clears_cache():
    m = CollectRows()
    m.update(*BATCHES[0])
    m.compute()
    m.half()  # dtype casts of the model do not touch metric states
    assert not m.is_computed and m.values.dtype == torch.float32
    m2 = m.to("cpu")
    assert m2 is m and m.values.device.type == "cpu"
    meta = CollectRows().to("meta")
    assert all(t.device.type == "meta" for t in meta._state.values())


def test_states_are_not_buffers_so_ddp_cannot_broadcast_over_them():
    m = CollectRows()
    m.update(*BATCHES[0])
    assert list(m.buffers()) == [] and list(m.parameters()) == []
    model = torch.nn.Sequential(torch.nn.Linear(2, 2))
    model.metric = m
    m.persistent(True)
    assert set(model.state_dict()) == {"0.weight", "0.bias", "metric.values", "metric.flags", "metric.pairs",
                                       "metric.n_updates"}


def test_load_state_dict_reports_missing_and_bad_shapes():
    with pytest.raises(RuntimeError, match=r"Missing key\(s\) in state_dict: \"sum_value\""):
        SumMetric(persistent=True).load_state_dict({})
    SumMetric().load_state_dict({})  # not persistent: nothing is missing
    with pytest.raises(RuntimeError, match=r"Expected state sum_value of shape \(\), got \(2,\)"):
        SumMetric().load_state_dict({"sum_value": torch.zeros(2)})
    with pytest.raises(RuntimeError, match=r"Unexpected key\(s\) in state_dict: \"other\""):
        SumMetric().load_state_dict({"sum_value": torch.zeros(()), "other": torch.zeros(())})


def test_merge_state_type_and_iterable():
    a, b, c = SumMetric(), SumMetric(), SumMetric()
    for metric, value in ((a, 1.0), (b, 2.0), (c, 3.0)):
        metric.update(torch.tensor([value]))
    assert a.merge_state([b, c]).compute().item() == 6.0
    with pytest.raises(TypeError, match=r"Expected `other` to be a SumMetric, got CollectRows"):
        a.merge_state(CollectRows())


def test_add_state_errors():
    m = Metric()
    with pytest.raises(ValueError, match=r"Expected `reduce` to be one of \('sum', 'max', 'min', 'cat'\), got 'mean'"):
        m.add_state("x", torch.zeros(()), reduce="mean")
    with pytest.raises(TypeError, match=r"Expected `default` to be a torch.Tensor, got list"):
        m.add_state("x", [], reduce="cat")
    with pytest.raises(ValueError, match=r"Expected `default` of a cat state to have shape \(0, \.\.\.\), got \(3,\)"):
        m.add_state("x", torch.zeros(3), reduce="cat")


def test_base_hooks_are_abstract():
    with pytest.raises(NotImplementedError):
        Metric().update(1)


def test_inputs_requiring_grad_are_accepted_and_states_hold_no_graph():
    from torchmetrics_lite import MaxMetric, MeanMetric, MetricCollection

    x = torch.randn(5, requires_grad=True)
    mc = MetricCollection({"max": MaxMetric(), "mean": MeanMetric()})
    mc.update(x * 2)
    out = mc(x * 2)
    m = CollectRows()
    value = m(x * 2, x > 0)
    assert not any(v.requires_grad for v in out.values()) and not value["sorted"].requires_grad
    assert not any(t.requires_grad for mm in mc.values() for t in mm.local_state().values())
    assert not m.local_state()["values"].requires_grad


@pytest.mark.parametrize("name", ["BinaryAUROC", "CatMetric", "SpearmanCorrCoef", "RetrievalMAP", "MeanMetric"])
def test_update_with_grad_inputs_keeps_no_graph(name):
    """update() of scores that require grad (a training step): no state keeps a graph, over several steps (the
    fast paths return such a batch as given; the merge then runs without autograd too)."""
    import torchmetrics_lite as tml

    m = getattr(tml, name)()
    for step in range(3):
        scores = (torch.randn(8) * torch.ones(8, requires_grad=True)).sigmoid()
        args = {"BinaryAUROC": (scores, torch.arange(8) % 2), "CatMetric": (scores,),
                "SpearmanCorrCoef": (scores, torch.randn(8)), "MeanMetric": (scores,),
                "RetrievalMAP": (scores, torch.arange(8) % 2 == 0, torch.arange(8) // 4)}[name]
        m.update(*args)
    assert m.update_count == 3
    assert not any(t.requires_grad or t.grad_fn is not None for t in m.local_state().values())
    assert not any(t.requires_grad for t in m._state.values())  # the buffers themselves, capacity included
    assert not m.compute().requires_grad


def _fold_count_mean(stack):
    """Merge (count, mean) pairs: a fold that is not a plain sum."""
    n = stack[:, 0].sum()
    mean = (stack[:, 0] * stack[:, 1]).sum() / n.clamp_min(1)
    return torch.stack([n, mean])


class RunningMean(Metric):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_state("count_mean", torch.zeros(2, dtype=torch.float64), reduce=_fold_count_mean)

    def batch_stats(self, x):
        x = x.double()
        return {"count_mean": torch.stack([torch.tensor(float(x.numel()), dtype=torch.float64),
                                           x.mean() if x.numel() else torch.tensor(0.0, dtype=torch.float64)])}

    def compute_from_stats(self, state):
        return state["count_mean"][1]


def test_fold_state_through_the_harness():
    from tests.helpers.metric_tester import check_metric

    batches = [(torch.randn(n, generator=GEN) + 1e4,) for n in (3, 0, 17, 8)]
    check_metric(RunningMean, batches, concat(batches)[0].double().mean(), atol=1e-9)


def test_version_falls_back_in_a_plain_checkout(monkeypatch):
    import importlib
    import importlib.metadata

    import torchmetrics_lite._version as version_module

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    try:
        assert importlib.reload(version_module).__version__ == "0.0.0+checkout"
    finally:
        monkeypatch.undo()
        importlib.reload(version_module)


def test_computed_value_does_not_alias_the_state():
    # a confusion matrix / sum / max value IS the state tensor unless copied: later updates changed a value
    # already returned, and writing into it corrupted the state (Metric.compute and MetricCollection.compute)
    from torchmetrics_lite import MaxMetric, MetricCollection, MulticlassConfusionMatrix

    preds, target = torch.tensor([0, 1, 2, 1]), torch.tensor([0, 1, 1, 2])
    for make, batch in [(lambda: MulticlassConfusionMatrix(3), (preds, target)),
                        (SumMetric, (torch.tensor([1.0, 2.0]),)), (MaxMetric, (torch.tensor([1.0, 5.0]),))]:
        m, mc = make(), MetricCollection({"m": make()})
        for metric in (m, mc):
            metric.update(*batch)
        values = [m.compute(), mc.compute()["m"]]
        kept = [v.clone() for v in values]
        for metric in (m, mc):
            metric.update(*[b * 2 if b.is_floating_point() else b for b in batch])
        assert all(torch.equal(v, k) for v, k in zip(values, kept))
        values[0].zero_()
        values[1].zero_()
        for metric in (m, mc):
            metric.update(*batch)
        assert torch.equal(m.compute(), mc.compute()["m"]) and m.compute().abs().sum() > 0


def test_merge_state_rejects_other_statistics():
    from torchmetrics_lite import BinaryAccuracy, MulticlassAccuracy

    with pytest.raises(ValueError, match=r"Expected `other` to count the same statistics \(stats_key \('binary', 0.5"):
        BinaryAccuracy().merge_state(BinaryAccuracy(threshold=0.1))
    # a (3, 3) confusion matrix and a (3, 3) top-2 table: same shapes, different counts
    with pytest.raises(ValueError, match=r"Expected `other` to count the same statistics"):
        MulticlassAccuracy(3).merge_state(MulticlassAccuracy(3, top_k=2))
    with pytest.raises(ValueError, match=r"Expected `other` to count the same statistics"):
        MulticlassAccuracy(3).merge_state(MulticlassAccuracy(3, ignore_index=0))
    a = BinaryAccuracy(zero_division=1.0)  # options of the value only (average, zero_division) merge fine
    a.merge_state(BinaryAccuracy())


# --------------------------------------------------------------------------- drop-in API (issue 12.5-12.11)
class _PairOfSums(Metric):
    """A metric whose value is a tuple of state tensors (aliasing the state unless copied)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_state("a", torch.zeros(2, dtype=torch.float64), reduce="sum")

    def batch_stats(self, x):
        return {"a": x.double()}

    def compute_from_stats(self, state):
        return state["a"], {"first": state["a"][0]}


def test_compute_returns_a_value_the_caller_owns_also_inside_tuples_and_dicts():
    m = SumMetric()
    m.update(torch.tensor([1.0, 2.0]))
    v = m.compute()
    v.mul_(100)
    assert m.compute().item() == 3.0
    p = _PairOfSums()
    p.update(torch.tensor([1.0, 2.0]))
    first, nested = p.compute()
    first.zero_()
    nested["first"].fill_(9)
    again = p.compute()
    assert again[0].tolist() == [1.0, 2.0] and again[1]["first"].item() == 1.0
    rows = CollectRows()
    rows.update(*BATCHES[0])
    rows.compute()["sorted"].zero_()
    assert torch.equal(rows.compute()["sorted"], torch.sort(BATCHES[0][0].double()).values)


def test_compute_before_any_update_warns_once_per_instance():
    import warnings

    m = SumMetric()
    with pytest.warns(UserWarning, match=r"SumMetric\.compute\(\) was called before any update\(\)"):
        assert m.compute().item() == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m.reset()
        m.compute()  # once per instance
        m.update(torch.tensor([1.0]))
        m.compute()
    with pytest.warns(UserWarning, match="update"):
        SumMetric().compute()  # another instance warns again


def test_clone_update_count_and_class_attributes():
    m = SumMetric()
    assert (Metric.higher_is_better, Metric.is_differentiable) == (None, False)
    assert m.update_count == 0 and not m.update_called
    m.update(torch.tensor([1.0]))
    m(torch.tensor([2.0]))
    assert m.update_count == 2 and m.update_called
    c = m.clone()
    assert c is not m and c.compute().item() == 3.0 and c.update_count == 2
    c.update(torch.tensor([1.0]))
    assert m.compute().item() == 3.0
    other = SumMetric()
    other.update(torch.tensor([1.0]))
    assert m.merge_state(other).update_count == 3
    m.reset()
    assert m.update_count == 0


@pytest.mark.parametrize("make, match", [
    (lambda: SumMetric(compute_on_cpu=True), r"^SumMetric\(\) got an unexpected keyword argument 'compute_on_cpu': "
                                             r"states stay on the inputs' device"),
    (lambda: SumMetric(dist_sync_on_step=True), r"^SumMetric\(\) .* 'dist_sync_on_step': forward\(\) returns"),
    (lambda: SumMetric(compute_groups=False), r"'compute_groups': a MetricCollection shares statistics"),
    (lambda: SumMetric(multidim_average="samplewise"), r"'multidim_average': this metric has only torchmetrics' "
                                                       r"multidim_average='global'"),
    (lambda: SumMetric(valdate_args=False), r"^SumMetric\(\) got an unexpected keyword argument 'valdate_args'; "
                                            r"did you mean `validate_args`\?"),
])
def test_unknown_constructor_arguments_name_the_metric_and_the_fix(make, match):
    with pytest.raises(TypeError, match=match):
        make()


def test_torchmetrics_argument_names_map_to_ours_where_we_have_them():
    from torchmetrics_lite import BinaryAUROC, MulticlassAccuracy, RetrievalMAP, RetrievalMRR, RetrievalNormalizedDCG

    with pytest.raises(TypeError, match=r"^RetrievalMRR\(\) got .* 'top_k': torchmetrics' `top_k` is `k=` here$"):
        RetrievalMRR(top_k=3)
    with pytest.raises(TypeError, match=r"^RetrievalMAP\(\) got .* 'top_k': torchmetrics' `top_k` is `k=` here; "
                                        r".*`RetrievalMAP\(k=3, normalize=\"retrieved\"\)`$"):
        RetrievalMAP(top_k=3)
    with pytest.raises(TypeError, match=r"^RetrievalNormalizedDCG\(\) .*'empty_target_action': torchmetrics' "
                                        r"`empty_target_action` is `empty=` here"):
        RetrievalNormalizedDCG(empty_target_action="neg")
    assert BinaryAUROC(thresholds=100).threshold_values.numel() == 100  # torchmetrics' binned mode is taken
    with pytest.raises(TypeError, match=r"^MulticlassAccuracy\(\) .* 'thresholds': this metric has no binned mode"):
        MulticlassAccuracy(3, thresholds=100)
    assert MulticlassAccuracy(3, top_k=2).top_k == 2  # a real argument of this metric is untouched


def test_repr_shows_every_argument_that_differs_from_its_default():
    from torchmetrics_lite import BinaryF1Score, MulticlassF1Score, RetrievalMAP

    assert repr(MulticlassF1Score(3)) == "MulticlassF1Score(num_classes=3)"
    assert repr(MulticlassF1Score(3, "micro")) == "MulticlassF1Score(num_classes=3, average='micro')"
    assert repr(MulticlassF1Score(num_classes=3, average="macro", zero_division=1.0)) == \
        "MulticlassF1Score(num_classes=3, zero_division=1.0)"
    assert repr(BinaryF1Score(0.3, validate_args=False)) == "BinaryF1Score(threshold=0.3, validate_args=False)"
    assert repr(RetrievalMAP(k=5, empty="one")) == "RetrievalMAP(k=5, empty='one')"
    assert repr(pickle.loads(pickle.dumps(RetrievalMAP(k=5)))) == "RetrievalMAP(k=5)"
    assert repr(SumMetric()) == "SumMetric()"


def test_a_plain_callable_is_a_fold_and_a_fold_pair_is_the_local_fast_path():
    from torchmetrics_lite.metric import Fold

    assert RunningMean().state_reductions["count_mean"] == Fold(_fold_count_mean)
    calls = []

    def pair(state, stats):
        calls.append(1)
        state.copy_(_fold_count_mean(torch.stack([state, stats])))

    m = RunningMean()
    m.state_reductions["count_mean"] = Fold(_fold_count_mean, pair)
    m.update(torch.tensor([1.0, 3.0]))
    m.update(torch.tensor([8.0]))
    assert len(calls) == 2 and m.compute().item() == 4.0


def test_float64_less_device_policy_forced_on_cpu(monkeypatch):
    import warnings

    import torchmetrics_lite._dtype as dtype_module
    from torchmetrics_lite import MeanMetric

    x = torch.tensor([0.1, 0.2, 0.7], dtype=torch.float64)
    made_before = MeanMetric()  # states created as float64, the device "loses" float64 at the first update
    monkeypatch.setattr(dtype_module, "NO_FLOAT64_DEVICES", frozenset({"cpu"}))
    for m in (made_before, MeanMetric()):
        with pytest.warns(UserWarning, match=r"MeanMetric: the 'cpu' device has no float64, so floating states "
                                             r"and results are float32"):
            m.update(x)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # one warning only
            m.update(x)
            value = m.compute()
            assert m(x).dtype == torch.float32
        assert value.dtype == torch.float32 and m.weighted_sum.dtype == torch.float32
        assert m.batch_stats(x)["weighted_sum"].dtype == torch.float32  # float_dtype(device): no float64 made
        assert value.item() == pytest.approx(x.mean().item(), rel=1e-6)
    rows = CollectRows()
    with pytest.warns(UserWarning, match="float32"):
        rows.update(torch.tensor([1.0 + 1e-12], dtype=torch.float64), torch.tensor([True]))
    assert rows.values.dtype == torch.float32  # a float64 batch no longer promotes the cat buffer


def test_a_float64_checkpoint_loads_as_float32_on_a_float64_less_device(monkeypatch):
    """A checkpoint saved where float64 exists resumes on a device without it (emulated): the saved float64
    states load as float32, without making a float64 tensor there."""
    from tests.helpers.no_float64 import float64_less_cpu
    from torchmetrics_lite import MeanMetric

    saved = MeanMetric(persistent=True)
    saved.update(torch.tensor([1.0, 2.5]))
    checkpoint = saved.state_dict()
    fresh, resumed = MeanMetric(persistent=True), MeanMetric(persistent=True)
    with float64_less_cpu(monkeypatch), pytest.warns(UserWarning, match="has no float64"):
        resumed.update(torch.tensor([5.0]))  # the device policy is on: float32 states
        resumed.load_state_dict(checkpoint)
        fresh.load_state_dict(checkpoint)  # before any update: loaded as the device stores states
        values = resumed.compute(), fresh.compute()
        resumed.update(torch.tensor([0.5]))
    assert all(s.dtype == torch.float32 for m in (resumed, fresh) for s in m.local_state().values())
    assert [v.item() for v in values] == [1.75, 1.75]  # the update before the load is replaced by the checkpoint
    assert resumed.compute().item() == pytest.approx(4.0 / 3.0, rel=1e-6)


def test_metric_module_calls_no_private_torch_api():
    import inspect as ins

    import torchmetrics_lite.metric as metric_module

    assert "torch._C" not in ins.getsource(metric_module)


def test_an_update_that_does_not_fit_names_the_metric_and_its_arguments():
    from torchmetrics_lite import BinaryF1Score, MeanSquaredError, RetrievalMAP

    m = RetrievalMAP()
    with pytest.raises(TypeError, match=r"^RetrievalMAP\.update\(preds, target, indexes=None, mask=None\) got an "
                                        r"unexpected keyword argument 'weight'$"):
        m.update(torch.rand(4), torch.tensor([1, 0, 1, 0]), weight=torch.ones(4))
    assert m.update_count == 0 and m.preds.shape[0] == 0  # nothing merged
    with pytest.raises(TypeError, match=r"^BinaryF1Score\.update\(preds, target, weight=None\) too many positional"):
        BinaryF1Score().update(torch.rand(4), torch.tensor([1, 0, 1, 0]), torch.ones(4), 3)
    with pytest.raises(TypeError, match=r"^MeanSquaredError\.update\(preds, target, weight=None\) missing a required "
                                        r"argument: 'target'$"):
        MeanSquaredError()(torch.rand(4))  # forward too
    with pytest.raises(TypeError, match="Expected `preds` to be a torch.Tensor"):  # a TypeError of the checks stays
        MeanSquaredError().update([0.5], torch.rand(1))


class _Keep(Metric):
    """One ``cat`` state of a chosen dtype; ``update(x)`` appends ``x`` as given (no check, no conversion)."""

    def __init__(self, dtype, **kwargs):
        super().__init__(**kwargs)
        self.add_state("rows", torch.zeros(0, 2, dtype=dtype), reduce="cat")

    def batch_stats(self, x):
        return {"rows": x}

    def compute_from_stats(self, state):
        return state["rows"]


_BATCH_DTYPES = (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
                 torch.bfloat16, torch.float32, torch.float64)


@pytest.mark.parametrize("kept", [torch.int64, torch.float32, torch.float64])
@pytest.mark.parametrize("got", _BATCH_DTYPES)
def test_cat_appends_cast_and_promote_as_torch_cat(kept, got):
    # the oracle: torch.cat of the default and the batches (its promotion is the state's rule on these dtypes);
    # values chosen to round differently in narrow dtypes (2**24 + 1 is not a float32, 0.1 not a float16)
    values = torch.tensor([[0, 1], [1, 0], [7, 3]]) if not got.is_floating_point else \
        torch.tensor([[0.1, -2.5], [2.0**24 + 1, 3.0], [1e-3, 65504.0]], dtype=torch.float64)
    batches = [values[:2].to(got), values[2:].to(got), values.to(got)]
    m = _Keep(kept)
    for batch in batches:
        m.update(batch)
    expected = torch.cat([torch.zeros(0, 2, dtype=kept)] + batches)
    got_state = m.compute()
    assert got_state.dtype == expected.dtype and torch.equal(got_state, expected)


def test_the_common_append_copies_in_place_and_other_batches_take_the_general_path(monkeypatch):
    m = _Keep(torch.float32)
    m.update(torch.zeros(2, 2))  # the first append grows the buffer, the second views it (the general path)
    m.update(torch.zeros(1, 2))
    general = []
    monkeypatch.setattr(m, "_merge_one", lambda *a: general.append(a) or Metric._merge_one(m, *a))
    x = torch.randn(4, 2)
    m.update(x)
    expected = x.clone()
    x.add_(1.0)  # the caller edits its batch after the update: the state kept a copy
    assert not general and torch.equal(m.compute()[3:], expected)
    y = torch.randn(2, 2, requires_grad=True)
    m.update(y)  # merged without autograd: a plain copy of the values
    assert torch.equal(m.compute()[7:], y.detach()) and not m._state["rows"].requires_grad
    wide = torch.ones(3, 2, dtype=torch.float64)
    m.update(wide)  # a wider floating batch: the general path promotes the state
    assert len(general) == 1 and m.compute().dtype == torch.float64 and torch.equal(m.compute()[9:], wide)


def test_rank_correlation_states_are_values_for_one_output_and_rows_for_more():
    torchmetrics = pytest.importorskip("torchmetrics")
    from torchmetrics_lite import KendallRankCorrCoef, SpearmanCorrCoef

    x, y = torch.randn(6, 2, generator=GEN), torch.randn(6, 2, generator=GEN)
    for ours_cls, tm_cls in ((SpearmanCorrCoef, torchmetrics.SpearmanCorrCoef),
                             (KendallRankCorrCoef, torchmetrics.KendallRankCorrCoef)):
        for num_outputs, p, t, shape in ((1, x[:, 0], y[:, 0], (6,)), (1, x[:, :1], y[:, :1], (6,)),
                                         (2, x, y, (6, 2))):
            ours, theirs = ours_cls(num_outputs=num_outputs), tm_cls(num_outputs=num_outputs)
            ours.update(p, t)
            theirs.update(p.reshape(-1) if num_outputs == 1 else p, t.reshape(-1) if num_outputs == 1 else t)
            assert ours.local_state()["preds"].shape == ours.local_state()["target"].shape == shape
            assert torch.allclose(ours.compute(), theirs.compute().double(), atol=1e-6)
    spearman = torchmetrics.SpearmanCorrCoef()
    spearman.update(x[:, 0], y[:, 0])
    assert torch.cat(spearman.preds).shape == (6,)  # torchmetrics' Spearman keeps the values as ours


def test_reset_reuses_a_cat_buffer_only_when_nothing_else_holds_its_memory():
    from torchmetrics_lite import CatMetric

    def buffer_id(m):
        return id(m.__dict__["_state"]["value"])

    m = CatMetric()
    m.update(torch.arange(5.0))
    m.update(torch.arange(2.0))  # the second append goes through the remembered numpy view
    before = buffer_id(m)
    m.compute()  # hands out a copy (the cached value, a view, is dropped by reset)
    m.reset()
    assert buffer_id(m) == before  # its own memory, at its capacity: no page faults for the next epoch
    holders = {"a view": lambda: m.value, "local_state": lambda: m.local_state()["value"],
               "synced_state": lambda: m.synced_state()["value"]}
    for what, hold in holders.items():
        m.update(torch.arange(3.0))
        held = hold()
        m.reset()
        assert buffer_id(m) != before, what  # fresh memory: the holder still reads what it read
        m.update(torch.full((3,), 7.0))
        assert held[:3].tolist() == [0.0, 1.0, 2.0], what
        assert m.compute().tolist() == [7.0, 7.0, 7.0]
        before = buffer_id(m)
        del held
        m.reset()
        assert buffer_id(m) == before, what  # the holder gone: reused


def test_a_view_handed_out_before_an_overriding_forward_still_keeps_its_rows_after_reset():
    from torchmetrics_lite import CatMetric

    class Overriding(CatMetric):  # torchmetrics' pattern: forward goes through this update
        def update(self, value):
            super().update(value)

    m = Overriding()
    m.update(torch.arange(3.0))
    held = m.value  # a view of the running buffer
    m(torch.tensor([9.0]))
    m.reset()
    m.update(torch.full((4,), 7.0))
    assert held.tolist() == [0.0, 1.0, 2.0]
    assert m.compute().tolist() == [7.0] * 4
