"""Negative predictive value, binary/multiclass Hamming distance and multiclass exact match (issue 24 items 1-3):
against scikit-learn or counts by hand (numpy comparisons, not our bincount), ties, empty input, a class with no
sample; their modules through the harness (streaming, any split, merge, state_dict); the class attributes and
reprs, and the updates without a host sync of the modules with an update of their own (exact match, hinge loss,
group fairness: ``MODULES`` of ``tests/helpers/classification/counts.py``). Their errors are in
test_classification_errors.py, torchmetrics on the same inputs in test_classification_port.py, ``torch.compile`` in
test_classification_compile.py; the multi-process checks run in test_classification.py's one spawn."""
import math

import numpy as np
import pytest
import sklearn.metrics as skm
import torch

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional as F
from tests.helpers.classification.counts import (
    AVERAGES,
    BIN_PREDS,
    BIN_TARGET,
    BIN_W,
    GEN,
    GROUPS,
    LOGITS,
    MC_PREDS,
    MC_SCORES,
    MC_TARGET,
    MC_W,
    ML_PREDS,
    ML_TARGET,
    MODULES,
    SEQ_P,
    SEQ_T,
    ZDS,
    C,
    G,
    L,
    with_ignored,
)
from tests.helpers.metric_tester import assert_close, check_metric, concat


def _np(t):
    return t.numpy()


# --------------------------------------------------------------------------- negative predictive value
def _ovr_counts(y, p, classes):
    """Per-class one-vs-rest tp, fp, tn, fn by comparisons (no bincount)."""
    yc, pc = y[:, None] == np.arange(classes), p[:, None] == np.arange(classes)
    return ((yc & pc).sum(0), (~yc & pc).sum(0), (~yc & ~pc).sum(0), (yc & ~pc).sum(0))


def _by_hand(num, den, average, zd, present, support):
    """Our averaging rule written out: 0/0 is zd; nan classes leave macro/weighted means."""
    num, den = num.astype(float), den.astype(float)
    if average == "micro":
        return zd if den.sum() == 0 else num.sum() / den.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        score = np.where(den == 0, zd, num / np.where(den == 0, 1, den))
    if average == "none":
        return score
    w = support.astype(float) if average == "weighted" else present.astype(float)
    w = np.where(np.isnan(score), 0.0, w)
    return zd if w.sum() == 0 else (w * np.nan_to_num(score)).sum() / w.sum()


@pytest.mark.parametrize("zd", ZDS)
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("top_k", [1, 2])
def test_multiclass_npv_by_hand(average, zd, top_k):
    y = _np(MC_TARGET)
    top = np.argsort(-_np(MC_SCORES), axis=1)[:, :top_k]
    p = np.where((top == y[:, None]).any(1), y, top[:, 0])  # the top-k rule, brute force
    tp, fp, tn, fn = _ovr_counts(y, p, C)
    present = (tp + fn > 0) if top_k > 1 else (tp + fp + fn > 0)
    want = _by_hand(tn, tn + fn, average, zd, present, tp + fn)
    got = F.multiclass_negative_predictive_value(MC_SCORES, MC_TARGET, C, average, top_k=top_k, zero_division=zd)
    assert_close(got, want, atol=1e-12)


@pytest.mark.parametrize("average", AVERAGES)
def test_binary_and_multilabel_npv_against_sklearn(average):
    y, p = _np(BIN_TARGET), _np(BIN_PREDS > 0.5)
    assert_close(F.binary_negative_predictive_value(BIN_PREDS, BIN_TARGET), skm.precision_score(y, p, pos_label=0))
    assert_close(F.binary_negative_predictive_value(BIN_PREDS, BIN_TARGET, weight=BIN_W),
                 skm.precision_score(y, p, pos_label=0, sample_weight=_np(BIN_W)), atol=1e-12)
    ym, pm = _np(ML_TARGET), _np(ML_PREDS > 0.5)
    per = np.array([skm.precision_score(ym[:, j], pm[:, j], pos_label=0, zero_division=0) for j in range(L)])
    tn, fn = ((ym == 0) & (pm == 0)).sum(0), ((ym == 1) & (pm == 0)).sum(0)
    want = {"none": per, "macro": per.mean(), "micro": tn.sum() / (tn + fn).sum(),
            "weighted": np.average(per, weights=ym.sum(0))}[average]
    assert_close(F.multilabel_negative_predictive_value(ML_PREDS, ML_TARGET, L, average=average), want, atol=1e-12)


