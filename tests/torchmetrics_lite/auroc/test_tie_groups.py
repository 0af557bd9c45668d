"""The weighted tie-group kernel (``_kernels/groups.py``'s ``tie_group_weights``, the CPU path of every
weighted binary AUROC / AP / curve): both of its kernels (counting and packed sort) against a brute-force group-by,
on heavy ties, signed zeros, infinities, subnormals and continuous scores, and end to end against scikit-learn."""
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve

from torchmetrics_lite.functional import (
    binary_auroc,
    binary_average_precision,
    binary_precision_recall_curve,
    binary_roc,
    multiclass_auroc,
    multiclass_average_precision,
    multiclass_roc,
    multilabel_auroc,
    multilabel_average_precision,
    multilabel_precision_recall_curve,
)
from torchmetrics_lite.functional.auroc._kernels import groups as _groups
from torchmetrics_lite.functional.auroc._kernels import result_swept as _sweep


def brute_groups(values, labels, weights):
    """np.unique over float64 copies (-0.0 == +0.0) and one mask per distinct value."""
    v = values.astype(np.float64)
    distinct = np.unique(v)
    w = weights.astype(np.float64)
    w0 = np.array([w[(v == d) & (labels == 0)].sum() for d in distinct])
    w1 = np.array([w[(v == d) & (labels == 1)].sum() for d in distinct])
    return distinct, w0, w1


SPECIAL = np.array([-0.0, 0.0, 1.0, -1.0, np.inf, -np.inf, 3e38, -3e38, 1e-45, -1e-45, 0.5, -2.5], dtype=np.float32)


def sample(kind, n, g):
    if kind == "rounded":
        return np.round(g.random(n), 2)
    if kind == "signed_rounded":
        return np.round(g.normal(size=n) * 3, 1)
    if kind == "special":
        return g.choice(SPECIAL, n)
    if kind == "wide":  # values over many binades: adjacent keys differ in low bits
        return g.normal(size=n) * 10.0 ** g.integers(-30, 30, n)
    return g.random(n)  # continuous


KINDS = ["rounded", "signed_rounded", "special", "wide", "continuous"]


@pytest.mark.parametrize("kernel", ["counting", "packed"])
@pytest.mark.parametrize("kind", KINDS)
def test_groups_equal_brute_force(kind, kernel, monkeypatch):
    if kernel == "packed":
        monkeypatch.setattr(_groups, "MAX_BUCKETS", 0)  # no counting table fits: the packed sort runs
    g = np.random.default_rng(KINDS.index(kind))
    for n in (1, 2, 7, 300):
        values = sample(kind, n, g).astype(np.float32)
        labels = (g.random(n) < 0.4).astype(np.uint8)
        weights = (g.random(n) * 3).astype(np.float32)
        weights[g.random(n) < 0.2] = 0.0
        weights[g.random(n) < 0.1] = -0.0  # non-negative, with the sign bit set
        got = _groups.tie_group_weights(values, labels, weights)
        if got is None:  # counting only: too many buckets for the data
            assert kernel == "counting" and kind in ("wide", "continuous")
            continue
        want = brute_groups(values, labels, weights)
        assert got[0].dtype == np.float32 and got[1].dtype == got[2].dtype == np.float64
        assert np.array_equal(got[0].astype(np.float64), want[0]) and not np.signbit(got[0][got[0] == 0]).any()
        np.testing.assert_allclose(got[1], want[1], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(got[2], want[2], rtol=1e-12, atol=1e-12)


def test_which_kernel_applies(monkeypatch):
    g = np.random.default_rng(1)
    continuous = g.random(5000).astype(np.float32)
    labels = (g.random(5000) < 0.5).astype(np.uint8)
    exact = (g.random(5000) * 2).astype(np.float32).astype(np.float64)  # float64 weights holding float32 values
    inexact = g.random(5000)
    assert _groups.tie_group_weights(continuous, labels, exact) is not None  # packed: weights exact float32
    assert _groups.tie_group_weights(continuous, labels, inexact) is None  # neither kernel: the general path
    assert _groups.tie_group_weights(np.round(continuous, 2), labels, inexact) is not None  # counting
    assert _groups.tie_group_weights(continuous.astype(np.float64) + 1e-12, labels, exact) is None  # not 32-bit
    assert _groups.tie_group_weights(np.zeros(0, np.float32), labels[:0], exact[:0]) is None
    got = _groups.tie_group_weights(continuous.astype(np.float64), labels.astype(bool), exact)  # exact float32
    np.testing.assert_allclose(got[2], brute_groups(continuous, labels, exact)[2], rtol=1e-12)
    monkeypatch.setattr(_groups.sys, "byteorder", "big")  # the packed sort writes the words little-endian
    assert _groups.tie_group_weights(continuous, labels, exact) is None


def test_tensor_kernel_groups_in_decreasing_order_and_declines_other_labels():
    scores, labels, weights = torch.tensor([0.5, 0.1, 0.5]), torch.tensor([1, 0, 0], dtype=torch.uint8), torch.ones(3)
    s = _groups.tie_groups(scores.double(), labels, weights)
    assert s.scores.dtype == torch.float64 and s.scores.tolist() == [scores.double()[:2].tolist()]
    assert s.neg.tolist() == [[1.0, 1.0]] and s.pos.tolist() == [[1.0, 0.0]] and s.tp.tolist() == [[1.0, 1.0]]
    assert _groups.tie_groups(scores, labels.long(), weights) is None  # labels the kernel does not read


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([float(v) for v in SPECIAL]) | st.floats(-4, 4, width=32),
                          st.booleans(), st.floats(0, 8, width=32)), min_size=1, max_size=40),
       st.booleans())
