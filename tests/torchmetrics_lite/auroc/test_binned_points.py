"""The operating points' binned mode (``thresholds=``) and ``ignore_index``, against torchmetrics 1.9 on random
inputs (functions and streamed modules; an int, a list and a tensor of thresholds), and the exact mode's
torchmetrics rates for a class without negatives."""
import warnings

import pytest
import torch

import torchmetrics_lite as ours
import torchmetrics_lite.functional as ours_f

tm_c = pytest.importorskip("torchmetrics.classification")
tm_f = pytest.importorskip("torchmetrics.functional.classification")

RULES = {"recall_at_fixed_precision": ("RecallAtFixedPrecision", "min_precision"),
         "precision_at_fixed_recall": ("PrecisionAtFixedRecall", "min_recall"),
         "sensitivity_at_specificity": ("SensitivityAtSpecificity", "min_specificity"),
         "specificity_at_sensitivity": ("SpecificityAtSensitivity", "min_sensitivity")}
THRESHOLDS = [5, [0.1, 0.5, 0.3, 0.9], torch.tensor([0.25, 0.75, 0.5]), torch.linspace(0, 1, 11)]


def _inputs(task, n, gen, ignore):
    if task == "binary":
        preds, target, kw = torch.rand(n, generator=gen).round(decimals=1), torch.randint(0, 2, (n,), generator=gen), {}
    elif task == "multiclass":
        preds, target = torch.rand(n, 3, generator=gen).softmax(1), torch.randint(0, 3, (n,), generator=gen)
        kw = {"num_classes": 3}
    else:
        preds, target = torch.rand(n, 3, generator=gen).round(decimals=1), torch.randint(0, 2, (n, 3), generator=gen)
        kw = {"num_labels": 3}
    if ignore:
        target = torch.where(torch.rand(target.shape, generator=gen) < 0.2, -1, target)
    return preds, target, kw


def _sorted(thresholds):
    if isinstance(thresholds, list):
        return sorted(thresholds)
    return thresholds.sort().values if isinstance(thresholds, torch.Tensor) else thresholds


def test_the_order_of_the_thresholds_changes_nothing():
    """torchmetrics breaks ties in the order the thresholds are given (0.5 here, from [0.25, 0.75, 0.5]); they are a
    set here, sorted first (0.75: the first of the tied candidates in the reversed sorted order)."""
    preds = torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3]])
    target = torch.tensor([1, 0, 1, 0])
    for thresholds in ([0.25, 0.75, 0.5], torch.tensor([0.25, 0.75, 0.5])):
        theirs = tm_f.multiclass_sensitivity_at_specificity(preds, target, 3, 0.5, thresholds=thresholds)
        mine = ours_f.multiclass_sensitivity_at_specificity(preds, target, 3, 0.5, thresholds=thresholds)
        ordered = ours_f.multiclass_sensitivity_at_specificity(preds, target, 3, 0.5, thresholds=_sorted(thresholds))
        _same(mine, ordered)
        _same(tm_f.multiclass_sensitivity_at_specificity(preds, target, 3, 0.5, thresholds=_sorted(thresholds)), mine)
        assert not torch.equal(theirs[1].double(), mine[1].double())  # the documented difference shows


def _same(theirs, mine):
    for t, m in zip(theirs, mine):
        assert m.shape == t.shape
        torch.testing.assert_close(m.double(), t.double(), rtol=0, atol=1e-7, equal_nan=True)


@pytest.mark.parametrize("task", ["binary", "multiclass", "multilabel"])
@pytest.mark.parametrize("rule", list(RULES))
def test_binned_points_are_torchmetrics(task, rule):
    gen = torch.Generator().manual_seed(list(RULES).index(rule) * 3 + len(task))
    arg = RULES[rule][1]
    cases = 0
    for i in range(16):
        thresholds, minimum, ignore = THRESHOLDS[i % 4], [0.0, 0.3, 0.5, 0.8, 1.0][i % 5], i % 3 == 0
        preds, target, kw = _inputs(task, int(torch.randint(1, 30, (1,), generator=gen)), gen, ignore)
        kw = {**kw, arg: minimum, "thresholds": thresholds, "ignore_index": -1 if ignore else None}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:  # torchmetrics on the sorted thresholds: the order given breaks its ties (the page's row)
                theirs = getattr(tm_f, f"{task}_{rule}")(preds, target, **dict(kw, thresholds=_sorted(thresholds)))
            except (IndexError, RuntimeError):  # torchmetrics crashes (e.g. a label without positives)
                continue
            _same(theirs, getattr(ours_f, f"{task}_{rule}")(preds, target, **kw))
        cases += 1
    assert cases >= 10


