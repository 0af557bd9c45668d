"""The float32 policy of the retrieval family on a device without float64 (MPS), emulated on the CPU.

Inside ``float64_less_cpu`` any op that makes a float64 tensor raises and the torch kernels run; every public
function and module must work there on float32 and integer inputs and give float32 values close to the float64
ones: every measure, both gains, fractional grades, every ``empty`` rule, both tie rules, every aggregation (a
callable too), per-query values, ``skipped()``, AUROC's ``k`` and ``max_fpr``, dense input with
``mask``/``ignore_index`` and flat input with ``indexes``.
"""
from functools import partial
from typing import Any, Dict, List, Tuple

import pytest
import torch

import torchmetrics_lite.functional.retrieval as functional_retrieval
import torchmetrics_lite.retrieval as module_retrieval
from tests.helpers.no_float64 import assert_float32_close, check_float32_policy, float64_less_cpu
from torchmetrics_lite import (
    RetrievalAUROC,
    RetrievalDCG,
    RetrievalFallOut,
    RetrievalHitRate,
    RetrievalMAP,
    RetrievalMRR,
    RetrievalNormalizedDCG,
    RetrievalPrecision,
    RetrievalPrecisionRecallCurve,
    RetrievalRecall,
    RetrievalRecallAtFixedPrecision,
    RetrievalRPrecision,
)
from torchmetrics_lite.functional import (
    retrieval_auroc,
    retrieval_average_precision,
    retrieval_dcg,
    retrieval_fall_out,
    retrieval_hit_rate,
    retrieval_normalized_dcg,
    retrieval_precision,
    retrieval_precision_recall_curve,
    retrieval_r_precision,
    retrieval_recall,
    retrieval_recall_at_fixed_precision,
    retrieval_reciprocal_rank,
)

G = torch.Generator().manual_seed(21)
Q, N = 9, 8


def _dense(rows):
    preds = torch.randint(0, 4, (rows, N), generator=G).float() / 3  # ties within rows
    target = torch.randint(0, 3, (rows, N), generator=G) * (torch.rand(rows, N, generator=G) < 0.5)
    target[0] = 0  # a query without a relevant item (empty rules)
    target[-1] = 1  # one without a non-relevant item (fall-out, AUROC)
    return preds, target


def _flat():
    n = 90
    preds = torch.randint(0, 5, (n,), generator=G).float()
    target = torch.randint(0, 3, (n,), generator=G) * (torch.rand(n, generator=G) < 0.4)
    indexes = torch.randint(0, 12, (n,), generator=G) * 5 - 7  # queries span every batch
    target[indexes == -7] = 0  # an empty query
    return [(preds[a:b], target[a:b], indexes[a:b]) for a, b in ((0, 25), (25, 60), (60, n))]


DENSE = [_dense(rows) for rows in (4, 3, 5)]
FLAT = _flat()
FRACTIONAL = [(p, t * 0.75 + (t > 0) * 0.5) for p, t in DENSE]  # grades 1.25, 2.0: gains of non-integer grades
INTEGER_SCORES = [(torch.randint(0, 6, (r, N), generator=G), t) for (_, t), r in zip(DENSE, (4, 3, 5))]

# name: (module, function, option variants: each a dict of options that both take)
MEASURES: Dict[str, Tuple[Any, Any, List[Dict[str, Any]]]] = {
    "ndcg": (RetrievalNormalizedDCG, retrieval_normalized_dcg,
             [{}, {"k": 3, "gain": "exponential"}, {"gain": "exponential", "ties": "order", "empty": "skip"}]),
    "dcg": (RetrievalDCG, retrieval_dcg, [{"k": 4}, {"gain": "exponential", "empty": "one"}]),
    "map": (RetrievalMAP, retrieval_average_precision, [{}, {"k": 3, "empty": "skip"}, {"ties": "order"}]),
    "mrr": (RetrievalMRR, retrieval_reciprocal_rank, [{}, {"k": 2, "empty": "one"}]),
    "precision": (RetrievalPrecision, retrieval_precision, [{}, {"k": 3, "ties": "order"}]),
    "recall": (RetrievalRecall, retrieval_recall, [{"k": 3}, {"empty": "skip"}]),
    "hit_rate": (RetrievalHitRate, retrieval_hit_rate, [{"k": 1}, {"k": 3, "ties": "order"}]),
    "r_precision": (RetrievalRPrecision, retrieval_r_precision, [{}, {"empty": "skip"}]),
    "fall_out": (RetrievalFallOut, retrieval_fall_out, [{"k": 3}, {"empty": "zero"}]),
    "auroc": (RetrievalAUROC, retrieval_auroc, [{}, {"ties": "order", "empty": "skip"}, {"k": 3, "max_fpr": 0.5},
                                                {"max_fpr": 0.3, "ties": "order"}, {"k": 5, "empty": "one"}]),
}
CASES = [(name, i) for name, (_, _, variants) in sorted(MEASURES.items()) for i in range(len(variants))]


def _functional(fn, options):
    return lambda *args: fn(*args, **options)


@pytest.mark.parametrize("form", ["dense", "flat"])
@pytest.mark.parametrize("name, variant", CASES)
def test_every_measure_and_option_runs_in_float32(monkeypatch, name, variant, form):
    cls, fn, variants = MEASURES[name]
    options = variants[variant]
    check_float32_policy(monkeypatch, partial(cls, **options), DENSE if form == "dense" else FLAT,
                         _functional(fn, options))


