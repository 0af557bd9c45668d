"""Per-query AUROC with a cut-off ``k`` and a partial area ``max_fpr`` (torchmetrics' ``RetrievalAUROC(top_k=,
max_fpr=)``): scikit-learn's ``roc_auc_score(max_fpr=)`` on each query's top k, brute force over every order of
tied items; torchmetrics where no score ties across the cut-off; the tie and empty rules; both kernels; input
checks."""
import functools
import itertools

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from tests.helpers.metric_tester import assert_close
from torchmetrics_lite import RetrievalAUROC, _backend
from torchmetrics_lite.functional import retrieval_auroc

G = torch.Generator().manual_seed(17)
Q, N = 14, 5
PREDS = torch.randint(0, 3, (Q, N), generator=G).float()  # many ties, some across every cut-off
TARGET = torch.randint(0, 2, (Q, N), generator=G) * torch.randint(1, 3, (Q, N), generator=G)  # grades 0, 1, 2
MASK = torch.rand(Q, N, generator=G) < 0.9
TARGET[0] = 0  # no relevant item: empty
TARGET[1] = 2  # no non-relevant item: empty
MASK[2] = False  # no item: no query
KS = [None, 1, 2, 3, 4, 9]
MAX_FPRS = [None, 0.2, 0.5, 2 / 3, 1.0]


@pytest.fixture(params=["numpy", "torch"])
def backend(request):
    with _backend.force(request.param):
        yield request.param


@functools.lru_cache(maxsize=None)
def _sklearn(labels, scores, max_fpr):
    """scikit-learn on one top-k slice; a slice without both classes is 0, as torchmetrics."""
    if len(set(labels)) < 2:
        return 0.0
    return roc_auc_score(np.array(labels), np.array(scores), max_fpr=max_fpr)


def _oracle(scores, rels, k, max_fpr, ties):
    """The mean of scikit-learn's value on the top k over every order of the tied items ("average"), or on the
    top k in input order with the order as the score ("order")."""
    n = len(scores)
    k = n if k is None else min(k, n)
    labels = [int(r > 0) for r in rels]
    if ties == "order":
        top = sorted(range(n), key=lambda i: (-scores[i], i))[:k]
        return _sklearn(tuple(labels[i] for i in top), tuple(range(k, 0, -1)), max_fpr)
    total, perms = 0.0, list(itertools.permutations(range(n)))
    for perm in perms:
        top = sorted(range(n), key=lambda i: (-scores[i], perm[i]))[:k]
        total += _sklearn(tuple(labels[i] for i in top), tuple(scores[i] for i in top), max_fpr)
    return total / len(perms)


def _want(preds, target, mask, k, max_fpr, ties, empty_value=0.0):
    want = []
    for i in range(preds.shape[0]):
        s, r = preds[i][mask[i]].tolist(), target[i][mask[i]].tolist()
        if not s:
            want.append(float("nan"))
        elif not any(x > 0 for x in r) or all(x > 0 for x in r):
            want.append(empty_value)
        else:
            want.append(_oracle(s, r, k, max_fpr, ties))
    return torch.tensor(want, dtype=torch.float64)


@pytest.mark.parametrize("ties", ["average", "order"])
@pytest.mark.parametrize("k", KS)
def test_equals_sklearn_on_the_top_k_brute_force_over_tie_orders(backend, k, ties):
    for max_fpr in MAX_FPRS:
        got = retrieval_auroc(PREDS, TARGET, mask=MASK, k=k, max_fpr=max_fpr, ties=ties, reduction="none")
        assert_close(got, _want(PREDS, TARGET, MASK, k, max_fpr, ties), atol=1e-12, path=f"max_fpr={max_fpr}")


