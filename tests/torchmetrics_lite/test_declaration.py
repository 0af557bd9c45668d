"""The declaration form, checked for every public metric class: a module declares the functional helpers its function
calls (``stats_fn`` for one batch's statistics, ``value_fn`` for the value) and the options passed to both, and
``Metric`` supplies ``batch_stats`` and ``compute_from_stats`` from them. So "the module and its function call the
same two steps" is checked here by calling each function with both declared helpers patched to record the call."""
from __future__ import annotations

import inspect
import re
import sys
from typing import Any, Callable, List

import pytest
import torch

import torchmetrics_lite as tml
import torchmetrics_lite.functional as F
from tests.helpers import value_hashes as vh
from torchmetrics_lite.metric import Metric, update_signature

#: written to the extension contract (``batch_stats``/``compute_from_stats``) by design: no function family
#: (aggregation) or a metric that holds metrics (wrappers)
CONTRACT = {"SumMetric", "MeanMetric", "MaxMetric", "MinMetric", "BootStrapper", "ClasswiseWrapper", "Running",
            "MinMaxMetric", "MultioutputWrapper",
            # aggregation too (no function family)
            "CatMetric", "RunningMean", "RunningSum",
            # the function evaluates one batch; the module keeps flat rows (``indexes`` required) and groups them by
            # query at compute: no statistics step the two share
            "RetrievalPrecisionRecallCurve", "RetrievalRecallAtFixedPrecision"}
#: declared, and overriding a hook besides: none (BinaryAUROC(bins=...), a module-only mode, declares its own pair)
OVERRIDES: set = set()
FUNCTION = {"RetrievalMAP": "retrieval_average_precision", "RetrievalMRR": "retrieval_reciprocal_rank",
            "BinaryAUROCCI": "binary_auroc_ci", "BinaryLogAUC": "binary_logauc",
            "MulticlassLogAUC": "multiclass_logauc", "MultilabelLogAUC": "multilabel_logauc",
            "BinaryGroupStatRates": "binary_groups_stat_rates"}
#: the group metrics take ``groups`` beside the binary inputs (and ``num_groups``)
GROUPS = {"BinaryFairness", "BinaryGroupStatRates"}
NUM_GROUPS = 3
#: classes whose defaults differ from their function's, as torchmetrics' (LogAUC: the class per class, the function
#: averaged): built with the function's default so the two compare
FUNCTION_DEFAULTS = {"MulticlassLogAUC": {"average": "macro"}, "MultilabelLogAUC": {"average": "macro"}}
#: torchmetrics' regression names whose inputs have another shape or domain than the family's fixed inputs ((N, d)
#: rows, an ensemble, values above -1 or 0), fed positionally to the function and the module
_G = torch.Generator().manual_seed(1)
_ROWS = (torch.rand(vh.N, 3, generator=_G) + 0.1, torch.rand(vh.N, 3, generator=_G) + 0.1)
OWN_INPUTS = {"CosineSimilarity": _ROWS, "KLDivergence": _ROWS, "JensenShannonDivergence": _ROWS,
              "ContinuousRankedProbabilityScore": (torch.randn(vh.N, 4, generator=_G), torch.randn(vh.N, generator=_G)),
              "MeanSquaredLogError": _ROWS, "MinkowskiDistance": _ROWS, "TweedieDevianceScore": _ROWS}


def _classes() -> List[str]:
    return sorted(n for n in tml.__all__ if isinstance(getattr(tml, n), type)
                  and issubclass(getattr(tml, n), Metric) and getattr(tml, n) is not Metric)


def _function_name(cls_name: str) -> str:
    if cls_name in FUNCTION:
        return FUNCTION[cls_name]
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", cls_name).lower()
    return snake.replace("f_beta", "fbeta").replace("corr_coef", "corrcoef")


DECLARED = [n for n in _classes() if n not in CONTRACT]


