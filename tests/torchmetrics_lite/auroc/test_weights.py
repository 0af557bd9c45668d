"""Sample weights (scikit-learn's ``sample_weight``) for AUROC, AP and the curves of every task: against
scikit-learn with heavy ties and zero weights, against an O(n^2) weighted pair count, integer weights against
repeated samples, both array backends, the harness on weighted batches, and the weighting rules of the modules."""
import warnings
from functools import partial

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve

from tests.helpers.auroc.weights import BATCHES, MC_BATCHES, ML_BATCHES, PREDS, TARGET, C, L, make, make_multi
from tests.helpers.metric_tester import check_metric, check_rejects, concat
from torchmetrics_lite import (
    BinaryAUROC,
    BinaryAveragePrecision,
    BinaryPrecisionRecallCurve,
    BinaryRecallAtFixedPrecision,
    BinaryROC,
    MulticlassAUROC,
    MulticlassROC,
    MultilabelAveragePrecision,
    _backend,
)
from torchmetrics_lite.functional import (
    binary_auroc,
    binary_average_precision,
    binary_precision_recall_curve,
    binary_roc,
    multiclass_auroc,
    multiclass_average_precision,
    multiclass_precision_recall_curve,
    multiclass_roc,
    multilabel_auroc,
    multilabel_average_precision,
    multilabel_roc,
)


def brute_weighted_auroc(scores, labels, weights):
    """O(n^2): sum over positive/negative pairs of w_i w_j (1 if ordered, 1/2 if tied) / (W_pos W_neg)."""
    s, y, w = np.asarray(scores, float), np.asarray(labels).astype(bool), np.asarray(weights, float)
    pos, neg = s[y][:, None], s[~y][None, :]
    pair_w = w[y][:, None] * w[~y][None, :]
    return (pair_w * ((pos > neg) + 0.5 * (pos == neg))).sum() / pair_w.sum()


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("kind", [dict(), dict(decimals=0), dict(decimals=3, zeros=0.0), dict(integer=True)],
                         ids=["ties_1dp", "heavy_ties", "continuous", "integer_weights"])
def test_binary_weighted_matches_sklearn_and_brute_force(kind, backend):
    preds, target, weight = make(400, **kind)
    x, y, w = preds.double().numpy(), target.numpy(), weight.numpy()
    with _backend.force(backend):
        auroc = binary_auroc(preds, target, weight=weight).item()
        assert abs(auroc - roc_auc_score(y, x, sample_weight=w)) < 1e-12
        assert abs(auroc - brute_weighted_auroc(x, y, w)) < 1e-12
        ap = binary_average_precision(preds, target, weight=weight).item()
        assert abs(ap - average_precision_score(y, x, sample_weight=w)) < 1e-12
        for max_fpr in (0.1, 0.5):
            got = binary_auroc(preds, target, weight=weight, max_fpr=max_fpr).item()
            assert abs(got - roc_auc_score(y, x, sample_weight=w, max_fpr=max_fpr)) < 1e-12
        fpr, tpr, thr = binary_roc(preds, target, weight=weight)
        want = roc_curve(y, x, sample_weight=w, drop_intermediate=False)
        for got, exp in zip((fpr, tpr, thr), want):
            np.testing.assert_allclose(got.double().numpy(), exp, atol=1e-12, rtol=0)
        got = binary_precision_recall_curve(preds, target, weight=weight)
        for g_, exp in zip(got, precision_recall_curve(y, x, sample_weight=w)):
            np.testing.assert_allclose(g_.double().numpy(), exp, atol=1e-12, rtol=0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(-2, 2), st.booleans(), st.integers(0, 3)), min_size=2, max_size=30))
def test_integer_weights_equal_repeated_samples(rows):
    """Weight k is the same as the sample repeated k times (an oracle independent of any weighted code)."""
    scores = torch.tensor([float(s) for s, _, _ in rows])
    labels = torch.tensor([int(y) for _, y, _ in rows])
    weight = torch.tensor([float(k) for _, _, k in rows])
    reps = weight.long()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for fn in (binary_auroc, binary_average_precision):
            got = fn(scores, labels, weight=weight)
            want = fn(scores.repeat_interleave(reps), labels.repeat_interleave(reps))
            torch.testing.assert_close(got, want, atol=1e-12, rtol=0, equal_nan=True)
        for fn in (binary_roc, binary_precision_recall_curve):
            if int(reps.sum()):
                for got, want in zip(fn(scores, labels, weight=weight),
                                     fn(scores.repeat_interleave(reps), labels.repeat_interleave(reps))):
                    torch.testing.assert_close(got.double(), want.double(), atol=1e-12, rtol=0, equal_nan=True)