@pytest.mark.parametrize("task", ["Binary", "Multiclass", "Multilabel"])
def test_binned_point_modules_stream_as_torchmetrics(task):
    gen = torch.Generator().manual_seed(7)
    for name, arg in RULES.values():
        for thresholds in (7, [0.2, 0.6, 0.4]):
            kw = {"num_classes": 3} if task == "Multiclass" else {"num_labels": 3} if task == "Multilabel" else {}
            kw = {**kw, arg: 0.5, "thresholds": thresholds, "ignore_index": -1}
            theirs = getattr(tm_c, task + name)(**dict(kw, thresholds=_sorted(thresholds)))
            mine = getattr(ours, task + name)(**kw)
            for _ in range(3):
                preds, target, _ = _inputs(task.lower(), 12, gen, ignore=True)
                theirs.update(preds, target)
                mine.update(preds, target)
            assert "confmat" in mine.local_state() and mine.local_state()["confmat"].dtype == torch.int64
            _same(theirs.compute(), mine.compute())


def test_exact_points_ignore_index_and_a_class_without_negatives():
    preds = torch.tensor([0.2, 0.4, 0.6, 0.9, 0.3])
    target = torch.tensor([1, 1, 1, 1, -1])
    for rule, (_, arg) in RULES.items():
        kw = {arg: 0.5, "ignore_index": -1}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = getattr(tm_f, f"binary_{rule}")(preds, target, **kw)
        mine = getattr(ours_f, f"binary_{rule}")(preds, target, **kw)
        assert mine[0].item() == pytest.approx(theirs[0].item())  # no negative: specificity 1, torchmetrics' value
    value, threshold = ours_f.binary_sensitivity_at_specificity(preds[:4], target[:4], 0.5)
    assert (value.item(), threshold.item()) == (1.0, pytest.approx(0.2))  # was (0, 1e6)
    labels = torch.tensor([[1, 0], [0, -1], [1, 1], [0, 0]])
    scores = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.7, 0.6], [0.4, 0.3]])
    values, _ = ours_f.multilabel_recall_at_fixed_precision(scores, labels, 2, 0.9, ignore_index=-1)
    kept = ours_f.binary_recall_at_fixed_precision(scores[[0, 2, 3], 1], labels[[0, 2, 3], 1], 0.9)[0]
    assert values.tolist() == [1.0, kept.item()]  # the ignored element counts nowhere


def test_bad_thresholds_are_refused_before_any_state_changes():
    m = ours.BinaryRecallAtFixedPrecision(min_precision=0.5, thresholds=3)
    with pytest.raises(ValueError, match=r"Expected `thresholds` to be None, an int >= 2.*got an int below 2 \(1\)"):
        ours.BinaryRecallAtFixedPrecision(min_precision=0.5, thresholds=1)
    with pytest.raises(ValueError, match=r"Expected `thresholds` to be None, an int >= 2.*got an int below 2 \(1\)"):
        ours_f.binary_recall_at_fixed_precision(torch.rand(3), torch.tensor([0, 1, 1]), 0.5, thresholds=1)
    before = m.local_state()["confmat"].clone()
    with pytest.raises(ValueError):
        m.update(torch.tensor([0.5, 1.5]), torch.tensor([0, 1]))  # scores outside [0, 1] in the binned mode
    assert torch.equal(m.local_state()["confmat"], before)


def test_binned_eer_is_torchmetrics_and_ignore_index_counts_nowhere():
    gen = torch.Generator().manual_seed(11)
    for i in range(40):
        thresholds = THRESHOLDS[i % 4]
        preds, target = torch.rand(20, generator=gen).round(decimals=1), torch.randint(0, 2, (20,), generator=gen)
        if target.min() == target.max():
            continue
        theirs = tm_f.binary_eer(preds, target, thresholds=thresholds)
        torch.testing.assert_close(ours_f.binary_eer(preds, target, thresholds=thresholds), theirs.double(),
                                   rtol=0, atol=1e-7)
        torch.testing.assert_close(ours_f.binary_eer(preds, target, thresholds=None), ours_f.binary_eer(preds, target))
        labels = torch.randint(0, 2, (20, 3), generator=gen)
        scores = torch.rand(20, 3, generator=gen).round(decimals=1)
        if bool(((labels.sum(0) == 0) | (labels.sum(0) == 20)).any()):
            continue
        torch.testing.assert_close(ours_f.multilabel_eer(scores, labels, 3, thresholds=thresholds),
                                   tm_f.multilabel_eer(scores, labels, 3, thresholds=thresholds).double(),
                                   rtol=0, atol=1e-7)
    preds = torch.tensor([[0.9, 0.2], [0.1, 0.8], [0.7, 0.3], [0.2, 0.6], [0.95, 0.1]])
    target = torch.tensor([[1, 0], [0, 1], [0, 0], [1, 1], [-1, -1]])
    for thresholds in (None, 5):
        mine = ours.MultilabelEER(2, ignore_index=-1, thresholds=thresholds)(preds, target)
        theirs = tm_c.MultilabelEER(2, ignore_index=-1, thresholds=thresholds)(preds, target)
        torch.testing.assert_close(mine, theirs.double(), rtol=0, atol=1e-7)  # exact: was 0.3333 (ignored = positive)
