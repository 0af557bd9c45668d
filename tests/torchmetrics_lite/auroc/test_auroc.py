"""Binary exact rank metrics (AUROC, partial AUROC, AP, ROC and PR curves, binned AUROC) against scikit-learn
and brute-force pair counting, through the harness, and across ranks (the one distributed spawn of the
family: the multiclass/multilabel, weighted, curve, operating-point, DeLong, binned, EER, LogAUC and ranking
cases of the other modules are gathered here too, from ``tests/helpers/auroc/``, beside the batches they stream)."""
import math
import warnings
from functools import partial

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve

from tests.helpers.auroc import binned, curves, delong, multi, rank_scores, weights
from tests.helpers.distributed import Case, distributed_test
from tests.helpers.metric_tester import check_metric, check_rejects, concat
from torchmetrics_lite import (
    BinaryAUROC,
    BinaryAveragePrecision,
    BinaryPrecisionRecallCurve,
    BinaryROC,
    MetricCollection,
    _backend,
)
from torchmetrics_lite._xp import namespace
from torchmetrics_lite.functional import (
    binary_auroc,
    binary_average_precision,
    binary_precision_recall_curve,
    binary_roc,
)
from torchmetrics_lite.functional.auroc._kernels import ranks as rk
from torchmetrics_lite.functional.auroc._kernels.curve_counts import curve_counts


def brute_auroc(scores, labels):
    """O(n^2) pair counting: a positive above a negative counts 1, a tie 1/2."""
    s, y = np.asarray(scores, dtype=np.float64), np.asarray(labels).astype(bool)
    pos, neg = s[y][:, None], s[~y][None, :]
    return ((pos > neg).sum() + 0.5 * (pos == neg).sum()) / (pos.size * neg.size)


def make(n, *, decimals=None, scale=1.0, shift=0.0, pos_rate=0.3, seed=0, dtype=torch.float32):
    g = np.random.default_rng(seed)
    y = g.random(n) < pos_rate
    s = g.normal(size=n) + 0.8 * y
    if decimals is not None:
        s = np.round(s, decimals)
    return torch.tensor(s * scale + shift, dtype=dtype), torch.tensor(y.astype(np.int64))


KINDS = {
    "continuous": dict(),
    "heavy_ties": dict(decimals=0),  # about 7 distinct values
    "ties_1dp": dict(decimals=1),
    "logits_large": dict(scale=1e3),
    "negative": dict(shift=-50.0, decimals=1),
    "float64": dict(dtype=torch.float64),
}


def _sk(preds):
    return preds.double().numpy()


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_binary_auroc_and_ap_match_sklearn(kind):
    preds, target = make(500, **KINDS[kind])
    assert abs(binary_auroc(preds, target).item() - roc_auc_score(target, _sk(preds))) < 1e-12
    assert abs(binary_auroc(preds, target).item() - brute_auroc(_sk(preds), target)) < 1e-12
    ap = binary_average_precision(preds, target).item()
    assert abs(ap - average_precision_score(target, _sk(preds))) < 1e-12
    for max_fpr in (0.05, 0.3, 0.5, 0.999, 1.0):
        ours = binary_auroc(preds, target, max_fpr=max_fpr).item()
        assert abs(ours - roc_auc_score(target, _sk(preds), max_fpr=max_fpr)) < 1e-12, max_fpr


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_curves_match_sklearn(kind):
    preds, target = make(300, **KINDS[kind])
    fpr, tpr, thr = binary_roc(preds, target)
    sk_fpr, sk_tpr, sk_thr = roc_curve(target, _sk(preds), drop_intermediate=False)
    assert math.isinf(thr[0].item()) and thr.dtype == preds.dtype
    np.testing.assert_allclose(fpr.numpy(), sk_fpr, atol=1e-12, rtol=0)
    np.testing.assert_allclose(tpr.numpy(), sk_tpr, atol=1e-12, rtol=0)
    np.testing.assert_array_equal(thr.double().numpy(), sk_thr)
    precision, recall, thr = binary_precision_recall_curve(preds, target)
    sk_p, sk_r, sk_t = precision_recall_curve(target, _sk(preds))
    np.testing.assert_allclose(precision.numpy(), sk_p, atol=1e-12, rtol=0)
    np.testing.assert_allclose(recall.numpy(), sk_r, atol=1e-12, rtol=0)
    np.testing.assert_array_equal(thr.double().numpy(), sk_t)
    assert (precision[-1].item(), recall[-1].item()) == (1.0, 0.0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.booleans()), min_size=2, max_size=40),
       st.sampled_from(["numpy", "torch"]))