def test_npv_edges():
    # no negative prediction: 0/0 is zero_division; empty input likewise
    assert F.binary_negative_predictive_value(torch.ones(3), torch.tensor([0, 1, 0])).item() == 0.0
    assert math.isnan(F.binary_negative_predictive_value(torch.ones(0), torch.ones(0, dtype=torch.long),
                                                         zero_division=float("nan")).item())
    # a class never predicted (4) has tn + fn = n: its NPV is the share of samples not of class 4, here 1
    per = F.multiclass_negative_predictive_value(MC_PREDS, MC_TARGET, C, None)
    assert per[4].item() == 1.0
    # ignore_index drops those samples from every count
    ign = with_ignored(BIN_TARGET)
    keep = ign != -1
    assert_close(F.binary_negative_predictive_value(BIN_PREDS, ign, ignore_index=-1),
                 F.binary_negative_predictive_value(BIN_PREDS[keep], BIN_TARGET[keep]))


# ------------------------------------------------------------------------------------------ Hamming
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zd", ZDS)
def test_multiclass_hamming_against_sklearn(average, zd):
    y, p = _np(MC_TARGET), _np(MC_PREDS)
    if average == "micro":
        want = skm.hamming_loss(y, p)
    else:  # per class 1 - recall; a class without support is zero_division
        recall = skm.recall_score(y, p, labels=range(C), average=None, zero_division=0)
        support = np.bincount(y, minlength=C)
        per = np.where(support == 0, zd, 1 - recall)
        tp, fp, _, fn = _ovr_counts(y, p, C)
        want = _by_hand(np.where(support == 0, 0, (1 - recall) * support), support, average, zd,
                        tp + fp + fn > 0, support) if average != "none" else per
    got = F.multiclass_hamming_distance(MC_SCORES, MC_TARGET, C, average, zero_division=zd)
    assert_close(got, want, atol=1e-12)


def test_binary_hamming_against_sklearn_and_edges():
    y, p = _np(BIN_TARGET), _np(BIN_PREDS > 0.5)
    assert_close(F.binary_hamming_distance(BIN_PREDS, BIN_TARGET), skm.hamming_loss(y, p))
    assert_close(F.binary_hamming_distance(BIN_PREDS, BIN_TARGET, weight=BIN_W),
                 skm.hamming_loss(y, p, sample_weight=_np(BIN_W)), atol=1e-12)
    assert_close(F.multiclass_hamming_distance(MC_PREDS, MC_TARGET, C, "micro", weight=MC_W),
                 skm.hamming_loss(_np(MC_TARGET), _np(MC_PREDS), sample_weight=_np(MC_W)), atol=1e-12)
    empty = torch.zeros(0, dtype=torch.long)
    assert F.binary_hamming_distance(empty, empty).item() == 1.0  # 0/0: torchmetrics' 1 - 0
    assert F.multiclass_hamming_distance(empty, empty, 3, "micro").item() == 1.0
    assert F.multilabel_hamming_distance(empty.view(0, 2), empty.view(0, 2), 2).item() == 1.0
    assert F.binary_hamming_distance(empty, empty, zero_division=0.0).item() == 0.0


