"""Retrieval precision-recall curves and the recall at a fixed precision: against brute force per query (every
order of tied scores enumerated), torchmetrics on the same input, streamed, merged, every error (across ranks:
the CASES of test_retrieval_modules.py, on the batches of ``tests/helpers/retrieval.py``); a query of one item
counts in the mean curve (issue 34's surviving mutant of ``curves._curve_from_values``: ``n_items > 0`` is the rule
for a present query), against torchmetrics' curve of each query averaged and the numbers by hand."""
from functools import lru_cache, partial
from itertools import permutations, product

import pytest
import torch

from tests.helpers.metric_tester import check_metric, check_rejects
from tests.helpers.retrieval import BATCHES, TIED, _flat
from torchmetrics_lite import RetrievalPrecisionRecallCurve, RetrievalRecallAtFixedPrecision
from torchmetrics_lite.functional import retrieval_precision_recall_curve, retrieval_recall_at_fixed_precision

tm_retrieval = pytest.importorskip("torchmetrics.retrieval")
tm_functional = pytest.importorskip("torchmetrics.functional.retrieval")

@lru_cache(maxsize=None)
def _brute_query(preds, target, k_max, adaptive):
    """Precision and recall at 1..k_max of one query: the mean over every order of the items that keeps the
    scores non-increasing (each order of the tie groups, equally likely)."""
    n, rel = len(preds), sum(t > 0 for t in target)
    groups = [[i for i in range(n) if preds[i] == s] for s in sorted(set(preds), reverse=True)]
    orders = [sum(parts, ()) for parts in product(*(permutations(g) for g in groups))]
    prec = torch.zeros(k_max, dtype=torch.float64)
    rec = torch.zeros(k_max, dtype=torch.float64)
    for o in orders:
        hits = torch.cumsum(torch.tensor([float(target[i] > 0) for i in o], dtype=torch.float64), 0)
        hits = torch.cat([hits, hits[-1:].expand(max(k_max - n, 0))])[:k_max]
        k = torch.arange(1, k_max + 1, dtype=torch.float64)
        prec += hits / (torch.clamp(k, max=n) if adaptive else k) / len(orders)
        rec += hits / max(rel, 1) / len(orders)
    return prec, rec, rel


def _brute(preds, target, indexes, max_k, adaptive, empty):
    ids = sorted(set(indexes.tolist()))
    k_max = max_k or max(int((indexes == q).sum()) for q in ids)
    curves = []
    for q in ids:
        sel = indexes == q
        p, r, rel = _brute_query(tuple(preds[sel].tolist()), tuple(target[sel].tolist()), k_max, adaptive)
        if rel == 0:
            if empty == "skip":
                continue
            fill = 0.0 if empty == "zero" else 1.0
            p, r = torch.full_like(p, fill), torch.full_like(r, fill)
        curves.append((p, r))
    return (torch.stack([c[0] for c in curves]).mean(0), torch.stack([c[1] for c in curves]).mean(0),
            torch.arange(1, k_max + 1))





@pytest.mark.parametrize(("max_k", "adaptive_k", "empty"),
                         [(None, False, "zero"), (3, True, "one"), (12, False, "skip"), (12, True, "zero")])
def test_curve_equals_brute_force_over_tie_orders_streamed(max_k, adaptive_k, empty):
    preds, target, indexes = TIED
    if max(int((indexes == q).sum()) for q in indexes.unique()) > 9:
        pytest.skip("the data set changed: a query too long to enumerate")  # never with this seed
    expected = _brute(preds, target, indexes, max_k, adaptive_k, empty)
    got = retrieval_precision_recall_curve(preds, target, max_k, adaptive_k, indexes=indexes, empty=empty)
    torch.testing.assert_close(got[:2], expected[:2], atol=1e-12, rtol=0)
    assert torch.equal(got[2], expected[2]) or adaptive_k
    check_metric(partial(RetrievalPrecisionRecallCurve, max_k, adaptive_k, empty=empty), BATCHES, expected,
                 max_examples=3, atol=1e-12, rtol=0)


def test_recall_at_fixed_precision_follows_torchmetrics_rule_on_the_brute_force_curve():
    preds, target, indexes = TIED
    precision, recall, top_k = _brute(preds, target, indexes, None, False, "zero")
    for floor in (0.0, 0.3, 0.5, 0.9, 1.0):
        ok = [(r.item(), k.item()) for p, r, k in zip(precision, recall, top_k) if p >= floor]
        want = max(ok) if ok else (0.0, len(top_k))
        if want[0] == 0.0:
            want = (0.0, len(top_k))
        got = retrieval_recall_at_fixed_precision(preds, target, floor, indexes=indexes)
        assert abs(got[0].item() - want[0]) <= 1e-12 and got[1].item() == want[1]
        check_metric(partial(RetrievalRecallAtFixedPrecision, floor), BATCHES,
                     (torch.tensor(want[0], dtype=torch.float64), torch.tensor(want[1])), max_examples=2,
                     atol=1e-12, rtol=0)


