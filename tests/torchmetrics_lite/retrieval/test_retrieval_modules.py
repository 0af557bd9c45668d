"""Retrieval modules through the harness (dense and flat input, queries split across batches and ranks), the
skipped-query count, rejected updates and real multi-process sync."""
from functools import partial
from typing import Any, Dict, Tuple

import pytest
import torch

from tests.helpers.distributed import Case, distributed_test
from tests.helpers.metric_tester import assert_close, check_metric, check_rejects, concat, feed
from torchmetrics_lite import (
    RetrievalAUROC,
    RetrievalDCG,
    RetrievalFallOut,
    RetrievalHitRate,
    RetrievalMAP,
    RetrievalMRR,
    RetrievalNormalizedDCG,
    RetrievalPrecision,
    RetrievalRecall,
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
    retrieval_r_precision,
    retrieval_recall,
    retrieval_reciprocal_rank,
)

G = torch.Generator().manual_seed(9)
N = 10


def _dense_batch(b):
    preds = torch.randint(0, 5, (b, N), generator=G).float()
    target = torch.randint(0, 3, (b, N), generator=G) * (torch.rand(b, N, generator=G) < 0.4)
    mask = torch.rand(b, N, generator=G) < 0.85
    return preds, target, None, mask


DENSE = [_dense_batch(b) for b in (4, 0, 7, 1, 5, 3)]


def _flat_batches():
    n = 160
    preds = torch.randint(0, 6, (n,), generator=G).double() - 2.5
    target = torch.randint(0, 3, (n,), generator=G) * (torch.rand(n, generator=G) < 0.3)
    indexes = torch.randint(0, 25, (n,), generator=G) * 7 - 40  # queries spread over every batch
    cuts = [0, 30, 30, 75, 90, 140, n]
    return [(preds[a:b], target[a:b], indexes[a:b]) for a, b in zip(cuts, cuts[1:])]


FLAT = _flat_batches()

METRICS: Dict[str, Tuple[Any, Any, Dict[str, Any]]] = {  # name: (class, functional, options)
    "ndcg": (RetrievalNormalizedDCG, retrieval_normalized_dcg, {"k": 5, "gain": "exponential"}),
    "map": (RetrievalMAP, retrieval_average_precision, {}),
    "mrr": (RetrievalMRR, retrieval_reciprocal_rank, {"k": 3}),
    "precision": (RetrievalPrecision, retrieval_precision, {"k": 4}),
    "recall": (RetrievalRecall, retrieval_recall, {"k": 4, "ties": "order"}),
    "hit_rate": (RetrievalHitRate, retrieval_hit_rate, {"k": 2, "empty": "one"}),
    "r_precision": (RetrievalRPrecision, retrieval_r_precision, {"empty": "zero"}),
    "dcg": (RetrievalDCG, retrieval_dcg, {"k": 3}),
    "fall_out": (RetrievalFallOut, retrieval_fall_out, {"k": 4}),
    "auroc": (RetrievalAUROC, retrieval_auroc, {}),
    "auroc_cut": (RetrievalAUROC, retrieval_auroc, {"k": 4, "max_fpr": 0.5}),
}


def quantile90(values, dim=None):
    """A callable aggregation (module level: the metric pickles and travels to spawned ranks)."""
    return values.quantile(0.9) if dim is None else values.quantile(0.9, dim=dim)


AGGREGATED: Dict[str, Tuple[Any, Any, Dict[str, Any]]] = {  # as METRICS, with a callable aggregation
    "map_q90": (RetrievalMAP, retrieval_average_precision, {"k": 5, "empty": "one"}),
    "auroc_cut_q90": (RetrievalAUROC, retrieval_auroc, {"k": 3, "max_fpr": 0.3}),
}