def test_every_public_metric_is_declared_or_listed():
    for name in _classes():
        cls = getattr(tml, name)
        if name in CONTRACT:
            assert cls.stats_fn is None and cls.value_fn is None, name
            continue
        assert cls.stats_fn is not None and cls.value_fn is not None, f"{name} declares no stats_fn/value_fn"
        overrides = {h for h in ("batch_stats", "compute_from_stats") if getattr(cls, h) is not getattr(Metric, h)}
        assert not overrides or name in OVERRIDES, f"{name} overrides {overrides} instead of declaring"
    assert set(CONTRACT) | set(DECLARED) == set(_classes())


def _instance(cls: type) -> Metric:
    params = vh._params(cls)
    extra = {"num_groups": NUM_GROUPS} if cls.__name__ in GROUPS else dict(FUNCTION_DEFAULTS.get(cls.__name__, {}))
    return cls(**{n: vh.REQUIRED[n] for n, p in params.items() if n in vh.REQUIRED and p.default is p.empty}, **extra)


def _function_call(name: str, fn: Callable, data: dict) -> Callable[[], Any]:
    """The function on the fixed inputs of ``name``'s family (and ``groups`` for a group metric)."""
    params = vh._params(fn)
    if name in GROUPS:
        groups = torch.arange(vh.N) % NUM_GROUPS
        return lambda: fn(data["preds"], data["target"], groups, num_groups=NUM_GROUPS)
    required = {n: vh.REQUIRED[n] for n, p in params.items() if n in vh.REQUIRED and p.default is p.empty}
    if name in OWN_INPUTS:
        inputs = list(params)[:2]  # KLDivergence's input `p`, not Minkowski's order
        return lambda: fn(*OWN_INPUTS[name], **{k: v for k, v in required.items() if k not in inputs})
    return vh._call(fn, params, data, required, weighted=False)


@pytest.mark.parametrize("name", DECLARED)
def test_the_declared_options_are_attributes_and_update_takes_the_rest(name):
    cls = getattr(tml, name)
    metric = _instance(cls)
    options = metric.stats_options()  # an AttributeError names what the declaration lacks
    metric.value_options()
    keywords = {n for n, p in inspect.signature(cls.stats_fn).parameters.items() if p.kind != p.VAR_KEYWORD}
    assert set(options) <= keywords, f"{name} passes {set(options) - keywords} that {cls.stats_fn.__name__} lacks"
    taken = set(update_signature(metric).parameters)
    assert not taken & set(options)
    assert any(taken >= names for names in ({"preds", "target"}, {"loglik", "target"}, {"preds_a", "target"},
                                            {"preds", "targets"}, {"p", "q"}))  # the last two: torchmetrics' names


def _record(fn: Callable, calls: List[Callable], monkeypatch: pytest.MonkeyPatch) -> None:
    """Patch every reference to ``fn`` in the package's modules with a wrapper that records the call."""
    def recorder(*args: Any, **kwargs: Any) -> Any:
        calls.append(fn)
        return fn(*args, **kwargs)
    for module_name, module in list(sys.modules.items()):
        if module_name.startswith("torchmetrics_lite") and module is not None:
            for attr, value in list(vars(module).items()):
                if value is fn:
                    monkeypatch.setattr(module, attr, recorder)


@pytest.mark.parametrize("name", DECLARED)
def test_the_module_and_its_function_call_the_same_two_steps(name, monkeypatch):
    cls = getattr(tml, name)
    fn = getattr(F, _function_name(name))
    data = vh._inputs(vh._family(name), 0)
    expected = _function_call(name, fn, data)()  # before patching
    module = _instance(cls)
    args, kwargs = vh._update_args(name, data, slice(0, None), weighted=False, flat=False)
    if name in GROUPS:
        args = (*args, torch.arange(vh.N) % NUM_GROUPS)
    if name in OWN_INPUTS:
        args, kwargs = OWN_INPUTS[name], {}
    module.update(*args, **kwargs)
    torch.testing.assert_close(module.compute(), expected, rtol=0, atol=0, equal_nan=True)

    calls: List[Callable] = []
    for helper in {cls.stats_fn, cls.value_fn}:
        _record(helper, calls, monkeypatch)
    _function_call(name, fn, data)()
    assert cls.stats_fn in calls, f"{fn.__name__} does not call {name}.stats_fn ({cls.stats_fn.__name__})"
    assert cls.value_fn in calls, f"{fn.__name__} does not call {name}.value_fn ({cls.value_fn.__name__})"