@pytest.mark.parametrize("max_k", [None, 4, 30])
@pytest.mark.parametrize("adaptive_k", [False, True])
def test_same_numbers_as_torchmetrics_without_ties(max_k, adaptive_k):
    preds, target, indexes = _flat(200, 12, ties=False)
    theirs = tm_retrieval.RetrievalPrecisionRecallCurve(max_k=max_k, adaptive_k=adaptive_k)
    theirs.update(preds, target, indexes=indexes)
    ours = RetrievalPrecisionRecallCurve(max_k, adaptive_k)
    ours.update(preds, target, indexes=indexes)
    for a, b in zip(ours.compute(), theirs.compute()):
        torch.testing.assert_close(a, b.to(a.dtype), atol=1e-6, rtol=0)
    for q in range(3):  # the functional form: one query
        sel = indexes == q
        got = retrieval_precision_recall_curve(preds[sel], target[sel], max_k, adaptive_k)
        want = tm_functional.retrieval_precision_recall_curve(preds[sel], target[sel], max_k, adaptive_k)
        for a, b in zip(got, want):
            torch.testing.assert_close(a, b.to(a.dtype), atol=1e-6, rtol=0)
    for floor in (0.0, 0.2, 0.45, 0.8):
        theirs = tm_retrieval.RetrievalRecallAtFixedPrecision(min_precision=floor, max_k=max_k, adaptive_k=adaptive_k)
        theirs.update(preds, target, indexes=indexes)
        ours = RetrievalRecallAtFixedPrecision(floor, max_k, adaptive_k)
        ours.update(preds, target, indexes=indexes)
        (r_ours, k_ours), (r_theirs, k_theirs) = ours.compute(), theirs.compute()
        assert abs(r_ours.item() - r_theirs.item()) <= 1e-6 and k_ours.item() == k_theirs.item()


def test_empty_queries_and_aggregations():
    preds, target, indexes = _flat(60, 6, ties=False)
    target[indexes == 2] = 0  # one query without a relevant item
    theirs = tm_retrieval.RetrievalPrecisionRecallCurve(empty_target_action="pos", aggregation="median")
    theirs.update(preds, target, indexes=indexes)
    ours = RetrievalPrecisionRecallCurve(empty="one", aggregation="median")
    ours.update(preds, target, indexes=indexes)
    for a, b in zip(ours.compute(), theirs.compute()):
        torch.testing.assert_close(a, b.to(a.dtype), atol=1e-6, rtol=0)
    every_skipped = RetrievalPrecisionRecallCurve(max_k=3, empty="skip")
    every_skipped.update(preds, torch.zeros_like(target), indexes=indexes)
    precision, recall, top_k = every_skipped.compute()  # torchmetrics: zeros; here nan (no query counted)
    assert torch.isnan(precision).all() and torch.isnan(recall).all() and top_k.tolist() == [1, 2, 3]
    value, k = retrieval_recall_at_fixed_precision(preds, torch.zeros_like(target), 0.5, 3, indexes=indexes,
                                                   empty="skip")
    assert torch.isnan(value) and k.item() == 3
    with pytest.raises(ValueError, match="relevant item .* in every query, got 1 query"):
        retrieval_precision_recall_curve(preds, target, indexes=indexes, empty="error")
    maximum = RetrievalPrecisionRecallCurve(aggregation="max")
    maximum.update(preds, target, indexes=indexes)
    assert maximum.compute()[1][-1].item() == 1.0