@pytest.mark.parametrize("name", ["ndcg", "dcg", "map", "precision"])
def test_fractional_grades_and_integer_scores(monkeypatch, name):
    cls, fn, _ = MEASURES[name]
    options = {"gain": "exponential"} if name in ("ndcg", "dcg") else {}
    check_float32_policy(monkeypatch, partial(cls, **options), FRACTIONAL, _functional(fn, options))
    check_float32_policy(monkeypatch, cls, INTEGER_SCORES, fn)  # integer scores become float32 there


def quantile90(values, dim=None):
    return values.quantile(0.9)


@pytest.mark.parametrize("aggregation", ["median", "min", "max", quantile90])
@pytest.mark.parametrize("form", ["dense", "flat"])
def test_aggregations_per_query_values_and_skipped(monkeypatch, aggregation, form):
    batches = DENSE if form == "dense" else FLAT
    make = partial(RetrievalMAP, aggregation=aggregation, empty="skip", keep_per_query=True)
    check_float32_policy(monkeypatch, make, batches)
    reference, metric = make(), make()
    for batch in batches:
        reference.update(*batch)
    with float64_less_cpu(monkeypatch), pytest.warns(UserWarning, match="float32"):
        for batch in batches:
            metric.update(*batch)
        per_query, skipped = metric.per_query(), metric.skipped()
    assert_float32_close(per_query, reference.per_query())
    assert skipped == reference.skipped() > 0
    joined = [torch.cat(parts) for parts in zip(*batches)]
    want = retrieval_average_precision(*joined, empty="skip", reduction="none")
    with float64_less_cpu(monkeypatch):
        got = retrieval_average_precision(*joined, empty="skip", reduction="none")
    assert_float32_close(got, want)


def _dense_with_holes():
    preds, target = torch.cat([p for p, _ in DENSE]), torch.cat([t for _, t in DENSE])
    mask = torch.rand(preds.shape, generator=G) < 0.8
    mask[2] = False  # a row without items: no query
    return preds, target, mask


@pytest.mark.parametrize("name", sorted(MEASURES))
def test_mask_and_ignore_index(monkeypatch, name):
    cls, fn, _ = MEASURES[name]
    preds, target, mask = _dense_with_holes()
    marked = torch.where(mask, target, -1)
    p, t, i = torch.cat([b[0] for b in FLAT]), torch.cat([b[1] for b in FLAT]), torch.cat([b[2] for b in FLAT])
    t_marked = torch.where(torch.arange(t.numel()) % 4 == 0, -1, t)
    calls = [partial(fn, preds, target, mask=mask), partial(fn, preds, marked, ignore_index=-1),
             partial(fn, preds, target, mask=mask, reduction="none"), partial(fn, p, t_marked, i, ignore_index=-1)]
    wants = [call() for call in calls]
    with float64_less_cpu(monkeypatch):
        gots = [call() for call in calls]
    for got, want in zip(gots, wants):
        assert_float32_close(got, want)
    # modules: dense with mask, dense and flat with ignore_index (flat rows are marked, dropped at compute)
    for make, args in ((cls, (preds, target, None, mask)), (partial(cls, ignore_index=-1), (preds, marked)),
                       (partial(cls, ignore_index=-1), (p, t_marked, i))):
        check_float32_policy(monkeypatch, make, [args])


def test_empty_error_raises_the_same_message(monkeypatch):
    preds, target = DENSE[0]
    metric = RetrievalMAP(empty="error")  # built outside, as on a real MPS machine
    with float64_less_cpu(monkeypatch):
        with pytest.raises(ValueError, match=r"`target` to hold a relevant item \(target > 0\) in every query"):
            retrieval_average_precision(preds, target, empty="error")
        with pytest.raises(ValueError, match=r"`target` to hold a relevant item"):
            metric.update(preds, target)
    ok = [(p[1:], t[1:]) for p, t in DENSE]  # no empty query left
    check_float32_policy(monkeypatch, partial(RetrievalMAP, empty="error"), ok,
                         partial(retrieval_average_precision, empty="error"))


CURVES = {  # the curves and the recall at a fixed precision: flat input (their modules take indexes only)
    "curve": (RetrievalPrecisionRecallCurve, retrieval_precision_recall_curve,
              [{}, {"max_k": 4, "adaptive_k": True, "empty": "skip"}, {"max_k": 20, "ties": "order"}]),
    "recall_at_precision": (partial(RetrievalRecallAtFixedPrecision, 0.3),
                            partial(retrieval_recall_at_fixed_precision, min_precision=0.3), [{}, {"max_k": 3}]),
}


@pytest.mark.parametrize("name, variant", [(n, i) for n, (_, _, v) in sorted(CURVES.items()) for i in range(len(v))])
def test_curves_run_in_float32(monkeypatch, name, variant):
    cls, fn, variants = CURVES[name]
    options = variants[variant]
    check_float32_policy(monkeypatch, partial(cls, **options), FLAT,
                         lambda p, t, i: fn(p, t, indexes=i, **options))


def test_every_public_name_is_covered():
    covered = {fn.__name__ for _, fn, _ in MEASURES.values()} | {cls.__name__ for cls, _, _ in MEASURES.values()}
    covered |= {RetrievalPrecisionRecallCurve.__name__, RetrievalRecallAtFixedPrecision.__name__,
                retrieval_precision_recall_curve.__name__, retrieval_recall_at_fixed_precision.__name__}
    assert set(functional_retrieval.__all__) | set(module_retrieval.__all__) <= covered
