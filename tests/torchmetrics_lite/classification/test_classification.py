"""Classification metrics: the worked examples, multiclass against scikit-learn (every average, zero_division,
ignore_index), top-k against scikit-learn's top_k_accuracy_score and a brute-force count, edge rules, shared
statistics in a MetricCollection, and every module through the harness and multi-process sync.
Binary and multilabel oracles: test_classification_binary_multilabel.py; errors: test_classification_errors.py."""
import math
from functools import partial

import numpy as np
import pytest
import sklearn.metrics as skm
import torch

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional as F
from tests.helpers.classification import counts, samples_average, samplewise, scores
from tests.helpers.distributed import Case, distributed_test
from tests.helpers.metric_tester import assert_close, check_metric, concat
from torchmetrics_lite import MetricCollection, _backend
from torchmetrics_lite.functional.classification._stat_scores import _cut_in

GEN = torch.Generator().manual_seed(3)
C, L = 5, 4
AVERAGES = ["micro", "macro", "weighted", "none"]
ZDS = [0.0, 1.0, float("nan")]


def _mc_data(n: int = 120):
    """Class 4 never is a target and class 3 is rare; scores are continuous (no ties)."""
    target = torch.randint(0, 4, (n,), generator=GEN)
    target[(torch.rand(n, generator=GEN) < 0.8) & (target == 3)] = 0
    scores = torch.rand(n, C, generator=GEN)
    scores[torch.arange(n), target] += 0.4 * torch.rand(n, generator=GEN)  # better than chance
    return scores, target


MC_SCORES, MC_TARGET = _mc_data()
MC_PREDS = MC_SCORES.argmax(dim=1)
BIN_PREDS = torch.rand(150, generator=GEN)
BIN_TARGET = (torch.rand(150, generator=GEN) < BIN_PREDS * 0.8 + 0.1).long()
ML_PREDS = torch.rand(90, L, generator=GEN)
ML_TARGET = (torch.rand(90, L, generator=GEN) < ML_PREDS * 0.7).long()
ML_TARGET[:, 3] = 0  # a label with no positive target
ML_PREDS[:, 2] = ML_PREDS[:, 2] * 0.4  # a label never predicted positive

SK_SCORES = {"precision": skm.precision_score, "recall": skm.recall_score, "f1": skm.f1_score,
             "f2": partial(skm.fbeta_score, beta=2.0), "f05": partial(skm.fbeta_score, beta=0.5)}
MC_FUNCS = {"precision": F.multiclass_precision, "recall": F.multiclass_recall, "f1": F.multiclass_f1_score,
            "f2": partial(F.multiclass_fbeta_score, beta=2.0), "f05": partial(F.multiclass_fbeta_score, beta=0.5)}


def _sk(name, y, p, average, zd, labels=None):
    avg = None if average == "none" else average
    kwargs = {"labels": labels} if labels is not None else {}
    return torch.tensor(SK_SCORES[name](y, p, average=avg, zero_division=zd, **kwargs), dtype=torch.float64)


