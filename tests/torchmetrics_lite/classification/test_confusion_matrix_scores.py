"""Specificity, Matthews correlation, Cohen's kappa, Jaccard index and exact match (the scores read off the
confusion matrix besides precision, recall, F1 and accuracy) against scikit-learn and torchmetrics; macro averages
with a class absent from both targets and predictions; infinite scores; floating 0/1 targets; every module through
the harness (multi-process: test_classification.py's one spawn, ``DIST_NAMES`` of
``tests/helpers/classification/scores.py``), their option errors, class attributes and updates without a host
sync. Their sample weights: test_classification_weights.py; ``torch.compile``: test_classification_compile.py."""
import math

import numpy as np
import pytest
import sklearn.metrics as skm
import torch

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional as F
from tests.helpers.classification.scores import (
    AVERAGES,
    BIN_PREDS,
    BIN_TARGET,
    MC_PREDS,
    MC_SCORES,
    MC_TARGET,
    ML_PREDS,
    ML_TARGET,
    ML_W,
    MODULES,
    C,
    L,
    W,
)
from tests.helpers.metric_tester import assert_close, check_metric, concat


def _np(t):
    return t.numpy()


# -------------------------------------------------------------------------------------------------- oracles
@pytest.mark.parametrize("average", AVERAGES)
def test_multiclass_specificity_jaccard_against_sklearn(average):
    y, p = _np(MC_TARGET), _np(MC_PREDS)
    present = [c for c in range(C) if (y == c).any() or (p == c).any()]
    per_class_spec = np.array([skm.recall_score(y != c, p != c) for c in range(C)])
    mcm = skm.multilabel_confusion_matrix(y, p, labels=range(C))
    tn, fp = mcm[:, 0, 0], mcm[:, 0, 1]
    spec = {"none": per_class_spec, "macro": per_class_spec[present].mean(),
            "micro": tn.sum() / (tn.sum() + fp.sum()),
            "weighted": np.average(per_class_spec, weights=np.bincount(y, minlength=C))}[average]
    assert_close(F.multiclass_specificity(MC_SCORES, MC_TARGET, C, average=average), spec)
    jac = skm.jaccard_score(y, p, average=None if average == "none" else average,
                            labels=range(C) if average == "none" else None, zero_division=0)
    assert_close(F.multiclass_jaccard_index(MC_SCORES, MC_TARGET, C, average=average), jac)


def test_mcc_kappa_against_sklearn():
    y, p = _np(MC_TARGET), _np(MC_PREDS)
    assert_close(F.multiclass_matthews_corrcoef(MC_SCORES, MC_TARGET, C), skm.matthews_corrcoef(y, p))
    for w in (None, "linear", "quadratic"):
        assert_close(F.multiclass_cohen_kappa(MC_SCORES, MC_TARGET, C, weights=w),
                     skm.cohen_kappa_score(y, p, weights=w))
    yb, pb = _np(BIN_TARGET), _np((BIN_PREDS > 0.5).long())
    assert_close(F.binary_matthews_corrcoef(BIN_PREDS, BIN_TARGET), skm.matthews_corrcoef(yb, pb))
    assert_close(F.binary_cohen_kappa(BIN_PREDS, BIN_TARGET), skm.cohen_kappa_score(yb, pb))
    assert_close(F.binary_specificity(BIN_PREDS, BIN_TARGET), skm.recall_score(yb, pb, pos_label=0))
    assert_close(F.binary_jaccard_index(BIN_PREDS, BIN_TARGET), skm.jaccard_score(yb, pb))
    ym, pm = _np(ML_TARGET), _np((ML_PREDS > 0.5).long())
    assert_close(F.multilabel_matthews_corrcoef(ML_PREDS, ML_TARGET, L), skm.matthews_corrcoef(ym.ravel(), pm.ravel()))
    assert_close(F.multilabel_exact_match(ML_PREDS, ML_TARGET, L), skm.accuracy_score(ym, pm))
    for average in ("micro", "macro", "weighted"):
        assert_close(F.multilabel_jaccard_index(ML_PREDS, ML_TARGET, L, average=average),
                     skm.jaccard_score(ym, pm, average=average, zero_division=0))
    assert_close(F.multilabel_specificity(ML_PREDS, ML_TARGET, L, average=None),
                 [skm.recall_score(ym[:, j], pm[:, j], pos_label=0) for j in range(L)])


