"""Specificity, Matthews correlation, Cohen's kappa, Jaccard index and exact match against scikit-learn and
torchmetrics; sample weights against scikit-learn's ``sample_weight``; floating 0/1 targets; macro averages with a
class absent from both targets and predictions; every new module through the harness and multi-process sync;
``torch.compile(fullgraph=True)`` of every functional metric and module update with ``validate_args=False``."""
import math
from functools import partial

import numpy as np
import pytest
import sklearn.metrics as skm
import torch

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional as F
from tests.helpers.compile import check_compiles
from tests.helpers.metric_tester import assert_close, check_metric, check_rejects, concat

GEN = torch.Generator().manual_seed(11)
C, L = 5, 4
AVERAGES = ["micro", "macro", "weighted", "none"]


def _mc(n=140):
    """Class 4 is neither a target nor predicted (absent from both); class 3 is rare."""
    target = torch.randint(0, 4, (n,), generator=GEN)
    scores = torch.rand(n, C, generator=GEN)
    scores[:, 4] = -1.0
    scores[torch.arange(n), target] += 0.5 * torch.rand(n, generator=GEN)
    return scores, target


MC_SCORES, MC_TARGET = _mc()
MC_PREDS = MC_SCORES.argmax(1)
W = torch.rand(MC_TARGET.shape[0], generator=GEN, dtype=torch.float64) * 3
W[::7] = 0.0
BIN_PREDS = torch.rand(160, generator=GEN)
BIN_TARGET = (torch.rand(160, generator=GEN) < BIN_PREDS).long()
BIN_W = torch.rand(160, generator=GEN, dtype=torch.float64)
ML_PREDS = torch.rand(100, L, generator=GEN)
ML_TARGET = (torch.rand(100, L, generator=GEN) < ML_PREDS * 0.8).long()
ML_W = torch.rand(100, generator=GEN)  # float32: sklearn sums it in float32


def _np(t):
    return t.numpy()


# ------------------------------------------------------------------------------------- new metrics, oracles
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
def test_new_metrics_equal_torchmetrics(name, args, kwargs):
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


# ----------------------------------------------------------------------------------------------- harness
def _batches(args, sizes):
    out, start = [], 0
    for n in sizes:
        out.append(tuple(a[start:start + n] for a in args))
        start += n
    return out


BIN_B = _batches((BIN_PREDS, BIN_TARGET), (50, 0, 70, 40))
BIN_WB = _batches((BIN_PREDS, BIN_TARGET, BIN_W), (50, 0, 70, 40))
MC_B = _batches((MC_SCORES, MC_TARGET), (40, 60, 0, 40))
MC_WB = _batches((MC_SCORES, MC_TARGET, W), (40, 60, 0, 40))
ML_B = _batches((ML_PREDS, ML_TARGET), (30, 0, 45, 25))
ML_WB = _batches((ML_PREDS, ML_TARGET, ML_W), (30, 0, 45, 25))

NEW_MODULES = [
    ("BinarySpecificity", partial(tmc.BinarySpecificity), F.binary_specificity, BIN_B),
    ("MulticlassSpecificity", partial(tmc.MulticlassSpecificity, C, top_k=2),
     partial(F.multiclass_specificity, num_classes=C, top_k=2), MC_B),
    ("MultilabelSpecificity", partial(tmc.MultilabelSpecificity, L, weighted=True),
     lambda p, t, w: F.multilabel_specificity(p, t, L, weight=w), ML_WB),
    ("BinaryMatthewsCorrCoef", partial(tmc.BinaryMatthewsCorrCoef), F.binary_matthews_corrcoef, BIN_B),
    ("MulticlassMatthewsCorrCoef", partial(tmc.MulticlassMatthewsCorrCoef, C, weighted=True),
     lambda p, t, w: F.multiclass_matthews_corrcoef(p, t, C, weight=w), MC_WB),
    ("MultilabelMatthewsCorrCoef", partial(tmc.MultilabelMatthewsCorrCoef, L),
     partial(F.multilabel_matthews_corrcoef, num_labels=L), ML_B),
    ("BinaryCohenKappa", partial(tmc.BinaryCohenKappa, weighted=True),
     lambda p, t, w: F.binary_cohen_kappa(p, t, weight=w), BIN_WB),
    ("MulticlassCohenKappa", partial(tmc.MulticlassCohenKappa, C, weights="linear"),
     partial(F.multiclass_cohen_kappa, num_classes=C, weights="linear"), MC_B),
    ("BinaryJaccardIndex", partial(tmc.BinaryJaccardIndex), F.binary_jaccard_index, BIN_B),
    ("MulticlassJaccardIndex", partial(tmc.MulticlassJaccardIndex, C, ignore_index=1),
     partial(F.multiclass_jaccard_index, num_classes=C, ignore_index=1), MC_B),
    ("MultilabelJaccardIndex", partial(tmc.MultilabelJaccardIndex, L, average="micro"),
     partial(F.multilabel_jaccard_index, num_labels=L, average="micro"), ML_B),
    ("MultilabelExactMatch", partial(tmc.MultilabelExactMatch, L), partial(F.multilabel_exact_match, num_labels=L),
     ML_B),
]


