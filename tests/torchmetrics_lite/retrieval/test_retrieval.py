"""Retrieval functions against independent oracles: scikit-learn's ndcg_score (ties included), pytrec_eval
(trec_eval) on tie-free scores, and brute force over every ordering of tied items on small lists."""
import itertools
import math

import pytest
import pytrec_eval
import torch
from sklearn.metrics import ndcg_score

from tests.helpers.metric_tester import assert_close
from torchmetrics_lite import _backend
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

G = torch.Generator().manual_seed(5)
Q, N = 40, 30
GRADED = torch.randint(0, 5, (Q, N), generator=G)
GRADED[3] = 0  # a query without relevant item
TIED = torch.randint(0, 6, (Q, N), generator=G).float()  # many ties
DISTINCT = torch.rand(Q, N, generator=G, dtype=torch.float64) * 4 - 2  # negative scores, no ties


@pytest.fixture(autouse=True, params=["numpy", "torch"])
def backend(request):
    """Every oracle test runs on both kernels (numpy's packed sorts; torch's sorts, as on CUDA)."""
    with _backend.force(request.param):
        yield request.param


# ------------------------------------------------------------------------------------------------ sklearn
@pytest.mark.parametrize("k", [None, 1, 5, 30, 50])
@pytest.mark.parametrize("scores", ["tied", "distinct"])
def test_ndcg_matches_sklearn(k, scores):
    preds = TIED if scores == "tied" else DISTINCT
    ours = retrieval_normalized_dcg(preds, GRADED, k=k, reduction="none")
    want = [ndcg_score(GRADED[i : i + 1].numpy(), preds[i : i + 1].numpy(), k=k) for i in range(Q)]
    assert_close(ours, torch.tensor(want, dtype=torch.float64), atol=1e-12)  # query 3: no relevant item, 0
    # sklearn counts a query without relevant item as 0, as the default empty="zero"
    assert_close(retrieval_normalized_dcg(preds, GRADED, k=k), ndcg_score(GRADED.numpy(), preds.numpy(), k=k),
                 atol=1e-12)
    skipped = retrieval_normalized_dcg(preds, GRADED, k=k, empty="skip", reduction="none")
    assert torch.isnan(skipped[3]) and torch.equal(skipped[:3], ours[:3])


@pytest.mark.parametrize("k", [None, 3])
def test_ndcg_exponential_gain_is_sklearn_on_transformed_target(k):
    ours = retrieval_normalized_dcg(TIED, GRADED, k=k, gain="exponential")
    assert_close(ours, ndcg_score((2.0 ** GRADED.numpy()) - 1, TIED.numpy(), k=k), atol=1e-12)


@pytest.mark.parametrize("form", ["dense", "flat"])
def test_ndcg_fractional_grades_match_sklearn(form):
    """Grades below 1 (an ideal DCG below 1 must not be clamped), on every code path."""
    grades = GRADED * 0.01  # every ideal DCG is below 1
    keep = grades.sum(1) > 0
    want = torch.tensor([ndcg_score(grades[i : i + 1].numpy(), TIED[i : i + 1].numpy(), k=5) for i in range(Q)],
                        dtype=torch.float64)[keep]
    if form == "flat":
        rows = torch.arange(Q)[:, None].expand(Q, N).reshape(-1)
        ours = retrieval_normalized_dcg(TIED.reshape(-1), grades.reshape(-1), rows, k=5, reduction="none")
    else:
        ours = retrieval_normalized_dcg(TIED, grades, k=5, reduction="none")
    assert_close(ours[keep], want, atol=1e-12)


# -------------------------------------------------------------------------------------------- pytrec_eval
CUTS = (5, 10, 15, 20, 30)
TREC_MEASURES = {"map", "map_cut", "recip_rank", "P", "recall", "ndcg_cut", "Rprec", "success"}


def _trec(preds, target):
    qrel = {f"q{i}": {f"d{j}": int(target[i, j]) for j in range(target.shape[1])} for i in range(target.shape[0])}
    run = {f"q{i}": {f"d{j}": float(preds[i, j]) for j in range(preds.shape[1])} for i in range(preds.shape[0])}
    res = pytrec_eval.RelevanceEvaluator(qrel, TREC_MEASURES).evaluate(run)
    return lambda name: torch.tensor([res[f"q{i}"][name] for i in range(preds.shape[0])], dtype=torch.float64)


