"""The float32 policy (issue #12, item 14) for the AUROC family: every module and function runs on an emulated
device without float64 (``tests/helpers/no_float64.py``: any op that makes a float64 tensor raises), returns
float32 values close to the float64 ones, and keeps no float64 state. Every public name of the family is
covered (the last test checks that), with the option variants whose code paths differ: weighted, ``max_fpr``,
binned, ``average`` (micro / macro / weighted / none), ``from_logits``, DeLong."""
import warnings
from functools import partial

import pytest
import torch

import torchmetrics_lite.auroc as modules
import torchmetrics_lite.functional.auroc as functions
from tests.helpers.no_float64 import assert_float32_close, check_float32_policy, float64_less_cpu

G = torch.Generator().manual_seed(0)
N, C = 120, 3
SCORES = torch.rand(N, generator=G).round(decimals=1)  # ties
LABELS = (torch.rand(N, generator=G) < 0.4).long()
WEIGHTS = torch.rand(N, generator=G) * 2
OTHER = (SCORES + 0.3 * torch.rand(N, generator=G)).round(decimals=1)  # a second classifier
LOGITS = (torch.randn(N, C, generator=G) * 2).round(decimals=1)
PROBS = torch.softmax(LOGITS, 1)
CLASSES = torch.randint(0, C, (N,), generator=G)
MULTI = (torch.rand(N, C, generator=G) < 0.5).long()
CUTS = ((0, 50), (50, 51), (51, N))


def split(*tensors):
    return [tuple(t[a:b] for t in tensors) for a, b in CUTS]


BINARY = split(SCORES, LABELS)
BINARY_W = split(SCORES, LABELS, WEIGHTS)
MC = split(PROBS, CLASSES)
MC_LOGITS = split(LOGITS, CLASSES)
MC_W = split(PROBS, CLASSES, WEIGHTS)
MC_LOGITS_W = split(LOGITS, CLASSES, WEIGHTS)
ML = split(LOGITS, MULTI)
ML_W = split(LOGITS, MULTI, WEIGHTS)
PAIRED = split(SCORES, OTHER, LABELS)

CASES = {}  # name -> (module factory, batches, functional form on the concatenated batches)
COVERED = set()  # the public functions the cases call


def add(name, make, batches, fn=None, *extra, **options):
    """A case: the module ``make()`` fed ``batches``; ``fn(*data, *extra, **options)`` on the joined batches,
    with the last tensor of a batch passed as ``weight=`` when the batches hold weights."""
    def functional(*data):
        if weighted:
            return fn(*data[:-1], *extra, weight=data[-1], **options)
        return fn(*data, *extra, **options)

    weighted = any(batches is b for b in (BINARY_W, MC_W, MC_LOGITS_W, ML_W))
    CASES[name] = (make, batches, None if fn is None else functional)
    if fn is not None:
        COVERED.add(fn.__name__)


M, F = modules, functions
add("BinaryAUROC", M.BinaryAUROC, BINARY, F.binary_auroc)
add("BinaryAUROC_weighted", M.BinaryAUROC, BINARY_W, F.binary_auroc)
add("BinaryAUROC_max_fpr", partial(M.BinaryAUROC, 0.4), BINARY, F.binary_auroc, max_fpr=0.4)
add("BinaryAUROC_max_fpr_weighted", partial(M.BinaryAUROC, 0.4), BINARY_W, F.binary_auroc, max_fpr=0.4)
add("BinaryAUROC_binned", partial(M.BinaryAUROC, bins=16), BINARY)
add("BinaryAveragePrecision", M.BinaryAveragePrecision, BINARY, F.binary_average_precision)
add("BinaryAveragePrecision_weighted", M.BinaryAveragePrecision, BINARY_W, F.binary_average_precision)
add("BinaryROC", M.BinaryROC, BINARY, F.binary_roc)
add("BinaryROC_weighted", M.BinaryROC, BINARY_W, F.binary_roc)
add("BinaryPrecisionRecallCurve", M.BinaryPrecisionRecallCurve, BINARY, F.binary_precision_recall_curve)
add("BinaryPrecisionRecallCurve_weighted", M.BinaryPrecisionRecallCurve, BINARY_W, F.binary_precision_recall_curve)
add("BinaryAUROCCI", M.BinaryAUROCCI, BINARY, F.binary_auroc_ci)
add("PairedAUROCTest", M.PairedAUROCTest, PAIRED, F.paired_auroc_test)
for average in ("macro", "weighted", "none"):
    add(f"MulticlassAUROC_avg_{average}", partial(M.MulticlassAUROC, C, average=average), MC, F.multiclass_auroc, C,
        average=average)
    add(f"MulticlassAveragePrecision_avg_{average}_weighted", partial(M.MulticlassAveragePrecision, C, average=average),
        MC_W, F.multiclass_average_precision, C, average=average)