def test_brute_force_pairs_both_sort_backends(rows, backend):
    scores = torch.tensor([float(s) for s, _ in rows], dtype=torch.float64)
    labels = torch.tensor([y for _, y in rows])
    n_pos = int(labels.sum())
    with _backend.force(backend):
        xp = namespace(scores)  # the one backend decision, as the chooser makes it
        ranked = rk.rank_one_row(xp, scores, labels)
        rows_ranked = rk.rank_rows(xp, scores[None], labels[None])
    if 0 < n_pos < len(rows):
        want = brute_auroc(scores.numpy(), labels.numpy())
        assert abs(rk.auroc_from_ranked(ranked).item() - want) < 1e-12
        assert abs(rk.auroc_from_ranked(rows_ranked).item() - want) < 1e-12
        # 2U is the exact integer count of ordered pairs (x2): no rounding anywhere
        assert int(rk.two_u(ranked)) == round(2 * want * n_pos * (len(rows) - n_pos))
        ap = average_precision_score(labels.numpy(), scores.numpy())
        assert abs(rk.precision_sum(ranked).item() / n_pos - ap) < 1e-12
        assert abs(rk.precision_sum(rows_ranked).item() / n_pos - ap) < 1e-12
    thresholds, tps, fps = curve_counts(xp, scores, labels)
    assert thresholds.tolist() == sorted(set(scores.tolist()))
    assert tps.tolist() == [int(((scores >= t) & labels).sum()) for t in thresholds]
    assert fps.tolist() == [int(((scores >= t) & ~labels).sum()) for t in thresholds]


def test_worked_example_and_order_only():
    preds = torch.tensor([0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.4, 0.3])
    target = torch.tensor([1, 1, 0, 1, 0, 1, 0, 0])
    assert binary_auroc(preds, target).item() == 13 / 16
    # any strictly increasing map leaves rank metrics unchanged: logits, negatives, huge scales
    for f in (torch.logit, lambda x: -1 / x, lambda x: 1e6 * x - 3e6):
        assert binary_auroc(f(preds.double()), target).item() == 13 / 16
        assert binary_average_precision(f(preds.double()), target).item() == binary_average_precision(
            preds, target).item()


def test_float64_scores_1e9_apart_are_never_downcast():
    g = torch.Generator().manual_seed(3)
    preds = 0.5 + 1e-9 * torch.randperm(400, generator=g).double()  # all equal in float32
    target = torch.randint(0, 2, (400,), generator=g)
    want = brute_auroc(preds.numpy(), target.numpy())
    assert abs(want - 0.5) > 1e-3
    assert abs(binary_auroc(preds, target).item() - want) < 1e-12
    m = BinaryAUROC()
    for p, t in zip(preds.split(64), target.split(64)):
        m.update(p, t)
    assert m.preds.dtype == torch.float64
    assert abs(m.compute().item() - want) < 1e-12


def test_half_precision_is_upcast_exactly():
    preds, target = make(200, decimals=2)
    half = preds.half()
    assert binary_auroc(half, target).item() == pytest.approx(roc_auc_score(target, half.double().numpy()),
                                                              abs=1e-12)


def test_state_is_five_bytes_per_sample():
    m = BinaryAUROC()
    preds, target = make(1000)
    m.update(preds, target.bool())
    state = m.local_state()
    assert state["preds"].dtype == torch.float32 and state["target"].dtype == torch.uint8
    assert sum(t.numel() * t.element_size() for t in state.values()) == 5 * 1000  # no weight rows unweighted