# ------------------------------------------------------------------------------------- worked examples
def test_worked_binary_example():
    target = torch.tensor([1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    calls = torch.tensor([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
    assert F.binary_precision(calls, target).item() == pytest.approx(0.6, abs=1e-15)
    assert F.binary_recall(calls, target).item() == 0.75
    assert F.binary_f1_score(calls, target).item() == pytest.approx(2 / 3, abs=1e-15)
    assert F.binary_accuracy(calls, target).item() == pytest.approx(0.7, abs=1e-15)


def test_worked_three_class_example():
    rows = [[4, 1, 1], [1, 2, 0], [0, 1, 2]]
    target = torch.tensor([t for t, row in enumerate(rows) for p, n in enumerate(row) for _ in range(n)])
    preds = torch.tensor([p for t, row in enumerate(rows) for p, n in enumerate(row) for _ in range(n)])
    assert F.multiclass_confusion_matrix(preds, target, 3).tolist() == rows
    assert F.multiclass_precision(preds, target, 3).item() == pytest.approx((4 / 5 + 2 / 4 + 2 / 3) / 3)
    assert round(F.multiclass_precision(preds, target, 3).item(), 4) == 0.6556
    assert F.multiclass_precision(preds, target, 3, average="micro").item() == pytest.approx(8 / 12)


def test_always_negative_model():
    target = torch.zeros(1000, dtype=torch.long)
    target[::100] = 1
    never = torch.zeros(1000, dtype=torch.long)
    assert F.binary_accuracy(never, target).item() == pytest.approx(0.99)
    assert F.binary_recall(never, target).item() == 0.0
    assert F.binary_precision(never, target).item() == 0.0  # 0/0 -> zero_division
    assert math.isnan(F.binary_precision(never, target, zero_division=float("nan")).item())


# ------------------------------------------------------------------------------------------ multiclass
@pytest.mark.parametrize("name", sorted(MC_FUNCS))
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zd", ZDS)
def test_multiclass_against_sklearn(name, average, zd):
    y, p = MC_TARGET.numpy(), MC_PREDS.numpy()
    labels = list(range(C)) if average == "none" else None
    expected = _sk(name, y, p, average, zd, labels)
    assert_close(MC_FUNCS[name](MC_SCORES, MC_TARGET, num_classes=C, average=average, zero_division=zd), expected)
    assert_close(MC_FUNCS[name](MC_PREDS, MC_TARGET, num_classes=C, average=average, zero_division=zd), expected)


@pytest.mark.parametrize("name", sorted(MC_FUNCS))
@pytest.mark.parametrize("average", AVERAGES)
def test_multiclass_ignore_index_against_sklearn(name, average):
    target = MC_TARGET.clone()
    target[::5] = 2  # an ignored label inside the class range
    keep = target != 2
    y, p = target[keep].numpy(), MC_PREDS[keep].numpy()
    labels = list(range(C)) if average == "none" else None
    got = MC_FUNCS[name](MC_SCORES, target, num_classes=C, average=average, ignore_index=2)
    assert_close(got, _sk(name, y, p, average, 0.0, labels))
    target[::5] = -100  # and one outside it
    got = MC_FUNCS[name](MC_SCORES, target, num_classes=C, average=average, ignore_index=-100)
    keep = target != -100
    assert_close(got, _sk(name, target[keep].numpy(), MC_PREDS[keep].numpy(), average, 0.0, labels))


@pytest.mark.filterwarnings("ignore:y_pred contains classes not in y_true")
@pytest.mark.parametrize("zd", ZDS)
def test_multiclass_accuracy_against_sklearn(zd):
    y, p = MC_TARGET.numpy(), MC_PREDS.numpy()
    acc = partial(F.multiclass_accuracy, MC_SCORES, MC_TARGET, C, zero_division=zd)
    assert_close(acc(average="micro"), skm.accuracy_score(y, p))
    assert_close(acc(average="macro"), skm.recall_score(y, p, average="macro", zero_division=zd))
    assert_close(acc(average="weighted"), skm.accuracy_score(y, p))
    assert_close(acc(average="none"), skm.recall_score(y, p, average=None, labels=range(C), zero_division=zd))
    if math.isnan(zd):  # classes only predicted, never a target, drop out: balanced accuracy
        assert_close(acc(average="macro"), skm.balanced_accuracy_score(y, p))


@pytest.mark.parametrize("normalize", [None, "true", "pred", "all"])
def test_multiclass_confusion_matrix_and_stat_scores(normalize):
    y, p = MC_TARGET.numpy(), MC_PREDS.numpy()
    assert_close(F.multiclass_confusion_matrix(MC_SCORES, MC_TARGET, C, normalize=normalize),
                 skm.confusion_matrix(y, p, labels=range(C), normalize=normalize))
    mcm = skm.multilabel_confusion_matrix(y, p, labels=range(C))  # (C, 2, 2): [[tn, fp], [fn, tp]]
    per_class = np.stack([mcm[:, 1, 1], mcm[:, 0, 1], mcm[:, 0, 0], mcm[:, 1, 0], mcm[:, 1, :].sum(1)], axis=1)
    got = {a: F.multiclass_stat_scores(MC_SCORES, MC_TARGET, C, average=a) for a in AVERAGES}
    assert got["none"].dtype == torch.int64 and got["none"].tolist() == per_class.tolist()
    assert got["micro"].tolist() == per_class.sum(0).tolist()
    assert_close(got["macro"], per_class.mean(0))
    assert_close(got["weighted"], np.average(per_class, axis=0, weights=per_class[:, 4]))


def test_multiclass_extra_dimensions_flatten():
    scores = torch.rand(6, C, 7, generator=GEN)
    target = torch.randint(0, C, (6, 7), generator=GEN)
    flat_scores, flat_target = scores.movedim(1, -1).reshape(-1, C), target.reshape(-1)
    for fn in (F.multiclass_f1_score, F.multiclass_confusion_matrix):
        assert_close(fn(scores, target, C), fn(flat_scores, flat_target, C))
    assert_close(F.multiclass_recall(scores.argmax(1), target, C), F.multiclass_recall(flat_scores, flat_target, C))


def _brute_topk(scores, target, k, ignore_index=None):
    """Per-class tp, fp, tn, fn under torchmetrics' top-k rule, one sample at a time: the sample predicts its
    target if the target is among its k highest scores, else its highest-scoring class (no ties here)."""
    tp, fp, fn, tn = (np.zeros(C, dtype=np.int64) for _ in range(4))
    for s, t in zip(scores.tolist(), target.tolist()):
        if t == ignore_index:
            continue
        order = sorted(range(C), key=lambda c: -s[c])
        pred = t if t in order[:k] else order[0]
        for c in range(C):
            tp[c] += pred == c and c == t
            fp[c] += pred == c and c != t
            fn[c] += pred != c and c == t
            tn[c] += pred != c and c != t
    return tp, fp, tn, fn


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("ignore_index", [None, 1])
def test_multiclass_top_k_against_brute_force_and_sklearn(k, ignore_index):
    tp, fp, tn, fn = _brute_topk(MC_SCORES, MC_TARGET, k, ignore_index)
    ss = F.multiclass_stat_scores(MC_SCORES, MC_TARGET, C, average="none", top_k=k, ignore_index=ignore_index)
    assert ss.tolist() == np.stack([tp, fp, tn, fn, tp + fn], axis=1).tolist()
    keep = MC_TARGET != (-1 if ignore_index is None else ignore_index)
    top_k_acc = skm.top_k_accuracy_score(MC_TARGET[keep].numpy(), MC_SCORES[keep].numpy(), k=k, labels=range(C))
    for fn_ in (F.multiclass_accuracy, F.multiclass_precision, F.multiclass_recall, F.multiclass_f1_score):
        assert_close(fn_(MC_SCORES, MC_TARGET, C, average="micro", top_k=k, ignore_index=ignore_index), top_k_acc)


def _tied_scores(n=150, levels=3):
    """Scores on a few levels: many ties, at the k-th place too."""
    scores = torch.randint(0, levels, (n, C), generator=GEN).float() / levels
    target = torch.randint(0, C - 1, (n,), generator=GEN)  # class C - 1 is never a target
    return scores, target


TM_TOPK = {"accuracy": "multiclass_accuracy", "precision": "multiclass_precision", "recall": "multiclass_recall",
           "f1": "multiclass_f1_score", "specificity": "multiclass_specificity",
           "stat_scores": "multiclass_stat_scores"}


@pytest.mark.parametrize("name", sorted(TM_TOPK))
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("data", ["continuous", "ties", "ignore"])
def test_multiclass_top_k_equals_torchmetrics(name, k, data):
    tmf = pytest.importorskip("torchmetrics.functional.classification")
    scores, target = (MC_SCORES, MC_TARGET) if data == "continuous" else _tied_scores()
    ignore = 2 if data == "ignore" else None
    ours, theirs = getattr(F, TM_TOPK[name]), getattr(tmf, TM_TOPK[name])
    for average in AVERAGES:
        assert_close(ours(scores, target, C, average=average, top_k=k, ignore_index=ignore),
                     theirs(scores, target, C, average=average, top_k=k, ignore_index=ignore), atol=1e-6, rtol=1e-5,
                     path=f"{name} {average}")


def test_issue_reproduction_top_k_precision():
    tmf = pytest.importorskip("torchmetrics.functional.classification")
    gen = torch.Generator().manual_seed(0)
    scores, target = torch.rand(200, 5, generator=gen), torch.randint(0, 5, (200,), generator=gen)
    for fn in ("multiclass_precision", "multiclass_f1_score"):
        assert_close(getattr(F, fn)(scores, target, 5, top_k=2), getattr(tmf, fn)(scores, target, 5, top_k=2),
                     atol=1e-6)
    m = tmc.MulticlassPrecision(5, top_k=2)
    m.update(scores, target)
    assert_close(m.compute(), tmf.multiclass_precision(scores, target, 5, top_k=2), atol=1e-6)


def test_top_k_worked_example():
    scores = torch.tensor([[.5, .3, .2], [.6, .1, .3], [.1, .5, .4]])
    target = torch.tensor([0, 1, 2])
    assert F.multiclass_stat_scores(scores, target, 3, average="none", top_k=2)[:, :4].tolist() == [
        [1, 1, 1, 0], [0, 0, 2, 1], [1, 0, 2, 0]]
    for fn in (F.multiclass_precision, F.multiclass_recall, F.multiclass_accuracy):
        assert fn(scores, target, 3, average="micro", top_k=2).item() == pytest.approx(2 / 3)


# --------------------------------------------------------------------------------------- edge behaviour
def test_empty_input_gives_zero_division():
    empty, empty_t = torch.empty(0), torch.empty(0, dtype=torch.long)
    assert F.binary_accuracy(empty, empty_t).item() == 0.0
    assert math.isnan(F.binary_f1_score(empty, empty_t, zero_division=float("nan")).item())
    assert F.multiclass_f1_score(torch.empty(0, C), empty_t, C, zero_division=1.0).item() == 1.0
    assert F.multiclass_confusion_matrix(torch.empty(0, C), empty_t, C).sum().item() == 0
    assert F.multilabel_recall(torch.empty(0, L), torch.empty(0, L, dtype=torch.long), L).item() == 0.0


def test_counts_are_int64_and_do_not_overflow():
    big = 2**40
    m = tmc.MulticlassPrecision(2, average="micro")
    m.merge_state({"confmat": torch.tensor([[big, 1], [0, big]])})
    m.update(torch.tensor([0, 1]), torch.tensor([0, 0]))
    assert m.confmat.dtype == torch.int64 and m.confmat[0, 0].item() == big + 1
    assert m.compute().item() == pytest.approx((2 * big + 1) / (2 * big + 3))


def test_validate_args_false_needs_no_host_sync(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("host sync")

    monkeypatch.setattr(_backend, "_forced", "torch")  # the kernels of every other device (CPU's small counts: numpy)
    _cut_in(BIN_PREDS.dtype, 0.5)  # the threshold's one host read per (dtype, cut), cached (run alone, it is cold)

    metrics = [tmc.MulticlassF1Score(C, validate_args=False), tmc.BinaryF1Score(validate_args=False),
               tmc.MultilabelF1Score(L, validate_args=False),
               tmc.MulticlassRecall(C, top_k=2, ignore_index=1, validate_args=False)]
    inputs = [(MC_SCORES, MC_TARGET), (BIN_PREDS, BIN_TARGET), (ML_PREDS, ML_TARGET), (MC_SCORES, MC_TARGET)]
    for name in ("item", "tolist", "__bool__", "__int__", "__float__", "__index__"):
        monkeypatch.setattr(torch.Tensor, name, boom)
    for m, args in zip(metrics, inputs):
        m.update(*args)
    with pytest.raises(AssertionError, match="host sync"):  # the patch is effective: validation does sync
        tmc.MulticlassF1Score(C).update(MC_SCORES, MC_TARGET)
    monkeypatch.undo()
    assert_close(metrics[0].compute(), F.multiclass_f1_score(MC_SCORES, MC_TARGET, C))


def test_collection_counts_once_per_batch(monkeypatch):
    calls = []
    from torchmetrics_lite.classification import _base

    original = _base._multiclass_stat_scores_stats

    def counting(*args, **kwargs):
        calls.append(kwargs["top_k"])
        return original(*args, **kwargs)

    for base in (_base._MulticlassMetric, _base._MulticlassScore):  # the counting pass each base declares
        assert base.stats_fn is original
        monkeypatch.setattr(base, "stats_fn", staticmethod(counting))
    mc = MetricCollection({"p": tmc.MulticlassPrecision(C), "r": tmc.MulticlassRecall(C, average="micro"),
                           "f1": tmc.MulticlassF1Score(C, zero_division=1.0), "cm": tmc.MulticlassConfusionMatrix(C),
                           "top2": tmc.MulticlassAccuracy(C, top_k=2), "spec": tmc.MulticlassSpecificity(C),
                           "mcc": tmc.MulticlassMatthewsCorrCoef(C), "kappa": tmc.MulticlassCohenKappa(C),
                           "iou": tmc.MulticlassJaccardIndex(C)})
    mc.update(MC_SCORES, MC_TARGET)
    assert sorted(calls) == [1, 2]  # one count for the eight top-1 members, one for top-2
    values = mc.compute()
    assert_close(values["p"], F.multiclass_precision(MC_SCORES, MC_TARGET, C))
    assert_close(values["r"], F.multiclass_recall(MC_SCORES, MC_TARGET, C, average="micro"))
    assert_close(values["f1"], F.multiclass_f1_score(MC_SCORES, MC_TARGET, C, zero_division=1.0))
    assert_close(values["cm"], F.multiclass_confusion_matrix(MC_SCORES, MC_TARGET, C))
    assert_close(values["top2"], F.multiclass_accuracy(MC_SCORES, MC_TARGET, C, top_k=2))
    assert_close(values["mcc"], F.multiclass_matthews_corrcoef(MC_SCORES, MC_TARGET, C))
    assert_close(values["iou"], F.multiclass_jaccard_index(MC_SCORES, MC_TARGET, C))


# ---------------------------------------------------------------------------------------------- harness
def _batches(preds, target, sizes):
    out, start = [], 0
    for n in sizes:
        out.append((preds[start:start + n], target[start:start + n]))
        start += n
    return out


BIN_B = _batches(BIN_PREDS, BIN_TARGET, (40, 0, 61, 7, 42))
MC_B = _batches(MC_SCORES, MC_TARGET, (30, 50, 0, 1, 39))
MC_IGN_TARGET = MC_TARGET.clone()
MC_IGN_TARGET[::6] = -1
MC_IGN_B = _batches(MC_SCORES, MC_IGN_TARGET, (30, 50, 0, 1, 39))
ML_B = _batches(ML_PREDS, ML_TARGET, (20, 33, 0, 37))

MODULES = [
    ("BinaryStatScores", partial(tmc.BinaryStatScores), F.binary_stat_scores, BIN_B),
    ("BinaryAccuracy", partial(tmc.BinaryAccuracy, 0.3), partial(F.binary_accuracy, threshold=0.3), BIN_B),
    ("BinaryPrecision", partial(tmc.BinaryPrecision), F.binary_precision, BIN_B),
    ("BinaryRecall", partial(tmc.BinaryRecall, ignore_index=0), partial(F.binary_recall, ignore_index=0), BIN_B),
    ("BinaryF1Score", partial(tmc.BinaryF1Score), F.binary_f1_score, BIN_B),
    ("BinaryFBetaScore", partial(tmc.BinaryFBetaScore, 2.0), partial(F.binary_fbeta_score, beta=2.0), BIN_B),
    ("BinaryConfusionMatrix", partial(tmc.BinaryConfusionMatrix, normalize="pred"),
     partial(F.binary_confusion_matrix, normalize="pred"), BIN_B),
    ("MulticlassStatScores", partial(tmc.MulticlassStatScores, C, "none"),
     partial(F.multiclass_stat_scores, num_classes=C, average="none"), MC_B),
    ("MulticlassAccuracy", partial(tmc.MulticlassAccuracy, C, top_k=2),
     partial(F.multiclass_accuracy, num_classes=C, top_k=2), MC_B),
    ("MulticlassPrecision", partial(tmc.MulticlassPrecision, C, ignore_index=-1, zero_division=float("nan")),
     partial(F.multiclass_precision, num_classes=C, ignore_index=-1, zero_division=float("nan")), MC_IGN_B),
    ("MulticlassRecall", partial(tmc.MulticlassRecall, C, "weighted"),
     partial(F.multiclass_recall, num_classes=C, average="weighted"), MC_B),
    ("MulticlassF1Score", partial(tmc.MulticlassF1Score, C), partial(F.multiclass_f1_score, num_classes=C), MC_B),
    ("MulticlassFBetaScore", partial(tmc.MulticlassFBetaScore, 0.5, C, None),
     partial(F.multiclass_fbeta_score, beta=0.5, num_classes=C, average=None), MC_B),
    ("MulticlassConfusionMatrix", partial(tmc.MulticlassConfusionMatrix, C, ignore_index=-1),
     partial(F.multiclass_confusion_matrix, num_classes=C, ignore_index=-1), MC_IGN_B),
    ("MultilabelStatScores", partial(tmc.MultilabelStatScores, L, average="micro"),
     partial(F.multilabel_stat_scores, num_labels=L, average="micro"), ML_B),
    ("MultilabelAccuracy", partial(tmc.MultilabelAccuracy, L), partial(F.multilabel_accuracy, num_labels=L), ML_B),
    ("MultilabelPrecision", partial(tmc.MultilabelPrecision, L, average="weighted"),
     partial(F.multilabel_precision, num_labels=L, average="weighted"), ML_B),
    ("MultilabelRecall", partial(tmc.MultilabelRecall, L, 0.3), partial(F.multilabel_recall, num_labels=L,
                                                                          threshold=0.3), ML_B),
    ("MultilabelF1Score", partial(tmc.MultilabelF1Score, L, average=None),
     partial(F.multilabel_f1_score, num_labels=L, average=None), ML_B),
    ("MultilabelFBetaScore", partial(tmc.MultilabelFBetaScore, 2.0, L),
     partial(F.multilabel_fbeta_score, beta=2.0, num_labels=L), ML_B),
    ("MultilabelConfusionMatrix", partial(tmc.MultilabelConfusionMatrix, L, normalize="all"),
     partial(F.multilabel_confusion_matrix, num_labels=L, normalize="all"), ML_B),
    ("MultilabelHammingDistance", partial(tmc.MultilabelHammingDistance, L, average="micro"),
     partial(F.multilabel_hamming_distance, num_labels=L, average="micro"), ML_B),
]


@pytest.mark.parametrize("name,factory,functional,batches", MODULES, ids=[m[0] for m in MODULES])
def test_module_harness(name, factory, functional, batches):
    expected = functional(*concat(batches))
    check_metric(factory, batches, expected, batch_value=functional, max_examples=8)


def test_module_harness_against_sklearn_directly():
    y, p = MC_TARGET.numpy(), MC_PREDS.numpy()
    check_metric(partial(tmc.MulticlassF1Score, C), MC_B, skm.f1_score(y, p, average="macro"), max_examples=5)


def test_every_public_class_is_checked():
    assert {m[0] for m in MODULES} | {m[0] for m in scores.MODULES} | counts.NAMES == set(tmc.__all__)


CASES = [Case(name, factory, batches) for name, factory, _, batches in MODULES
         if name in {"BinaryF1Score", "BinaryConfusionMatrix", "MulticlassAccuracy", "MulticlassPrecision",
                     "MulticlassF1Score", "MultilabelHammingDistance", "MultilabelStatScores"}]
CASES += [Case(name, factory, batches) for name, factory, _, batches in scores.MODULES if name in scores.DIST_NAMES]
CASES += [Case(name, factory, batches) for name, factory, _, batches in counts.MODULES if name in counts.DIST_NAMES]


CASES += samplewise.CASES + samples_average.CASES
test_distributed_equals_single_process = distributed_test(CASES)