def test_shuffled_flat_input_equals_dense_and_both_kernels_agree():
    """Larger queries, so that numpy ranks only each query's head (the top k and the group across the cut)."""
    g = torch.Generator().manual_seed(4)
    q, n = 30, 40
    preds = torch.randint(0, 12, (q, n), generator=g).float()
    target = (torch.rand(q, n, generator=g) < 0.3).long()
    mask = torch.rand(q, n, generator=g) < 0.9
    rows = torch.arange(q)[:, None].expand(q, n)[mask]
    shuffle = torch.randperm(rows.numel(), generator=g)
    for k, max_fpr, ties in [(3, None, "average"), (5, 0.3, "average"), (None, 0.1, "average"), (8, 0.7, "order"),
                             (60, None, "average")]:
        perm = shuffle if ties == "average" else torch.arange(rows.numel())  # "order" keeps the input order
        flat = (preds[mask][perm], target[mask][perm], rows[perm] * 7 - 5)
        kw = {"k": k, "max_fpr": max_fpr, "ties": ties, "reduction": "none"}
        with _backend.force("numpy"):
            dense = retrieval_auroc(preds, target, mask=mask, **kw)
            shuffled = retrieval_auroc(*flat, **kw)
        with _backend.force("torch"):
            dense_torch = retrieval_auroc(preds, target, mask=mask, **kw)
            shuffled_torch = retrieval_auroc(*flat, **kw)
        for got in (shuffled, dense_torch, shuffled_torch):
            assert_close(got, dense, atol=1e-12, path=f"k={k} max_fpr={max_fpr} {ties}")
    whole = retrieval_auroc(preds, target, mask=mask, reduction="none")
    assert_close(retrieval_auroc(preds, target, mask=mask, k=n, max_fpr=1.0, reduction="none"), whole, atol=1e-12)


def test_matches_torchmetrics_without_ties_at_the_cut_off():
    tm = pytest.importorskip("torchmetrics")
    g = torch.Generator().manual_seed(8)
    preds = torch.rand(400, generator=g)  # in [0, 1]: torchmetrics takes no sigmoid; no ties
    target = (torch.rand(400, generator=g) < preds * 0.6).long()
    indexes = torch.randint(0, 30, (400,), generator=g)
    target[indexes == 3] = 1  # a query without a non-relevant item
    target[indexes == 4] = 0  # a query without a relevant item
    for k, max_fpr in [(None, 0.5), (4, None), (6, 0.25), (10, 0.8), (1, None), (30, 0.05)]:
        theirs = tm.retrieval.RetrievalAUROC(top_k=k, max_fpr=max_fpr)
        theirs.update(preds, target, indexes=indexes)
        ours = RetrievalAUROC(k=k, max_fpr=max_fpr)
        ours.update(preds[:150], target[:150], indexes[:150])  # queries span both batches
        ours.update(preds[150:], target[150:], indexes[150:])
        assert_close(ours.compute(), theirs.compute().double(), atol=1e-6, path=f"k={k} max_fpr={max_fpr}")
        per_query = retrieval_auroc(preds, target, indexes, k=k, max_fpr=max_fpr, reduction="none")
        for i in range(30):
            sel = indexes == i
            want = tm.functional.retrieval.retrieval_auroc(preds[sel], target[sel], top_k=k, max_fpr=max_fpr)
            assert_close(per_query[i], want.double(), atol=1e-6, path=f"query {i} k={k} max_fpr={max_fpr}")


