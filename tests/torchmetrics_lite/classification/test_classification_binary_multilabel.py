"""Binary and multilabel classification metrics against scikit-learn: every average, zero_division, threshold,
from_logits and ignore_index (multiclass, top-k, the harness and DDP are in test_classification.py)."""
from functools import partial

import numpy as np
import pytest
import sklearn.metrics as skm
import torch

import torchmetrics_lite.functional as F
from tests.helpers.metric_tester import assert_close

GEN = torch.Generator().manual_seed(5)
L = 4
AVERAGES = ["micro", "macro", "weighted", "none"]
ZDS = [0.0, 1.0, float("nan")]
BIN_PREDS = torch.rand(150, generator=GEN)
BIN_TARGET = (torch.rand(150, generator=GEN) < BIN_PREDS * 0.8 + 0.1).long()
ML_PREDS = torch.rand(90, L, generator=GEN)
ML_TARGET = (torch.rand(90, L, generator=GEN) < ML_PREDS * 0.7).long()
ML_TARGET[:, 3] = 0  # a label with no positive target
ML_PREDS[:, 2] = ML_PREDS[:, 2] * 0.4  # a label never predicted positive

SK_SCORES = {"precision": skm.precision_score, "recall": skm.recall_score, "f1": skm.f1_score,
             "f2": partial(skm.fbeta_score, beta=2.0), "f05": partial(skm.fbeta_score, beta=0.5)}
ML_FUNCS = {"precision": F.multilabel_precision, "recall": F.multilabel_recall, "f1": F.multilabel_f1_score,
            "f2": partial(F.multilabel_fbeta_score, beta=2.0), "f05": partial(F.multilabel_fbeta_score, beta=0.5)}
BIN_FUNCS = {"precision": F.binary_precision, "recall": F.binary_recall, "f1": F.binary_f1_score,
             "f2": partial(F.binary_fbeta_score, beta=2.0), "f05": partial(F.binary_fbeta_score, beta=0.5)}


def _sk(name, y, p, average, zd):
    return torch.tensor(SK_SCORES[name](y, p, average=None if average == "none" else average, zero_division=zd),
                        dtype=torch.float64)

# ---------------------------------------------------------------------------------------------- binary
@pytest.mark.parametrize("name", sorted(BIN_FUNCS))
@pytest.mark.parametrize("zd", ZDS)
def test_binary_against_sklearn(name, zd):
    y, p = BIN_TARGET.numpy(), (BIN_PREDS > 0.5).long().numpy()
    assert_close(BIN_FUNCS[name](BIN_PREDS, BIN_TARGET, zero_division=zd), _sk(name, y, p, "binary", zd))
    # no predicted positive at all: precision is zero_division, F is 0 unless there is no positive target either
    assert_close(BIN_FUNCS[name](torch.zeros(4), torch.tensor([0, 1, 0, 1]), zero_division=zd),
                 _sk(name, [0, 1, 0, 1], [0, 0, 0, 0], "binary", zd))
    assert_close(BIN_FUNCS[name](torch.zeros(3), torch.zeros(3, dtype=torch.long), zero_division=zd),
                 _sk(name, [0, 0, 0], [0, 0, 0], "binary", zd))


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.8])
def test_binary_threshold_accuracy_confmat_stat_scores(threshold):
    y, p = BIN_TARGET.numpy(), (BIN_PREDS > threshold).long().numpy()
    assert_close(F.binary_accuracy(BIN_PREDS, BIN_TARGET, threshold), skm.accuracy_score(y, p))
    cm = skm.confusion_matrix(y, p, labels=[0, 1])
    assert F.binary_confusion_matrix(BIN_PREDS, BIN_TARGET, threshold).tolist() == cm.tolist()
    (tn, fp), (fn, tp) = cm
    assert F.binary_stat_scores(BIN_PREDS, BIN_TARGET, threshold).tolist() == [tp, fp, tn, fn, tp + fn]
    for norm in ("true", "pred", "all"):
        assert_close(F.binary_confusion_matrix(BIN_PREDS, BIN_TARGET, threshold, normalize=norm),
                     skm.confusion_matrix(y, p, labels=[0, 1], normalize=norm))


def test_binary_threshold_is_strict_and_from_logits():
    assert F.binary_stat_scores(torch.tensor([0.5, 0.50001]), torch.tensor([1, 1])).tolist() == [1, 0, 0, 1, 2]
    logits = torch.randn(300, generator=GEN) * 3
    logits = logits[(torch.sigmoid(logits) - 0.3).abs() > 1e-4]  # nothing at the boundary
    target = (torch.rand(logits.shape[0], generator=GEN) < 0.5).long()
    for t in (0.3, 0.5):
        p = (torch.sigmoid(logits) > t).long().numpy()
        assert_close(F.binary_f1_score(logits, target, t, from_logits=True), skm.f1_score(target.numpy(), p))


