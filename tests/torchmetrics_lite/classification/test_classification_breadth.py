"""Negative predictive value, binary/multiclass Hamming distance, multiclass exact match, hinge loss and group
fairness (issue 24 items 1-3 and 8): against scikit-learn or counts by hand (numpy comparisons, not our bincount),
ties, empty input, a class or group with no sample, every module through the harness (streaming, any split, merge,
state_dict), ``torch.compile(fullgraph=True)`` with ``validate_args=False``; the errors are in
test_classification_breadth_errors.py. The multi-process checks run in test_classification.py's one spawn
(``BREADTH_DIST``); torchmetrics on the same inputs: test_port_breadth.py."""
import math
from functools import partial

import numpy as np
import pytest
import sklearn.metrics as skm
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional as F
from tests.helpers.compile import check_compiles, check_update_compiles
from tests.helpers.metric_tester import assert_close, check_metric, concat, split

GEN = torch.Generator().manual_seed(24)
C, L, G = 5, 4, 4
AVERAGES = ["micro", "macro", "weighted", "none"]
ZDS = [0.0, 1.0, float("nan")]


def _mc(n=150):
    """Class 4 is never a target (it may be predicted); class 3 is rare; continuous scores (no ties)."""
    target = torch.randint(0, 4, (n,), generator=GEN)
    target[(torch.rand(n, generator=GEN) < 0.8) & (target == 3)] = 0
    scores = torch.rand(n, C, generator=GEN)
    scores[torch.arange(n), target] += 0.4 * torch.rand(n, generator=GEN)
    return scores / scores.sum(1, keepdim=True), target


MC_SCORES, MC_TARGET = _mc()
MC_PREDS = MC_SCORES.argmax(1)
MC_W = torch.rand(150, generator=GEN, dtype=torch.float64) * 2
BIN_PREDS = torch.rand(170, generator=GEN)
BIN_PREDS[:20] = 0.5  # ties at the threshold: 0.5 is not > 0.5
BIN_TARGET = (torch.rand(170, generator=GEN) < BIN_PREDS).long()
BIN_W = torch.rand(170, generator=GEN, dtype=torch.float64)
ML_PREDS = torch.rand(90, L, generator=GEN)
ML_TARGET = (torch.rand(90, L, generator=GEN) < ML_PREDS * 0.7).long()
ML_TARGET[:, 3] = 0  # a label with no positive target
GROUPS = torch.randint(0, G - 1, (170,), generator=GEN)  # group 3 has no sample


def _np(t):
    return t.numpy()


def _batches(*tensors, cuts=(60, 60)):
    """The tensors cut into three batches, the middle one empty."""
    return split(tuple(tensors), list(cuts))


def _ign(t, every=6):
    t = t.clone()
    t[::every] = -1
    return t


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
    ign = _ign(BIN_TARGET)
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


# ------------------------------------------------------------------------------------------ hinge loss
@pytest.mark.parametrize("squared", [False, True])
def test_binary_hinge_against_sklearn(squared):
    y = _np(BIN_TARGET)
    for preds, opts in ((BIN_PREDS, {}), (BIN_PREDS * 6 - 3, {"margins": True}),
                        (BIN_PREDS * 6 - 3, {"from_logits": True})):
        p = _np(torch.sigmoid(preds.double())) if opts.get("from_logits") else _np(preds.double())
        if squared:  # scikit-learn has no squared hinge: by hand
            want = np.mean(np.maximum(0, 1 - (2 * y - 1) * p) ** 2)
        else:
            want = skm.hinge_loss(2 * y - 1, p)
        assert_close(F.binary_hinge_loss(preds, BIN_TARGET, squared, **opts), want, atol=1e-12)
    assert_close(F.binary_hinge_loss(BIN_PREDS, BIN_TARGET, weight=BIN_W),
                 skm.hinge_loss(2 * y - 1, _np(BIN_PREDS.double()), sample_weight=_np(BIN_W)), atol=1e-12)


