"""The port surface (issue 21 items 5-7, 9-14): what a torchmetrics user's code touches besides the numbers.
Every test runs the same snippet through torchmetrics 1.9 and through us, and pins the same value or the
documented difference."""

import warnings

import pytest
import torch

import torchmetrics_lite as ours

tm = pytest.importorskip("torchmetrics")
import torchmetrics.classification as tm_classification  # noqa: E402  (after the importorskip)

GEN = torch.Generator().manual_seed(21)
PREDS = torch.rand(50, generator=GEN)
TARGET = (torch.rand(50, generator=GEN) < PREDS).long()
MC_PROBS = torch.rand(60, 4, generator=GEN).softmax(1)
MC_TARGET = torch.randint(0, 4, (60,), generator=GEN)


# ---------------------------------------------------------------------------------------------- 5: result dtype
@pytest.mark.parametrize("name, args, kwargs", [
    ("BinaryAccuracy", (PREDS, TARGET), {}),
    ("BinaryF1Score", (PREDS, TARGET), {}),
    ("MulticlassPrecision", (MC_PROBS, MC_TARGET), {"num_classes": 4}),
    ("BinaryAUROC", (PREDS, TARGET), {}),
    ("MeanMetric", (PREDS,), {}),
])
def test_set_dtype_float32_gives_the_correctly_rounded_float32_of_the_exact_value(name, args, kwargs):
    theirs = getattr(tm_classification, name, None) or getattr(tm, name)
    t = theirs(**kwargs)
    t.update(*args)
    expected_tm = t.compute()
    m = getattr(ours, name)(**kwargs)
    assert m.dtype == torch.float64  # our default: exact
    assert m.set_dtype(torch.float32) is m and m.dtype == torch.float32
    m.update(*args)
    value = m.compute()
    exact = getattr(ours, name)(**kwargs)
    exact.update(*args)
    exact_value = exact.compute()
    assert exact_value.dtype == torch.float64 and value.dtype == torch.float32 == expected_tm.dtype
    assert value.item() == exact_value.float().item()  # float64 -> float32 casts round to nearest
    assert torch.isclose(value, expected_tm)  # torchmetrics' own float32 arithmetic: within a few ulp
    assert m.state_defaults and all(m.local_state()[k].dtype == exact.local_state()[k].dtype
                                    for k in m.state_reductions)  # states keep their exact types
    assert m(*args).dtype == torch.float32  # forward too


def test_set_dtype_makes_torchmetrics_comparisons_work():
    m = ours.BinaryAccuracy()
    m.update(torch.tensor([0.9, 0.8, 0.1]), torch.tensor([1, 1, 1]))
    with pytest.raises(RuntimeError, match="Double did not match Float"):  # the crash, by default
        torch.isclose(m.compute(), torch.tensor(2 / 3))
    assert torch.isclose(m.set_dtype(torch.float32).compute(), torch.tensor(2 / 3))
    assert m.set_dtype("float64").compute().dtype == torch.float64  # by name too; back to exact


def test_set_dtype_on_a_collection_and_integer_results():
    def run(lib, dtype):
        mc = lib.MetricCollection({"acc": lib.MulticlassAccuracy(num_classes=4),
                                   "cm": lib.MulticlassConfusionMatrix(num_classes=4)}).set_dtype(dtype)
        batch = mc(MC_PROBS, MC_TARGET)
        return batch, mc.compute()

    tm_lib = type("L", (), {"MetricCollection": tm.MetricCollection,
                            "MulticlassAccuracy": tm_classification.MulticlassAccuracy,
                            "MulticlassConfusionMatrix": tm_classification.MulticlassConfusionMatrix})
    (_tm_batch, tm_total), (batch, total) = run(tm_lib, torch.float32), run(ours, torch.float32)
    assert batch["acc"].dtype == total["acc"].dtype == tm_total["acc"].dtype == torch.float32
    torch.testing.assert_close(total["acc"], tm_total["acc"])
    assert total["cm"].dtype == torch.int64  # counts stay integers (torchmetrics: float32 here)
    assert torch.equal(total["cm"], tm_total["cm"].long())


def test_set_dtype_half_precision_is_correctly_rounded():
    m = ours.MeanMetric().set_dtype(torch.float16)
    x = torch.tensor(1 + 2**-11 + 2**-40, dtype=torch.float64)  # just above a float16 tie: a float32 cast lands on it
    m.update(x)
    assert m.compute().dtype == torch.float16 and m.compute().item() == 1 + 2**-10