def test_ties_across_the_cut_off_follow_our_rule_not_topk():
    """torchmetrics takes whichever tied items ``torch.topk`` returns; ``ties="average"`` is the mean over the
    possible top k (here: 2 of the 4 items tied at 0.5, 1 relevant among them), whatever the input order."""
    preds = torch.tensor([0.9, 0.5, 0.5, 0.5, 0.5, 0.1])
    target = torch.tensor([0, 1, 0, 0, 0, 1])
    subsets = list(itertools.combinations(range(1, 5), 2))
    want = sum(_sklearn((0,) + tuple(int(target[i]) for i in s), (0.9, 0.5, 0.5), 0.5) for s in subsets)
    # 3 of the 6 top-3 sets hold the relevant item: N then a tied (R, N) pair, area 0 over [0, 1/2], McClish
    # (1 + (0 - 1/8) / (1/2 - 1/8)) / 2 = 1/3; the other 3 lack a relevant item: 0
    want /= len(subsets)
    got = retrieval_auroc(preds, target, k=3, max_fpr=0.5)
    assert got.item() == pytest.approx(want, abs=1e-12) and want == pytest.approx(1 / 6, abs=1e-12)
    for perm in (torch.tensor([5, 4, 3, 2, 1, 0]), torch.tensor([1, 0, 2, 5, 3, 4])):
        assert retrieval_auroc(preds[perm], target[perm], k=3, max_fpr=0.5).item() == pytest.approx(want, abs=1e-12)
    # ties="order": the first tied items in input order make the top k (N, R, N: 1/3)
    assert retrieval_auroc(preds, target, k=3, max_fpr=0.5, ties="order").item() == pytest.approx(1 / 3, abs=1e-12)
    tm = pytest.importorskip("torchmetrics")
    theirs = tm.functional.retrieval.retrieval_auroc(preds, target, top_k=3, max_fpr=0.5).item()
    assert theirs in (pytest.approx(0.0, abs=1e-6), pytest.approx(1 / 3, abs=1e-6))  # one top 3, by topk


def test_empty_rules_and_a_top_k_without_both_classes(backend):
    preds = torch.tensor([[0.9, 0.8, 0.7, 0.1], [0.9, 0.8, 0.7, 0.1], [0.9, 0.8, 0.7, 0.1]])
    target = torch.tensor([[1, 1, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]])
    # query 0 has both classes, but its top 2 only relevant items: 0, as torchmetrics, whatever `empty` says
    for empty, fill in (("zero", 0.0), ("one", 1.0), ("skip", float("nan"))):
        got = retrieval_auroc(preds, target, k=2, max_fpr=0.5, empty=empty, reduction="none")
        assert_close(got, torch.tensor([0.0, fill, fill], dtype=torch.float64))
    assert retrieval_auroc(preds, target, k=3, max_fpr=0.5, reduction="none")[0].item() == 1.0
    with pytest.raises(ValueError, match=r"a relevant \(target > 0\) and a non-relevant item in every query, got 2"):
        retrieval_auroc(preds, target, k=2, max_fpr=0.5, empty="error")


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=1, max_size=12),
       st.integers(1, 8), st.sampled_from([None, 0.3, 0.5]), st.randoms(use_true_random=False))
def test_average_ties_do_not_depend_on_input_order(items, k, max_fpr, rnd):
    preds = torch.tensor([float(p) for p, _ in items])
    target = torch.tensor([t for _, t in items])
    perm = list(range(len(items)))
    rnd.shuffle(perm)
    a = retrieval_auroc(preds, target, k=k, max_fpr=max_fpr)
    b = retrieval_auroc(preds[perm], target[perm], k=k, max_fpr=max_fpr)
    assert_close(a, b, atol=1e-12)


@pytest.mark.parametrize("max_fpr", [0, 1.5, -0.2, float("nan"), "0.5", True])
def test_max_fpr_is_checked(max_fpr):
    match = r"Expected `max_fpr` to be a number in \(0.0, 1.0\], got"
    with pytest.raises(ValueError, match=match):
        retrieval_auroc(PREDS, TARGET, max_fpr=max_fpr)
    with pytest.raises(ValueError, match=match):
        RetrievalAUROC(max_fpr=max_fpr)


def test_torchmetrics_argument_names_say_what_to_write():
    with pytest.raises(TypeError, match=r"RetrievalAUROC\(\) got an unexpected keyword argument 'top_k': "
                                        r"torchmetrics' `top_k` is `k=` here"):
        RetrievalAUROC(top_k=3)
    with pytest.raises(ValueError, match=r"`k` to be a positive int or None, got 0"):
        RetrievalAUROC(k=0, max_fpr=0.5)
    assert repr(RetrievalAUROC(k=3, max_fpr=0.5)) == "RetrievalAUROC(k=3, max_fpr=0.5)"