def test_groups_property(rows, packed):
    values = np.array([r[0] for r in rows], dtype=np.float32)
    labels = np.array([r[1] for r in rows], dtype=np.uint8)
    weights = np.array([r[2] for r in rows], dtype=np.float32)
    saved = _groups.MAX_BUCKETS
    _groups.MAX_BUCKETS = 0 if packed else saved
    try:
        got = _groups.tie_group_weights(values, labels, weights)
    finally:
        _groups.MAX_BUCKETS = saved
    if got is None:
        assert not packed
        return
    want = brute_groups(values, labels, weights)
    assert np.array_equal(got[0].astype(np.float64), want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kernel", ["counting", "packed", "general"])
def test_end_to_end_matches_sklearn(kernel, monkeypatch):
    """Every weighted binary function through each CPU kernel (``general``: the argsort path it replaces)."""
    if kernel == "packed":
        monkeypatch.setattr(_groups, "MAX_BUCKETS", 0)
    if kernel == "general":
        monkeypatch.setattr(_groups, "tie_groups", lambda *a: None)
    g = np.random.default_rng(3)
    y = g.random(500) < 0.3
    x = np.round(g.normal(size=500) + y, 1).astype(np.float32)
    x[:20] = -0.0
    w = (g.random(500) * 2).astype(np.float32)
    w[g.random(500) < 0.1] = 0
    preds, target, weight = torch.from_numpy(x), torch.from_numpy(y.astype(np.int64)), torch.from_numpy(w)
    xd, wd = x.astype(np.float64), w.astype(np.float64)
    assert abs(binary_auroc(preds, target, weight=weight).item() - roc_auc_score(y, xd, sample_weight=wd)) < 1e-12
    assert abs(binary_auroc(preds, target, weight=weight, max_fpr=0.3).item()
               - roc_auc_score(y, xd, sample_weight=wd, max_fpr=0.3)) < 1e-12
    assert abs(binary_average_precision(preds, target, weight=weight).item()
               - average_precision_score(y, xd, sample_weight=wd)) < 1e-12
    for got, want in zip(binary_roc(preds, target, weight=weight),
                         roc_curve(y, xd, sample_weight=wd, drop_intermediate=False)):
        np.testing.assert_allclose(got.double().numpy(), want, atol=1e-12, rtol=0)
    for got, want in zip(binary_precision_recall_curve(preds, target, weight=weight),
                         precision_recall_curve(y, xd, sample_weight=wd)):
        np.testing.assert_allclose(got.double().numpy(), want, atol=1e-12, rtol=0)
    scores = torch.from_numpy(np.round(g.normal(size=(200, 3)), 1).astype(np.float32))
    labels = torch.from_numpy((g.random((200, 3)) < 0.4).astype(np.int64))
    sample_weight = torch.from_numpy((g.random(200) * 2).astype(np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        micro = multilabel_auroc(scores, labels, 3, average="micro", weight=sample_weight).item()
    assert abs(micro - roc_auc_score(labels.numpy(), scores.double().numpy(), average="micro",
                                     sample_weight=sample_weight.double().numpy())) < 1e-12


def brute_row_auroc_ap(values, labels, weights):
    """Per row: the weighted pair count and scikit-learn's AP (float64)."""
    auroc, ap = [], []
    for v, y in zip(values.astype(np.float64), labels.astype(bool)):
        pair = weights[y][:, None] * weights[~y][None, :]
        greater = v[y][:, None] > v[~y][None, :]
        auroc.append((pair * (greater + 0.5 * (v[y][:, None] == v[~y][None, :]))).sum() / pair.sum())
        ap.append(average_precision_score(y, v, sample_weight=weights) if weights[y].sum() > 0 else np.nan)
    return np.array(auroc), np.array(ap)


@pytest.mark.parametrize("kind", ["rounded", "signed_rounded", "special"])
def test_row_buckets_against_brute_force(kind):
    g = np.random.default_rng(5)
    if kind == "special":  # signed zeros, extremes (no subnormal next to 0: that needs 2**32 buckets; no inf: sklearn)
        values = g.choice(np.array([-0.0, 0.0, 1.0, -1.0, 3e38, -3e38, 0.5, -2.5], np.float32), (4, 150))
    else:
        values = sample(kind, 4 * 150, g).astype(np.float32).reshape(4, 150)
    labels = (g.random((4, 150)) < 0.4).astype(np.uint8)
    weights = g.random(150) * 2
    weights[:15] = 0.0
    swept = _groups.row_buckets(torch.from_numpy(values), torch.from_numpy(labels.astype(bool)),
                                torch.from_numpy(weights))
    want_auroc, want_ap = brute_row_auroc_ap(values, labels, weights)
    np.testing.assert_allclose(_sweep.auroc_from_swept(swept).numpy(), want_auroc, rtol=0, atol=1e-12)
    np.testing.assert_allclose(_sweep.ap_from_swept(swept).numpy(), want_ap, rtol=0, atol=1e-12)
    for row, (fpr, tpr, thresholds) in enumerate(zip(*_sweep.roc_points(swept))):
        want = roc_curve(labels[row], values[row].astype(np.float64), sample_weight=weights, drop_intermediate=False)
        for got, exp in zip((fpr, tpr, thresholds), want):
            np.testing.assert_allclose(got.double().numpy(), exp, rtol=0, atol=1e-12)
    wide = sample("wide", 4 * 3000, g).astype(np.float32).reshape(4, 3000)  # too many buckets: the sweep runs
    assert _groups.row_bucket_weights(wide, np.zeros((4, 3000), np.uint8), np.ones(3000)) is None


@pytest.mark.parametrize("rows_kernel", [True, False])
def test_per_class_weighted_matches_sklearn(rows_kernel, monkeypatch):
    """Per-class AUROC, AP and curves through the rows kernel and through the sweep it replaces."""
    if not rows_kernel:
        monkeypatch.setattr(_groups, "row_buckets", lambda *a: None)
    g = np.random.default_rng(6)
    logits = np.round(g.normal(size=(300, 4)) * 2, 1).astype(np.float32)
    y = g.integers(0, 4, 300)
    probs = torch.softmax(torch.from_numpy(logits).double(), 1).float()
    w = g.random(300) * 2
    tw = torch.from_numpy(w)
    for average in ("macro", "weighted"):
        want = roc_auc_score(y, probs.double().numpy(), multi_class="ovr", average=average, sample_weight=w)
        got = multiclass_auroc(probs, torch.from_numpy(y), 4, average=average, weight=tw).item()
        assert abs(got - want) < 1e-12
    per_class = [average_precision_score(y == c, probs[:, c].double().numpy(), sample_weight=w) for c in range(4)]
    np.testing.assert_allclose(multiclass_average_precision(probs, torch.from_numpy(y), 4, average="none",
                                                            weight=tw).numpy(), per_class, atol=1e-12, rtol=0)
    for c, curve in enumerate(zip(*multiclass_roc(probs, torch.from_numpy(y), 4, weight=tw))):
        want = roc_curve(y == c, probs[:, c].double().numpy(), sample_weight=w, drop_intermediate=False)
        for got, exp in zip(curve, want):
            np.testing.assert_allclose(got.double().numpy(), exp, rtol=0, atol=1e-12)
    labels = (g.random((300, 4)) < 0.5).astype(np.int64)
    for c, curve in enumerate(zip(*multilabel_precision_recall_curve(torch.from_numpy(logits),
                                                                     torch.from_numpy(labels), 4, weight=tw))):
        want = precision_recall_curve(labels[:, c], logits[:, c].astype(np.float64), sample_weight=w)
        for got, exp in zip(curve, want):
            np.testing.assert_allclose(got.double().numpy(), exp, rtol=0, atol=1e-12)
    got = multilabel_average_precision(torch.from_numpy(logits), torch.from_numpy(labels), 4, average="none",
                                       weight=tw).numpy()
    want = average_precision_score(labels, logits.astype(np.float64), average=None, sample_weight=w)
    np.testing.assert_allclose(got, want, atol=1e-12, rtol=0)


@pytest.fixture
def small_sample(monkeypatch):
    """The sampled kernel at test sizes: a sample of 16 values, chunks of 64 (it then runs from 128 values on)."""
    monkeypatch.setattr(_groups, "_SAMPLE", 16)
    monkeypatch.setattr(_groups, "_CHUNK", 64)


def rounded_input(n=3000, seed=5):
    g = np.random.default_rng(seed)
    values = (np.arange(n) % 10 / 10).astype(np.float32)  # 10 distinct values, each at a sample position
    return values, (g.random(n) < 0.3).astype(np.uint8), (g.random(n) * 2).astype(np.float32)


def test_sampled_kernel_equals_brute_force(small_sample):
    values, labels, weights = rounded_input()
    got = _groups._sampled_groups(values, labels, weights)
    assert got is not None  # the sampled kernel applies: no value sort
    want = brute_groups(values, labels, weights)
    assert np.array_equal(got[0].astype(np.float64), want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-12)


ODD = {"unsampled": 0.123, "neighbour of a sampled value": float(np.nextafter(np.float32(0.5), np.float32(1))),
       "negative": -0.5, "negative zero": -0.0, "nan": float("nan"), "above the sample": 7.0}


@pytest.mark.parametrize("where", ["first chunk", "last value"])
@pytest.mark.parametrize("odd", list(ODD))
def test_sampled_kernel_refuses_a_value_outside_its_sample(small_sample, odd, where):
    values, labels, weights = rounded_input()
    at = 1 if where == "first chunk" else values.shape[0] - 1  # never a sample position (every 187th value)
    values[at] = ODD[odd]
    assert _groups._sampled_groups(values, labels, weights) is None
    if odd != "nan":  # the sorted kernels take over and stay exact
        got, want = _groups.tie_group_weights(values, labels, weights), brute_groups(values, labels, weights)
        assert np.array_equal(got[0].astype(np.float64), want[0])
        np.testing.assert_allclose(got[1], want[1], rtol=1e-12)
        np.testing.assert_allclose(got[2], want[2], rtol=1e-12)


def test_sampled_kernel_refuses_a_negative_sample(small_sample):
    values, labels, weights = rounded_input()
    values -= np.float32(0.45)
    assert _groups._sampled_groups(values, labels, weights) is None


def test_sampled_kernel_end_to_end_against_scikit_learn(small_sample):
    values, labels, weights = rounded_input(n=5000, seed=9)
    got = binary_auroc(torch.from_numpy(values), torch.from_numpy(labels.astype(np.int64)),
                       weight=torch.from_numpy(weights))
    want = roc_auc_score(labels, values, sample_weight=weights)
    assert got.item() == pytest.approx(want, abs=1e-12)