def test_set_dtype_rejects_a_non_floating_dtype():
    with pytest.raises(ValueError, match=r"Expected `dst_type` to be a floating torch.dtype .* got torch.int64"):
        ours.MeanMetric().set_dtype(torch.int64)
    with pytest.raises(ValueError, match=r"Expected `dst_type` .* got 'floaty'"):
        ours.MetricCollection({"m": ours.MeanMetric()}).set_dtype("floaty")


# ---------------------------------------------------------------------------------------------- 6: overridden hooks
def _subclasses(lib_accuracy):
    class DropExtra(lib_accuracy):
        def update(self, preds, target, extra):  # torchmetrics' pattern: a wrapper that drops an argument
            super().update(preds, target)

    class Doubled(lib_accuracy):
        def compute(self):
            return super().compute() * 2

    return DropExtra, Doubled


def test_forward_honours_an_overridden_update_and_compute():
    batches = [(PREDS[:20], TARGET[:20]), (PREDS[20:], TARGET[20:])]
    results = {}
    for lib, cls in (("tm", tm_classification.BinaryAccuracy), ("ours", ours.BinaryAccuracy)):
        drop, doubled = _subclasses(cls)
        a, d = drop(), doubled()
        steps = [v for p, t in batches for v in (a(p, t, "unused").item(), d(p, t).item())]
        results[lib] = steps, a.compute().item(), d.compute().item(), a.update_count if lib == "ours" else None
    tm_steps, tm_a, tm_d, _ = results["tm"]
    steps, a, d, count = results["ours"]
    assert steps == pytest.approx(tm_steps) and a == pytest.approx(tm_a) and d == pytest.approx(tm_d)
    assert count == 2
    exact = ours.functional.binary_accuracy(PREDS, TARGET).item()
    assert a == pytest.approx(exact, abs=1e-15) and d == pytest.approx(2 * exact, abs=1e-15)


def test_an_overridden_update_in_a_collection_and_a_rejected_batch():
    drop, _ = _subclasses(ours.BinaryAccuracy)
    mc = ours.MetricCollection({"drop": drop(), "plain": ours.BinaryAccuracy()})
    values = mc(PREDS, TARGET, extra=None)
    assert values["drop"].item() == values["plain"].item()
    m = drop()
    m.update(PREDS, TARGET, None)
    before = m.compute().item()
    with pytest.raises(ValueError, match="target"):
        m(PREDS[:3], torch.tensor([0, 1, 5]), None)
    assert m.compute().item() == before and m.update_count == 1  # the state is as it was


# ---------------------------------------------------------------------------------------------- 9: import paths
_PATHS = ["classification", "functional.classification", "retrieval", "functional.retrieval", "regression",
          "functional.regression", "aggregation", "wrappers", "functional", ""]


@pytest.mark.parametrize("path", _PATHS)
def test_every_shared_name_imports_from_torchmetrics_path(path):
    import importlib

    import torchmetrics_lite.functional as ours_functional

    theirs = importlib.import_module("torchmetrics" + ("." + path if path else ""))
    mine = importlib.import_module("torchmetrics_lite" + ("." + path if path else ""))
    names = [n for n in dir(theirs) if not n.startswith("_") and callable(getattr(theirs, n))
             and getattr(getattr(theirs, n), "__module__", "").startswith("torchmetrics")]
    shared = [n for n in names if n in ours.__all__ or n in ours_functional.__all__ or n == "auroc"]
    assert len(shared) >= {"classification": 70, "functional.classification": 70}.get(path, 3)
    for name in shared:
        obj = getattr(mine, name)  # the same object as at our top level
        if name != "auroc":  # functional.auroc is the callable family package (tested below)
            assert obj is getattr(ours if name[0].isupper() else ours_functional, name), (path, name)
        exec(f"from torchmetrics_lite{'.' + path if path else ''} import {name}", {})


