"""Operating points whose best value is 0 (issue 23 item 9): the threshold is nan for recall at fixed precision
and precision at fixed recall (as torchmetrics), binary and per class, function and module; the ROC operating
points keep their documented rule (the curve's start, threshold inf, where torchmetrics says 1.0)."""
import math
import warnings

import pytest
import torch
import torchmetrics.functional.classification as tmf

import torchmetrics_lite as tml
from torchmetrics_lite import functional as F

# binary: the positives score below every negative, so no threshold reaches precision 0.9 but the empty
# prediction (recall 0); with min_recall=0 and no positive at all every candidate has precision 0
BIN_PREDS, BIN_TARGET = torch.tensor([0.9, 0.8, 0.7, 0.1]), torch.tensor([0, 0, 1, 1])
NO_POSITIVE = torch.tensor([0, 0, 0, 0])
# multiclass: class 1's positives and class 2's positive are outranked (best recall 0 at precision 0.9); class 3
# never occurs (best precision 0 at recall 0); class 0 is an ordinary class
MC_PREDS = torch.tensor([[0.7, 0.2, 0.1, 0.0], [0.2, 0.6, 0.2, 0.0], [0.5, 0.3, 0.2, 0.0], [0.1, 0.8, 0.1, 0.0],
                         [0.3, 0.3, 0.3, 0.1]])
MC_TARGET = torch.tensor([0, 1, 2, 0, 1])

CASES = [  # (ours, torchmetrics', args, best value 0 at these positions)
    (F.binary_recall_at_fixed_precision, tmf.binary_recall_at_fixed_precision, (BIN_PREDS, BIN_TARGET, 0.9), [()]),
    (F.binary_precision_at_fixed_recall, tmf.binary_precision_at_fixed_recall, (BIN_PREDS, NO_POSITIVE, 0.0),
     [()]),
    (F.multiclass_recall_at_fixed_precision, tmf.multiclass_recall_at_fixed_precision,
     (MC_PREDS, MC_TARGET, 4, 0.9), [(1,), (2,), (3,)]),
    (F.multiclass_precision_at_fixed_recall, tmf.multiclass_precision_at_fixed_recall,
     (MC_PREDS, MC_TARGET, 4, 0.0), [(3,)]),
]


@pytest.mark.parametrize("ours, theirs, args, zero", CASES, ids=lambda c: getattr(c, "__name__", None))
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
    (tml.BinaryRecallAtFixedPrecision, {"min_precision": 0.9}, BIN_PREDS, BIN_TARGET),
    (tml.BinaryPrecisionAtFixedRecall, {"min_recall": 0.0}, BIN_PREDS, NO_POSITIVE),
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
    tm_value, tm_threshold = tmf.binary_sensitivity_at_specificity(BIN_PREDS, BIN_TARGET, 1.0)
    assert tm_value.item() == 0.0 and tm_threshold.item() == 1.0  # the documented difference
