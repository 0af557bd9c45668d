"""The multilabel operating points (recall at fixed precision, precision at fixed recall, sensitivity at
specificity, specificity at sensitivity): each label's binary operating point, the no-candidate value of empty
input, their modules through the harness (the distributed case is in ``tests/helpers/auroc/rank_scores.py``), and
torchmetrics 1.9 on the same inputs (its ROC starts at threshold 1.0, ours at inf: the family's documented
difference). A best value of 0 (issue 23 item 9): the threshold is nan for recall at fixed precision and precision
at fixed recall (as torchmetrics), binary and per class, function and module; the ROC operating points keep their
documented rule (the curve's start, threshold inf, where torchmetrics says 1.0). The binary and multiclass points
against torchmetrics on random inputs are in ``test_curves_points.py``, their binned mode in
``test_binned_points.py``."""
import math
import warnings
from functools import partial

import numpy as np
import pytest
import torch
import torchmetrics.functional.classification as tm

import torchmetrics_lite as T
import torchmetrics_lite.functional as F
from tests.helpers.auroc.rank_scores import ML, L, make
from tests.helpers.metric_tester import check_metric_against_function, check_rejects

POINTS = {"recall_at_fixed_precision": "RecallAtFixedPrecision", "precision_at_fixed_recall": "PrecisionAtFixedRecall",
          "sensitivity_at_specificity": "SensitivityAtSpecificity",
          "specificity_at_sensitivity": "SpecificityAtSensitivity"}