def test_binary_ignore_index_any_shape_and_half_precision():
    target = BIN_TARGET.clone()
    target[::7] = -1
    keep = target != -1
    y, p = target[keep].numpy(), (BIN_PREDS[keep] > 0.5).long().numpy()
    assert_close(F.binary_recall(BIN_PREDS, target, ignore_index=-1), skm.recall_score(y, p))
    assert_close(F.binary_accuracy(BIN_PREDS.view(10, 15), target.view(10, 15), ignore_index=-1),
                 skm.accuracy_score(y, p))
    assert torch.equal(F.binary_stat_scores(BIN_PREDS.half(), BIN_TARGET),
                       F.binary_stat_scores(BIN_PREDS.half().float(), BIN_TARGET))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
@pytest.mark.parametrize("threshold", [0.0, 0.1, 0.3, 0.33, 0.5, 0.7, 1.0])
def test_threshold_is_exact_in_every_float_dtype(dtype, threshold):
    # the values of `dtype` around the threshold: `preds > threshold` must hold exactly (as in float64), not
    # against the threshold rounded to `dtype` (bfloat16 0.30078 > 0.3 is a positive)
    near = torch.tensor(threshold, dtype=dtype)
    preds = torch.stack([near, torch.nextafter(near, torch.tensor(-1.0, dtype=dtype)),
                         torch.nextafter(near, torch.tensor(2.0, dtype=dtype))]).clamp(0, 1)
    target = torch.ones(3, dtype=torch.long)
    want = int((preds.double() > threshold).sum())
    assert F.binary_stat_scores(preds, target, threshold)[0].item() == want
    assert F.multilabel_stat_scores(preds[:, None], target[:, None], 1, threshold, average="micro")[0].item() == want
    logits = torch.logit(preds.double()).to(dtype)  # from_logits: the same rule on log(t / (1 - t))
    if 0 < threshold < 1:
        want = int((logits.double() > np.log(threshold / (1 - threshold))).sum())
        assert F.binary_stat_scores(logits, target, threshold, from_logits=True)[0].item() == want



# ------------------------------------------------------------------------------------------ multilabel
@pytest.mark.parametrize("name", sorted(ML_FUNCS))
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zd", ZDS)
def test_multilabel_against_sklearn(name, average, zd):
    y, p = ML_TARGET.numpy(), (ML_PREDS > 0.5).long().numpy()
    assert_close(ML_FUNCS[name](ML_PREDS, ML_TARGET, num_labels=L, average=average, zero_division=zd),
                 _sk(name, y, p, average, zd))


@pytest.mark.parametrize("threshold", [0.3, 0.5])
def test_multilabel_accuracy_hamming_confmat(threshold):
    y, p = ML_TARGET.numpy(), (ML_PREDS > threshold).long().numpy()
    per_label = np.array([skm.accuracy_score(y[:, j], p[:, j]) for j in range(L)])
    acc = partial(F.multilabel_accuracy, ML_PREDS, ML_TARGET, L, threshold)
    assert_close(acc(average="none"), per_label)
    assert_close(acc(average="macro"), per_label.mean())
    assert_close(acc(average="micro"), 1 - skm.hamming_loss(y, p))
    assert_close(acc(average="weighted"), np.average(per_label, weights=y.sum(0)))
    assert_close(F.multilabel_hamming_distance(ML_PREDS, ML_TARGET, L, threshold, average="micro"),
                 skm.hamming_loss(y, p))
    assert_close(F.multilabel_hamming_distance(ML_PREDS, ML_TARGET, L, threshold), 1 - per_label.mean())
    mcm = skm.multilabel_confusion_matrix(y, p)
    assert F.multilabel_confusion_matrix(ML_PREDS, ML_TARGET, L, threshold).tolist() == mcm.tolist()
    ss = F.multilabel_stat_scores(ML_PREDS, ML_TARGET, L, threshold, average="none")
    assert ss.tolist() == np.stack([mcm[:, 1, 1], mcm[:, 0, 1], mcm[:, 0, 0], mcm[:, 1, 0], y.sum(0)], 1).tolist()
    norm = F.multilabel_confusion_matrix(ML_PREDS, ML_TARGET, L, threshold, normalize="true")
    assert_close(norm[0], skm.confusion_matrix(y[:, 0], p[:, 0], labels=[0, 1], normalize="true"))


def test_multilabel_ignore_index_and_logits():
    target = ML_TARGET.clone()
    target[::3, 1] = -1
    target[1::4, 0] = -1
    y, p = target.numpy(), (ML_PREDS > 0.5).long().numpy()
    cms = [skm.confusion_matrix(y[y[:, j] != -1, j], p[y[:, j] != -1, j], labels=[0, 1]) for j in range(L)]
    assert F.multilabel_confusion_matrix(ML_PREDS, target, L, ignore_index=-1).tolist() == [c.tolist() for c in cms]
    per_label = [skm.precision_score(y[y[:, j] != -1, j], p[y[:, j] != -1, j], zero_division=0.0) for j in range(L)]
    assert_close(F.multilabel_precision(ML_PREDS, target, L, ignore_index=-1), np.mean(per_label))
    logits = torch.logit(ML_PREDS.double()).float()
    assert_close(F.multilabel_f1_score(logits, ML_TARGET, L, from_logits=True),
                 F.multilabel_f1_score(ML_PREDS, ML_TARGET, L))