@pytest.mark.parametrize("squared", [False, True])
def test_multiclass_hinge_against_sklearn(squared):
    y, p = _np(MC_TARGET), _np(MC_SCORES.double())
    own = np.eye(C, dtype=bool)[y]
    rival = np.where(own, -np.inf, p).max(1)
    cs = np.maximum(0, 1 - p[own] + rival)
    ova = np.maximum(0, 1 - np.where(own, p, -p))
    if squared:
        want_cs, want_ova = (cs ** 2).mean(), (ova ** 2).mean(0)
    else:
        want_cs, want_ova = skm.hinge_loss(y, p, labels=range(C)), ova.mean(0)
        assert_close(F.multiclass_hinge_loss(MC_SCORES, MC_TARGET, C, weight=MC_W),
                     skm.hinge_loss(y, p, labels=range(C), sample_weight=_np(MC_W)), atol=1e-12)
    assert_close(F.multiclass_hinge_loss(MC_SCORES, MC_TARGET, C, squared), want_cs, atol=1e-12)
    assert_close(F.multiclass_hinge_loss(MC_SCORES, MC_TARGET, C, squared, "one-vs-all"), want_ova, atol=1e-12)
    logits = torch.log(MC_SCORES.double()) + 2.0  # softmax(logits) = the scores
    assert_close(F.multiclass_hinge_loss(logits, MC_TARGET, C, squared, from_logits=True), want_cs, atol=1e-12)
    assert_close(F.multiclass_hinge_loss(logits, MC_TARGET, C, margins=True),
                 skm.hinge_loss(y, _np(logits), labels=range(C)), atol=1e-12)


def test_hinge_edges():
    # tied rival scores: Crammer-Singer's max is the tied value; (N, C, S) inputs flatten to samples
    tied = torch.tensor([[0.4, 0.3, 0.3]])
    assert_close(F.multiclass_hinge_loss(tied, torch.tensor([0]), 3), 1 - 0.4 + 0.3, atol=1e-7)
    seq = MC_SCORES[:30].reshape(10, 3, C).movedim(-1, 1)
    assert_close(F.multiclass_hinge_loss(seq, MC_TARGET[:30].reshape(10, 3), C),
                 F.multiclass_hinge_loss(MC_SCORES[:30], MC_TARGET[:30], C))
    # ignore_index drops samples; empty input is nan (0/0, torchmetrics too)
    ign = _ign(MC_TARGET)
    keep = ign != -1
    for mode in ("crammer-singer", "one-vs-all"):
        assert_close(F.multiclass_hinge_loss(MC_SCORES, ign, C, multiclass_mode=mode, ignore_index=-1),
                     F.multiclass_hinge_loss(MC_SCORES[keep], MC_TARGET[keep], C, multiclass_mode=mode))
    assert math.isnan(F.binary_hinge_loss(torch.zeros(0), torch.zeros(0, dtype=torch.long)).item())
    assert torch.isnan(F.multiclass_hinge_loss(torch.zeros(0, 3), torch.zeros(0, dtype=torch.long), 3,
                                               multiclass_mode="one-vs-all")).all()


# -------------------------------------------------------------------------------------- group fairness
def _group_counts(p, y, g, groups):
    return np.array([[((p == 1) & (y == 1) & (g == k)).sum(), ((p == 1) & (y == 0) & (g == k)).sum(),
                      ((p == 0) & (y == 0) & (g == k)).sum(), ((p == 0) & (y == 1) & (g == k)).sum()]
                     for k in range(groups)], dtype=float)


def _ratio_by_hand(rates, ok, name):
    idx = [k for k in range(len(rates)) if ok[k]]
    low = min(idx, key=lambda k: (rates[k], k))
    high = min(idx, key=lambda k: (-rates[k], k))
    return {f"{name}_{low}_{high}": 0.0 if rates[high] == 0 else rates[low] / rates[high]}