@pytest.mark.parametrize("path, typo, nearest", [
    ("classification", "BinaryAccuracyy", "BinaryAccuracy"),
    ("functional.classification", "multiclass_aurocc", "multiclass_auroc"),
    ("retrieval", "RetrievalNormalisedDCG", "RetrievalNormalizedDCG"),
    ("functional.regression", "mean_squared_errors", "mean_squared_error"),
    ("wrappers", "ClassWiseWrapper", "ClasswiseWrapper"),
    ("", "MultilabelAccurcy", "MultilabelAccuracy"),
])
def test_a_missing_name_says_so_and_names_the_nearest(path, typo, nearest):
    import importlib

    module = importlib.import_module("torchmetrics_lite" + ("." + path if path else ""))
    want = f"has no .*{typo}.*torchmetrics_lite does not have it; the nearest name it has is '{nearest}'"
    with pytest.raises(AttributeError, match=want):
        getattr(module, typo)
    with pytest.raises(ImportError, match=want):
        exec(f"from {module.__name__} import {typo}", {})
    assert not hasattr(module, typo) and getattr(module, typo, None) is None  # probing still works


def test_functional_auroc_is_the_family_package_and_torchmetrics_function():
    import torchmetrics_lite.functional as F

    value = F.auroc(PREDS, TARGET, task="binary")
    assert value.item() == pytest.approx(tm.functional.auroc(PREDS, TARGET, task="binary").item(), abs=1e-6)
    assert F.auroc.binary_auroc is F.binary_auroc  # still the package


# ---------------------------------------------------------------------------------------------- 10: task factories
def _tm(name):
    """torchmetrics' task-level class or function: at its top level, or only in its classification package (EER)."""
    package = tm.functional if name[:1].islower() else tm
    return getattr(package, name, None) or getattr(package.classification, name)


def _task_data():
    g = torch.Generator().manual_seed(10)
    return {"binary": (torch.rand(40, generator=g), torch.randint(0, 2, (40,), generator=g)),
            "multiclass": (torch.rand(40, 3, generator=g).softmax(1), torch.randint(0, 3, (40,), generator=g)),
            "multilabel": (torch.rand(40, 3, generator=g), torch.randint(0, 2, (40, 3), generator=g))}


def _task_cases():
    from torchmetrics_lite.tasks import REQUIRED, TASKS

    for name, spec in TASKS.items():
        for task in spec.tasks:
            kwargs = {n: 0.5 for n, d in spec.params if d is REQUIRED}
            kwargs.update({"multiclass": {"num_classes": 3}, "multilabel": {"num_labels": 3}}.get(task, {}))
            yield pytest.param(name, task, kwargs, id=f"{name}-{task}")


