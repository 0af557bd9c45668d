"""The ``thresholds=`` argument of the binned AUROC family (issue 34): a set of operating points (sorted first, so
that no permutation of a list or a tensor changes a value, in functions and modules), one clear error for every
bad form from the one check (``_checks.check_thresholds``), and torchmetrics' binned partial AUROC where every
false positive rate is 0."""
from functools import partial

import pytest
import torch

import torchmetrics_lite as ours
from tests.helpers.metric_tester import feed
from torchmetrics_lite import functional as F

tmf = pytest.importorskip("torchmetrics.functional.classification")

G = torch.Generator().manual_seed(34)
N, C = 60, 3
PB = torch.rand(N, generator=G)
YB = (torch.rand(N, generator=G) < PB).long()
PM = torch.rand(N, C, generator=G).softmax(1)
YM = torch.randint(0, C, (N,), generator=G)
YL = (torch.rand(N, C, generator=G) < 0.5).long()
INPUTS = {"binary": ((), PB, YB), "multiclass": ((C,), PM, YM), "multilabel": ((C,), PM, YL)}
NAMES = {"auroc": "AUROC", "average_precision": "AveragePrecision", "roc": "ROC",
         "precision_recall_curve": "PrecisionRecallCurve"}
SORTED = [0.1, 0.3, 0.3, 0.5, 0.8, 0.9]  # a repeat too
PERMUTED = [0.9, 0.3, 0.1, 0.8, 0.3, 0.5]


def _close(a, b):
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _close(x, y)
        return
    torch.testing.assert_close(torch.as_tensor(a).double(), torch.as_tensor(b).double(), atol=1e-6, rtol=1e-6,
                               equal_nan=True)


@pytest.mark.parametrize("task", list(INPUTS))
@pytest.mark.parametrize("name", list(NAMES))
def test_the_order_of_the_thresholds_changes_no_value(name, task):
    args, preds, target = INPUTS[task]
    expected = getattr(tmf, f"{task}_{name}")(preds, target, *args, thresholds=SORTED)
    function = getattr(F, f"{task}_{name}")
    module = getattr(ours, f"{task.capitalize()}{NAMES[name]}")
    for thresholds in (PERMUTED, torch.tensor(PERMUTED), torch.tensor(PERMUTED, dtype=torch.float64)):
        oracle = expected if not isinstance(thresholds, torch.Tensor) else \
            getattr(tmf, f"{task}_{name}")(preds, target, *args, thresholds=thresholds.sort().values)
        _close(function(preds, target, *args, thresholds=thresholds), oracle)
        m = feed(module(*args, thresholds=thresholds), [(preds[:25], target[:25]), (preds[25:], target[25:])])
        _close(m.compute(), oracle)


def test_a_permuted_partial_auroc_equals_the_sorted_one():
    for max_fpr in (0.2, 0.5):
        expected = tmf.binary_auroc(PB, YB, max_fpr=max_fpr, thresholds=SORTED)
        _close(F.binary_auroc(PB, YB, max_fpr=max_fpr, thresholds=PERMUTED), expected)
        _close(feed(ours.BinaryAUROC(max_fpr=max_fpr, thresholds=torch.tensor(PERMUTED)), [(PB, YB)]).compute(),
               expected)


def test_the_curves_return_the_thresholds_sorted():
    fpr, tpr, thresholds = F.binary_roc(PB, YB, thresholds=PERMUTED)
    assert thresholds.tolist() == pytest.approx(SORTED[::-1])  # the ROC: descending, as torchmetrics
    assert F.binary_precision_recall_curve(PB, YB, thresholds=PERMUTED)[2].tolist() == pytest.approx(SORTED)


NAN, INF = float("nan"), float("inf")
BAD = [
    (torch.tensor([0.2, NAN, 0.7]), r"got a tensor of values in \[.*\] \(NaN, inf or outside \[0, 1\]\)"),
    (torch.tensor([0.2, INF]), r"got a tensor of values in \[0.2, inf\]"),
    (torch.tensor([-0.5, 0.5]), r"got a tensor of values in \[-0.5, 0.5\]"),
    ([0.2, NAN], r"got a list holding a value that is not a float in \[0, 1\]"),
    ([0.2, INF], r"got a list holding a value that is not a float in \[0, 1\]"),
    ([0, 0.5, 1], r"got a list holding a value that is not a float in \[0, 1\] \(an int"),
    (1, r"got an int below 2 \(1\)"),
    (-3, r"got an int below 2 \(-3\)"),
    (True, r"got a bool \(True\)"),
    (torch.zeros(2, 2), r"got a tensor that is not 1-D.*shape \(2, 2\)"),
    ([], r"got an empty list"),
    (torch.zeros(0), r"got a tensor that is not 1-D, is empty.*shape \(0,\)"),
    (torch.tensor([0, 1]), r"got a tensor that is not 1-D, is empty or is not floating.*torch.int64"),
    (torch.tensor([True, False]), r"torch.bool"),
    ("0.5", r"got a str \('0.5'\)"),
    ((0.2, 0.5), r"got a tuple \(\(0.2, 0.5\)\)"),
]
EXPECTED = r"Expected `thresholds` to be None, an int >= 2, a non-empty list of floats in \[0, 1\] or a non-empty 1-D "


@pytest.mark.parametrize("bad, match", BAD, ids=[m[:30] for _, m in BAD])
def test_every_bad_form_gets_the_same_clear_error_in_functions_and_modules(bad, match):
    for task, (args, preds, target) in INPUTS.items():
        for name, cls in NAMES.items():
            with pytest.raises(ValueError, match=EXPECTED + ".*" + match):
                getattr(F, f"{task}_{name}")(preds, target, *args, thresholds=bad)
            with pytest.raises(ValueError, match=EXPECTED + ".*" + match):
                getattr(ours, f"{task.capitalize()}{cls}")(*args, thresholds=bad)


def test_binned_partial_auroc_where_every_false_positive_rate_is_zero():
    """No negative reaches the lowest threshold: every FPR is 0, and torchmetrics' area is 0."""
    preds, target = torch.tensor([0.1, 0.2, 0.3, 0.6, 0.95, 0.4]), torch.tensor([0, 0, 0, 1, 1, 1])
    expected = tmf.binary_auroc(preds, target, thresholds=[0.5, 0.9], max_fpr=0.5)
    assert expected.item() == 0.0
    assert F.binary_auroc(preds, target, thresholds=[0.5, 0.9], max_fpr=0.5).item() == 0.0
    m = partial(ours.BinaryAUROC, thresholds=[0.9, 0.5], max_fpr=0.5)()
    m.update(preds, target)
    assert m.compute().item() == 0.0