add("MulticlassAUROC_logits_weighted", partial(M.MulticlassAUROC, C, from_logits=True), MC_LOGITS_W,
    F.multiclass_auroc, C, from_logits=True)
add("MulticlassAveragePrecision_logits", partial(M.MulticlassAveragePrecision, C, from_logits=True), MC_LOGITS,
    F.multiclass_average_precision, C, from_logits=True)
for average in ("micro", "macro", "weighted", "none"):
    add(f"MultilabelAUROC_avg_{average}", partial(M.MultilabelAUROC, C, average=average), ML, F.multilabel_auroc, C,
        average=average)
    add(f"MultilabelAUROC_avg_{average}_weighted", partial(M.MultilabelAUROC, C, average=average), ML_W,
        F.multilabel_auroc, C, average=average)
    add(f"MultilabelAveragePrecision_avg_{average}_weighted", partial(M.MultilabelAveragePrecision, C, average=average),
        ML_W, F.multilabel_average_precision, C, average=average)
add("MultilabelAveragePrecision", partial(M.MultilabelAveragePrecision, C), ML, F.multilabel_average_precision, C)
for cls, fn in ((M.MulticlassROC, F.multiclass_roc), (M.MulticlassPrecisionRecallCurve,
                                                        F.multiclass_precision_recall_curve)):
    add(cls.__name__, partial(cls, C), MC, fn, C)
    add(f"{cls.__name__}_weighted", partial(cls, C), MC_W, fn, C)
    add(f"{cls.__name__}_logits_weighted", partial(cls, C, from_logits=True), MC_LOGITS_W, fn, C, from_logits=True)
for cls, fn in ((M.MultilabelROC, F.multilabel_roc), (M.MultilabelPrecisionRecallCurve,
                                                        F.multilabel_precision_recall_curve)):
    add(cls.__name__, partial(cls, C), ML, fn, C)
    add(f"{cls.__name__}_weighted", partial(cls, C), ML_W, fn, C)
POINTS = {"RecallAtFixedPrecision": ("recall_at_fixed_precision", 0.5),
          "PrecisionAtFixedRecall": ("precision_at_fixed_recall", 0.5),
          "SensitivityAtSpecificity": ("sensitivity_at_specificity", 0.6),
          "SpecificityAtSensitivity": ("specificity_at_sensitivity", 0.6)}
for point, (fn_name, minimum) in POINTS.items():
    add(f"Binary{point}", partial(getattr(M, f"Binary{point}"), minimum), BINARY, getattr(F, f"binary_{fn_name}"),
        minimum)
    add(f"Multiclass{point}", partial(getattr(M, f"Multiclass{point}"), C, minimum), MC,
        getattr(F, f"multiclass_{fn_name}"), C, minimum)
    add(f"Multiclass{point}_logits", partial(getattr(M, f"Multiclass{point}"), C, minimum, from_logits=True),
        MC_LOGITS, getattr(F, f"multiclass_{fn_name}"), C, minimum, from_logits=True)
    add(f"Multilabel{point}", partial(getattr(M, f"Multilabel{point}"), C, minimum), ML,
        getattr(F, f"multilabel_{fn_name}"), C, minimum)
