"""Retrieval against torchmetrics 1.9 (issue 21 items 1-3, 12): AP@k with torchmetrics' divisor
(``normalize="retrieved"``), ``adaptive_k``, and the two documented differences (2-D input without ``indexes``,
non-positive scores), each pinned with both libraries' values."""
import itertools
import math

import pytest
import torch

import torchmetrics_lite as ours
from tests.helpers.metric_tester import check_metric, check_rejects
from torchmetrics_lite import _backend
from torchmetrics_lite.functional import retrieval_average_precision, retrieval_precision, retrieval_reciprocal_rank

tm = pytest.importorskip("torchmetrics")
from torchmetrics import retrieval as tmr  # noqa: E402
from torchmetrics.functional import retrieval as tmf  # noqa: E402

BACKENDS = ("numpy", "torch")


def _queries(seed, n_queries=12, max_items=9):
    """Flat queries with distinct positive scores (torchmetrics' order is then the same as ours)."""
    g = torch.Generator().manual_seed(seed)
    sizes = torch.randint(1, max_items, (n_queries,), generator=g)
    idx = torch.repeat_interleave(torch.arange(n_queries), sizes)
    preds = torch.randperm(idx.numel(), generator=g).double().add(1) / (idx.numel() + 1)
    target = (torch.rand(idx.numel(), generator=g) < 0.35).long()
    return preds, target, idx


def _brute_retrieved_ap(scores, rel, k):
    """Expectation over every order of tied scores of AP@k / (relevant items in the top k), by enumeration."""
    n = len(scores)
    orders = [p for p in itertools.permutations(range(n))
              if all(scores[p[i]] >= scores[p[i + 1]] for i in range(n - 1))]
    total = 0.0
    for p in orders:
        ranked = [rel[i] for i in p][:k]
        hits = [i + 1 for i, x in enumerate(ranked) if x]
        total += sum((j + 1) / pos for j, pos in enumerate(hits)) / len(hits) if hits else 0.0
    return total / len(orders)


# ------------------------------------------------------------------------------ item 1: AP@k divisor
def test_issue_example_ap_at_k_both_conventions():
    preds, target = torch.tensor([0.4, 0.3, 0.2, 0.1]), torch.tensor([0, 1, 0, 1])
    theirs = tmf.retrieval_average_precision(preds, target, top_k=2).item()
    assert theirs == pytest.approx(0.5)
    assert retrieval_average_precision(preds, target, k=2).item() == pytest.approx(0.25)  # (1/2) / 2 (trec_eval)
    assert retrieval_average_precision(preds, target, k=2, normalize="retrieved").item() == pytest.approx(theirs)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("k", [1, 2, 3, 5, 20])
def test_map_retrieved_equals_torchmetrics(backend, k):
    preds, target, idx = _queries(k)
    m = tmr.RetrievalMAP(top_k=k)
    m.update(preds.float(), target, idx)
    theirs = m.compute().item()
    with _backend.force(backend):
        mine = ours.RetrievalMAP(k=k, normalize="retrieved")
        mine.update(preds, target, idx)
        assert mine.compute().item() == pytest.approx(theirs, abs=1e-6)
        per_query = retrieval_average_precision(preds, target, idx, k=k, normalize="retrieved", reduction="none")
    for q in range(int(idx.max()) + 1):
        sel = idx == q
        expected = tmf.retrieval_average_precision(preds[sel], target[sel], top_k=k).item()
        assert per_query[q].item() == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("backend", BACKENDS)
def test_map_retrieved_under_ties_is_the_expectation_over_orders(backend):
    g = torch.Generator().manual_seed(3)
    for _ in range(25):
        n = int(torch.randint(1, 7, (1,), generator=g))
        scores = torch.randint(0, 3, (n,), generator=g).double()
        rel = (torch.rand(n, generator=g) < 0.5).long()
        for k in (1, 2, 3, 6):
            with _backend.force(backend):
                got = retrieval_average_precision(scores, rel, k=k, normalize="retrieved").item()
            assert got == pytest.approx(_brute_retrieved_ap(scores.tolist(), rel.tolist(), k), abs=1e-12)


def test_map_retrieved_without_k_or_with_a_long_k_is_the_default():
    preds, target, idx = _queries(5)
    default = retrieval_average_precision(preds, target, idx)
    assert retrieval_average_precision(preds, target, idx, normalize="retrieved").item() == default.item()
    assert retrieval_average_precision(preds, target, idx, k=50, normalize="retrieved").item() == \
        pytest.approx(default.item(), abs=1e-12)


def test_map_retrieved_streams_and_merges():
    preds, target, idx = _queries(9)
    batches = [(preds[i:i + 9], target[i:i + 9], idx[i:i + 9]) for i in range(0, preds.numel(), 9)]
    expected3 = retrieval_average_precision(*(torch.cat(x) for x in zip(*batches[:3])), k=3, normalize="retrieved")
    check_metric(lambda: ours.RetrievalMAP(k=3, normalize="retrieved"), batches[:3], expected3, max_examples=2)


def test_top_k_message_spells_the_call_that_gives_torchmetrics_number():
    with pytest.raises(TypeError, match=r'RetrievalMAP\(k=10, normalize="retrieved"\)'):
        ours.RetrievalMAP(top_k=10)
    with pytest.raises(ValueError, match="Expected `normalize` to be one of"):
        ours.RetrievalMAP(k=2, normalize="top_k")
    with pytest.raises(ValueError, match="Expected `normalize` to be one of"):
        retrieval_average_precision(torch.rand(3), torch.ones(3), normalize="all")