def test_weights_of_one_equal_unweighted():
    preds, target, _ = make(300, decimals=1)
    ones = torch.ones(300)
    assert binary_auroc(preds, target, weight=ones).item() == pytest.approx(binary_auroc(preds, target).item(),
                                                                            abs=1e-15)
    assert binary_average_precision(preds, target, weight=ones).item() == pytest.approx(
        binary_average_precision(preds, target).item(), abs=1e-15)


@pytest.mark.parametrize("average", ["macro", "weighted", "none"])
def test_multiclass_weighted_matches_sklearn(average):
    probs, y, _, _, w = make_multi(300)
    x, yy, ww = probs.numpy(), y.numpy(), w.numpy()
    per_auroc = np.array([roc_auc_score(yy == c, x[:, c], sample_weight=ww) for c in range(C)])
    per_ap = np.array([average_precision_score(yy == c, x[:, c], sample_weight=ww) for c in range(C)])
    support = np.array([ww[yy == c].sum() for c in range(C)])  # sklearn: the weighted positives
    avg = {"none": lambda v: v, "macro": np.mean, "weighted": lambda v: np.average(v, weights=support)}[average]
    np.testing.assert_allclose(multiclass_auroc(probs, y, C, average=average, weight=w).numpy(), avg(per_auroc),
                               atol=1e-12, rtol=0)
    np.testing.assert_allclose(multiclass_average_precision(probs, y, C, average=average, weight=w).numpy(),
                               avg(per_ap), atol=1e-12, rtol=0)
    if average != "none":
        sk = roc_auc_score(yy, x, multi_class="ovr", average=average, sample_weight=ww)
        assert abs(multiclass_auroc(probs, y, C, average=average, weight=w).item() - sk) < 1e-12


@pytest.mark.parametrize("average", ["micro", "macro", "weighted", "none"])
def test_multilabel_weighted_matches_sklearn(average):
    _, _, scores, labels, w = make_multi(300)
    sk_average = None if average == "none" else average
    x, yy, ww = scores.numpy(), labels.numpy(), w.numpy()
    np.testing.assert_allclose(multilabel_auroc(scores, labels, L, average=average, weight=w).numpy(),
                               roc_auc_score(yy, x, average=sk_average, sample_weight=ww), atol=1e-12, rtol=0)
    np.testing.assert_allclose(multilabel_average_precision(scores, labels, L, average=average, weight=w).numpy(),
                               average_precision_score(yy, x, average=sk_average, sample_weight=ww), atol=1e-12,
                               rtol=0)


def test_per_class_weighted_curves_match_sklearn():
    probs, y, scores, labels, w = make_multi(200)
    curves = multiclass_roc(probs, y, C, weight=w)
    pr_curves = multiclass_precision_recall_curve(probs, y, C, weight=w)
    ml_curves = multilabel_roc(scores, labels, L, weight=w)
    for c in range(C):
        want = roc_curve(y.numpy() == c, probs[:, c].numpy(), sample_weight=w.numpy(), drop_intermediate=False)
        for got, exp in zip((curve[c] for curve in curves), want):
            np.testing.assert_allclose(got.double().numpy(), exp, atol=1e-12, rtol=0)
        want = precision_recall_curve(y.numpy() == c, probs[:, c].numpy(), sample_weight=w.numpy())
        for got, exp in zip((curve[c] for curve in pr_curves), want):
            np.testing.assert_allclose(got.double().numpy(), exp, atol=1e-12, rtol=0)
    for j in range(L):
        want = roc_curve(labels[:, j].numpy(), scores[:, j].numpy(), sample_weight=w.numpy(),
                         drop_intermediate=False)
        for got, exp in zip((curve[j] for curve in ml_curves), want):
            np.testing.assert_allclose(got.double().numpy(), exp, atol=1e-12, rtol=0)


# ------------------------------------------------------------------------------------------------ modules
def _sk_binary(fn, **kw):
    preds, target, weight = concat(BATCHES)
    value = fn(target.numpy(), preds.double().numpy(), sample_weight=weight.numpy(), **kw)
    if isinstance(value, tuple):
        return [torch.tensor(v.copy()) for v in value]
    return torch.tensor(value, dtype=torch.float64)


