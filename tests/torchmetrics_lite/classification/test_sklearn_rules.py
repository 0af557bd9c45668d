"""scikit-learn's rules, each against scikit-learn itself: ``absent="zero"`` (the macro mean over all
``num_classes``, scikit-learn's ``labels=range(C)``), int64 confusion matrices of integer weights; and the one rule
for empty input (the value of an empty state, with a warning, in functions as in modules)."""
import re
import warnings

import numpy as np
import pytest
import torch
from sklearn import metrics as skm

import torchmetrics_lite as tl
import torchmetrics_lite.classification as _cls
import torchmetrics_lite.functional as F

C = 6
RNG = np.random.default_rng(35)
# classes 4 and 5 never occur in target or preds; class 3 only in preds
TARGET = RNG.integers(0, 3, 40)
PREDS = np.where(RNG.random(40) < 0.2, 3, RNG.integers(0, 3, 40))


def _sk(name, average):
    labels = list(range(C))
    kw = dict(labels=labels, average=average, zero_division=0.0)
    y, p = TARGET, PREDS
    if name == "precision":
        return skm.precision_score(y, p, **kw)
    if name in ("recall", "accuracy"):
        return skm.recall_score(y, p, **kw)
    if name == "f1":
        return skm.f1_score(y, p, **kw)
    if name == "fbeta":
        return skm.fbeta_score(y, p, beta=2.0, **kw)
    if name == "jaccard":
        return skm.jaccard_score(y, p, **kw)
    # one-vs-rest scores of "not c": specificity is the recall of "not c", NPV its precision
    cm = skm.multilabel_confusion_matrix(y, p, labels=labels)
    tn, fp, fn = cm[:, 0, 0], cm[:, 0, 1], cm[:, 1, 0]
    sup = cm[:, 1, 1] + fn
    if name == "hamming":
        num, den, zd = fn, sup, 1.0
    else:
        num, den, zd = (tn, tn + fp, 0.0) if name == "specificity" else (tn, tn + fn, 0.0)
    per = np.where(den > 0, num / np.maximum(den, 1), zd)
    return per.mean() if average == "macro" else (per * sup).sum() / sup.sum()