def test_one_class_is_nan_with_warning_or_error():
    preds = torch.tensor([0.2, 0.4, 0.9])
    for target in (torch.ones(3, dtype=torch.long), torch.zeros(3, dtype=torch.long)):
        with pytest.warns(UserWarning, match="AUROC is undefined with one class present"):
            assert math.isnan(binary_auroc(preds, target).item())
        with pytest.warns(UserWarning, match="AUROC is undefined with one class present"):
            assert math.isnan(binary_auroc(preds, target, max_fpr=0.5).item())
        with pytest.raises(ValueError, match="Expected both classes in `target` for AUROC"):
            binary_auroc(preds, target, strict=True)
    with pytest.warns(UserWarning, match="AUROC is undefined"):
        assert math.isnan(BinaryAUROC().compute().item())
    with pytest.warns(UserWarning, match="average precision is undefined without positives"):
        assert math.isnan(binary_average_precision(preds, torch.zeros(3, dtype=torch.long)).item())
    with pytest.raises(ValueError, match="for average precision"):
        binary_average_precision(preds, torch.zeros(3, dtype=torch.long), strict=True)
    assert binary_average_precision(preds, torch.ones(3, dtype=torch.long)).item() == 1.0
    with pytest.warns(UserWarning, match="only one class present"):
        fpr, _, _ = binary_roc(preds, torch.ones(3, dtype=torch.long))
    assert torch.isnan(fpr).all()
    with pytest.warns(UserWarning, match="no positive in `target`; recall is set to 1"):
        _, recall, _ = binary_precision_recall_curve(preds, torch.zeros(3, dtype=torch.long))
    assert recall[:-1].eq(1).all()


def test_no_samples_is_nan_with_a_warning_that_says_so():
    """An empty batch (or a metric never updated) has no class at all: the warning says "no samples", not "one
    class present", for every way of computing the value."""
    empty, labels = torch.zeros(0), torch.zeros(0, dtype=torch.long)
    metric = BinaryAUROC()
    metric.update(empty, labels)
    ways = [metric.compute, lambda: binary_auroc(empty, labels), lambda: binary_auroc(empty, labels, max_fpr=0.5),
            lambda: binary_auroc(empty, labels, thresholds=5)]
    for compute in ways:
        with pytest.warns(UserWarning, match="^AUROC is undefined with no samples; returning nan$"):
            assert math.isnan(compute().item())
    for kwargs in ({}, {"thresholds": 5}):
        with pytest.warns(UserWarning, match="^average precision is undefined with no samples; returning nan$"):
            assert math.isnan(binary_average_precision(empty, labels, **kwargs).item())
    with pytest.raises(ValueError, match="for AUROC, but it is undefined with no samples"):
        binary_auroc(empty, labels, strict=True)
    from torchmetrics_lite.functional import binary_eer, binary_logauc

    with pytest.warns(UserWarning, match="^EER is undefined with no samples"):
        binary_eer(empty, labels)
    with pytest.warns(UserWarning, match="^LogAUC is undefined with no samples"):
        binary_logauc(empty, labels)


BAD = [
    ((torch.tensor([0.1, float("nan")]), torch.tensor([0, 1])), ValueError, r"`preds` to contain no NaN, got 1"),
    ((torch.tensor([0.1, 0.2]), torch.tensor([0, 2])), ValueError, r"`target` to hold only 0 and 1 .*got value 2"),
    ((torch.tensor([0.1, 0.2]), torch.tensor([0, 1, 1])), ValueError,
     r"`preds` and `target` to have the same shape, got \(2,\) and \(3,\)"),
    ((torch.tensor([True, False]), torch.tensor([0, 1])), TypeError,
     r"`preds` to have a floating dtype, got torch.bool"),
    ((torch.tensor([2 ** 53 + 1, 2]), torch.tensor([0, 1])), ValueError,
     r"integer `preds` to lie in \[-2\*\*53, 2\*\*53\] \(exact in float64.*got values in \[2, 9007199254740993\]"),
    ((torch.tensor([0.1, 0.2]), torch.tensor([0.0, 0.5])), ValueError, r"`target` to hold only 0 and 1 .*0.5"),
    (([0.1, 0.2], torch.tensor([0, 1])), TypeError, r"`preds` to be a torch.Tensor, got list"),
]