# -------------------------------------------------------------------------------------- exact match
def test_multiclass_exact_match_by_hand():
    target = torch.randint(0, 3, (40, 6), generator=GEN)
    preds = target.clone()
    preds[torch.rand(40, 6, generator=GEN) < 0.05] = 2  # a few wrong positions
    right = (_np(preds) == _np(target)).all(1)
    assert_close(F.multiclass_exact_match(preds, target, 3), right.mean())
    scores = torch.nn.functional.one_hot(preds, 3).movedim(-1, 1).double()  # (N, C, S) scores
    assert_close(F.multiclass_exact_match(scores, target, 3), right.mean())
    ign = target.clone()
    ign[:, 0] = -1  # a position that counts as right
    right_ign = ((_np(preds) == _np(target)) | (_np(ign) == -1)).all(1)
    assert_close(F.multiclass_exact_match(preds, ign, 3, ignore_index=-1), right_ign.mean())
    w = torch.rand(40, generator=GEN, dtype=torch.float64)
    assert_close(F.multiclass_exact_match(preds, target, 3, weight=w), np.average(right, weights=_np(w)))
    # (N,) targets: the accuracy (scikit-learn); tied scores predict the first maximum (argmax)
    assert_close(F.multiclass_exact_match(MC_SCORES, MC_TARGET, C), skm.accuracy_score(_np(MC_TARGET), _np(MC_PREDS)))
    tie = torch.tensor([[0.5, 0.5, 0.0], [0.2, 0.4, 0.4]])
    assert F.multiclass_exact_match(tie, torch.tensor([0, 1]), 3).item() == 1.0
    empty = torch.zeros(0, 4, dtype=torch.long)
    assert F.multiclass_exact_match(empty, empty, 3).item() == 0.0  # zero_division


# ---------------------------------------------------------------------------------------------- modules, the harness
SCORE_MODULES = [m for m in MODULES if m[0].startswith(("BinaryNegative", "MulticlassNegative", "MultilabelNegative",
                                                        "BinaryHamming", "MulticlassHamming", "MulticlassExactMatch"))]


@pytest.mark.parametrize("name,factory,functional,batches", SCORE_MODULES, ids=[m[0] for m in SCORE_MODULES])
def test_module_harness(name, factory, functional, batches):
    expected = functional(*concat(batches))
    check_metric(factory, batches, expected, batch_value=functional, max_examples=5, atol=1e-12)


def test_class_attributes_and_repr():
    for name in ("BinaryHammingDistance", "MulticlassHammingDistance", "BinaryHingeLoss", "MulticlassHingeLoss"):
        assert getattr(tmc, name).higher_is_better is False
    assert tmc.MulticlassNegativePredictiveValue.higher_is_better is True
    assert repr(tmc.MulticlassHingeLoss(3, multiclass_mode="one-vs-all")) == (
        "MulticlassHingeLoss(num_classes=3, multiclass_mode='one-vs-all')")
    assert repr(tmc.BinaryHammingDistance(zero_division=0.0)) == "BinaryHammingDistance(zero_division=0.0)"


def test_updates_need_no_host_sync_without_validation(monkeypatch):
    metrics = [(tmc.MulticlassExactMatch(3, weighted=True, validate_args=False), (SEQ_P, SEQ_T, torch.ones(60))),
               (tmc.BinaryHingeLoss(ignore_index=-1, from_logits=True, validate_args=False),
                (LOGITS, with_ignored(BIN_TARGET))),
               (tmc.MulticlassHingeLoss(C, validate_args=False), (MC_SCORES, MC_TARGET, MC_W)),
               (tmc.BinaryFairness(G, validate_args=False), (BIN_PREDS, BIN_TARGET, GROUPS)),
               (tmc.BinaryGroupStatRates(G, weighted=True, validate_args=False), (BIN_PREDS, BIN_TARGET, GROUPS,
                                                                                   BIN_W))]
    for m, args in metrics:  # warm the per-(dtype, threshold) cut cache
        m.update(*args)

    def boom(*args, **kwargs):
        raise AssertionError("host sync")

    for name in ("item", "tolist", "__bool__", "__int__", "__float__", "__index__"):
        monkeypatch.setattr(torch.Tensor, name, boom)
    for m, args in metrics:
        m.update(*args)
    with pytest.raises(AssertionError, match="host sync"):  # the patch is effective: validation does sync
        tmc.BinaryFairness(G).update(BIN_PREDS, BIN_TARGET, GROUPS)