def _same(a, b, curve):
    if isinstance(a, (tuple, list)):
        pairs = list(zip(a, b))[:2] if curve else list(zip(a, b))  # curves: thresholds start at inf (README)
        for x, y in pairs:
            _same(x, y, False)
        return
    torch.testing.assert_close(a.double(), b.double(), atol=1e-6, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("name, task, kwargs", list(_task_cases()))
def test_task_factories_build_the_task_class_and_give_torchmetrics_number(name, task, kwargs):
    from torchmetrics_lite.tasks import TASKS, snake_case

    cls_name = TASKS[name].tasks[task].cls
    if not hasattr(ours, cls_name):  # a task class this library lacks: a clear error naming it
        with pytest.raises(ValueError, match=rf"{name}\(task='{task}'\) builds torchmetrics' {cls_name}, which "
                                             rf"torchmetrics_lite does not have; the tasks it has for {name}: \("):
            getattr(ours, name)(task=task, **kwargs)
        return
    m = getattr(ours, name)(task=task, **kwargs)
    assert isinstance(m, getattr(ours, cls_name)) and type(m) is getattr(ours, cls_name)
    preds, target = _task_data()[task]
    t = _tm(name)(task=task, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m.update(preds, target)
        t.update(preds, target)
        expected = t.compute()
        functional = getattr(ours.functional, snake_case(name))(preds, target, task=task, **kwargs)
        expected_functional = _tm(snake_case(name))(preds, target, task=task, **kwargs)
    curve = name in ("ROC", "PrecisionRecallCurve")
    if name == "EER" and task != "binary":  # README row: torchmetrics takes the nearest curve point, ours the
        for a, b in ((m.compute(), expected), (functional, expected_functional)):  # crossing: close, not equal
            assert a.shape == b.shape and (a.double() - b.double()).abs().max() < 0.05
        return
    _same(m.compute(), expected, curve)
    _same(functional, expected_functional, curve)


@pytest.mark.parametrize("name", __import__("torchmetrics_lite.tasks").tasks.__all__)
def test_task_factory_signatures_are_torchmetrics(name):
    import inspect

    from torchmetrics_lite.tasks import snake_case

    def params(fn, skip):
        return [(p.name, p.default) for p in list(inspect.signature(fn).parameters.values())[skip:]]

    # ours may add trailing options torchmetrics' task classes lack (HingeLoss: the logits / margins its error names)
    extra = {"HingeLoss": [("from_logits", False), ("margins", False)]}.get(name, [])

    def without_extra(found):
        tail = [p for p in found if p in extra]
        assert tail == extra, (name, found)
        return [p for p in found if p not in extra]

    ours_params = params(getattr(ours, name), 0)
    assert without_extra([p for p in ours_params if p[0] != "kwargs"]) + [p for p in ours_params
                                                                          if p[0] == "kwargs"] == \
        params(_tm(name).__new__, 1)
    fn = snake_case(name)
    assert without_extra(params(getattr(ours.functional.tasks, fn), 0)) == params(_tm(fn), 0)


def test_task_factory_defaults_follow_torchmetrics_task_level_not_the_class():
    # torchmetrics: Accuracy(task="multiclass") averages "micro"; MulticlassAccuracy "macro"
    preds, target = _task_data()["multiclass"]
    for name in ("Accuracy", "Precision", "F1Score"):
        ours_value = getattr(ours, name)(task="multiclass", num_classes=3)(preds, target)
        theirs = getattr(tm, name)(task="multiclass", num_classes=3)(preds, target)
        assert ours_value.item() == pytest.approx(theirs.item(), abs=1e-6)
    assert ours.Accuracy("multiclass", 0.5, 3).average == "micro"  # positional, in torchmetrics' order
    assert type(ours.Accuracy(task="binary", num_classes=2)) is ours.BinaryAccuracy  # ignored, as torchmetrics


@pytest.mark.parametrize("call, error, match", [
    (lambda: ours.Accuracy(task="multiclas", num_classes=3), ValueError,
     r"Expected `task` of Accuracy\(\) to be one of \('binary', 'multiclass', 'multilabel'\), got 'multiclas'; "
     r"did you mean 'multiclass'\?"),
    (lambda: ours.F1Score(task="multiclass"), ValueError,
     r"Expected `num_classes` to be an int for F1Score\(task='multiclass'\), got None"),
    (lambda: ours.AUROC(task="multilabel", num_labels=2.0), ValueError, r"Expected `num_labels` to be an int"),
    (lambda: ours.CohenKappa(task="multilabel"), ValueError, r"one of \('binary', 'multiclass'\)"),
    (lambda: ours.Accuracy(task="binary", foo=1), TypeError,
     r"BinaryAccuracy\(\) got an unexpected keyword argument 'foo'"),
    (lambda: ours.Accuracy(), TypeError, r"Accuracy\(\): missing a required argument: 'task'"),
    (lambda: ours.RecallAtFixedPrecision(task="binary"), TypeError, r"missing a required argument: 'min_precision'"),
    (lambda: ours.functional.accuracy(PREDS, TARGET, task="bin"), ValueError, r"`task` of accuracy\(\)"),
])
def test_task_factory_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ---------------------------------------------------------------------------------------------- 12: aggregation
def _nan_stream():  # fresh tensors: torchmetrics writes the imputed float into its input in place
    return [torch.tensor([1.0, float("nan"), 4.0]), torch.tensor([float("nan")]), torch.tensor([-2.0, 0.5])]


@pytest.mark.parametrize("name", ["SumMetric", "MeanMetric", "MaxMetric", "MinMetric", "CatMetric"])
@pytest.mark.parametrize("strategy", ["warn", "ignore", 0.25, "disable"])
def test_nan_strategy_gives_torchmetrics_number(name, strategy):
    def run(lib):
        m = getattr(lib, name)(nan_strategy=strategy)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            steps = [m(x) for x in _nan_stream()]
        return steps, m.compute(), any(issubclass(w.category, UserWarning) for w in caught)

    (tm_steps, tm_total, tm_warned), (steps, total, warned) = run(tm), run(ours)
    # CatMetric's batch values: torchmetrics gives a 0-d tensor for one value and [] for none (README row)
    pairs = zip([*steps, total], [*tm_steps, tm_total]) if name != "CatMetric" else [(total, tm_total)]
    for a, b in pairs:
        torch.testing.assert_close(a.double(), b.double(), equal_nan=True)
    assert warned == tm_warned == (strategy == "warn")


def test_nan_strategy_error_is_torchmetrics_runtime_error_and_our_value_error():
    for lib in (tm, ours):
        with pytest.raises(RuntimeError):
            lib.MeanMetric(nan_strategy="error").update(_nan_stream()[0])
    with pytest.raises(ValueError, match="pass nan_strategy='warn'"):
        ours.MeanMetric().update(_nan_stream()[0])  # our default is "error" (torchmetrics': "warn"), see the README
    for lib in (tm, ours):
        with pytest.raises(ValueError, match="nan_strategy"):
            lib.SumMetric(nan_strategy="drop")


@pytest.mark.parametrize("name", ["RunningMean", "RunningSum"])
@pytest.mark.parametrize("window", [1, 3, 5])
def test_running_mean_and_sum_follow_torchmetrics_window(name, window):
    g = torch.Generator().manual_seed(window)
    batches = [torch.randn(int(n), generator=g) for n in torch.randint(1, 6, (8,), generator=g)]
    t, m = getattr(tm, name)(window=window), getattr(ours, name)(window=window)
    for x in batches:
        torch.testing.assert_close(m(x).double(), t(x).double())
        torch.testing.assert_close(m.compute().double(), t.compute().double())
    assert isinstance(m, ours.wrappers.Running)


def test_cat_metric_gives_torchmetrics_values_and_the_paths():
    t, m = tm.CatMetric(), ours.CatMetric()
    for x in (torch.tensor([1.0, 2.0]), torch.tensor(3.0), 4.0):
        t.update(x)
        m.update(x)
    torch.testing.assert_close(m.compute().double(), t.compute().double())
    from torchmetrics_lite.aggregation import CatMetric, Running, RunningMean, RunningSum  # torchmetrics' module

    assert (CatMetric, RunningMean, RunningSum, Running) == (ours.CatMetric, ours.RunningMean, ours.RunningSum,
                                                             ours.wrappers.Running)


# ---------------------------------------------------------------------------------------------- 11: Lightning
def test_lightning_takes_our_metrics_with_no_extra_import_in_either_import_order():
    """torchmetrics_lite first (the import hook registers when torchmetrics loads), then the other order; a fresh
    interpreter, so that torchmetrics is not already imported. The real Trainer runs (one process, DDP, resume,
    ModelCheckpoint) are tests/examples/test_lightning_port.py."""
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    code = ("import sys, torchmetrics_lite as t; m = t.BinaryAccuracy(); assert 'torchmetrics' not in sys.modules; "
            "import torchmetrics; assert isinstance(m, torchmetrics.Metric); "
            "assert isinstance(t.MeanMetric(), torchmetrics.Metric); "
            "assert not any(type(f).__name__ == '_Finder' for f in sys.meta_path); print('ok')")
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env=dict(os.environ, PYTHONPATH=root),
                          capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]
    assert isinstance(ours.BinaryAccuracy(), tm.Metric)  # here torchmetrics was imported first


# ---------------------------------------------------------------------------------------------- 13: messages
def _advice(call):
    with pytest.raises(TypeError) as caught:
        call()
    message = str(caught.value)
    return message.split(") got an unexpected keyword argument ", 1)[1]


@pytest.mark.parametrize("cls, fn, args, kwargs", [
    ("RetrievalPrecision", "retrieval_precision", (PREDS[:6], TARGET[:6]), {"top_k": 2}),
    ("BinaryBrierScore", "binary_brier_score", (PREDS, TARGET), {"ignore_index": -1}),
    ("MeanSquaredError", "mean_squared_error", (PREDS, PREDS.flip(0)), {"compute_on_cpu": True}),
    ("BinaryAccuracy", "binary_accuracy", (PREDS, TARGET), {"thresold": 0.5}),
])
def test_functional_forms_give_the_classes_advice(cls, fn, args, kwargs):
    own = {k: v for k, v in kwargs.items() if k in ("num_classes",)}
    foreign = {k: v for k, v in kwargs.items() if k not in own}
    module_advice = _advice(lambda: getattr(ours, cls)(**kwargs))
    function_advice = _advice(lambda: getattr(ours.functional, fn)(*args, **own, **foreign))
    assert function_advice == module_advice
    assert ": " in module_advice or "did you mean `threshold`" in module_advice  # the fix, or the nearest name


def test_functional_num_outputs_names_multioutput():
    with pytest.raises(TypeError, match=r"mean_squared_error\(\) got an unexpected keyword argument 'num_outputs': "
                                        r"torchmetrics' `num_outputs` is `multioutput=` here"):
        ours.functional.mean_squared_error(PREDS, PREDS, num_outputs=1)


def test_a_type_error_inside_a_function_is_not_rewritten():
    with pytest.raises(TypeError, match="Expected `preds` to be a torch.Tensor"):
        ours.functional.binary_accuracy([0.5], TARGET[:1])


def test_multidim_average_global_is_accepted_as_the_no_op_it_is():
    values = {}
    for name, lib, functional in (("tm", tm_classification, tm.functional.classification),
                                  ("ours", ours, ours.functional)):
        m = lib.BinaryF1Score(multidim_average="global")
        m.update(PREDS, TARGET)
        values[name] = m.compute().item()
        assert functional.binary_f1_score(PREDS, TARGET, multidim_average="global").item() == pytest.approx(
            values[name], abs=1e-6)
        if name == "ours":
            assert repr(m) == "BinaryF1Score()"  # a no-op: not shown
    assert values["ours"] == pytest.approx(values["tm"], abs=1e-6)
    task = ours.F1Score(task="multiclass", num_classes=4, multidim_average="global")
    assert type(task) is ours.MulticlassF1Score


def test_calibration_and_retrieval_say_how_to_reshape_and_the_reshape_gives_torchmetrics_number():
    g = torch.Generator().manual_seed(13)
    probs, labels = torch.rand(6, 3, 5, generator=g).softmax(1), torch.randint(0, 3, (6, 5), generator=g)
    with pytest.raises(ValueError, match=r"got shape \(6, 3, 5\); torchmetrics flattens \(N, C, \.\.\.\) scores and "
                                         r"\(N, \.\.\.\) targets: pass preds.movedim\(1, -1\).reshape\(-1, C\), "
                                         r"target.reshape\(-1\)"):
        ours.MulticlassCalibrationError(num_classes=3).update(probs, labels)
    value = ours.functional.multiclass_calibration_error(probs.movedim(1, -1).reshape(-1, 3), labels.reshape(-1),
                                                         num_classes=3)
    theirs = tm.functional.classification.multiclass_calibration_error(probs, labels, num_classes=3)
    assert value.item() == pytest.approx(theirs.item(), abs=1e-6)
    scores, relevant = torch.rand(2, 4, generator=g), torch.randint(0, 2, (2, 4), generator=g)
    relevant[:, 0] = 1
    indexes = torch.tensor([[0, 0, 1, 1], [1, 2, 2, 2]])
    with pytest.raises(ValueError, match=r"pass preds.reshape\(-1\), target.reshape\(-1\), "
                                         r"indexes=indexes.reshape\(-1\)"):
        ours.RetrievalMAP().update(scores, relevant, indexes=indexes)
    m, t = ours.RetrievalMAP(), tm.retrieval.RetrievalMAP()
    m.update(scores.reshape(-1), relevant.reshape(-1), indexes=indexes.reshape(-1))
    t.update(scores, relevant, indexes=indexes)
    assert m.compute().item() == pytest.approx(t.compute().item(), abs=1e-6)
    with pytest.raises(ValueError, match=r"for \(\.\.\., items\) inputs pass preds.reshape\(-1, items\)"):
        ours.RetrievalMAP().update(torch.rand(2, 3, 4), torch.ones(2, 3, 4))


# ---------------------------------------------------------------------------------------------- 7: from_logits
def _probability_warnings(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in caught if "look like probabilities" in str(w.message)]


def test_from_logits_on_probabilities_warns_once_per_metric():
    # the issue's case: torchmetrics' F1 on probabilities differs from ours told they are logits
    theirs = tm_classification.BinaryF1Score()(PREDS, TARGET).item()
    m = ours.BinaryF1Score(from_logits=True)
    found = _probability_warnings(lambda: [m.update(PREDS, TARGET), m.update(PREDS, TARGET), m(PREDS, TARGET)])
    assert len(found) == 1 and "BinaryF1Score(from_logits=True) got scores that look like probabilities" in found[0]
    assert "from_logits=False" in found[0] and m.compute().item() != pytest.approx(theirs, abs=1e-3)
    assert ours.BinaryF1Score()(PREDS, TARGET).item() == pytest.approx(theirs, abs=1e-6)  # the fix it names
    assert len(_probability_warnings(lambda: ours.BinaryF1Score(from_logits=True).update(PREDS, TARGET))) == 1


@pytest.mark.parametrize("make, preds, target, warns", [
    (lambda **k: ours.MulticlassAUROC(num_classes=4, **k), MC_PROBS, MC_TARGET, True),
    (lambda **k: ours.MulticlassAUROC(num_classes=4, **k), MC_PROBS.log(), MC_TARGET, False),  # logits
    (lambda **k: ours.MulticlassAUROC(num_classes=4, **k), MC_PROBS * 0.9, MC_TARGET, False),  # rows not summing to 1
    (lambda **k: ours.MultilabelF1Score(num_labels=4, **k), MC_PROBS, (MC_PROBS > 0.25).long(), True),
    (lambda **k: ours.BinaryAccuracy(**k), PREDS - 0.5, TARGET, False),
])
def test_from_logits_warning_only_for_probability_like_scores(make, preds, target, warns):
    assert len(_probability_warnings(lambda: make(from_logits=True).update(preds, target))) == int(warns)
    assert not _probability_warnings(lambda: make(from_logits=True, validate_args=False).update(preds, target))
    assert not _probability_warnings(lambda: make().update(preds.softmax(-1) if preds.dim() > 1 else preds.sigmoid(),
                                                           target))


def test_from_logits_warning_in_a_collection():
    mc = ours.MetricCollection({"f1": ours.BinaryF1Score(from_logits=True), "acc": ours.BinaryAccuracy()})
    assert len(_probability_warnings(lambda: [mc.update(PREDS, TARGET), mc(PREDS, TARGET)])) == 1


# ---------------------------------------------------------------------------------------------- 14: float labels
@pytest.mark.parametrize("name, preds", [
    ("MulticlassAccuracy", torch.tensor([0.0, 2.0, 1.0, 1.0, 2.0])),  # float labels as preds too
    ("MulticlassConfusionMatrix", torch.tensor([0.0, 2.0, 1.0, 1.0, 2.0])),
    ("MulticlassCohenKappa", torch.tensor([0, 2, 1, 1, 2])),
    ("MulticlassF1Score", torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3], [0.3, 0.4, 0.3],
                                        [0.5, 0.1, 0.4]])),
    ("MulticlassCalibrationError", torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3],
                                                 [0.3, 0.4, 0.3], [0.5, 0.1, 0.4]])),
])
def test_integral_float_labels_are_multiclass_labels(name, preds):
    target = torch.tensor([0.0, 2.0, 2.0, 1.0, 0.0])
    theirs = getattr(tm_classification, name)(num_classes=3)(preds, target)
    mine = getattr(ours, name)(num_classes=3)(preds, target)
    assert torch.allclose(mine.double(), theirs.double(), atol=1e-6)
    assert torch.equal(mine, getattr(ours, name)(num_classes=3)(preds if preds.dim() > 1 else preds.long(),
                                                                target.long()))
    with pytest.raises(ValueError, match=r"`target` to hold class labels \(integers, or floats with integral "
                                         r"values\), got 0.5"):
        getattr(ours, name)(num_classes=3).update(preds, torch.tensor([0.0, 0.5, 2.0, 1.0, 0.0]))


def test_per_query_on_flat_input_does_what_the_readme_says():
    m = ours.RetrievalMAP()
    preds, target = torch.tensor([0.9, 0.1, 0.4, 0.8, 0.3, 0.2]), torch.tensor([1, 0, 0, 1, 0, 1])
    indexes = torch.tensor([0, 0, 1, 1, 2, 2])
    m.update(preds, target, indexes=indexes)
    want = ours.functional.retrieval_average_precision(preds, target, indexes=indexes, reduction="none")
    torch.testing.assert_close(m.per_query(), want)
    t = tm.retrieval.RetrievalMAP()
    t.update(preds, target, indexes=indexes)
    assert m.per_query().mean().item() == pytest.approx(t.compute().item(), abs=1e-6)
    dense = ours.RetrievalMAP()
    dense.update(preds.reshape(3, 2), target.reshape(3, 2))
    with pytest.raises(ValueError, match=r"for dense \(queries, items\) updates construct it with "
                                         r"keep_per_query=True"):
        dense.per_query()