def _quantile_of_queries(fn, options):
    def value(preds, target, indexes=None, mask=None):
        per_query = fn(preds, target, indexes, mask=mask, reduction="none", **options)
        counted = per_query[~torch.isnan(per_query)]
        return quantile90(counted) if counted.numel() else torch.tensor(float("nan"), dtype=torch.float64)

    return value


def _functional(fn, options):
    def value(preds, target, indexes=None, mask=None):
        return fn(preds, target, indexes, mask=mask, **options)

    return value


@pytest.mark.parametrize("form", ["dense", "flat"])
@pytest.mark.parametrize("name", sorted(METRICS))
def test_harness(name, form):
    cls, fn, options = METRICS[name]
    batches = DENSE if form == "dense" else FLAT
    expected = _functional(fn, options)(*concat(batches))
    assert not torch.isnan(expected)
    check_metric(partial(cls, **options), batches, expected, batch_value=_functional(fn, options), max_examples=8)


def test_dense_updates_keep_constant_memory_and_flat_keeps_rows():
    m = feed(RetrievalMAP(), DENSE)
    assert all(m.local_state()[s].numel() == 0 for s in ("preds", "target", "indexes"))
    m = feed(RetrievalMAP(), FLAT)
    assert m.local_state()["preds"].numel() == sum(b[0].numel() for b in FLAT)
    assert m.local_state()["preds"].dtype == torch.float64  # float64 scores stay float64


def test_mixed_dense_and_flat_updates():
    dense = concat(DENSE)
    flat = concat(FLAT)
    m = RetrievalMAP(empty="skip")
    m.update(*dense)
    m.update(*flat)
    per_query = torch.cat([retrieval_average_precision(dense[0], dense[1], mask=dense[3], empty="skip",
                                                       reduction="none"),
                           retrieval_average_precision(*flat, empty="skip", reduction="none")])
    assert_close(m.compute(), per_query[~torch.isnan(per_query)].mean())
    assert m.skipped() == int(torch.isnan(per_query).sum()) - int((~dense[3].any(1)).sum())


def test_skipped_counts_queries_without_relevant_item():
    dense, flat = concat(DENSE), concat(FLAT)
    no_rel_dense = int(((dense[1] * dense[3]).sum(1) == 0).logical_and(dense[3].any(1)).sum())
    ids, counts = torch.unique(flat[2], return_counts=True)
    rel_per_id = torch.zeros(ids.numel()).index_add_(0, torch.searchsorted(ids, flat[2]), (flat[1] > 0).float())
    no_rel_flat = int((rel_per_id == 0).sum())
    assert no_rel_dense > 0 and no_rel_flat > 0
    a, b = feed(RetrievalMRR(empty="skip"), DENSE), feed(RetrievalMRR(empty="skip"), FLAT)
    assert a.skipped() == no_rel_dense and b.skipped() == no_rel_flat
    a.merge_state(b)
    assert a.skipped() == no_rel_dense + no_rel_flat
    assert feed(RetrievalMRR(), DENSE).skipped() == 0  # the default empty="zero" counts them
    a.reset()
    assert a.skipped() == 0 and torch.isnan(a.compute())


def test_ignore_index_in_modules():
    p, t, i = concat(FLAT)
    t2 = t.clone()
    t2[::5] = -1
    m = RetrievalNormalizedDCG(ignore_index=-1)
    m.update(p, t2, i)
    keep = t2 != -1
    assert_close(m.compute(), retrieval_normalized_dcg(p[keep], t[keep], i[keep]))
    d = RetrievalNormalizedDCG(ignore_index=-1)
    dp, dt, _, dm = concat(DENSE)
    dt2 = torch.where(dm, dt, -1)
    d.update(dp, dt2)
    assert_close(d.compute(), retrieval_normalized_dcg(dp, dt, mask=dm))