@pytest.mark.filterwarnings("ignore:A single label was found")
def test_degenerate_mcc_and_kappa():
    one = torch.zeros(6, dtype=torch.long)
    assert F.multiclass_matthews_corrcoef(one, one, 3).item() == skm.matthews_corrcoef(one, one) == 0.0
    assert math.isnan(F.multiclass_cohen_kappa(one, one, 3).item())


TM_CASES = [
    ("binary_specificity", (BIN_PREDS, BIN_TARGET), {}),
    ("binary_jaccard_index", (BIN_PREDS, BIN_TARGET), {}),
    ("binary_matthews_corrcoef", (BIN_PREDS, BIN_TARGET), {}),
    ("binary_cohen_kappa", (BIN_PREDS, BIN_TARGET), {"weights": "linear"}),
    ("multiclass_matthews_corrcoef", (MC_SCORES, MC_TARGET, C), {}),
    ("multiclass_cohen_kappa", (MC_SCORES, MC_TARGET, C), {"weights": "quadratic"}),
    ("multilabel_matthews_corrcoef", (ML_PREDS, ML_TARGET, L), {}),
    ("multilabel_exact_match", (ML_PREDS, ML_TARGET, L), {}),
    ("multilabel_jaccard_index", (ML_PREDS, ML_TARGET, L), {"average": "weighted"}),
    ("multilabel_specificity", (ML_PREDS, ML_TARGET, L), {"average": None}),
] + [("multiclass_specificity", (MC_SCORES, MC_TARGET, C), {"average": a}) for a in AVERAGES] + [
    ("multiclass_jaccard_index", (MC_SCORES, MC_TARGET, C), {"average": a, "ignore_index": i})
    for a in AVERAGES for i in (None, 1)]


@pytest.mark.parametrize("name,args,kwargs", TM_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(TM_CASES)])
def test_scores_equal_torchmetrics(name, args, kwargs):
    tmf = pytest.importorskip("torchmetrics.functional.classification")
    assert_close(getattr(F, name)(*args, **kwargs), getattr(tmf, name)(*args, **kwargs), atol=1e-6, rtol=1e-5)


# ---------------------------------------------------------------- macro with a class absent from both sides
@pytest.mark.parametrize("name", ["precision", "recall", "f1_score", "specificity", "jaccard_index", "accuracy"])
def test_macro_with_a_class_absent_from_targets_and_predictions(name):
    assert not (MC_PREDS == 4).any() and not (MC_TARGET == 4).any()
    tmf = pytest.importorskip("torchmetrics.functional.classification")
    ours = getattr(F, f"multiclass_{name}")(MC_SCORES, MC_TARGET, C, average="macro")
    assert_close(ours, getattr(tmf, f"multiclass_{name}")(MC_SCORES, MC_TARGET, C, average="macro"), atol=1e-6)
    sk = {"precision": skm.precision_score, "recall": skm.recall_score, "f1_score": skm.f1_score,
          "jaccard_index": skm.jaccard_score}.get(name)
    if sk is not None:  # scikit-learn's default labels: the classes present
        assert_close(ours, sk(_np(MC_TARGET), _np(MC_PREDS), average="macro"))


def test_infinite_scores_are_valid():  # +inf and -inf row maxima sum to NaN: not a NaN score
    scores = torch.tensor([[float("-inf"), float("-inf")], [0.0, float("inf")], [1.0, 0.0]])
    target = torch.tensor([0, 1, 0])
    assert F.multiclass_confusion_matrix(scores, target, 2).tolist() == [[2, 0], [0, 1]]
    with pytest.raises(ValueError, match=r"`preds` to contain no NaN, got 1 NaN value"):
        F.multiclass_recall(scores.masked_fill(scores == 1.0, float("nan")), target, 2)


