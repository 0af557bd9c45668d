"""The float32 policy of the classification family on an emulated float64-less device (``tests/helpers/no_float64``).

Every public module and function runs on float32 (and float16) scores with integer targets on a CPU that cannot
hold a float64 tensor: each must make none, keep no float64 state, and return float32 values close to its float64
ones (integer counts: equal). Variants cover the code paths that differ: ``weighted=True`` (float sums of
weights), every ``average``, ``top_k``, ``ignore_index``, ``from_logits``, ``normalize`` and kappa ``weights``.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Dict, Tuple

import pytest
import torch

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional.classification as fc
from tests.helpers.no_float64 import (
    assert_float32_close,
    check_float32_policy,
    float64_less_cpu,
    weighted_functional,
)

C, L = 4, 3
AVERAGES = ("micro", "macro", "weighted", "none")


def _inputs(task: str, preds_dtype: torch.dtype = torch.float32, ignore: bool = False):
    """Three batches (one empty) of ``(preds, target, weight)``; targets hold -1 when ``ignore``."""
    g = torch.Generator().manual_seed({"binary": 1, "multiclass": 2, "multilabel": 3}[task])
    out = []
    for n in (23, 0, 17):
        if task == "binary":
            preds = torch.rand(n, generator=g)
            target = (torch.rand(n, generator=g) < preds).long()
        elif task == "multiclass":
            target = torch.randint(0, C, (n,), generator=g)
            preds = torch.rand(n, C, generator=g)
            preds[torch.arange(n), target] += 0.4 * torch.rand(n, generator=g)
        else:
            preds = torch.rand(n, L, generator=g)
            target = (torch.rand(n, L, generator=g) < preds).long()
        if ignore and n:
            target[::5] = -1
        out.append((preds.to(preds_dtype), target, torch.rand(n, generator=g) * 2))
    return out


@dataclass(frozen=True)
class Case:
    """One public module with its functional form, ``args`` positional after ``(preds, target)``."""

    module: Callable[..., Any]
    function: Callable[..., Any]
    task: str
    args: Tuple[Any, ...] = ()
    kwargs: Dict[str, Any] = field(default_factory=dict)
    weighted: bool = False
    preds_dtype: torch.dtype = torch.float32
    fed_weight: bool = True  # a weighted module's update gets weights (else its int counts become float sums)

    @property
    def id(self) -> str:
        opts = [f"{k}={v}" for k, v in self.kwargs.items()] + (["weighted"] if self.weighted else [])
        opts += [] if self.fed_weight else ["no weight fed"]
        if self.preds_dtype != torch.float32:
            opts.append(str(self.preds_dtype).replace("torch.", ""))
        return f"{self.module.__name__}[{','.join(opts)}]"

    def make(self):
        return self.module(*self.args, weighted=self.weighted, **self.kwargs)

    def functional(self, preds, target, weight=None):
        return self.function(preds, target, *self.args, weight=weight, **self.kwargs)

    def batches(self):
        batches = _inputs(self.task, self.preds_dtype, ignore="ignore_index" in self.kwargs)
        return [b if self.weighted and self.fed_weight else b[:2] for b in batches]


def _variants(module, function, task, args=(), averaged=True, **kwargs):
    """The metric unweighted and weighted, and for an averaged one each ``average`` of its task."""
    cases = [Case(module, function, task, args, kwargs, weighted) for weighted in (False, True)]
    if averaged and task != "binary":
        cases += [Case(module, function, task, args, {**kwargs, "average": a}, w)
                  for a in AVERAGES for w in (False, True)]
    return cases


def _cases():
    cases = []
    for stem in ("StatScores", "Accuracy", "Precision", "Recall", "F1Score", "Specificity", "JaccardIndex"):
        snake = {"StatScores": "stat_scores", "F1Score": "f1_score", "JaccardIndex": "jaccard_index"}.get(
            stem, stem.lower())
        for task, args in (("binary", ()), ("multiclass", (C,)), ("multilabel", (L,))):
            cases += _variants(getattr(tmc, task.capitalize() + stem), getattr(fc, f"{task}_{snake}"), task, args)
    for task, args in (("binary", (0.5,)), ("multiclass", (0.5, C)), ("multilabel", (0.5, L))):
        cases += _variants(getattr(tmc, task.capitalize() + "FBetaScore"), getattr(fc, f"{task}_fbeta_score"), task,
                           args)
    cases += _variants(tmc.MultilabelHammingDistance, fc.multilabel_hamming_distance, "multilabel", (L,))
    cases += _variants(tmc.BinaryHammingDistance, fc.binary_hamming_distance, "binary")
    cases += _variants(tmc.MulticlassHammingDistance, fc.multiclass_hamming_distance, "multiclass", (C,))
    for task, args in (("binary", ()), ("multiclass", (C,)), ("multilabel", (L,))):
        cases += _variants(getattr(tmc, task.capitalize() + "NegativePredictiveValue"),
                           getattr(fc, f"{task}_negative_predictive_value"), task, args)
    cases += _variants(tmc.MulticlassExactMatch, fc.multiclass_exact_match, "multiclass", (C,), False)
    for normalize in (None, "true", "pred", "all"):
        cases += _variants(tmc.BinaryConfusionMatrix, fc.binary_confusion_matrix, "binary", normalize=normalize)
        cases += _variants(tmc.MulticlassConfusionMatrix, fc.multiclass_confusion_matrix, "multiclass", (C,),
                           averaged=False, normalize=normalize)
        cases += _variants(tmc.MultilabelConfusionMatrix, fc.multilabel_confusion_matrix, "multilabel", (L,),
                           averaged=False, normalize=normalize)
    cases += _variants(tmc.BinaryMatthewsCorrCoef, fc.binary_matthews_corrcoef, "binary")
    cases += _variants(tmc.MulticlassMatthewsCorrCoef, fc.multiclass_matthews_corrcoef, "multiclass", (C,), False)
    cases += _variants(tmc.MultilabelMatthewsCorrCoef, fc.multilabel_matthews_corrcoef, "multilabel", (L,), False)
    for weights in (None, "linear", "quadratic"):
        cases += _variants(tmc.BinaryCohenKappa, fc.binary_cohen_kappa, "binary", weights=weights)
        cases += _variants(tmc.MulticlassCohenKappa, fc.multiclass_cohen_kappa, "multiclass", (C,), False,
                           weights=weights)
    cases += _variants(tmc.MultilabelExactMatch, fc.multilabel_exact_match, "multilabel", (L,), False)
    # the paths that differ: top_k, ignore_index (an extra dropped bin), logits, narrower scores, zero_division=nan
    for a in ("macro", "none"):
        cases.append(Case(tmc.MulticlassRecall, fc.multiclass_recall, "multiclass", (C, a), {"top_k": 2}))
        cases.append(Case(tmc.MulticlassAccuracy, fc.multiclass_accuracy, "multiclass", (C, a), {"top_k": 2}, True))
    cases.append(Case(tmc.MulticlassF1Score, fc.multiclass_f1_score, "multiclass", (C,), {"ignore_index": -1}))
    cases.append(Case(tmc.MultilabelF1Score, fc.multilabel_f1_score, "multilabel", (L,), {"ignore_index": -1}, True))
    cases.append(Case(tmc.BinaryPrecision, fc.binary_precision, "binary", (), {"ignore_index": -1}, True))
    cases.append(Case(tmc.MultilabelExactMatch, fc.multilabel_exact_match, "multilabel", (L,),
                      {"ignore_index": -1}))
    cases.append(Case(tmc.BinaryRecall, fc.binary_recall, "binary", (0.3,), {"from_logits": True}))
    for dtype in (torch.float16, torch.bfloat16):
        cases.append(Case(tmc.BinaryF1Score, fc.binary_f1_score, "binary", (0.3,), preds_dtype=dtype))
        cases.append(Case(tmc.MultilabelAccuracy, fc.multilabel_accuracy, "multilabel", (L, 0.3), preds_dtype=dtype))
    cases.append(Case(tmc.MulticlassPrecision, fc.multiclass_precision, "multiclass", (C,),
                      {"zero_division": float("nan")}, True))
    # average="samples": two float sums of per-sample scores (weighted, with ignore_index, zero_division=nan)
    cases.append(Case(tmc.MultilabelF1Score, fc.multilabel_f1_score, "multilabel", (L,), {"average": "samples"},
                      True))
    cases.append(Case(tmc.MultilabelJaccardIndex, fc.multilabel_jaccard_index, "multilabel", (L,),
                      {"average": "samples", "ignore_index": -1}))
    cases.append(Case(tmc.MultilabelPrecision, fc.multilabel_precision, "multilabel", (L,),
                      {"average": "samples", "zero_division": float("nan")}, True))
    for module, function in ((tmc.BinaryStatScores, fc.binary_stat_scores),
                             (tmc.MultilabelExactMatch, fc.multilabel_exact_match)):
        args = (L,) if module is tmc.MultilabelExactMatch else ()
        task = "multilabel" if args else "binary"
        cases.append(Case(module, function, task, args, weighted=True, fed_weight=False))
    return cases


CASES = _cases()


def _check_counts_policy(monkeypatch: pytest.MonkeyPatch, case: Case) -> None:
    """Integer results (unweighted counts): the same integers on the emulated device, and no float64 made."""
    batches = case.batches()
    reference, metric = case.make(), case.make()
    for batch in batches:
        reference.update(*batch)
    joined = [torch.cat(parts) for parts in zip(*batches)]
    with float64_less_cpu(monkeypatch):
        with pytest.warns(UserWarning, match="has no float64"):
            metric.update(*batches[0])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for batch in batches[1:]:
                metric.update(*batch)
            got, got_fn = metric.compute(), case.functional(*joined)
    want = reference.compute()
    assert got.dtype == got_fn.dtype == want.dtype == torch.int64
    assert torch.equal(got, want) and torch.equal(got_fn, case.functional(*joined))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_float32_policy(monkeypatch, case):
    want = case.make()
    for batch in case.batches():
        want.update(*batch)
    if not want.compute().is_floating_point():
        _check_counts_policy(monkeypatch, case)
    else:
        function = case.functional if case.fed_weight else None  # the function of unweighted input counts int64
        check_float32_policy(monkeypatch, case.make, case.batches(), function)


def _hinge_and_group_cases():
    """Modules without ``weighted=`` (the hinge loss takes ``weight`` always) or with a third input (groups)."""
    mc, b = _inputs("multiclass"), _inputs("binary")
    groups = [torch.arange(len(t)) % 3 for _, t, _ in b]
    return [
        ("BinaryHingeLoss", partial(tmc.BinaryHingeLoss, True), b,
         weighted_functional(fc.binary_hinge_loss, squared=True)),
        ("MulticlassHingeLoss", partial(tmc.MulticlassHingeLoss, C, from_logits=True), mc,
         weighted_functional(fc.multiclass_hinge_loss, num_classes=C, from_logits=True)),
        ("MulticlassHingeLoss-ova", partial(tmc.MulticlassHingeLoss, C, multiclass_mode="one-vs-all", margins=True),
         [x[:2] for x in mc], partial(fc.multiclass_hinge_loss, num_classes=C, multiclass_mode="one-vs-all",
                                      margins=True)),
        ("BinaryGroupStatRates", partial(tmc.BinaryGroupStatRates, 3, weighted=True),
         [(p, t, g, w) for (p, t, w), g in zip(b, groups)],
         lambda p, t, g, w: fc.binary_groups_stat_rates(p, t, g, 3, weight=w)),
        ("BinaryFairness", partial(tmc.BinaryFairness, 3), [(p, t, g) for (p, t, _), g in zip(b, groups)],
         lambda p, t, g: fc.binary_fairness(p, t, g, num_groups=3)),
    ]


HINGE_AND_GROUP_CASES = _hinge_and_group_cases()


@pytest.mark.parametrize("name,make,batches,function", HINGE_AND_GROUP_CASES, ids=[c[0] for c in HINGE_AND_GROUP_CASES])
def test_float32_policy_hinge_and_groups(monkeypatch, name, make, batches, function):
    check_float32_policy(monkeypatch, make, batches, function)


def test_fairness_functions_stay_float32(monkeypatch):
    """torchmetrics' demographic_parity / equal_opportunity: binary_fairness's statistics, float32 values."""
    (p, t, _), = _inputs("binary")[:1]
    g = torch.arange(len(t)) % 3
    with float64_less_cpu(monkeypatch):
        values = [*fc.demographic_parity(p, g).values(), *fc.equal_opportunity(p, t, g).values()]
    want = [*fc.demographic_parity(p, g).values(), *fc.equal_opportunity(p, t, g).values()]
    assert all(v.dtype == torch.float32 for v in values)
    assert_float32_close(torch.stack(values), torch.stack(want))


def test_every_public_name_is_covered():
    covered = {c.module.__name__ for c in CASES} | {c.function.__name__ for c in CASES}
    covered |= {"demographic_parity", "equal_opportunity"}  # test_fairness_functions_stay_float32
    covered |= {c[0].split("-")[0] for c in HINGE_AND_GROUP_CASES}
    covered |= {"binary_hinge_loss", "multiclass_hinge_loss", "binary_groups_stat_rates", "binary_fairness"}
    assert set(tmc.__all__) | set(fc.__all__) <= covered, sorted(set(tmc.__all__) | set(fc.__all__) - covered)


def test_float16_threshold_is_exact_without_float64(monkeypatch):
    """The threshold cut of a narrower dtype is found without a float64 tensor, and stays exact: a float16 value
    just above 0.3 is positive although ``0.3`` rounds to it in float16 (a plain ``preds > 0.3`` would say no)."""
    above = torch.tensor(0.3, dtype=torch.float16)
    assert above.item() > 0.3
    preds, target = torch.stack([above, above.new_tensor(0.2)]), torch.tensor([1, 0])
    with float64_less_cpu(monkeypatch):
        got = fc.binary_stat_scores(preds, target, 0.30004)  # not the cut of a cached earlier call
    assert got.tolist() == [1, 0, 1, 0, 1]


@pytest.mark.parametrize("task", ["binary", "multiclass", "multilabel"])
def test_the_compiled_and_scatter_add_paths(monkeypatch, task):
    """The paths a traced call takes (and a GPU or MPS tensor: the weighted scatter-add count; float16 scores
    compared after a cast instead of the host-side cut) make no float64 either and count the same."""
    function = {"binary": fc.binary_f1_score, "multiclass": partial(fc.multiclass_f1_score, num_classes=C),
                "multilabel": partial(fc.multilabel_f1_score, num_labels=L)}[task]
    preds, target, weight = (torch.cat(parts) for parts in zip(*_inputs(task)))
    if task != "multiclass":
        preds = preds.half()
    want = function(preds, target, weight=weight, validate_args=False)
    with float64_less_cpu(monkeypatch), monkeypatch.context() as patch:
        patch.setattr(torch.compiler, "is_compiling", lambda: True)
        got = function(preds, target, weight=weight, validate_args=False)
    assert_float32_close(got, want)