add("BinaryEER", M.BinaryEER, BINARY, F.binary_eer)
add("MulticlassEER", partial(M.MulticlassEER, C), MC, F.multiclass_eer, C)
add("MulticlassEER_micro_logits", partial(M.MulticlassEER, C, average="micro", from_logits=True), MC_LOGITS,
    F.multiclass_eer, C, average="micro", from_logits=True)
add("MultilabelEER", partial(M.MultilabelEER, C), ML, F.multilabel_eer, C)
add("BinaryLogAUC", partial(M.BinaryLogAUC, (0.05, 1.0)), BINARY, F.binary_logauc, (0.05, 1.0))
add("MulticlassLogAUC", partial(M.MulticlassLogAUC, C, (0.05, 1.0)), MC, F.multiclass_logauc, C, (0.05, 1.0))
add("MultilabelLogAUC_avg_none", partial(M.MultilabelLogAUC, C, (0.05, 1.0), average=None), ML, F.multilabel_logauc,
    C, (0.05, 1.0), average=None)
for cls, fn in ((M.MultilabelCoverageError, F.multilabel_coverage_error),
                (M.MultilabelRankingAveragePrecision, F.multilabel_ranking_average_precision),
                (M.MultilabelRankingLoss, F.multilabel_ranking_loss)):
    add(cls.__name__, partial(cls, C), ML, fn, C)


@pytest.mark.parametrize("name", sorted(CASES))
def test_float32_policy(name, monkeypatch):
    make, batches, functional = CASES[name]
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(undefined|only one class|no positive).*")
        # rtol: float32 rounding of the final ratios (and of float32 weight sums in the weighted cases)
        check_float32_policy(monkeypatch, make, batches, functional, rtol=1e-5, atol=1e-6)


def test_compiled_path_on_a_float64_less_device(monkeypatch):
    """The static-shape sweep (the ``torch.compile`` path) also makes no float64: forced by patching the
    family's compile switch, eagerly."""
    import torchmetrics_lite.functional.auroc._common as common

    want = [functions.binary_auroc(SCORES, LABELS), functions.multiclass_average_precision(PROBS, CLASSES, C,
                                                                                         weight=WEIGHTS)]
    monkeypatch.setattr(common, "_compiling", lambda: True)
    with float64_less_cpu(monkeypatch):
        got = [functions.binary_auroc(SCORES, LABELS), functions.multiclass_average_precision(PROBS, CLASSES, C,
                                                                                            weight=WEIGHTS)]
    assert_float32_close(got, want)


def test_integer_weights_become_float32():
    with pytest.MonkeyPatch.context() as mp, float64_less_cpu(mp):
        got = functions.binary_auroc(SCORES, LABELS, weight=(WEIGHTS * 3).long())
    assert got.dtype == torch.float32
    torch.testing.assert_close(got.double(), functions.binary_auroc(SCORES, LABELS, weight=(WEIGHTS * 3).long()),
                               rtol=1e-6, atol=0)


def test_eer_thresholds_on_a_float64_less_device(monkeypatch):
    """The ``*_eer_threshold`` functions (no module of their own) make no float64 either."""
    calls = [(functions.binary_eer_threshold, (SCORES, LABELS)),
             (functions.multiclass_eer_threshold, (PROBS, CLASSES, C)),
             (functions.multilabel_eer_threshold, (LOGITS, MULTI, C))]
    want = [fn(*args) for fn, args in calls]
    with float64_less_cpu(monkeypatch):
        got = [fn(*args) for fn, args in calls]
    assert all(eer.dtype == torch.float32 for eer, _ in got)
    assert_float32_close(got, want)


COVERED.update({"binary_eer_threshold", "multiclass_eer_threshold", "multilabel_eer_threshold"})  # the test above


def test_every_public_name_is_covered():
    assert set(modules.__all__) <= {name.split("_")[0] for name in CASES}
    assert set(functions.__all__) <= COVERED, set(functions.__all__) - COVERED