FUNCS = {
    "precision": (F.multiclass_precision, tl.MulticlassPrecision, {}),
    "recall": (F.multiclass_recall, tl.MulticlassRecall, {}),
    "accuracy": (F.multiclass_accuracy, tl.MulticlassAccuracy, {}),
    "f1": (F.multiclass_f1_score, tl.MulticlassF1Score, {}),
    "fbeta": (F.multiclass_fbeta_score, tl.MulticlassFBetaScore, {"beta": 2.0}),
    "jaccard": (F.multiclass_jaccard_index, tl.MulticlassJaccardIndex, {}),
    "specificity": (F.multiclass_specificity, tl.MulticlassSpecificity, {}),
    "npv": (F.multiclass_negative_predictive_value, tl.MulticlassNegativePredictiveValue, {}),
    "hamming": (F.multiclass_hamming_distance, tl.MulticlassHammingDistance, {}),
}


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_absent_zero_is_sklearn_labels_superset(name):
    fn, cls, extra = FUNCS[name]
    p, t = torch.from_numpy(PREDS), torch.from_numpy(TARGET)
    for average in ("macro", "weighted"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = _sk(name, average)
        got = fn(p, t, num_classes=C, average=average, absent="zero", **extra)
        assert got.item() == pytest.approx(want, abs=1e-12), (name, average)
        m = cls(num_classes=C, average=average, absent="zero", **extra)
        m.update(p[:17], t[:17])
        m.update(p[17:], t[17:])
        assert m.compute().item() == pytest.approx(want, abs=1e-12)
    # the default keeps torchmetrics' rule: the macro mean over the classes present differs here
    ignore = fn(p, t, num_classes=C, average="macro", **extra)
    assert ignore.item() == fn(p, t, num_classes=C, average="macro", absent="ignore", **extra).item()
    assert ignore.item() != pytest.approx(fn(p, t, num_classes=C, average="macro", absent="zero", **extra).item())


def test_absent_extra_labels_sklearn_case():
    # scikit-learn's test_precision_recall_f_extra_labels: recall over labels 0..4 of targets 1, 2, 1
    y, p = torch.tensor([1, 2, 1]), torch.tensor([1, 2, 2])
    want = skm.recall_score(y, p, labels=range(5), average="macro", zero_division=0.0)
    assert F.multiclass_recall(p, y, 5, absent="zero").item() == pytest.approx(want)
    assert F.multiclass_recall(p, y, 5).item() == pytest.approx(0.75)  # torchmetrics' rule: classes 1, 2


def test_absent_bad_value():
    with pytest.raises(ValueError, match=r"Expected `absent` to be one of \('ignore', 'zero'\), got 'all'"):
        F.multiclass_precision(torch.tensor([0, 1]), torch.tensor([0, 1]), 3, absent="all")
    with pytest.raises(ValueError, match="Expected `absent`"):
        tl.MulticlassRecall(3, absent=None)


def test_confusion_matrix_integer_weights_are_int64():
    rng = np.random.default_rng(3)
    t, p = rng.integers(0, 3, 30), rng.integers(0, 3, 30)
    for w in (rng.integers(0, 5, 30), rng.integers(0, 5, 30).astype(np.int32), rng.random(30)):
        want = skm.confusion_matrix(t, p, labels=[0, 1, 2], sample_weight=w)
        got = F.multiclass_confusion_matrix(torch.from_numpy(p), torch.from_numpy(t), 3, weight=torch.from_numpy(w))
        assert got.dtype == (torch.int64 if want.dtype.kind == "i" else torch.float64)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
        tb, pb = torch.from_numpy(t % 2), torch.from_numpy(p % 2)
        got = F.binary_confusion_matrix(pb, tb, weight=torch.from_numpy(w))
        want = skm.confusion_matrix(t % 2, p % 2, sample_weight=w)
        assert got.dtype == (torch.int64 if want.dtype.kind == "i" else torch.float64)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
        yt, yp = np.stack([t % 2, t // 2], 1), np.stack([p % 2, p // 2], 1)
        got = F.multilabel_confusion_matrix(torch.from_numpy(yp), torch.from_numpy(yt), 2, weight=torch.from_numpy(w))
        want = skm.multilabel_confusion_matrix(yt, yp, sample_weight=w)  # float64 there whatever the weights
        assert got.dtype == torch.float64 and want.dtype == np.float64
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    # normalized: float64 whatever the weights
    w = torch.from_numpy(rng.integers(1, 5, 30))
    assert F.multiclass_confusion_matrix(torch.from_numpy(p), torch.from_numpy(t), 3, "true", weight=w).dtype == \
        torch.float64


# ---------------------------------------------------------------------------------------------- empty input
#: the group metrics take ``groups`` too (their empty input is a group without samples, tested in their file)
_EMPTY_SKIP = {"BinaryFairness", "BinaryGroupStatRates"}
EMPTY_NAMES = [n for n in _cls.__all__ if n not in _EMPTY_SKIP]


def _snake(name):
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    return s.replace("f_beta", "fbeta").replace("corr_coef", "corrcoef")


def _empty_inputs(name):
    if name.startswith("Multilabel"):
        return torch.zeros(0, 3), torch.zeros(0, 3, dtype=torch.long), {"num_labels": 3}
    if name == "MulticlassHingeLoss":
        return torch.zeros(0, 3), torch.zeros(0, dtype=torch.long), {"num_classes": 3}
    if name.startswith("Multiclass"):
        return torch.zeros(0, dtype=torch.long), torch.zeros(0, dtype=torch.long), {"num_classes": 3}
    return torch.zeros(0), torch.zeros(0, dtype=torch.long), {}


@pytest.mark.parametrize("name", EMPTY_NAMES)
def test_empty_input_is_the_empty_state(name):
    """One rule for empty input: a function's value is the module's before any update, with a UserWarning."""
    preds, target, kw = _empty_inputs(name)
    if "FBeta" in name:
        kw["beta"] = 2.0
    fn = getattr(F, _snake(name))
    with pytest.warns(UserWarning, match=r"empty input \(`preds` and `target` hold no element\)"):
        got = fn(preds, target, **kw)
    module = getattr(tl, name)(**kw)
    with pytest.warns(UserWarning, match="before any update"):
        want = module.compute()
    torch.testing.assert_close(got, want, equal_nan=True, rtol=0, atol=0)


def test_accuracy_normalize_false_counts_as_sklearn():
    rng = np.random.default_rng(31)
    t, p, w = rng.integers(0, 3, 50), rng.integers(0, 3, 50), rng.random(50)
    for weight in (None, w):
        want_mc = skm.accuracy_score(t, p, normalize=False, sample_weight=weight)
        want_b = skm.accuracy_score(t % 2, p % 2, normalize=False, sample_weight=weight)
        tw = None if weight is None else torch.from_numpy(weight)
        pt, tt = torch.from_numpy(p), torch.from_numpy(t)
        got = F.multiclass_accuracy(pt, tt, 3, "micro", normalize=False, weight=tw)
        assert got.dtype == torch.float64 and got.item() == pytest.approx(want_mc, abs=1e-12)
        got = F.binary_accuracy(pt % 2, tt % 2, normalize=False, weight=tw)
        assert got.item() == pytest.approx(want_b, abs=1e-12)
        for m, a, b in ((tl.MulticlassAccuracy(3, "micro", normalize=False, weighted=weight is not None), pt, tt),
                        (tl.BinaryAccuracy(normalize=False, weighted=weight is not None), pt % 2, tt % 2)):
            kw = [{}, {}] if tw is None else [{"weight": tw[:20]}, {"weight": tw[20:]}]
            m.update(a[:20], b[:20], **kw[0])
            m.update(a[20:], b[20:], **kw[1])
            want = want_mc if isinstance(m, tl.MulticlassAccuracy) else want_b
            assert m.compute().item() == pytest.approx(want, abs=1e-12)
    with pytest.raises(ValueError, match=r"Expected `average='micro'` with `normalize=False`.*got average='macro'"):
        F.multiclass_accuracy(torch.tensor([0, 1]), torch.tensor([0, 1]), 3, normalize=False)
    with pytest.raises(ValueError, match="Expected `average='micro'` with `normalize=False`"):
        tl.MulticlassAccuracy(3, normalize=False)
    with pytest.raises(TypeError, match="Expected `normalize` to be a bool, got str"):
        F.binary_accuracy(torch.tensor([0, 1]), torch.tensor([0, 1]), normalize="true")