@pytest.mark.parametrize("bad,exc,match", BAD, ids=[b[2][:30] for b in BAD])
@pytest.mark.parametrize("factory", [BinaryAUROC, partial(BinaryAUROC, bins=8), BinaryAveragePrecision, BinaryROC,
                                     BinaryPrecisionRecallCurve], ids=["auroc", "binned", "ap", "roc", "pr"])
def test_rejects_bad_batches(factory, bad, exc, match):
    preds, target = make(40)
    check_rejects(factory, [(preds[:20], target[:20]), (preds[20:], target[20:])], bad, exc, match)
    with pytest.raises(exc, match=match):
        binary_auroc(*bad)


def test_rejects_bad_options():
    for max_fpr in (0, 0.0, -0.1, 1.5, float("nan"), "0.5"):
        with pytest.raises(ValueError, match=r"Expected `max_fpr` to be a number in \(0.0, 1.0\]"):
            binary_auroc(torch.rand(4), torch.tensor([0, 1, 0, 1]), max_fpr=max_fpr)
        with pytest.raises(ValueError, match=r"Expected `max_fpr` to be a number in \(0.0, 1.0\]"):
            BinaryAUROC(max_fpr=max_fpr)
    with pytest.raises(ValueError, match=r"Expected `bins` to be a positive int, got 0"):
        BinaryAUROC(bins=0)
    for bad_range in ((1.0, 0.0), (0.0, float("inf")), (0.0,), "01"):
        with pytest.raises(ValueError, match=r"Expected `range` to be a pair \(lo, hi\) of finite numbers"):
            BinaryAUROC(bins=4, range=bad_range)
    with pytest.raises(ValueError, match=r"Expected `range` to be None when `bins` is None, got \(0, 1\)"):
        BinaryAUROC(range=(0, 1))
    with pytest.raises(ValueError, match=r"Expected `max_fpr` to be None when `bins` is set, got 0.5"):
        BinaryAUROC(0.5, bins=4)
    with pytest.raises(ValueError, match=r"Expected `bins` to be set for error_bound\(\)"):
        BinaryAUROC().error_bound()


def test_validate_args_false_skips_value_checks_only():
    preds, target = torch.tensor([0.1, 0.4, 0.3]), torch.tensor([0, 1, 1])
    m = BinaryAUROC(validate_args=False)
    m.update(preds, target)
    assert m.compute().item() == 1.0
    with pytest.raises(TypeError, match="floating dtype"):
        m.update(torch.tensor([True, False]), torch.tensor([0, 1]))


# ------------------------------------------------------------------------------------------- binned mode
@pytest.mark.parametrize("bins,value_range,kind", [(10, (0, 1), "prob"), (64, (0, 1), "prob"),
                                                   (7, (-3.0, 3.0), "logit"), (1000, (-2.0, 2.0), "logit")])
def test_binned_within_bound_and_exact_on_binned_scores(bins, value_range, kind):
    preds, target = make(2000, seed=bins)
    if kind == "prob":
        preds = torch.sigmoid(preds)
    m = BinaryAUROC(bins=bins, range=value_range)
    for p, t in zip(preds.split(300), target.split(300)):
        m.update(p, t)
    exact, binned, bound = roc_auc_score(target, _sk(preds)), m.compute().item(), m.error_bound().item()
    assert abs(binned - exact) <= bound + 1e-15
    lo, hi = value_range
    index = np.clip(np.floor((_sk(preds) - lo) * (bins / (hi - lo))), 0, bins - 1)
    assert abs(binned - roc_auc_score(target, index)) < 1e-12  # exact Mann-Whitney of the binned scores
    shared = sum(((index == b) & (target.numpy() == 1)).sum() * ((index == b) & (target.numpy() == 0)).sum()
                 for b in np.unique(index))
    n_pos = int(target.sum())
    assert bound == pytest.approx(shared / (2 * n_pos * (len(target) - n_pos)), abs=1e-15)
    assert m.hist.shape == (2, bins) and m.hist.dtype == torch.int64


def test_binned_bound_is_tight_when_all_pairs_share_a_bin():
    m = BinaryAUROC(bins=1)
    m.update(torch.tensor([0.1, 0.9]), torch.tensor([0, 1]))  # exact 1.0, binned 0.5
    assert m.compute().item() == 0.5 and m.error_bound().item() == 0.5


