"""Ported torchmetrics code (issue 12.5-12.13): the same snippet run against torchmetrics and against us gives the
same value, or we raise the documented clear error. Each test runs the snippet once per library."""
import warnings

import pytest
import torch

import torchmetrics_lite as ours

tm = pytest.importorskip("torchmetrics")
from torchmetrics import classification as tm_classification  # noqa: E402  (after the importorskip)
from torchmetrics import retrieval as tm_retrieval  # noqa: E402


class _Lib:
    """A library's public names: ours all at the top level, torchmetrics' in its task modules."""

    def __init__(self, *modules):
        self.modules = modules

    def __getattr__(self, name):
        return next(getattr(m, name) for m in self.modules if hasattr(m, name))


LIBS = {"torchmetrics": _Lib(tm_classification, tm_retrieval, tm), "ours": _Lib(ours)}
RETRIEVAL = LIBS
GEN = torch.Generator().manual_seed(12)
PREDS = torch.rand(40, generator=GEN)
TARGET = (torch.rand(40, generator=GEN) < PREDS).long()


def _both(snippet, *args):
    """Run ``snippet(lib, *args)`` against torchmetrics and us; returns (theirs, ours)."""
    return snippet("torchmetrics", *args), snippet("ours", *args)


def _close(a, b):
    torch.testing.assert_close(torch.as_tensor(a, dtype=torch.float64), torch.as_tensor(b, dtype=torch.float64),
                               atol=1e-6, rtol=1e-6)


def test_compute_value_survives_editing_the_returned_tensor():
    def snippet(lib):
        m = LIBS[lib].SumMetric()
        m.update(PREDS)
        v = m.compute()
        first = v.item()
        v.mul_(100)
        return first, m.compute().item()

    (tm_first, _), (first, again) = _both(snippet)
    _close(first, tm_first)
    assert again == first  # torchmetrics hands out its cache: there the edit shows (documented difference)


def test_compute_before_update_warns_with_the_same_value():
    def snippet(lib):
        with pytest.warns(UserWarning, match="update"):
            return LIBS[lib].SumMetric().compute().item()

    theirs, mine = _both(snippet)
    assert theirs == mine == 0.0


def test_states_are_not_persistent_by_default_and_persistent_true_resumes():
    def snippet(lib):
        model = torch.nn.Linear(2, 1)
        old = {k: v.clone() for k, v in model.state_dict().items()}
        model.acc = LIBS[lib].BinaryAccuracy()
        model.load_state_dict(old, strict=True)  # a model that gained a metric loads its old weights
        default_keys = set(model.state_dict()) - set(old)
        model.acc.update(PREDS[:20], TARGET[:20])
        model.acc.persistent(True)
        saved = model.state_dict()
        resumed = torch.nn.Linear(2, 1)
        resumed.acc = LIBS[lib].BinaryAccuracy()
        resumed.acc.persistent(True)
        resumed.load_state_dict(saved)
        resumed.acc.update(PREDS[20:], TARGET[20:])
        return default_keys, bool(set(saved) - set(old)), resumed.acc.compute().item()

    (tm_keys, tm_saved, tm_value), (keys, saved, value) = _both(snippet)
    assert tm_keys == keys == set() and tm_saved and saved
    _close(value, tm_value)


def test_clone_update_count_and_class_attributes():
    def snippet(lib):
        m = LIBS[lib].MeanMetric()
        m.update(PREDS[:10])
        m(PREDS[10:])
        c = m.clone()
        c.update(PREDS)
        return m.update_count, m.compute().item(), c.compute().item(), m.is_differentiable

    theirs, mine = _both(snippet)
    assert theirs[0] == mine[0] == 2
    _close(mine[1:3], theirs[1:3])
    assert mine[3] is False
    assert ours.Metric.higher_is_better is None and ours.BinaryAccuracy.is_differentiable is False