def test_errors_name_the_argument_and_leave_the_state():
    with pytest.raises(ValueError, match="`max_k` to be a positive int"):
        RetrievalPrecisionRecallCurve(max_k=0)
    with pytest.raises(ValueError, match="`adaptive_k` to be a bool, got 1"):
        retrieval_precision_recall_curve(torch.rand(3), torch.ones(3), adaptive_k=1)
    with pytest.raises(ValueError, match=r"`min_precision` to be a number in \[0, 1\], got 1.5"):
        RetrievalRecallAtFixedPrecision(min_precision=1.5)
    with pytest.raises(ValueError, match="`aggregation` to be one of"):
        RetrievalPrecisionRecallCurve(aggregation="mode")
    with pytest.raises(TypeError, match="empty_target_action"):
        RetrievalPrecisionRecallCurve(empty_target_action="neg")
    for cls in (RetrievalPrecisionRecallCurve, RetrievalRecallAtFixedPrecision):
        check_rejects(cls, BATCHES, (torch.rand(3), torch.ones(3)), ValueError, "Expected `indexes`")
        check_rejects(cls, BATCHES, (torch.tensor([0.5, float("nan")]), torch.ones(2), torch.zeros(2).long()),
                      ValueError, "NaN")
        check_rejects(cls, BATCHES, (torch.rand(2), torch.tensor([1, -1]), torch.zeros(2).long()), ValueError,
                      "non-negative")


def test_flat_curves_are_not_compiled():
    """Pinned, as the family's flat functions: the number of queries and the curve length ``K`` (``max_k=None``)
    depend on the values, so ``fullgraph=True`` refuses the function."""
    preds, target, indexes = TIED
    torch._dynamo.reset()
    with pytest.raises(Exception):
        torch.compile(partial(retrieval_precision_recall_curve, validate_args=False), backend="eager",
                      fullgraph=True)(preds, target, indexes=indexes)


@pytest.mark.parametrize(("max_k", "adaptive_k", "ties"), [(None, False, "average"), (4, True, "order")])
def test_numpy_and_torch_rankings_give_the_same_curves(max_k, adaptive_k, ties):
    from torchmetrics_lite import _backend

    preds, target, indexes = TIED
    want = retrieval_precision_recall_curve(preds, target, max_k, adaptive_k, indexes=indexes, ties=ties)
    with _backend.force("torch"):
        got = retrieval_precision_recall_curve(preds, target, max_k, adaptive_k, indexes=indexes, ties=ties)
    for a, b in zip(got, want):
        torch.testing.assert_close(a, b, atol=1e-12, rtol=0)


# --------------------------------------------------------------------------------------- one-item queries
ONE_ITEM_PREDS = torch.tensor([0.9, 0.8, 0.5, 0.3, 0.6])
ONE_ITEM_TARGET = torch.tensor([1, 0, 1, 1, 0])
ONE_ITEM_INDEXES = torch.tensor([0, 1, 1, 1, 2])  # query 0: one relevant item; query 2: one item, none relevant


@pytest.mark.parametrize("adaptive_k", [False, True])
def test_one_item_queries_count_in_the_mean_curve(adaptive_k):
    per_query = [tm_functional.retrieval_precision_recall_curve(
        ONE_ITEM_PREDS[ONE_ITEM_INDEXES == q], ONE_ITEM_TARGET[ONE_ITEM_INDEXES == q], max_k=3, adaptive_k=adaptive_k)
        for q in range(3)]
    precision = torch.stack([p for p, _, _ in per_query]).double().mean(0)
    recall = torch.stack([r for _, r, _ in per_query]).double().mean(0)
    # by hand: query 0 hits 1 at every k, query 1 hits 0, 1, 2 of its 2, query 2 hits nothing (empty="zero")
    by_hand = ([1 / 3, 1 / 3, 1 / 3], [1 / 3, 1 / 3 + 1 / 6, 2 / 3]) if not adaptive_k else \
        ([1 / 3, 1 / 3 + 1 / 6, 1 / 3 + 2 / 9], [1 / 3, 1 / 3 + 1 / 6, 2 / 3])
    torch.testing.assert_close(precision, torch.tensor(by_hand[0], dtype=torch.float64))
    torch.testing.assert_close(recall, torch.tensor(by_hand[1], dtype=torch.float64))
    got = retrieval_precision_recall_curve(ONE_ITEM_PREDS, ONE_ITEM_TARGET, 3, adaptive_k, indexes=ONE_ITEM_INDEXES)
    torch.testing.assert_close(got[0], precision)
    torch.testing.assert_close(got[1], recall)
    m = RetrievalPrecisionRecallCurve(max_k=3, adaptive_k=adaptive_k)
    m.update(ONE_ITEM_PREDS[:2], ONE_ITEM_TARGET[:2], indexes=ONE_ITEM_INDEXES[:2])
    m.update(ONE_ITEM_PREDS[2:], ONE_ITEM_TARGET[2:], indexes=ONE_ITEM_INDEXES[2:])
    mine = m.compute()
    torch.testing.assert_close(mine[0], precision)
    torch.testing.assert_close(mine[1], recall)