def test_empty_error_in_modules():
    with pytest.raises(ValueError, match=r"`target` to hold a relevant item \(target > 0\) in every query"):
        feed(RetrievalMAP(empty="error"), FLAT).compute()
    check_rejects(partial(RetrievalMAP, empty="error"), [(torch.rand(2, 3), torch.ones(2, 3))],
                  (torch.rand(2, 3), torch.zeros(2, 3)), ValueError, r"`target` to hold a relevant item")


@pytest.mark.parametrize("bad, exc, match", [
    ((torch.rand(4), torch.ones(3), torch.zeros(4, dtype=torch.long)), ValueError, r"`preds` and `target` to have"),
    ((torch.tensor([float("nan")]), torch.ones(1), torch.zeros(1, dtype=torch.long)), ValueError,
     r"`preds` to contain no NaN, got 1"),
    ((torch.rand(2), -torch.ones(2), torch.zeros(2, dtype=torch.long)), ValueError, r"`target` to be non-negative"),
    ((torch.rand(2), torch.ones(2), torch.zeros(2)), TypeError, r"`indexes` to have an integer dtype"),
    ((torch.rand(2, 3), torch.ones(2, 3), None, torch.ones(2, 3)), TypeError, r"`mask` to have dtype torch.bool"),
])
def test_rejected_updates_leave_state(bad, exc, match):
    check_rejects(RetrievalMAP, FLAT[:3], bad, exc, match)


def test_constructor_errors():
    with pytest.raises(ValueError, match=r"`k` to be a positive int or None, got -1"):
        RetrievalMAP(k=-1)
    with pytest.raises(ValueError, match=r"`gain` to be one of \('linear', 'exponential'\), got 'x'"):
        RetrievalNormalizedDCG(gain="x")
    with pytest.raises(ValueError, match=r"`empty` to be one of"):
        RetrievalRPrecision(empty="drop")
    # repr shows the arguments that differ from their defaults (issue 12.11)
    assert repr(RetrievalNormalizedDCG(k=5, gain="exponential")) == "RetrievalNormalizedDCG(k=5, gain='exponential')"


@pytest.mark.parametrize("form", ["dense", "flat"])
@pytest.mark.parametrize("name", sorted(AGGREGATED))
def test_harness_with_a_callable_aggregation(name, form):
    """aggregation(values, dim=None) on the counted queries' values: streaming, any split, forward, merge,
    state_dict and pickling, as the built-in aggregations."""
    cls, fn, options = AGGREGATED[name]
    batches = DENSE if form == "dense" else FLAT
    value = _quantile_of_queries(fn, options)
    expected = value(*concat(batches))
    assert not torch.isnan(expected)
    check_metric(partial(cls, aggregation=quantile90, **options), batches, expected, batch_value=value,
                 max_examples=6)


CASES = []
for _name, (_cls, _fn, _options) in sorted(METRICS.items()):
    CASES.append(Case(f"{_name}_flat", partial(_cls, **_options), FLAT))
    CASES.append(Case(f"{_name}_dense", partial(_cls, **_options), DENSE))
for _name, (_cls, _fn, _options) in sorted(AGGREGATED.items()):  # a callable aggregation syncs as before
    CASES.append(Case(f"{_name}_flat", partial(_cls, aggregation=quantile90, **_options), FLAT))
    CASES.append(Case(f"{_name}_dense", partial(_cls, aggregation=quantile90, **_options), DENSE))
# the curves (tests/torchmetrics_lite/retrieval/test_retrieval_curves.py), in this module's one spawn
from tests.helpers.retrieval import BATCHES as CURVE_BATCHES  # noqa: E402
from torchmetrics_lite import RetrievalPrecisionRecallCurve, RetrievalRecallAtFixedPrecision  # noqa: E402

CASES.append(Case("precision_recall_curve", partial(RetrievalPrecisionRecallCurve, 5), CURVE_BATCHES))
CASES.append(Case("recall_at_fixed_precision", partial(RetrievalRecallAtFixedPrecision, 0.3), CURVE_BATCHES))

test_distributed_equals_single_process = distributed_test(CASES)