@pytest.fixture(scope="module")
def trec():
    keep = GRADED.sum(1) > 0
    preds, target = DISTINCT[keep], GRADED[keep]
    return preds, target, _trec(preds, target)


def _ours(fn, preds, target, **kw):
    return fn(preds, target, reduction="none", **kw)


def test_unbounded_measures_match_pytrec_eval(trec):
    preds, target, want = trec
    assert_close(_ours(retrieval_average_precision, preds, target), want("map"), atol=1e-12)
    assert_close(_ours(retrieval_reciprocal_rank, preds, target), want("recip_rank"), atol=1e-12)
    assert_close(_ours(retrieval_r_precision, preds, target), want("Rprec"), atol=1e-12)


@pytest.mark.parametrize("k", CUTS)
def test_cutoff_measures_match_pytrec_eval(trec, k):
    preds, target, want = trec
    assert_close(_ours(retrieval_average_precision, preds, target, k=k), want(f"map_cut_{k}"), atol=1e-12)
    assert_close(_ours(retrieval_precision, preds, target, k=k), want(f"P_{k}"), atol=1e-12)
    assert_close(_ours(retrieval_recall, preds, target, k=k), want(f"recall_{k}"), atol=1e-12)
    assert_close(_ours(retrieval_normalized_dcg, preds, target, k=k), want(f"ndcg_cut_{k}"), atol=1e-12)
    if k in (5, 10):
        assert_close(_ours(retrieval_hit_rate, preds, target, k=k), want(f"success_{k}"), atol=1e-12)


def test_precision_beyond_list_divides_by_k(trec):
    preds, target, want = trec
    short, short_t = preds[:, :8], target[:, :8]
    ref = _trec(short, short_t)
    keep = short_t.sum(1) > 0
    assert_close(_ours(retrieval_precision, short, short_t, k=10)[keep], ref("P_10")[keep], atol=1e-12)


# ------------------------------------------------------------------------- brute force over tie orderings
def _ap(rels, k):
    r = sum(x > 0 for x in rels)
    hits, total = 0, 0.0
    for p, x in enumerate(rels[:k], 1):
        if x > 0:
            hits += 1
            total += hits / p
    return total / r


def _rr(rels, k):
    return next((1.0 / p for p, x in enumerate(rels[:k], 1) if x > 0), 0.0)


def _dcg(rels, k):
    return sum(x / math.log2(p + 1) for p, x in enumerate(rels[:k], 1))


BRUTE = {
    "ap": (retrieval_average_precision, _ap),
    "rr": (retrieval_reciprocal_rank, _rr),
    "precision": (retrieval_precision, lambda rels, k: sum(x > 0 for x in rels[:k]) / k),
    "recall": (retrieval_recall, lambda rels, k: sum(x > 0 for x in rels[:k]) / sum(x > 0 for x in rels)),
    "hit_rate": (retrieval_hit_rate, lambda rels, k: float(any(x > 0 for x in rels[:k]))),
    "ndcg": (retrieval_normalized_dcg, lambda rels, k: _dcg(rels, k) / _dcg(sorted(rels, reverse=True), k)),
    "r_precision": (retrieval_r_precision, lambda rels, k: sum(x > 0 for x in rels[: sum(x > 0 for x in rels)])
                    / sum(x > 0 for x in rels)),
}
def _fall_out(rels, k):
    non = sum(x <= 0 for x in rels)
    return sum(x <= 0 for x in rels[:k]) / non if non else 1.0


def _auroc(rels, k):
    pos = [i for i, x in enumerate(rels) if x > 0]
    neg = [i for i, x in enumerate(rels) if x <= 0]
    return sum(p < q for p in pos for q in neg) / (len(pos) * len(neg)) if pos and neg else 0.0


BRUTE.update({"dcg": (retrieval_dcg, _dcg), "fall_out": (retrieval_fall_out, _fall_out),
              "auroc": (retrieval_auroc, _auroc)})
SMALL_G = torch.Generator().manual_seed(11)
SMALL_N = 6
SMALL_PREDS = torch.randint(0, 3, (12, SMALL_N), generator=SMALL_G).float()
SMALL_TARGET = torch.randint(0, 3, (12, SMALL_N), generator=SMALL_G)
SMALL_TARGET *= torch.rand(12, SMALL_N, generator=SMALL_G) < 0.6
SMALL_TARGET[:, 0] = 1  # every query has a relevant item
SMALL_MASK = torch.rand(12, SMALL_N, generator=SMALL_G) < 0.85
SMALL_MASK[:, 0] = True