def test_group_rates_and_fairness_by_hand():
    p, y, g = _np(BIN_PREDS > 0.5).astype(int), _np(BIN_TARGET), _np(GROUPS)
    counts = _group_counts(p, y, g, G)
    with np.errstate(invalid="ignore"):
        rates = counts / counts.sum(1, keepdims=True)
    got = F.binary_groups_stat_rates(BIN_PREDS, BIN_TARGET, GROUPS, G)
    assert list(got) == [f"group_{k}" for k in range(G)]
    assert_close(got, {f"group_{k}": rates[k] for k in range(G)}, atol=1e-12)  # group 3: nan
    tp, fp, tn, fn = counts.T
    n = counts.sum(1)
    pr, tpr = np.divide(tp + fp, n, out=np.zeros(G), where=n > 0), np.divide(tp, tp + fn, out=np.zeros(G),
                                                                               where=tp + fn > 0)
    present = n > 0
    want = {**_ratio_by_hand(pr, present, "DP"), **_ratio_by_hand(tpr, present, "EO")}
    assert_close(F.binary_fairness(BIN_PREDS, BIN_TARGET, GROUPS), want, atol=1e-12)  # the groups present
    # num_groups=4: the empty group 3 has rate 0/0 = zero_division = 0, so both ratios are 0 and name it
    every = F.binary_fairness(BIN_PREDS, BIN_TARGET, GROUPS, num_groups=G)
    assert {k: v.item() for k, v in every.items()} == {f"DP_3_{list(want)[0][-1]}": 0.0,
                                                       f"EO_3_{list(want)[1][-1]}": 0.0}
    assert_close(F.binary_fairness(BIN_PREDS, BIN_TARGET, GROUPS, num_groups=G, zero_division=float("nan")), want)
    dp = F.binary_fairness(BIN_PREDS, None, GROUPS, "demographic_parity")
    assert_close(dp, _ratio_by_hand(pr, present, "DP"), atol=1e-12)
    assert list(F.binary_fairness(BIN_PREDS, BIN_TARGET, GROUPS, "equal_opportunity")) == [list(want)[1]]


def test_fairness_ties_ids_weights_and_empty():
    # tied rates: the first group with the lowest / highest rate (torch.argmin / argmax)
    preds, target = torch.tensor([1, 0, 1, 0, 1, 1]), torch.ones(6, dtype=torch.long)
    got = F.binary_fairness(preds, target, torch.tensor([0, 0, 1, 1, 2, 2]))
    assert {k: v.item() for k, v in got.items()} == {"DP_0_2": 0.5, "EO_0_2": 0.5}
    # groups {0, 2} present: keyed by their own ids (group 1 has no sample and is not reported)
    got = F.binary_fairness(preds[:4], target[:4], torch.tensor([0, 0, 2, 2]))
    assert set(got) == {"DP_0_0", "EO_0_0"} and all(v.item() == 1.0 for v in got.values())
    # weights count as copies
    w = torch.tensor([2, 1, 1, 1, 1, 1])
    rep = torch.repeat_interleave(torch.arange(6), w)
    grp = torch.tensor([0, 0, 1, 1, 2, 2])
    assert_close(F.binary_groups_stat_rates(preds, target, grp, 3, weight=w),
                 F.binary_groups_stat_rates(preds[rep], target[rep], grp[rep], 3))
    # ignore_index leaves samples out of every group count
    ign = _ign(BIN_TARGET)
    keep = ign != -1
    assert_close(F.binary_fairness(BIN_PREDS, ign, GROUPS, ignore_index=-1, num_groups=G),
                 F.binary_fairness(BIN_PREDS[keep], BIN_TARGET[keep], GROUPS[keep], num_groups=G))
    empty = torch.zeros(0, dtype=torch.long)
    assert {k: v.item() for k, v in F.binary_fairness(empty, empty, empty).items()} == {"DP_0_0": 0.0,
                                                                                        "EO_0_0": 0.0}


# ------------------------------------------------------------------------------- modules, the harness
BIN_B = _batches(BIN_PREDS, BIN_TARGET)
BIN_IGN_B = _batches(BIN_PREDS, _ign(BIN_TARGET))
BIN_WB = _batches(BIN_PREDS, BIN_TARGET, BIN_W)
MC_B = _batches(MC_SCORES, MC_TARGET)
MC_WB = _batches(MC_SCORES, MC_TARGET, MC_W)
ML_B = _batches(ML_PREDS, ML_TARGET, cuts=(30, 30))
SEQ_T = torch.randint(0, 3, (60, 5), generator=GEN)
SEQ_P = torch.where(torch.rand(60, 5, generator=GEN) < 0.1, 0, SEQ_T)
SEQ_B = _batches(SEQ_P, SEQ_T, cuts=(25, 25))
GRP_B = _batches(BIN_PREDS, BIN_TARGET, GROUPS)
GRP_WB = _batches(BIN_PREDS, BIN_TARGET, GROUPS, BIN_W)
LOGITS = BIN_PREDS * 8 - 4
BIN_LOGIT_B = _batches(LOGITS, BIN_TARGET)


def _fairness(num_groups, **kw):
    return lambda p, t, g, w=None: F.binary_fairness(p, t, g, num_groups=num_groups, weight=w, **kw)


