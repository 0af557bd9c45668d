"""Binned curves of logits (``from_logits=True`` with ``thresholds=``), against torchmetrics 1.9 on the threshold
kinds its tests use (a Python list of floats, ``torch.linspace(0, 1, T)``, an int), scores that equal a threshold
after the softmax (10 equal logits: 1/10 against float32 0.1), and float16 / bfloat16 / float32 / float64 inputs.
The softmax is taken in the scores' own dtype, as torchmetrics: a float64 softmax put 1/10 below the float32
threshold 0.1 and gave another precision/recall there (issue 35)."""
import warnings

import pytest
import torch

import torchmetrics_lite as ours
import torchmetrics_lite.functional as ours_f

tm_c = pytest.importorskip("torchmetrics.classification")
tm_f = pytest.importorskip("torchmetrics.functional.classification")

THRESHOLDS = [[0.1, 0.5, 0.9], [0.0, 0.1, 0.25, 0.5, 1.0], torch.linspace(0, 1, 11), torch.linspace(0, 1, 7), 11]


def _logits(dtype):
    gen = torch.Generator().manual_seed(3)
    logits = torch.zeros(12, 10)  # rows of equal logits: softmax 1/10 exactly at the threshold 0.1
    logits[4:] = (torch.randn(8, 10, generator=gen) * 2).round()  # small integers: ties, exact quarters...
    logits[2, :2] = 5.0  # two classes at (nearly) 1/2
    target = torch.arange(12) % 10
    return logits.to(dtype), target