@pytest.mark.parametrize("name,factory,functional,batches", NEW_MODULES, ids=[m[0] for m in NEW_MODULES])
def test_new_module_harness(name, factory, functional, batches):
    check_metric(factory, batches, functional(*concat(batches)), batch_value=functional, max_examples=6)


def test_weighted_module_harness_against_sklearn():
    y, p, w = _np(MC_TARGET), _np(MC_PREDS), _np(W)
    check_metric(partial(tmc.MulticlassF1Score, C, weighted=True), MC_WB, skm.f1_score(y, p, average="macro",
                 sample_weight=w), max_examples=5)


# the multi-process checks of these modules run in test_classification.py's one spawn (DIST_NAMES)
DIST_NAMES = {"MulticlassMatthewsCorrCoef", "BinaryCohenKappa", "MultilabelExactMatch", "MulticlassJaccardIndex"}


# --------------------------------------------------------------------------------------------- compile
COMPILE_FUNCS = [
    (F.binary_f1_score, (BIN_PREDS, BIN_TARGET), {}), (F.binary_stat_scores, (BIN_PREDS, BIN_TARGET), {}),
    (F.binary_confusion_matrix, (BIN_PREDS, BIN_TARGET), {"weight": BIN_W}),
    (F.binary_matthews_corrcoef, (BIN_PREDS, BIN_TARGET), {}), (F.binary_cohen_kappa, (BIN_PREDS, BIN_TARGET), {}),
    (F.binary_specificity, (BIN_PREDS, BIN_TARGET), {}), (F.binary_jaccard_index, (BIN_PREDS, BIN_TARGET), {}),
    (F.multiclass_f1_score, (MC_SCORES, MC_TARGET, C), {"top_k": 2, "ignore_index": 1}),
    (F.multiclass_accuracy, (MC_SCORES, MC_TARGET, C), {"weight": W}),
    (F.multiclass_stat_scores, (MC_SCORES, MC_TARGET, C), {}),
    (F.multiclass_confusion_matrix, (MC_SCORES, MC_TARGET, C), {"normalize": "true"}),
    (F.multiclass_matthews_corrcoef, (MC_SCORES, MC_TARGET, C), {}),
    (F.multiclass_cohen_kappa, (MC_SCORES, MC_TARGET, C), {"weights": "quadratic"}),
    (F.multiclass_jaccard_index, (MC_SCORES, MC_TARGET, C), {"ignore_index": 1}),
    (F.multiclass_specificity, (MC_SCORES, MC_TARGET, C), {}),
    (F.multilabel_f1_score, (ML_PREDS, ML_TARGET, L), {"weight": ML_W}),
    (F.multilabel_hamming_distance, (ML_PREDS, ML_TARGET, L), {}),
    (F.multilabel_exact_match, (ML_PREDS, ML_TARGET, L), {"ignore_index": -1}),
    (F.multilabel_matthews_corrcoef, (ML_PREDS, ML_TARGET, L), {}),
    (F.binary_fbeta_score, (BIN_PREDS, BIN_TARGET, 2.0), {}),
    (F.multilabel_fbeta_score, (ML_PREDS, ML_TARGET, 0.5, L), {}),
    (F.multilabel_precision, (ML_PREDS, ML_TARGET, L), {}),
    (F.multilabel_stat_scores, (ML_PREDS, ML_TARGET, L), {}),
]