HARNESS = {
    "auroc": (BinaryAUROC, binary_auroc, BATCHES, lambda: _sk_binary(roc_auc_score)),
    "ap": (BinaryAveragePrecision, binary_average_precision, BATCHES, lambda: _sk_binary(average_precision_score)),
    "roc": (BinaryROC, binary_roc, BATCHES, lambda: _sk_binary(roc_curve, drop_intermediate=False)),
    "pr": (BinaryPrecisionRecallCurve, binary_precision_recall_curve, BATCHES,
           lambda: _sk_binary(precision_recall_curve)),
    "mc_auroc": (partial(MulticlassAUROC, C, average="weighted"),
                 partial(multiclass_auroc, num_classes=C, average="weighted"), MC_BATCHES,
                 lambda: multiclass_auroc(*concat(MC_BATCHES)[:2], C, average="weighted",
                                          weight=concat(MC_BATCHES)[2])),
    "mc_roc": (partial(MulticlassROC, C), partial(multiclass_roc, num_classes=C), MC_BATCHES,
               lambda: multiclass_roc(*concat(MC_BATCHES)[:2], C, weight=concat(MC_BATCHES)[2])),
    "ml_ap": (partial(MultilabelAveragePrecision, L, average="micro"),
              partial(multilabel_average_precision, num_labels=L, average="micro"), ML_BATCHES,
              lambda: torch.tensor(average_precision_score(concat(ML_BATCHES)[1].numpy(),
                                                           concat(ML_BATCHES)[0].numpy(), average="micro",
                                                           sample_weight=concat(ML_BATCHES)[2].numpy()),
                                       dtype=torch.float64)),
}


@pytest.mark.parametrize("name", sorted(HARNESS))
def test_harness_weighted(name):
    factory, functional, batches, oracle = HARNESS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        expected = oracle()
        check_metric(factory, batches, expected, batch_value=lambda *b: functional(*b[:2], weight=b[2]),
                     max_examples=5, atol=1e-12, rtol=0)


def test_weighted_state_is_float_rows_beside_the_scores():
    m = BinaryAUROC()
    m.update(*BATCHES[0])
    state = m.local_state()
    assert state["weight"].shape == state["preds"].shape and state["weight"].dtype == torch.float64


BAD_WEIGHTS = [
    ((PREDS[:4], TARGET[:4], torch.ones(3)), ValueError,
     r"Expected `weight` to hold one value per sample, shape \(4,\), got shape \(3,\)"),
    ((PREDS[:2], TARGET[:2], torch.tensor([1.0, -0.5])), ValueError,
     r"Expected `weight` to be non-negative and finite, got value -0.5"),
    ((PREDS[:2], TARGET[:2], torch.tensor([1.0, float("nan")])), ValueError, r"non-negative and finite, got value nan"),
    ((PREDS[:2], TARGET[:2], torch.tensor([True, False])), TypeError,
     r"Expected `weight` to have a real \(integer or floating\), non-bool dtype, got torch.bool"),
    ((PREDS[:2], TARGET[:2]), ValueError, r"Expected `weight` in every update or in none, got none after 160 weighted"),
]


@pytest.mark.parametrize("bad,exc,match", BAD_WEIGHTS, ids=[b[2][:30] for b in BAD_WEIGHTS])
@pytest.mark.parametrize("cls", [BinaryAUROC, BinaryROC])
def test_rejects_bad_weights(cls, bad, exc, match):
    check_rejects(cls, BATCHES, bad, exc, match)


def test_weighting_rules():
    unweighted = [b[:2] for b in BATCHES]
    check_rejects(BinaryAUROC, unweighted, BATCHES[0], ValueError,
                  r"Expected `weight` in every update or in none, got one after 160 unweighted samples")
    check_rejects(partial(BinaryAUROC, bins=8), unweighted, BATCHES[0], TypeError,
                  r"Expected no `weight` in the binned mode \(bins=8")
    check_rejects(partial(BinaryRecallAtFixedPrecision, 0.5), unweighted, BATCHES[0], TypeError,
                  r"Expected no `weight` for BinaryRecallAtFixedPrecision")
    a, b = BinaryAUROC(), BinaryAUROC()
    a.update(*BATCHES[0])
    b.update(*BATCHES[1][:2])
    with pytest.raises(ValueError, match=r"Expected every merged state to be weighted or none, got 50 weights"):
        a.merge_state(b).compute()