# ------------------------------------------------------------------------------ item 12: adaptive_k
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("adaptive_k", [False, True])
@pytest.mark.parametrize("k", [1, 4, 12])
def test_precision_adaptive_k_equals_torchmetrics(backend, adaptive_k, k):
    preds, target, idx = _queries(20 + k)
    m = tmr.RetrievalPrecision(top_k=k, adaptive_k=adaptive_k)
    m.update(preds.float(), target, idx)
    with _backend.force(backend):
        mine = ours.RetrievalPrecision(k=k, adaptive_k=adaptive_k)
        mine.update(preds, target, idx)
        assert mine.compute().item() == pytest.approx(m.compute().item(), abs=1e-6)
    one = idx == 0
    assert retrieval_precision(preds[one], target[one], k=k, adaptive_k=adaptive_k).item() == pytest.approx(
        tmf.retrieval_precision(preds[one], target[one], top_k=k, adaptive_k=adaptive_k).item(), abs=1e-6)


def test_precision_adaptive_k_by_hand_and_streaming():
    # query 0: 2 items, 1 relevant -> 1/2 (adaptive) ; query 1: 5 items, top 3 hold 2 relevant -> 2/3
    preds = torch.tensor([0.9, 0.1, 0.9, 0.8, 0.7, 0.6, 0.5])
    target = torch.tensor([1, 0, 1, 0, 1, 1, 0])
    idx = torch.tensor([0, 0, 1, 1, 1, 1, 1])
    expected = torch.tensor((1 / 2 + 2 / 3) / 2, dtype=torch.float64)
    assert retrieval_precision(preds, target, idx, k=3, adaptive_k=True).item() == pytest.approx(expected.item())
    assert retrieval_precision(preds, target, idx, k=3).item() == pytest.approx((1 / 3 + 2 / 3) / 2)
    batches = [(preds[:3], target[:3], idx[:3]), (preds[3:], target[3:], idx[3:])]
    check_metric(lambda: ours.RetrievalPrecision(k=3, adaptive_k=True), batches, expected, max_examples=4)
    with pytest.raises(TypeError, match="Expected `adaptive_k` to be a bool"):
        ours.RetrievalPrecision(k=3, adaptive_k=1)
    with pytest.raises(TypeError, match="Expected `adaptive_k` to be a bool"):
        retrieval_precision(preds, target, idx, k=3, adaptive_k="yes")
    check_rejects(lambda: ours.RetrievalPrecision(k=3, adaptive_k=True), batches,
                  (preds[:2], torch.tensor([-1, 0]), idx[:2]), ValueError, "non-negative")


# ------------------------------------------------------- items 2, 3: documented differences, both values
def test_two_dimensional_input_without_indexes_rows_are_queries_here_one_query_there():
    preds = torch.tensor([[0.9, 0.1, 0.5], [0.2, 0.8, 0.3]])
    target = torch.tensor([[0, 1, 0], [0, 0, 1]])
    theirs = tmf.retrieval_reciprocal_rank(preds, target).item()
    mine = retrieval_reciprocal_rank(preds, target).item()
    assert mine == pytest.approx((1 / 3 + 1 / 2) / 2)  # rows: first relevant at rank 3, then rank 2
    assert theirs == pytest.approx(0.25)  # one flattened query: the first relevant item at rank 4
    assert retrieval_reciprocal_rank(preds.reshape(-1), target.reshape(-1)).item() == pytest.approx(theirs)


@pytest.mark.parametrize("name", ["average_precision", "reciprocal_rank", "precision", "recall"])
def test_non_positive_scores_are_ranked_here_zeroed_there(name):
    preds = torch.tensor([-0.5, -0.1, -0.9, 0.3])
    target = torch.tensor([1, 0, 1, 0])
    kwargs = {"k": 2} if name in ("precision", "recall") else {}
    theirs = getattr(tmf, f"retrieval_{name}")(preds, target, **({"top_k": 2} if kwargs else {})).item()
    mine = getattr(ours.functional, f"retrieval_{name}")(preds, target, **kwargs).item()
    assert theirs == 0.0  # every relevant item scores <= 0: torchmetrics makes it non-relevant
    # ours ranks [0.3 N, -0.1 N, -0.5 R, -0.9 R], as scikit-learn would
    by_hand = {"average_precision": (1 / 3 + 2 / 4) / 2, "reciprocal_rank": 1 / 3, "precision": 0.0,
               "recall": 0.0}[name]
    assert mine == pytest.approx(by_hand)
    shifted = getattr(tmf, f"retrieval_{name}")(preds + 1.0, target, **({"top_k": 2} if kwargs else {})).item()
    assert mine == pytest.approx(shifted, abs=1e-6)  # a positive shift keeps the order: torchmetrics agrees then
    assert not math.isnan(mine)


def test_a_module_1d_update_without_indexes_raises_naming_indexes():
    """torchmetrics' update(preds, target, indexes) needs the ids; treating each 1-D batch as one query gave
    another number silently (issue 35: 0.7363 against 0.8255 with the ids)."""
    for name in ("RetrievalMAP", "RetrievalMRR", "RetrievalNormalizedDCG", "RetrievalPrecision"):
        m = getattr(ours, name)()
        m.update(torch.tensor([[0.9, 0.2, 0.4]]), torch.tensor([[1, 0, 1]]))  # dense (queries, items) stays
        before = {k: v.clone() for k, v in m.local_state().items()}
        with pytest.raises(TypeError, match=r"Expected `indexes` \(the query id of each item\) with 1-D `preds` "
                                            r"and `target` in a retrieval module's update, got None"):
            m.update(torch.tensor([0.9, 0.2]), torch.tensor([1, 0]))
        assert all(torch.equal(before[k], v) for k, v in m.local_state().items())
    functional = retrieval_average_precision(torch.tensor([0.9, 0.2]), torch.tensor([0, 1]))
    assert functional.item() == 0.5  # a function's 1-D input is one query, as torchmetrics'