def _close(theirs, mine):
    for t, m in zip(theirs if isinstance(theirs, tuple) else (theirs,), mine if isinstance(mine, tuple) else (mine,)):
        assert m.shape == t.shape
        torch.testing.assert_close(m.double(), t.double(), rtol=0, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
def test_binned_curves_of_logits_are_torchmetrics(dtype):
    logits, target = _logits(dtype)
    for thresholds in THRESHOLDS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = tm_f.multiclass_precision_recall_curve(logits, target, 10, thresholds=thresholds)
            mine = ours_f.multiclass_precision_recall_curve(logits, target, 10, thresholds=thresholds,
                                                           from_logits=True)
            _close(theirs[:2], mine[:2])
            fpr, tpr, _ = tm_f.multiclass_roc(logits, target, 10, thresholds=thresholds)
            m_fpr, m_tpr, _ = ours_f.multiclass_roc(logits, target, 10, thresholds=thresholds, from_logits=True)
            _close(fpr[:, 1:], m_fpr[:, 1:])  # a class without negatives: 0 there (documented nan here) - none here
            _close(tpr, torch.nan_to_num(m_tpr, nan=0.0))  # a class without positives: documented nan (rate 0/0)
            _close(tm_f.multiclass_recall_at_fixed_precision(logits, target, 10, 0.3, thresholds=thresholds),
                   ours_f.multiclass_recall_at_fixed_precision(logits, target, 10, 0.3, thresholds=thresholds,
                                                               from_logits=True))
            _close(tm_f.multiclass_eer(logits, target, 10, thresholds=thresholds, average="micro"),
                   ours_f.multiclass_eer(logits, target, 10, thresholds=thresholds, average="micro",
                                         from_logits=True))
            t_m, o_m = tm_c.MulticlassPrecisionRecallCurve(10, thresholds=thresholds), \
                ours.MulticlassPrecisionRecallCurve(10, thresholds=thresholds, from_logits=True)
            for part in (slice(0, 5), slice(5, None)):
                t_m.update(logits[part], target[part])
                o_m.update(logits[part], target[part])
            _close(t_m.compute()[:2], o_m.compute()[:2])


def test_the_equal_logits_row_is_at_the_threshold():
    """The case the float64 softmax got wrong: 1/10 (float64) is below float32 0.1, torchmetrics' float32 1/10 is
    not; precision at 0.1 of class 0 is 1/4 (the four rows at or above 0.1), not 0/0."""
    logits, target = torch.zeros(4, 10), torch.tensor([0, 3, 5, 9])
    precision, recall, _ = ours_f.multiclass_precision_recall_curve(logits, target, 10, thresholds=[0.1, 0.5],
                                                                    from_logits=True)
    assert precision[0, 0].item() == 0.25 and recall[0, 0].item() == 1.0
    assert torch.isnan(precision[0, 1])  # nothing at or above 0.5: 0/0, as torchmetrics


# ------------------------------------------------------------------ binary and multilabel: a sigmoid first
# torchmetrics' `preds.sigmoid()` of scores outside [0, 1] (in their own dtype), then the binned counts: the same
# numbers with `from_logits=True`; without it such scores raise, naming `from_logits=True`.
POINTS = {"recall_at_fixed_precision": "RecallAtFixedPrecision", "precision_at_fixed_recall": "PrecisionAtFixedRecall",
          "sensitivity_at_specificity": "SensitivityAtSpecificity",
          "specificity_at_sensitivity": "SpecificityAtSensitivity"}
SIGMOID_NAMES = {"auroc": ("AUROC", ()), "average_precision": ("AveragePrecision", ()), "roc": ("ROC", ()),
                 "precision_recall_curve": ("PrecisionRecallCurve", ()), "eer": ("EER", ()),
                 "logauc": ("LogAUC", ()), **{f: (c, (0.6,)) for f, c in POINTS.items()}}
SIGMOID_THRESHOLDS = [[0.1, 0.5, 0.7310585975646973, 0.9], torch.linspace(0, 1, 9), 11]  # sigmoid(1) in float32
L = 3


def _sigmoid_inputs(task, dtype=torch.float32):
    gen = torch.Generator().manual_seed(7)
    shape = (40,) if task == "binary" else (40, L)
    logits = (torch.randn(shape, generator=gen) * 3).round()  # small integers: sigmoid(1) lands on a threshold
    target = torch.randint(0, 2, shape, generator=gen)
    target[:2] = torch.tensor([0, 1]).view(2, *([1] * (len(shape) - 1)))
    return logits.to(dtype), target


def _flat(value):
    if isinstance(value, (tuple, list)):
        return tuple(v for item in value for v in _flat(item))
    return (torch.as_tensor(value),)


def _same(theirs, mine):
    theirs, mine = _flat(theirs), _flat(mine)
    assert len(theirs) == len(mine)
    for t, m in zip(theirs, mine):
        assert m.shape == t.shape
        torch.testing.assert_close(m.double(), t.double(), rtol=0, atol=1e-6, equal_nan=True)


def _calls(task, name):
    cls, extra = SIGMOID_NAMES[name]
    args = extra if task == "binary" else (L, *extra)
    return (getattr(tm_f, f"{task}_{name}"), getattr(ours_f, f"{task}_{name}"), getattr(tm_c, task.title() + cls),
            getattr(ours, task.title() + cls), args)


@pytest.mark.parametrize("task", ["binary", "multilabel"])
@pytest.mark.parametrize("name", sorted(SIGMOID_NAMES))
def test_binned_logits_through_a_sigmoid_are_torchmetrics(task, name):
    """Functions and modules (two updates), every kind of thresholds, against torchmetrics' function (binned
    LogAUC, a documented row of the porting page, against ours on torchmetrics' sigmoid of the logits)."""
    logits, target = _sigmoid_inputs(task)
    fn_t, fn_o, cls_t, cls_o, args = _calls(task, name)
    for thresholds in SIGMOID_THRESHOLDS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = fn_t(logits, target, *args, thresholds=thresholds)
            if name == "logauc":
                theirs = fn_o(logits.sigmoid(), target, *args, thresholds=thresholds)
            _same(theirs, fn_o(logits, target, *args, thresholds=thresholds, from_logits=True))
            metric = cls_o(*args, thresholds=thresholds, from_logits=True)
            metric.update(logits[:17], target[:17])
            metric.update(logits[17:], target[17:])
            if name == "logauc":  # the module's own default average: against it on the probabilities
                probs = cls_o(*args, thresholds=thresholds)
                probs.update(logits.sigmoid(), target)
                _same(probs.compute(), metric.compute())
            else:
                _same(theirs, metric.compute())
            if name != "logauc":
                module_t = cls_t(*args, thresholds=thresholds)
                module_t.update(logits, target)
                _same(module_t.compute(), fn_o(logits, target, *args, thresholds=thresholds, from_logits=True))


@pytest.mark.parametrize("dtype", [torch.float16, torch.float64])
def test_the_sigmoid_is_in_the_scores_dtype(dtype):
    """torchmetrics' sigmoid keeps the dtype (float16: a half sigmoid, float64: a double one)."""
    logits, target = _sigmoid_inputs("binary", dtype)
    for thresholds in SIGMOID_THRESHOLDS:
        _same(tm_f.binary_precision_recall_curve(logits, target, thresholds=thresholds),
              ours_f.binary_precision_recall_curve(logits, target, thresholds=thresholds, from_logits=True))


@pytest.mark.parametrize("task", ["binary", "multilabel"])
def test_binned_streaming_with_from_logits_is_one_shot(task):
    logits, target = _sigmoid_inputs(task)
    args = () if task == "binary" else (L,)
    for cls, fn in [("AUROC", "auroc"), ("PrecisionRecallCurve", "precision_recall_curve")]:
        metric = getattr(ours, task.title() + cls)(*args, thresholds=9, from_logits=True)
        for start in range(0, 40, 7):
            metric.update(logits[start:start + 7], target[start:start + 7])
        one_shot = getattr(ours_f, f"{task}_{fn}")(logits, target, *args, thresholds=9, from_logits=True)
        for s, o in zip(_flat(metric.compute()), _flat(one_shot)):
            torch.testing.assert_close(s, o, rtol=0, atol=0, equal_nan=True)  # bit for bit


def test_binned_logits_without_from_logits_name_it():
    logits, target = _sigmoid_inputs("binary")
    message = r"Expected `preds` to be probabilities in \[0, 1\] with `thresholds`.*pass `from_logits=True`"
    with pytest.raises(ValueError, match=message):
        ours_f.binary_auroc(logits, target, thresholds=5)
    with pytest.raises(ValueError, match=message):
        ours_f.multilabel_recall_at_fixed_precision(logits.view(-1, 2), target.view(-1, 2), 2, 0.5, thresholds=5)
    with pytest.raises(ValueError, match=message):
        ours.BinaryROC(thresholds=[0.2, 0.8]).update(logits, target)
    with pytest.raises(ValueError, match=r"`from_logits` False: give `range` for logits"):
        ours.BinaryAUROC(bins=10, from_logits=True)
    with pytest.raises(TypeError, match="BinaryAUROCCI.*'from_logits'"):
        ours.BinaryAUROCCI(from_logits=True)


def test_from_logits_changes_nothing_in_the_exact_mode():
    logits, target = _sigmoid_inputs("multilabel")
    for fn in (ours_f.multilabel_auroc, ours_f.multilabel_roc):
        _same(fn(logits, target, L), fn(logits, target, L, from_logits=True))
    scores, labels = logits[:, 0], target[:, 0]
    _same(ours_f.binary_roc(scores, labels), ours_f.binary_roc(scores, labels, from_logits=True))


def test_from_logits_separates_binned_shared_states():
    """Two binned modules in one collection share statistics only with the same `from_logits`."""
    assert ours.BinaryAUROC(thresholds=5).stats_key != ours.BinaryAUROC(thresholds=5, from_logits=True).stats_key