# ------------------------------------------------------------------------------------------------ harness
GEN = torch.Generator().manual_seed(7)
_P, _T = make(180, decimals=1, seed=11)
BATCHES = [(_P[a:b], _T[a:b]) for a, b in ((0, 40), (40, 40), (40, 97), (97, 130), (130, 180))]
_P64, _T64 = make(120, seed=12, dtype=torch.float64, decimals=2)
BATCHES64 = [(_P64[a:b], _T64[a:b].bool()) for a, b in ((0, 50), (50, 51), (51, 120))]


def _whole(batches):
    preds, target = concat(batches)
    return _sk(preds), target.long().numpy()


def _roc_expected(batches):
    f, t, thr = roc_curve(*_whole(batches)[::-1], drop_intermediate=False)
    return [torch.tensor(f.copy()), torch.tensor(t.copy()), torch.tensor(thr.copy())]


def _pr_expected(batches):
    p, r, thr = precision_recall_curve(*_whole(batches)[::-1])
    return [torch.tensor(p.copy()), torch.tensor(r.copy()), torch.tensor(thr.copy())]


HARNESS = {
    "auroc": (BinaryAUROC, binary_auroc, lambda b: roc_auc_score(*_whole(b)[::-1])),
    "auroc_max_fpr": (partial(BinaryAUROC, max_fpr=0.3), partial(binary_auroc, max_fpr=0.3),
                      lambda b: roc_auc_score(*_whole(b)[::-1], max_fpr=0.3)),
    "ap": (BinaryAveragePrecision, binary_average_precision, lambda b: average_precision_score(*_whole(b)[::-1])),
    "roc": (BinaryROC, binary_roc, _roc_expected),
    "pr": (BinaryPrecisionRecallCurve, binary_precision_recall_curve, _pr_expected),
}


@pytest.mark.parametrize("batches", [BATCHES, BATCHES64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(HARNESS))
def test_harness(name, batches):
    factory, functional, oracle = HARNESS[name]
    expected = oracle(batches)
    if not isinstance(expected, list):
        expected = torch.tensor(expected, dtype=torch.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # tiny any-split batches may hold one class
        check_metric(factory, batches, expected, batch_value=functional, max_examples=8, atol=1e-12, rtol=0)


def test_harness_binned():
    factory = partial(BinaryAUROC, bins=16, range=(-3, 3))
    expected = BinaryAUROC(bins=16, range=(-3, 3))
    for b in BATCHES:
        expected.update(*b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_metric(factory, BATCHES, expected.compute(), batch_value=lambda p, t: factory()(p, t),
                     max_examples=8, atol=1e-12, rtol=0)


def test_collection_shares_the_exact_state():
    mc = MetricCollection({"auroc": BinaryAUROC(), "ap": BinaryAveragePrecision(), "pauc": BinaryAUROC(0.2)})
    for b in BATCHES:
        mc.update(*b)
    got = mc.compute()
    preds, target = concat(BATCHES)
    assert got["auroc"].item() == binary_auroc(preds, target).item()
    assert got["ap"].item() == binary_average_precision(preds, target).item()
    assert got["pauc"].item() == binary_auroc(preds, target, max_fpr=0.2).item()


# ------------------------------------------------------------------------------------------- distributed
CASES = [
    Case("auroc", BinaryAUROC, BATCHES),
    Case("auroc64", BinaryAUROC, BATCHES64),
    Case("auroc_max_fpr", partial(BinaryAUROC, max_fpr=0.3), BATCHES),
    Case("auroc_binned", partial(BinaryAUROC, bins=16, range=(-3, 3)), BATCHES),
    Case("ap", BinaryAveragePrecision, BATCHES),
    Case("roc", BinaryROC, BATCHES),
    Case("pr", BinaryPrecisionRecallCurve, BATCHES64),
    *multi.CASES,
    *weights.CASES,
    *curves.CASES,
    *delong.CASES,
    *binned.CASES,
    *rank_scores.CASES,
]


test_distributed_equals_single_process = distributed_test(CASES)