@pytest.mark.parametrize("minimum", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("name", sorted(POINTS))
def test_multilabel_points_are_the_binary_point_of_each_label(name, minimum, backend):
    _, _, _, scores, labels = make(150, seed=2)
    labels[:, 4] = 0  # a label without positives
    values, thresholds = getattr(F, f"multilabel_{name}")(scores, labels, L, minimum)
    for j in range(L):
        value, threshold = getattr(F, f"binary_{name}")(scores[:, j], labels[:, j], minimum)
        torch.testing.assert_close(values[j], value, rtol=0, atol=0, equal_nan=True)  # nan: a rate of 0/0
        torch.testing.assert_close(thresholds[j], threshold, rtol=0, atol=0, equal_nan=True)

def test_points_of_empty_input_are_the_no_candidate_value():
    empty = (torch.zeros(0, L), torch.zeros(0, L, dtype=torch.long))
    for name, none in (("recall_at_fixed_precision", math.nan), ("precision_at_fixed_recall", math.nan),
                       ("sensitivity_at_specificity", 1e6), ("specificity_at_sensitivity", 1e6)):
        values, thresholds = getattr(F, f"multilabel_{name}")(*empty, L, 0.5)
        assert values.tolist() == [0.0] * L
        torch.testing.assert_close(thresholds, torch.full((L,), none), rtol=0, atol=0, equal_nan=True)
        value, threshold = getattr(F, f"binary_{name}")(empty[0][:, 0], empty[1][:, 0], 0.5)
        assert value.item() == 0.0
        torch.testing.assert_close(threshold, torch.tensor(none), rtol=0, atol=0, equal_nan=True)


# ------------------------------------------------------------------------------------------------------ torchmetrics
TM_POINTS = ["recall_at_fixed_precision", "precision_at_fixed_recall", "sensitivity_at_specificity",
             "specificity_at_sensitivity"]

@pytest.mark.parametrize("minimum", [0.0, 0.3, 0.8, 1.0])
@pytest.mark.parametrize("name", TM_POINTS)
def test_multilabel_points_match_torchmetrics(name, minimum):
    _, _, _, scores, labels = make(200, seed=7, decimals=2)
    probs = torch.sigmoid(scores.double()).float()
    values, thresholds = getattr(F, f"multilabel_{name}")(probs, labels, L, minimum)
    want_values, want_thresholds = getattr(tm, f"multilabel_{name}")(probs, labels, L, minimum)
    np.testing.assert_allclose(values.numpy(), want_values.double().numpy(), atol=1e-6, rtol=0)
    # torchmetrics' ROC starts at threshold 1.0, ours (scikit-learn's) at inf: the family's documented difference
    start = torch.isinf(thresholds) & (want_thresholds == 1.0)
    np.testing.assert_allclose(torch.where(start, math.inf, thresholds.double()).numpy(),
                               torch.where(start, math.inf, want_thresholds.double()).numpy(), atol=1e-6, rtol=0)
    module = getattr(T, "Multilabel" + "".join(p.title() for p in name.split("_")))(L, minimum)
    torch.testing.assert_close(module(probs, labels)[0], values)


# ---------------------------------------------------------------------------------------------- a best value of zero
# binary: the positives score below every negative, so no threshold reaches precision 0.9 but the empty
# prediction (recall 0); with min_recall=0 and no positive at all every candidate has precision 0
BIN_PREDS, BIN_TARGET = torch.tensor([0.9, 0.8, 0.7, 0.1]), torch.tensor([0, 0, 1, 1])
NO_POSITIVE = torch.tensor([0, 0, 0, 0])
# multiclass: class 1's positives and class 2's positive are outranked (best recall 0 at precision 0.9); class 3
# never occurs (best precision 0 at recall 0); class 0 is an ordinary class
MC_PREDS = torch.tensor([[0.7, 0.2, 0.1, 0.0], [0.2, 0.6, 0.2, 0.0], [0.5, 0.3, 0.2, 0.0], [0.1, 0.8, 0.1, 0.0],
                         [0.3, 0.3, 0.3, 0.1]])
MC_TARGET = torch.tensor([0, 1, 2, 0, 1])

ZERO_CASES = [  # (ours, torchmetrics', args, best value 0 at these positions)
    (F.binary_recall_at_fixed_precision, tm.binary_recall_at_fixed_precision, (BIN_PREDS, BIN_TARGET, 0.9), [()]),
    (F.binary_precision_at_fixed_recall, tm.binary_precision_at_fixed_recall, (BIN_PREDS, NO_POSITIVE, 0.0),
     [()]),
    (F.multiclass_recall_at_fixed_precision, tm.multiclass_recall_at_fixed_precision,
     (MC_PREDS, MC_TARGET, 4, 0.9), [(1,), (2,), (3,)]),
    (F.multiclass_precision_at_fixed_recall, tm.multiclass_precision_at_fixed_recall,
     (MC_PREDS, MC_TARGET, 4, 0.0), [(3,)]),
]


@pytest.mark.parametrize("ours, theirs, args, zero", ZERO_CASES, ids=lambda c: getattr(c, "__name__", None))
def test_a_best_value_of_zero_has_a_nan_threshold_as_torchmetrics(ours, theirs, args, zero):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # an absent class warns
        value, threshold = ours(*args)
        expected_value, expected_threshold = theirs(*args)
    for at in zero:
        assert value[at].item() == 0.0 and math.isnan(threshold[at].item()), (at, value, threshold)
    torch.testing.assert_close(value.float(), expected_value.float(), equal_nan=True)
    torch.testing.assert_close(threshold.float(), expected_threshold.float(), equal_nan=True)
    if value.dim():  # the other classes keep real thresholds
        others = [c for c in range(value.shape[0]) if (c,) not in zero]
        assert not torch.isnan(threshold[others]).any()


@pytest.mark.parametrize("module, kwargs, preds, target", [
    (T.BinaryRecallAtFixedPrecision, {"min_precision": 0.9}, BIN_PREDS, BIN_TARGET),
    (T.BinaryPrecisionAtFixedRecall, {"min_recall": 0.0}, BIN_PREDS, NO_POSITIVE),
])
def test_modules_stream_to_the_same_nan_threshold(module, kwargs, preds, target):
    m = module(**kwargs)
    m.update(preds[:2], target[:2])
    m.update(preds[2:], target[2:])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        value, threshold = m.compute()
    assert value.item() == 0.0 and math.isnan(threshold.item())


def test_roc_operating_points_at_a_best_value_of_zero_keep_the_curve_start():
    # only the ROC curve's (0, 0) start has specificity 1: sensitivity 0 at threshold inf (torchmetrics: 1.0)
    value, threshold = F.binary_sensitivity_at_specificity(BIN_PREDS, BIN_TARGET, 1.0)
    assert value.item() == 0.0 and threshold.item() == math.inf
    tm_value, tm_threshold = tm.binary_sensitivity_at_specificity(BIN_PREDS, BIN_TARGET, 1.0)
    assert tm_value.item() == 0.0 and tm_threshold.item() == 1.0  # the documented difference


# ----------------------------------------------------------------------------------------------------------- harness
def _f(name, **kw):
    return partial(getattr(F, name), **kw)


HARNESS = {
    **{f"ml_{n}": (partial(getattr(T, f"Multilabel{cls}"), L, 0.6), _f(f"multilabel_{n}", num_labels=L,
                                                                        **{arg: 0.6}), ML)
       for n, cls, arg in (("recall_at_fixed_precision", "RecallAtFixedPrecision", "min_precision"),
                           ("precision_at_fixed_recall", "PrecisionAtFixedRecall", "min_recall"),
                           ("sensitivity_at_specificity", "SensitivityAtSpecificity", "min_specificity"),
                           ("specificity_at_sensitivity", "SpecificityAtSensitivity", "min_sensitivity"))},

}


@pytest.mark.parametrize("name", sorted(HARNESS))
def test_harness(name):
    check_metric_against_function(*HARNESS[name])


# ------------------------------------------------------------------------------------------------------------ errors
def test_option_errors():
    with pytest.raises(ValueError, match=r"Expected `min_recall` to be a number in \[0.0, 1.0\], got 2"):
        T.MultilabelPrecisionAtFixedRecall(3, 2)


def test_modules_reject_bad_batches_unchanged():
    check_rejects(partial(T.MultilabelSpecificityAtSensitivity, L, 0.5), ML, (torch.rand(3, 2), torch.ones(3, 2)),
                  ValueError, r"num_labels = 5")