BREADTH_MODULES = [  # name, factory, functional (the one-shot value), batches
    ("BinaryNegativePredictiveValue", partial(tmc.BinaryNegativePredictiveValue),
     F.binary_negative_predictive_value, BIN_B),
    ("BinaryNegativePredictiveValue-weighted", partial(tmc.BinaryNegativePredictiveValue, weighted=True),
     lambda p, t, w=None: F.binary_negative_predictive_value(p, t, weight=w), BIN_WB),
    ("MulticlassNegativePredictiveValue", partial(tmc.MulticlassNegativePredictiveValue, C, top_k=2),
     partial(F.multiclass_negative_predictive_value, num_classes=C, top_k=2), MC_B),
    ("MultilabelNegativePredictiveValue", partial(tmc.MultilabelNegativePredictiveValue, L, average="weighted"),
     partial(F.multilabel_negative_predictive_value, num_labels=L, average="weighted"), ML_B),
    ("BinaryHammingDistance", partial(tmc.BinaryHammingDistance, ignore_index=-1),
     partial(F.binary_hamming_distance, ignore_index=-1), BIN_IGN_B),
    ("MulticlassHammingDistance", partial(tmc.MulticlassHammingDistance, C, None),
     partial(F.multiclass_hamming_distance, num_classes=C, average=None), MC_B),
    ("MulticlassExactMatch", partial(tmc.MulticlassExactMatch, 3), partial(F.multiclass_exact_match, num_classes=3),
     SEQ_B),
    ("BinaryHingeLoss", partial(tmc.BinaryHingeLoss, from_logits=True),
     partial(F.binary_hinge_loss, from_logits=True), BIN_LOGIT_B),
    ("BinaryHingeLoss-weighted", partial(tmc.BinaryHingeLoss, True),
     lambda p, t, w=None: F.binary_hinge_loss(p, t, True, weight=w), BIN_WB),
    ("MulticlassHingeLoss", partial(tmc.MulticlassHingeLoss, C), partial(F.multiclass_hinge_loss, num_classes=C),
     MC_B),
    ("MulticlassHingeLoss-ova", partial(tmc.MulticlassHingeLoss, C, True, "one-vs-all"),
     lambda p, t, w=None: F.multiclass_hinge_loss(p, t, C, True, "one-vs-all", weight=w), MC_WB),
    ("BinaryGroupStatRates", partial(tmc.BinaryGroupStatRates, G),
     partial(F.binary_groups_stat_rates, num_groups=G), GRP_B),
    ("BinaryFairness", partial(tmc.BinaryFairness, G), _fairness(G), GRP_B),
    ("BinaryFairness-weighted-nan", partial(tmc.BinaryFairness, G, weighted=True, zero_division=float("nan")),
     _fairness(G, zero_division=float("nan")), GRP_WB),
]
BREADTH_NAMES = {m[0].split("-")[0] for m in BREADTH_MODULES}
# the multi-process checks run in test_classification.py's one spawn
BREADTH_DIST = {"MulticlassNegativePredictiveValue", "MulticlassExactMatch", "MulticlassHingeLoss-ova",
                "BinaryFairness", "BinaryHammingDistance"}


@pytest.mark.parametrize("name,factory,functional,batches", BREADTH_MODULES, ids=[m[0] for m in BREADTH_MODULES])
def test_module_harness(name, factory, functional, batches):
    expected = functional(*concat(batches))
    check_metric(factory, batches, expected, batch_value=functional, max_examples=5, atol=1e-12)


def test_group_module_against_the_counts_by_hand():
    p, y, g = _np(BIN_PREDS > 0.5).astype(int), _np(BIN_TARGET), _np(GROUPS)
    counts = _group_counts(p, y, g, G)
    with np.errstate(invalid="ignore"):
        rates = counts / counts.sum(1, keepdims=True)
    check_metric(partial(tmc.BinaryGroupStatRates, G), GRP_B, {f"group_{k}": rates[k] for k in range(G)},
                 max_examples=3)