@pytest.mark.parametrize("fn,args,kwargs", COMPILE_FUNCS, ids=[c[0].__name__ for c in COMPILE_FUNCS])
def test_functional_compiles(fn, args, kwargs):
    check_compiles(partial(fn, validate_args=False, **kwargs), *args)


# Every module's update is its base's (binary, multiclass, multilabel, exact match: test_update_is_a_base_update),
# so one module per base, unweighted and weighted, covers every module's update path.
UPDATE_CASES = [
    ("BinaryF1Score", partial(tmc.BinaryF1Score, from_logits=True), BIN_B[0]),
    ("BinaryRecall-weighted", partial(tmc.BinaryRecall, weighted=True, ignore_index=-1), BIN_WB[0]),
    ("MulticlassF1Score", partial(tmc.MulticlassF1Score, C), MC_B[0]),
    ("MulticlassAccuracy-top2-weighted", partial(tmc.MulticlassAccuracy, C, top_k=2, weighted=True), MC_WB[0]),
    ("MulticlassConfusionMatrix-ignore", partial(tmc.MulticlassConfusionMatrix, C, ignore_index=1), MC_B[0]),
    ("MultilabelF1Score", partial(tmc.MultilabelF1Score, L), ML_B[0]),
    ("MultilabelRecall-weighted", partial(tmc.MultilabelRecall, L, weighted=True), ML_WB[0]),
    ("MultilabelExactMatch", partial(tmc.MultilabelExactMatch, L, ignore_index=-1), ML_B[0]),
    ("MultilabelExactMatch-weighted", partial(tmc.MultilabelExactMatch, L, weighted=True), ML_WB[0]),
]


def test_update_is_a_base_update():
    from torchmetrics_lite.classification import _base

    bases = {_base._BinaryMetric.batch_stats, _base._MulticlassMetric.batch_stats,
             _base._MultilabelMetric.batch_stats, tmc.MultilabelExactMatch.batch_stats}
    own = {"MulticlassExactMatch", "BinaryHingeLoss", "MulticlassHingeLoss", "BinaryFairness",
           "BinaryGroupStatRates"}  # their own update, compiled in test_classification_breadth.py
    for name in set(tmc.__all__) - own:
        cls = getattr(tmc, name)
        assert cls.batch_stats in bases and cls.update is tmc.MultilabelExactMatch.update, name


@pytest.mark.parametrize("name,factory,batch", UPDATE_CASES, ids=[c[0] for c in UPDATE_CASES])
def test_module_update_compiles(name, factory, batch):
    metric = factory(validate_args=False)
    reference = factory(validate_args=False)
    reference.update(*batch)

    def step(*args):  # what one update adds to the state (the state accumulates over the traced calls)
        before = {k: v.clone() for k, v in metric.local_state().items()}
        metric.update(*args)
        return {k: v - before[k] for k, v in metric.local_state().items()}

    check_compiles(step, *batch)
    compiled = torch.compile(step, backend="eager", fullgraph=True)
    metric.reset()
    compiled(*batch)
    assert_close(metric.compute(), reference.compute())


def test_f1_update_compiles_with_inductor():
    check_compiles(partial(F.multiclass_f1_score, num_classes=C, validate_args=False), MC_SCORES, MC_TARGET,
                   backends=("eager", "inductor"))


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
def test_new_option_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_class_attributes():
    assert tmc.MulticlassF1Score.higher_is_better is True and tmc.MultilabelHammingDistance.higher_is_better is False
    assert tmc.BinaryMatthewsCorrCoef.higher_is_better is True and tmc.MultilabelExactMatch.higher_is_better is True
    assert all(getattr(tmc, n).is_differentiable is False for n in tmc.__all__)


def test_weighted_and_new_updates_need_no_host_sync(monkeypatch):
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