# ------------------------------------------------------------------------------------- floating 0/1 targets
def test_float_targets_equal_integer_targets_and_torchmetrics():
    tmf = pytest.importorskip("torchmetrics.functional.classification")
    for dtype in (torch.float32, torch.float64, torch.float16):
        assert_close(F.binary_f1_score(BIN_PREDS, BIN_TARGET.to(dtype)), F.binary_f1_score(BIN_PREDS, BIN_TARGET))
        assert_close(F.multilabel_accuracy(ML_PREDS, ML_TARGET.to(dtype), L),
                     F.multilabel_accuracy(ML_PREDS, ML_TARGET, L))
    assert_close(F.binary_precision(BIN_PREDS, BIN_TARGET.float()), tmf.binary_precision(BIN_PREDS, BIN_TARGET.float()))
    m = tmc.BinaryAccuracy()
    m.update(BIN_PREDS, BIN_TARGET.float())
    assert_close(m.compute(), F.binary_accuracy(BIN_PREDS, BIN_TARGET))
    ignored = BIN_TARGET.float().masked_fill(torch.arange(160) % 5 == 0, -1.0)
    assert_close(F.binary_recall(BIN_PREDS, ignored, ignore_index=-1),
                 F.binary_recall(BIN_PREDS, ignored.long(), ignore_index=-1))


# ----------------------------------------------------------------------------------------------------------- harness
@pytest.mark.parametrize("name,factory,functional,batches", MODULES, ids=[m[0] for m in MODULES])
def test_module_harness(name, factory, functional, batches):
    check_metric(factory, batches, functional(*concat(batches)), batch_value=functional, max_examples=6)


# ------------------------------------------------------------------------------------- options, no sync
@pytest.mark.parametrize("call,exc,match", [
    (lambda: F.multiclass_cohen_kappa(MC_SCORES, MC_TARGET, C, weights="cubic"), ValueError,
     r"`weights` to be one of \(None, 'none', 'linear', 'quadratic'\), got 'cubic'"),
    (lambda: tmc.BinaryCohenKappa(weights="cubic"), ValueError, r"`weights` to be one of"),
    (lambda: F.multilabel_exact_match(ML_PREDS, ML_TARGET, L, zero_division="one"), ValueError,
     r"`zero_division` to be a number or float\('nan'\), got 'one'"),
    (lambda: tmc.MulticlassJaccardIndex(C, average="samples"), ValueError, r"`average` to be one of"),
    (lambda: F.binary_specificity(BIN_PREDS, BIN_TARGET, threshold=1.5), ValueError, r"`threshold` to be a number"),
])
def test_option_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_class_attributes():
    assert tmc.MulticlassF1Score.higher_is_better is True and tmc.MultilabelHammingDistance.higher_is_better is False
    assert tmc.BinaryMatthewsCorrCoef.higher_is_better is True and tmc.MultilabelExactMatch.higher_is_better is True
    assert all(getattr(tmc, n).is_differentiable is False for n in tmc.__all__)


def test_weighted_and_score_updates_need_no_host_sync(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("host sync")

    metrics = [(tmc.MulticlassF1Score(C, weighted=True, validate_args=False), (MC_SCORES, MC_TARGET, W)),
               (tmc.BinaryCohenKappa(validate_args=False), (BIN_PREDS, BIN_TARGET.float())),
               (tmc.MultilabelExactMatch(L, weighted=True, validate_args=False), (ML_PREDS, ML_TARGET, ML_W)),
               (tmc.MulticlassJaccardIndex(C, top_k=1, ignore_index=1, validate_args=False), (MC_SCORES, MC_TARGET))]
    for m, args in metrics:  # warm the per-(dtype, threshold) cut cache (computed once on the host, not a sync)
        m.update(*args)
    for name in ("item", "tolist", "__bool__", "__int__", "__float__", "__index__"):
        monkeypatch.setattr(torch.Tensor, name, boom)
    for m, args in metrics:
        m.update(*args)
    with pytest.raises(AssertionError, match="host sync"):  # the patch is effective: validation does sync
        tmc.MultilabelExactMatch(L, weighted=True).update(ML_PREDS, ML_TARGET, ML_W)
    monkeypatch.undo()
    assert_close(metrics[0][0].compute(), F.multiclass_f1_score(MC_SCORES, MC_TARGET, C, weight=2 * W))