def test_collection_prefix_postfix_clone_keys_and_nesting():
    def snippet(lib):
        mod = LIBS[lib]
        mc = mod.MetricCollection([mod.BinaryAccuracy(), mod.BinaryF1Score()], prefix="train_", postfix="_s")
        val = mc.clone("val_")
        mc.add_metrics({"prec": mod.BinaryPrecision()})
        val.update(PREDS, TARGET)
        mc.update(PREDS, TARGET)
        return (list(mc.keys()), list(mc.keys(keep_base=True)), {k: v.item() for k, v in val.compute().items()},
                {k: v.item() for k, v in mc.compute().items()})

    theirs, mine = _both(snippet)
    assert sorted(mine[0]) == sorted(theirs[0]) and sorted(mine[1]) == sorted(theirs[1])
    for got, want in ((mine[2], theirs[2]), (mine[3], theirs[3])):
        assert set(got) == set(want)
        for key in want:
            _close(got[key], want[key])


def test_collection_passes_indexes_only_to_retrieval_members():
    indexes = torch.arange(40) // 8
    target = TARGET.clone()
    target[::8] = 1  # every query has a relevant item (the empty-query default is another issue's)

    def snippet(lib):
        mc = LIBS[lib].MetricCollection({"acc": LIBS[lib].BinaryAccuracy(), "map": RETRIEVAL[lib].RetrievalMAP()})
        mc.update(PREDS, target, indexes=indexes)
        return {k: v.item() for k, v in mc.compute().items()}

    theirs, mine = _both(snippet)
    assert set(mine) == set(theirs)
    for key in theirs:
        _close(mine[key], theirs[key])


@pytest.mark.parametrize("name, kwargs, ours_hint", [
    ("RetrievalMAP", {"top_k": 3}, "torchmetrics' `top_k` is `k=` here"),
    ("RetrievalMAP", {"empty_target_action": "neg"}, "torchmetrics' `empty_target_action` is `empty=` here"),
    ("BinaryAccuracy", {"compute_on_cpu": True}, "states stay on the inputs' device"),
    ("BinaryAccuracy", {"dist_sync_on_step": True}, "forward() returns the batch value of this process"),
])
def test_torchmetrics_arguments_we_spell_differently_raise_a_clear_error(name, kwargs, ours_hint):
    getattr(LIBS["torchmetrics"], name)(**kwargs)  # valid torchmetrics code
    with pytest.raises(TypeError, match=rf"^{name}\(\) got an unexpected keyword argument '{list(kwargs)[-1]}': "
                                        + ours_hint.replace("(", r"\(").replace(")", r"\)")):
        getattr(ours, name)(**kwargs)


def test_repr_tells_micro_from_macro():
    assert repr(ours.MulticlassF1Score(3, average="micro")) != repr(ours.MulticlassF1Score(3, average="macro"))
    assert "average='micro'" in repr(ours.MulticlassF1Score(3, average="micro"))


def test_forward_returns_the_batch_value_and_compute_the_epoch_value():
    def snippet(lib):
        m = LIBS[lib].BinaryAccuracy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            batch = [m(PREDS[i : i + 10], TARGET[i : i + 10]).item() for i in range(0, 40, 10)]
        return batch, m.compute().item()

    (tm_batch, tm_epoch), (batch, epoch) = _both(snippet)
    _close(batch, tm_batch)
    _close(epoch, tm_epoch)


def test_nested_collections_flatten_to_the_same_keys_and_values():
    def snippet(lib):
        mod = LIBS[lib]
        inner = mod.MetricCollection({"lo": mod.MinMetric(), "hi": mod.MaxMetric()}, prefix="x_")
        nested = mod.MetricCollection({"scores": inner, "total": mod.SumMetric()})
        flat = mod.MetricCollection([inner.clone(), mod.SumMetric()], prefix="val/")
        for mc in (nested, flat):
            mc.update(PREDS)
        return [{k: v.item() for k, v in mc.compute().items()} for mc in (nested, flat)]

    theirs, mine = _both(snippet)
    for got, want in zip(mine, theirs):
        assert set(got) == set(want)
        for key in want:
            _close(got[key], want[key])