class _Declared(Metric):
    """A metric written in the declaration form over an existing pair of helpers."""

    stats_fn = staticmethod(lambda preds, target, weight=None, *, cut, validate_args: {"n": preds.new_zeros(())})
    value_fn = staticmethod(lambda state, *, scale: state["n"] * scale)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cut, self.scale = 0.5, 2.0
        self.add_state("n", torch.zeros(()), reduce="sum")

    def stats_options(self) -> dict:
        return {"cut": self.cut, "validate_args": self.validate_args}

    def value_options(self) -> dict:
        return {"scale": self.scale}


def test_update_errors_name_the_declared_arguments_without_the_options():
    m = _Declared()
    with pytest.raises(TypeError, match=r"_Declared.update\(preds, target, weight=None\) got an unexpected keyword "
                                        r"argument 'cut'"):
        m.update(torch.ones(2), torch.ones(2), cut=0.3)
    with pytest.raises(TypeError, match=r"_Declared.update\(preds, target, weight=None\) missing"):
        m.update(torch.ones(2))
    assert m.update_count == 0


def test_an_undeclared_metric_says_what_it_lacks():
    class Bare(Metric):
        pass

    with pytest.raises(NotImplementedError, match="Bare declares no `stats_fn` and overrides no `batch_stats`"):
        Bare().batch_stats(torch.ones(1))
    with pytest.raises(NotImplementedError, match="Bare declares no `value_fn`"):
        Bare().compute_from_stats({})



def test_a_module_only_mode_declares_its_own_pair():
    """``BinaryAUROC(bins=...)`` (histograms: no function has the mode) declares its pair on the instance instead of
    overriding the hooks; ``update`` takes what the exact mode takes."""
    exact, binned = tml.BinaryAUROC(), tml.BinaryAUROC(bins=4)
    assert binned.stats_fn is not tml.BinaryAUROC.stats_fn and binned.value_fn is not tml.BinaryAUROC.value_fn
    assert exact.stats_fn is tml.BinaryAUROC.stats_fn
    assert list(update_signature(binned).parameters) == list(update_signature(exact).parameters)
    binned.update(torch.tensor([0.1, 0.9]), torch.tensor([0, 1]))
    assert binned.compute().item() == 1.0


def test_options_are_read_at_the_call_not_at_construction():
    """What a module passes is what its options are when ``update`` runs: no construction order fixes them."""
    m = _Declared()
    m.update(torch.ones(2), torch.ones(2))
    m.scale = 3.0
    assert m.compute().item() == 0.0 and m.compute_from_stats({"n": torch.tensor(1.0)}).item() == 3.0


@pytest.mark.parametrize("name", [n for n in _classes() if "from_logits" in vh._params(getattr(tml, n))])
def test_a_module_with_from_logits_checks_the_accepted_batch(name):
    """``Metric.update`` knows no family option: a module with ``from_logits`` binds its own ``check_accepted``
    (the once-per-metric warning on scores that look like probabilities)."""
    assert getattr(tml, name).check_accepted is not Metric.check_accepted, name


@pytest.mark.parametrize("name", ["stats_options", "value_options"])
def test_options_written_as_a_tuple_of_names_are_refused_at_the_class(name):
    # the attribute-name form of earlier releases would otherwise fail only at the first update, cryptically
    with pytest.raises(TypeError, match=rf"Expected `Old\.{name}` to be a method that returns the keywords .*"
                                        rf"got \('threshold',\)"):
        type("Old", (Metric,), {name: ("threshold",)})