def _brute(oracle, scores, rels, k, ties):
    n = len(scores)
    k = n if k is None else k
    if ties == "order":
        order = sorted(range(n), key=lambda i: (-scores[i], i))
        return oracle([rels[i] for i in order], k)
    total = 0.0
    perms = list(itertools.permutations(range(n)))
    for perm in perms:
        order = sorted(range(n), key=lambda i: (-scores[i], perm[i]))
        total += oracle([rels[i] for i in order], k)
    return total / len(perms)


@pytest.mark.parametrize("ties", ["average", "order"])
@pytest.mark.parametrize("name", sorted(BRUTE))
def test_tie_rule_equals_brute_force_over_orderings(name, ties):
    fn, oracle = BRUTE[name]
    no_k = name in ("r_precision", "auroc")
    for k in ([None] if no_k else [None, 1, 2, 4, 8]):
        kw = {} if no_k else {"k": k}
        ours = fn(SMALL_PREDS, SMALL_TARGET, mask=SMALL_MASK, ties=ties, reduction="none", **kw)
        want = []
        for i in range(SMALL_PREDS.shape[0]):
            m = SMALL_MASK[i]
            want.append(_brute(oracle, SMALL_PREDS[i][m].tolist(), SMALL_TARGET[i][m].tolist(), k, ties))
        assert_close(ours, torch.tensor(want, dtype=torch.float64), atol=1e-12, path=f"{name} k={k}")


def test_average_ties_do_not_depend_on_input_order():
    perm = torch.randperm(N, generator=G)
    for fn, _ in BRUTE.values():
        a = fn(TIED, GRADED, reduction="none")
        b = fn(TIED[:, perm], GRADED[:, perm], reduction="none")
        assert_close(a, b, atol=1e-12)


# ---------------------------------------------------------------------- DCG, fall-out, per-query AUROC
@pytest.mark.parametrize("k", [None, 3])
@pytest.mark.parametrize("scores", ["tied", "distinct"])
def test_dcg_matches_sklearn(k, scores):
    from sklearn.metrics import dcg_score

    preds = TIED if scores == "tied" else DISTINCT
    ours = retrieval_dcg(preds, GRADED, k=k, reduction="none")
    want = [dcg_score(GRADED[i : i + 1].numpy(), preds[i : i + 1].numpy(), k=k) for i in range(Q)]
    assert_close(ours, torch.tensor(want, dtype=torch.float64), atol=1e-12)


def test_auroc_matches_sklearn_per_query_with_ties():
    from sklearn.metrics import roc_auc_score

    target = (GRADED > 1).long()
    target[5] = 1  # a query without a non-relevant item: empty, 0 by default (as torchmetrics)
    ours = retrieval_auroc(TIED, target, reduction="none")
    for i in range(Q):
        if 0 < target[i].sum() < N:
            assert ours[i].item() == pytest.approx(roc_auc_score(target[i].numpy(), TIED[i].numpy()), abs=1e-12)
        else:
            assert ours[i].item() == 0.0
    assert torch.isnan(retrieval_auroc(TIED, target, empty="skip", reduction="none")[[3, 5]]).all()
    with pytest.raises(ValueError, match=r"a relevant \(target > 0\) and a non-relevant item in every query, got 2"):
        retrieval_auroc(TIED, target, empty="error")


def test_fall_out_and_auroc_match_torchmetrics():
    """Distinct scores (torchmetrics orders ties by input position), queries without a relevant or without a
    non-relevant item, each measure's default empty rule."""
    tm = pytest.importorskip("torchmetrics")
    target = (GRADED > 1).long()
    target[5] = 1  # no non-relevant item: fall-out's empty query (torchmetrics' "pos" gives 1)
    idx = torch.arange(Q)[:, None].expand(Q, N).reshape(-1)
    flat = (DISTINCT.reshape(-1), target.reshape(-1), idx)
    for k in (None, 5):
        theirs = tm.retrieval.RetrievalFallOut(top_k=k)
        theirs.update(flat[0], flat[1], indexes=flat[2])
        assert_close(retrieval_fall_out(*flat, k=k), theirs.compute().double(), atol=1e-6)
    theirs = tm.retrieval.RetrievalAUROC()
    theirs.update(*flat[:2], indexes=flat[2])
    assert_close(retrieval_auroc(*flat), theirs.compute().double(), atol=1e-6)