@pytest.mark.parametrize("aggregation", ["mean", "median", "max"])
def test_every_query_skipped_is_nan_where_torchmetrics_says_zero(aggregation):
    """A documented difference (README, "Coming from torchmetrics"): no query counts, so there is no mean."""
    preds, target, indexes = PREDS[:6], torch.zeros(6, dtype=torch.long), torch.tensor([0, 0, 0, 1, 1, 1])
    theirs = tm_retrieval.RetrievalMAP(empty_target_action="skip", aggregation=aggregation)
    mine = ours.RetrievalMAP(empty="skip", aggregation=aggregation)
    theirs.update(preds, target, indexes=indexes)
    mine.update(preds, target, indexes=indexes)
    assert theirs.compute().item() == 0.0
    assert torch.isnan(mine.compute()) and mine.skipped() == 2


def test_retrieval_auroc_of_a_query_without_a_negative_follows_empty():
    """torchmetrics gives 0 to a query with no non-relevant item whatever empty_target_action says; ours follows
    `empty`, whose default gives the same 0 (README, "Coming from torchmetrics")."""
    preds, indexes = PREDS[:6], torch.tensor([0, 0, 0, 1, 1, 1])
    target = torch.tensor([1, 1, 1, 1, 0, 1])  # query 0: relevant items only
    values = {}
    for empty, action in (("zero", "neg"), ("one", "pos")):
        theirs = tm_retrieval.RetrievalAUROC(empty_target_action=action)
        mine = ours.RetrievalAUROC(empty=empty)
        theirs.update(preds, target, indexes=indexes)
        mine.update(preds, target, indexes=indexes)
        values[empty] = theirs.compute().item(), mine.compute().item()
    q1 = ours.functional.retrieval_auroc(preds[3:], target[3:]).item()
    assert values["zero"][0] == pytest.approx(values["zero"][1]) == pytest.approx(q1 / 2)  # the same 0 for query 0
    assert values["one"][0] == pytest.approx(q1 / 2) and values["one"][1] == pytest.approx((1 + q1) / 2)


@pytest.mark.parametrize("name", ["MulticlassAUROC", "MulticlassAveragePrecision", "MultilabelAUROC",
                                  "MultilabelAveragePrecision"])
def test_rank_metrics_take_average_none_as_torchmetrics_does(name):
    gen = torch.Generator().manual_seed(5)
    if name.startswith("Multiclass"):
        preds, target, kw = torch.rand(60, 3, generator=gen).softmax(-1), torch.arange(60) % 3, {"num_classes": 3}
    else:
        preds, target, kw = torch.rand(60, 3, generator=gen), (torch.rand(60, 3, generator=gen) > 0.5).long(), \
            {"num_labels": 3}

    def snippet(lib):
        return getattr(LIBS[lib], name)(average=None, **kw)(preds, target)

    theirs, mine = _both(snippet)
    assert mine.shape == (3,)
    _close(theirs, mine)
    functional = getattr(ours.functional, "_".join(["multiclass" if "class" in name else "multilabel",
                                                    "auroc" if "AUROC" in name else "average_precision"]))
    _close(functional(preds, target, 3, average=None), mine)


@pytest.mark.parametrize("name, kwargs", [
    ("MulticlassConfusionMatrix", {"num_classes": 3}), ("MulticlassCohenKappa", {"num_classes": 3}),
    ("MulticlassMatthewsCorrCoef", {"num_classes": 3}), ("MultilabelF1Score", {"num_labels": 3}),
])
def test_top_k_where_neither_library_has_it_gets_our_error_not_pythons(name, kwargs):
    """These classes fix top_k=1 themselves (or have none): a ported top_k gets the table's message, not a
    'got multiple values for keyword argument' from a base class."""
    with pytest.raises(TypeError, match=rf"^{name}\(\) got an unexpected keyword argument 'top_k': this metric has "
                                        r"no top-k option \(the multiclass stat-score metrics take `top_k=`"):
        getattr(ours, name)(top_k=2, **kwargs)
    assert getattr(ours, "MulticlassF1Score")(num_classes=3, top_k=2).top_k == 2