def test_empty_default_is_zero_as_torchmetrics_and_trec_eval():
    """20 queries, 13 without a relevant item: the default counts them as 0, as torchmetrics'
    ``empty_target_action="neg"``, trec_eval and scikit-learn do (``empty="skip"`` would give 0.33 instead)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    tm = pytest.importorskip("torchmetrics")
    g = torch.Generator().manual_seed(12)
    q, n = 20, 15
    preds = torch.rand(q, n, generator=g, dtype=torch.float64)
    target = (torch.rand(q, n, generator=g) < 0.3).long()
    target[:13] = 0
    indexes = torch.arange(q)[:, None].expand(q, n).reshape(-1)
    ours = RetrievalMAP()
    ours.update(preds.reshape(-1), target.reshape(-1), indexes)
    theirs = tm.retrieval.RetrievalMAP()
    theirs.update(preds.reshape(-1), target.reshape(-1), indexes=indexes)
    qrel = {f"q{i}": {f"d{j}": int(target[i, j]) for j in range(n)} for i in range(q)}
    run = {f"q{i}": {f"d{j}": float(preds[i, j]) for j in range(n)} for i in range(q)}
    trec = pytrec_eval.RelevanceEvaluator(qrel, {"map"}).evaluate(run)
    trec_map = sum(v["map"] for v in trec.values()) / q
    assert_close(ours.compute(), torch.tensor(trec_map, dtype=torch.float64), atol=1e-12)
    assert_close(ours.compute(), theirs.compute().double(), atol=1e-6)  # torchmetrics computes in float32
    assert_close(retrieval_average_precision(preds, target), ours.compute(), atol=1e-12)
    assert abs(retrieval_average_precision(preds, target, empty="skip").item() - ours.compute().item()) > 0.1


def test_fall_out_empty_query_is_one_by_default_and_errors_name_it():
    m = RetrievalFallOut()
    m.update(torch.tensor([[0.9, 0.1]]), torch.tensor([[1, 1]]))  # no non-relevant item
    assert m.compute().item() == 1.0 and not RetrievalFallOut.higher_is_better
    with pytest.raises(ValueError, match=r"`target` to hold a non-relevant item \(target == 0\) in every query"):
        feed(RetrievalFallOut(empty="error"), [(torch.tensor([[0.9, 0.1]]), torch.tensor([[1, 1]]))]).compute()


def test_per_query_equals_the_functional_values():
    dense, flat = concat(DENSE), concat(FLAT)
    m = RetrievalNormalizedDCG(k=5, empty="skip", keep_per_query=True)
    for batch in DENSE + FLAT:
        m.update(*batch)
    want = torch.cat([retrieval_normalized_dcg(dense[0], dense[1], mask=dense[3], k=5, empty="skip",
                                               reduction="none"),
                      retrieval_normalized_dcg(*flat, k=5, empty="skip", reduction="none")])
    assert_close(m.per_query(), want, atol=1e-12)
    assert_close(m.compute(), want[~torch.isnan(want)].mean(), atol=1e-12)
    with pytest.raises(ValueError, match=r"RetrievalMAP.per_query\(\) needs per-query values: flat updates "
                                         r"\(indexes=\) keep them; for dense .* keep_per_query=True"):
        with pytest.warns(UserWarning, match="before any update"):
            RetrievalMAP().per_query()


@pytest.mark.parametrize("aggregation", ["median", "min", "max"])
def test_aggregation_matches_torchmetrics(aggregation):
    tm = pytest.importorskip("torchmetrics")
    g = torch.Generator().manual_seed(13)
    preds, target = torch.rand(300, generator=g, dtype=torch.float64), (torch.rand(300, generator=g) < 0.3).long()
    indexes = torch.randint(0, 40, (300,), generator=g)
    ours = RetrievalMAP(aggregation=aggregation)
    for a, b in ((0, 120), (120, 300)):  # two batches; queries span both
        ours.update(preds[a:b], target[a:b], indexes[a:b])
    theirs = tm.retrieval.RetrievalMAP(aggregation=aggregation)
    theirs.update(preds, target, indexes=indexes)
    assert_close(ours.compute(), theirs.compute().double(), atol=1e-6)
    values = retrieval_average_precision(preds, target, indexes, reduction="none")
    assert_close(ours.compute(), getattr(torch, aggregation)(values), atol=1e-12)
    with pytest.raises(ValueError, match=r"`aggregation` to be one of \('mean', 'median', 'min', 'max'\)"):
        RetrievalMAP(aggregation="sum")


def test_callable_aggregation_matches_torchmetrics():
    tm = pytest.importorskip("torchmetrics")
    g = torch.Generator().manual_seed(14)
    preds, target = torch.rand(300, generator=g), (torch.rand(300, generator=g) < 0.3).long()
    indexes = torch.randint(0, 40, (300,), generator=g)
    for ours, theirs in ((RetrievalMAP(aggregation=lambda v, dim=None: v.quantile(0.9)),
                          tm.retrieval.RetrievalMAP(aggregation=lambda v, dim=None: v.quantile(0.9))),
                         (RetrievalAUROC(k=5, max_fpr=0.5, aggregation=quantile90),
                          tm.retrieval.RetrievalAUROC(top_k=5, max_fpr=0.5, aggregation=quantile90)),
                         (RetrievalMRR(k=3, empty="skip", aggregation=lambda v, dim=None: v.std()),
                          tm.retrieval.RetrievalMRR(top_k=3, empty_target_action="skip",
                                                    aggregation=lambda v, dim=None: v.std()))):
        for a, b in ((0, 120), (120, 300)):  # two batches; queries span both
            ours.update(preds[a:b], target[a:b], indexes[a:b])
        theirs.update(preds, target, indexes=indexes)
        assert_close(ours.compute(), theirs.compute().double(), atol=1e-6, path=type(ours).__name__)


@pytest.mark.parametrize("cls", [m[0] for m in METRICS.values()])
def test_every_module_takes_a_callable_aggregation(cls):
    calls = []

    def spread(values, dim=None):
        calls.append((values.clone(), dim))
        return values.max() - values.min()

    m = cls(aggregation=spread, empty="skip")
    feed(m, DENSE + FLAT)
    value = m.compute()
    values = m.per_query()
    counted = values[~torch.isnan(values)]
    assert len(calls) == 1 and calls[0][1] is None and torch.equal(calls[0][0], counted)  # after the empty rule
    assert_close(value, counted.max() - counted.min(), atol=0)
    assert repr(m).startswith(f"{cls.__name__}(aggregation=<function test_every_module_takes_a_callable_"
                              "aggregation.<locals>.spread at 0x"), repr(m)  # repr shows the callable


def test_callable_aggregation_errors_name_it():
    with pytest.raises(ValueError, match=r"`aggregation` to be one of \('mean', 'median', 'min', 'max'\), got 3"):
        RetrievalMAP(aggregation=3)
    m = feed(RetrievalMAP(aggregation=lambda v, dim=None: float(v.mean())), FLAT)
    with pytest.raises(TypeError, match=r"Expected `aggregation` \(<lambda>\) to return a real scalar tensor "
                                        r"\(0-dimensional\) from the 1-D tensor of per-query values, got float"):
        m.compute()
    m = feed(RetrievalAUROC(aggregation=lambda v, dim=None: v.sort().values), DENSE)
    with pytest.raises(ValueError, match=r"`aggregation` \(<lambda>\) to return a real scalar tensor .*got a "
                                         r"tensor of shape \(\d+,\) and dtype torch.float64"):
        m.compute()
    # no counted query: nan, without calling the callable (as "median", "min", "max")
    m = RetrievalMAP(empty="skip", aggregation=lambda v, dim=None: 1 / 0)
    m.update(torch.rand(2, 3), torch.zeros(2, 3))
    assert torch.isnan(m.compute()) and m.skipped() == 2


def test_compute_from_stats_is_pure_and_evaluates_once_per_compute(monkeypatch):
    import torchmetrics_lite.functional.retrieval._streaming as module_retrieval

    m = feed(RetrievalMAP(empty="skip", keep_per_query=True), DENSE + FLAT)
    want_value, want_values, want_skipped = m.compute(), m.per_query(), m.skipped()
    other = feed(RetrievalMAP(empty="skip", keep_per_query=True), FLAT[2:4])
    # a wrapper (bootstrap, running window, collection) evaluates the hook on another state: nothing of m changes
    assert_close(m.compute_from_stats(other.local_state()), other.compute())
    assert_close(m.per_query(), want_values)
    assert m.skipped() == want_skipped > 0
    assert_close(m.compute(), want_value)
    batch_value = m(*FLAT[1])  # forward: the batch value through compute_from_stats, then the merge
    assert_close(batch_value, retrieval_average_precision(*FLAT[1], empty="skip"))
    dense, flat = concat(DENSE), concat(FLAT + [FLAT[1]])
    want = torch.cat([retrieval_average_precision(dense[0], dense[1], mask=dense[3], empty="skip", reduction="none"),
                      retrieval_average_precision(*flat, empty="skip", reduction="none")])
    assert_close(m.per_query(), want, atol=1e-12)
    assert m.skipped() == int(torch.isnan(want).sum()) - int((~dense[3].any(1)).sum())
    calls = []
    real = module_retrieval._rank
    monkeypatch.setattr(module_retrieval, "_rank", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    m.update(*FLAT[0])
    m.per_query(), m.skipped(), m.compute(), m.per_query()
    assert len(calls) == 1  # the flat rows are ranked once for compute, per_query and skipped together
    from torchmetrics_lite import MetricCollection

    collection = MetricCollection({"map": RetrievalMAP(empty="skip", keep_per_query=True)})
    for batch in FLAT:
        collection.update(*batch)
    values = collection.compute()  # the collection syncs and calls compute_from_synced of each member
    assert_close(collection["map"].per_query(), retrieval_average_precision(*concat(FLAT), empty="skip",
                                                                            reduction="none"), atol=1e-12)
    assert_close(values["map"], collection["map"].compute())
    assert len(calls) == 2  # one more evaluation, by the collection's compute, read by per_query afterwards


def test_no_per_item_weights_said_and_routed():
    """Retrieval has no per-item weights: the docstring says so, ``update(weight=)`` raises before any state
    change, and a collection beside a weighted classifier sends ``weight`` only to the classifier."""
    from torchmetrics_lite import BinaryF1Score, MetricCollection
    from torchmetrics_lite.functional import binary_f1_score

    assert "no per-item weights" in RetrievalNormalizedDCG.__doc__
    preds, target = torch.tensor([0.9, 0.2, 0.7, 0.4]), torch.tensor([1, 0, 0, 1])
    indexes, weight = torch.tensor([0, 0, 1, 1]), torch.tensor([1.0, 2.0, 0.0, 3.0])
    metric = RetrievalNormalizedDCG()
    metric.update(preds, target, indexes=indexes)
    before = metric.compute()
    with pytest.raises(TypeError, match="weight"):
        metric.update(preds, target, indexes=indexes, weight=weight)
    assert_close(metric.compute(), before)
    both = MetricCollection({"ndcg": RetrievalNormalizedDCG(), "f1": BinaryF1Score(weighted=True)})
    both.update(preds, target, indexes=indexes, weight=weight)
    values = both.compute()
    assert_close(values["ndcg"], retrieval_normalized_dcg(preds, target, indexes=indexes))
    assert_close(values["f1"], binary_f1_score(preds, target, weight=weight))