def test_class_attributes_and_repr():
    for name in ("BinaryHammingDistance", "MulticlassHammingDistance", "BinaryHingeLoss", "MulticlassHingeLoss"):
        assert getattr(tmc, name).higher_is_better is False
    assert tmc.MulticlassNegativePredictiveValue.higher_is_better is True
    assert repr(tmc.MulticlassHingeLoss(3, multiclass_mode="one-vs-all")) == (
        "MulticlassHingeLoss(num_classes=3, multiclass_mode='one-vs-all')")
    assert repr(tmc.BinaryHammingDistance(zero_division=0.0)) == "BinaryHammingDistance(zero_division=0.0)"


# ------------------------------------------------------------------------------------------- compile
COMPILE_FUNCS = [  # one per concept: NPV and Hamming share the score path compiled in test_classification_new.py
    (F.multiclass_negative_predictive_value, (MC_SCORES, MC_TARGET, C), {"top_k": 2}),
    (F.binary_hamming_distance, (BIN_PREDS, BIN_TARGET), {"weight": BIN_W}),
    (F.multiclass_exact_match, (SEQ_P, SEQ_T, 3), {"ignore_index": 0}),
    (F.binary_hinge_loss, (LOGITS, BIN_TARGET), {"from_logits": True, "ignore_index": -1}),
    (F.multiclass_hinge_loss, (MC_SCORES, MC_TARGET, C), {"multiclass_mode": "one-vs-all", "squared": True}),
    (F.binary_groups_stat_rates, (BIN_PREDS, BIN_TARGET, GROUPS, G), {}),
]


@pytest.mark.parametrize("fn,args,kwargs", COMPILE_FUNCS, ids=[f"{c[0].__name__}{i}" for i, c in
                                                                  enumerate(COMPILE_FUNCS)])
def test_functional_compiles(fn, args, kwargs):
    check_compiles(partial(fn, validate_args=False, **kwargs), *args)


UPDATE_CASES = [  # the bases' updates are compiled in test_classification_new.py; these have their own
    ("MulticlassExactMatch", partial(tmc.MulticlassExactMatch, 3, validate_args=False), SEQ_B),
    ("BinaryHingeLoss", partial(tmc.BinaryHingeLoss, margins=True, validate_args=False), BIN_LOGIT_B),
    ("MulticlassHingeLoss", partial(tmc.MulticlassHingeLoss, C, multiclass_mode="one-vs-all",
                                    validate_args=False), MC_WB),
    ("BinaryFairness", partial(tmc.BinaryFairness, G, weighted=True, validate_args=False), GRP_WB),
    ("BinaryGroupStatRates", partial(tmc.BinaryGroupStatRates, G, ignore_index=-1, validate_args=False), GRP_B),
]


@pytest.mark.parametrize("name,factory,batches", UPDATE_CASES, ids=[c[0] for c in UPDATE_CASES])
def test_module_update_compiles(name, factory, batches):
    check_update_compiles(factory, batches[:1])  # one shape: no recompile


def test_updates_need_no_host_sync_without_validation(monkeypatch):
    metrics = [(tmc.MulticlassExactMatch(3, weighted=True, validate_args=False), (SEQ_P, SEQ_T, torch.ones(60))),
               (tmc.BinaryHingeLoss(ignore_index=-1, from_logits=True, validate_args=False),
                (LOGITS, _ign(BIN_TARGET))),
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


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 2), st.integers(0, 3)), max_size=30))
def test_fairness_property_against_brute_force(rows):
    """Random small inputs (ties everywhere, empty groups, empty input): every rate and ratio by brute force."""
    p, y, g, w = (torch.tensor([r[i] for r in rows], dtype=torch.long) for i in range(4))
    for zd in (0.0, float("nan")):
        got = F.binary_fairness(p, y, g, num_groups=3, zero_division=zd, weight=w)
        want = {}
        for name, num, den in (("DP", lambda k: p[(g == k)] @ w[g == k], lambda k: w[g == k].sum()),
                               ("EO", lambda k: (p * y)[g == k] @ w[g == k], lambda k: (y * w)[g == k].sum())):
            rates = [float(num(k)) / float(den(k)) if den(k) else zd for k in range(3)]
            ok = [k for k in range(3) if not math.isnan(rates[k])]
            if not ok:
                want[f"{name}_0_0"] = zd
                continue
            low, high = min(ok, key=lambda k: (rates[k], k)), min(ok, key=lambda k: (-rates[k], k))
            want[f"{name}_{low}_{high}"] = rates[low] / rates[high] if rates[high] else zd
        assert_close(got, want, atol=1e-12)
