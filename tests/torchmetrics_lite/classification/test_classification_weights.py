"""Sample weights (``weight=``, scikit-learn's ``sample_weight``) on the classification metrics: every average of
the multiclass scores, binary and multilabel scores, confusion matrices, Matthews correlation and Cohen's kappa
against scikit-learn; unit weights equal no weights; the states' dtypes; the module harness on weighted batches;
and every weight error (a rejected update leaves the state as it was)."""
import math
from functools import partial

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
    BIN_W,
    MC_PREDS,
    MC_SCORES,
    MC_TARGET,
    MC_WB,
    ML_PREDS,
    ML_TARGET,
    ML_W,
    C,
    L,
    W,
)
from tests.helpers.metric_tester import assert_close, check_metric, check_rejects


def _np(t):
    return t.numpy()


# ------------------------------------------------------------------------------------------ sample weights
@pytest.mark.parametrize("average", AVERAGES)
def test_multiclass_weights_against_sklearn(average):
    y, p, w = _np(MC_TARGET), _np(MC_PREDS), _np(W)
    avg, labels = (None, range(C)) if average == "none" else (average, None)
    for ours, sk in ((F.multiclass_precision, skm.precision_score), (F.multiclass_recall, skm.recall_score),
                     (F.multiclass_f1_score, skm.f1_score), (F.multiclass_jaccard_index, skm.jaccard_score),
                     (partial(F.multiclass_fbeta_score, beta=2.0), partial(skm.fbeta_score, beta=2.0))):
        assert_close(ours(MC_SCORES, MC_TARGET, num_classes=C, average=average, weight=W),
                     sk(y, p, average=avg, labels=labels, sample_weight=w, zero_division=0))
    assert_close(F.multiclass_confusion_matrix(MC_SCORES, MC_TARGET, C, weight=W),
                 skm.confusion_matrix(y, p, labels=range(C), sample_weight=w))
    assert_close(F.multiclass_accuracy(MC_SCORES, MC_TARGET, C, average="micro", weight=W),
                 skm.accuracy_score(y, p, sample_weight=w))
    assert_close(F.multiclass_matthews_corrcoef(MC_SCORES, MC_TARGET, C, weight=W),
                 skm.matthews_corrcoef(y, p, sample_weight=w))
    assert_close(F.multiclass_cohen_kappa(MC_SCORES, MC_TARGET, C, weight=W),
                 skm.cohen_kappa_score(y, p, sample_weight=w))


def test_binary_and_multilabel_weights_against_sklearn():
    yb, pb, wb = _np(BIN_TARGET), _np((BIN_PREDS > 0.5).long()), _np(BIN_W)
    for ours, sk in ((F.binary_precision, skm.precision_score), (F.binary_recall, skm.recall_score),
                     (F.binary_f1_score, skm.f1_score), (F.binary_accuracy, skm.accuracy_score)):
        assert_close(ours(BIN_PREDS, BIN_TARGET, weight=BIN_W), sk(yb, pb, sample_weight=wb))
    assert_close(F.binary_confusion_matrix(BIN_PREDS, BIN_TARGET, weight=BIN_W),
                 skm.confusion_matrix(yb, pb, sample_weight=wb))
    ym, pm, wm = _np(ML_TARGET), _np((ML_PREDS > 0.5).long()), _np(ML_W)
    for average in ("micro", "macro", "weighted"):
        assert_close(F.multilabel_f1_score(ML_PREDS, ML_TARGET, L, average=average, weight=ML_W),
                     skm.f1_score(ym, pm, average=average, sample_weight=wm))
    assert_close(F.multilabel_exact_match(ML_PREDS, ML_TARGET, L, weight=ML_W),
                 skm.accuracy_score(ym, pm, sample_weight=wm))
    assert_close(F.multilabel_confusion_matrix(ML_PREDS, ML_TARGET, L, weight=ML_W),
                 skm.multilabel_confusion_matrix(ym, pm, sample_weight=wm.astype(np.float64)))


def test_unit_weights_equal_unweighted_and_states_dtypes():
    ones = torch.ones_like(W)
    assert_close(F.multiclass_f1_score(MC_SCORES, MC_TARGET, C, weight=ones),
                 F.multiclass_f1_score(MC_SCORES, MC_TARGET, C))
    assert tmc.MulticlassF1Score(C).confmat.dtype == torch.int64
    m = tmc.MulticlassF1Score(C, weighted=True)
    m.update(MC_SCORES, MC_TARGET)  # no weight: weight 1
    assert m.confmat.dtype == torch.float64
    assert_close(m.compute(), F.multiclass_f1_score(MC_SCORES, MC_TARGET, C))


def test_weight_errors():
    with pytest.raises(ValueError, match=r"no `weight` on a metric built with weighted=False.*weighted=True"):
        tmc.BinaryF1Score().update(BIN_PREDS, BIN_TARGET, BIN_W)
    batches = [(BIN_PREDS, BIN_TARGET, BIN_W)]
    check_rejects(partial(tmc.BinaryF1Score, weighted=True), batches, (BIN_PREDS, BIN_TARGET, BIN_W[:3]),
                  ValueError, r"`weight` to hold one value per sample, shape \(160,\), got shape \(3,\)")
    check_rejects(partial(tmc.BinaryF1Score, weighted=True), batches, (BIN_PREDS, BIN_TARGET, -BIN_W),
                  ValueError, r"`weight` to be non-negative and finite")
    check_rejects(partial(tmc.MulticlassRecall, C, weighted=True), [(MC_SCORES, MC_TARGET, W)],
                  (MC_SCORES, MC_TARGET, W.bool()), TypeError,
                  r"`weight` to have a real \(integer or floating\), non-bool dtype")
    with pytest.raises(ValueError, match=r"`weight` to be non-negative and finite, got value inf"):
        F.multilabel_recall(ML_PREDS, ML_TARGET, L, weight=torch.full((100,), math.inf))
    with pytest.raises(TypeError, match=r"`weighted` to be a bool, got str"):
        tmc.MultilabelExactMatch(L, weighted="yes")


def test_weighted_module_harness_against_sklearn():
    y, p, w = _np(MC_TARGET), _np(MC_PREDS), _np(W)
    check_metric(partial(tmc.MulticlassF1Score, C, weighted=True), MC_WB, skm.f1_score(y, p, average="macro",
                 sample_weight=w), max_examples=5)