@pytest.mark.parametrize("name", ["MulticlassAUROC", "MultilabelAveragePrecision"])
def test_rank_inputs_with_extra_dimensions_are_flattened_as_torchmetrics(name):
    """(N, C, ...) scores are flattened into samples, as torchmetrics: its value, and the flattened input's."""
    gen = torch.Generator().manual_seed(8)
    multiclass = name.startswith("Multiclass")
    preds = torch.rand(4, 3, 5, 6, generator=gen)
    preds = preds.softmax(1) if multiclass else preds
    target = torch.randint(0, 3, (4, 5, 6), generator=gen) if multiclass else \
        torch.randint(0, 2, (4, 3, 5, 6), generator=gen)
    kw = {"num_classes": 3} if multiclass else {"num_labels": 3}
    flat_target = target.reshape(-1) if multiclass else target.movedim(1, -1).reshape(-1, 3)
    mine = getattr(ours, name)(**kw)(preds, target)
    assert torch.equal(mine, getattr(ours, name)(**kw)(preds.movedim(1, -1).reshape(-1, 3), flat_target))
    _close(mine, getattr(LIBS["torchmetrics"], name)(**kw)(preds, target))


def test_torchmetrics_positional_top_k_gets_an_error_that_names_it():
    """torchmetrics' ``MulticlassAccuracy(5, 2)`` and ``retrieval_precision(p, t, 2)`` pass top_k positionally;
    here those positions are ``average`` and ``indexes``, and the error says to pass ``top_k=``/``k=``."""
    tm_value = LIBS["torchmetrics"].MulticlassAccuracy(5, 2)(torch.rand(8, 5, generator=GEN), torch.arange(8) % 5)
    assert tm_value.numel() == 1  # valid torchmetrics code
    with pytest.raises(ValueError, match=r"`average` to be one of .*got 2; for top-k pass `top_k=2` by keyword"):
        ours.MulticlassAccuracy(5, 2)
    with pytest.raises(ValueError, match=r"got 3; for top-k pass `top_k=3` by keyword"):
        ours.MulticlassFBetaScore(2.0, 5, 3)
    tm.functional.retrieval.retrieval_precision(PREDS, TARGET, 2)
    with pytest.raises(TypeError, match=r"`indexes` to be a torch.Tensor, got int 2; torchmetrics' third positional "
                                        r"argument `top_k` is `k=2` here"):
        ours.functional.retrieval_precision(PREDS, TARGET, 2)


@pytest.mark.parametrize("name, kwargs", [("MeanSquaredError", {}), ("MeanSquaredError", {"squared": False}),
                                          ("MeanAbsoluteError", {})])
def test_num_outputs_asks_for_multioutput(name, kwargs):
    """README's table: torchmetrics returns the (d,) values with ``num_outputs=d``, scikit-learn their mean; a ported
    ``num_outputs=d`` raises an error naming both choices, ``"raw_values"`` gives torchmetrics' vector."""
    gen = torch.Generator().manual_seed(3)
    preds, target = torch.randn(30, 2, generator=gen), torch.randn(30, 2, generator=gen)
    theirs = getattr(LIBS["torchmetrics"], name)(num_outputs=2, **kwargs)(preds, target)
    assert theirs.shape == (2,)
    _close(getattr(ours, name)(num_outputs=2, multioutput="raw_values", **kwargs)(preds, target), theirs)
    _close(getattr(ours, name)(num_outputs=2, multioutput="uniform_average", **kwargs)(preds, target), theirs.mean())
    with pytest.raises(ValueError, match=r"Expected `multioutput` to be given for \w+\(num_outputs=2\), got None: "
                                         r"torchmetrics returns the 2 per-output values .* pass multioutput="):
        getattr(ours, name)(num_outputs=2, **kwargs)
    assert getattr(ours, name)(**kwargs).multioutput == "uniform_average"  # one output: nothing to choose
