"""Float 0.0/1.0 targets (``BCEWithLogitsLoss`` loops have them) give the same value as integer targets in every
binary family that shares the check (classification, rank metrics, calibration); any other value is rejected
before the state changes."""
from functools import partial

import pytest
import torch

import torchmetrics_lite as tml
from tests.helpers.metric_tester import assert_close, check_rejects
from torchmetrics_lite import functional as F

GEN = torch.Generator().manual_seed(3)
PREDS = torch.rand(64, generator=GEN)
TARGET = (torch.rand(64, generator=GEN) > 0.6).long()

FUNCTIONS = [F.binary_accuracy, F.binary_f1_score, F.binary_auroc, F.binary_average_precision,
             F.binary_calibration_error, F.binary_brier_score]
MODULES = [tml.BinaryAccuracy, tml.BinaryF1Score, tml.BinaryAUROC, tml.BinaryAveragePrecision,
           tml.BinaryCalibrationError, tml.BinaryBrierScore, partial(tml.BinaryAUROC, bins=10)]


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
def test_float_targets_equal_integer_targets_functional(fn, dtype):
    assert_close(fn(PREDS, TARGET.to(dtype)), fn(PREDS, TARGET))


@pytest.mark.parametrize("factory", MODULES)
def test_float_targets_equal_integer_targets_module(factory):
    ints, floats = factory(), factory()
    for half in (slice(0, 32), slice(32, 64)):
        ints.update(PREDS[half], TARGET[half])
        floats.update(PREDS[half], TARGET[half].float())
    assert_close(floats.compute(), ints.compute())


@pytest.mark.parametrize("factory", MODULES)
@pytest.mark.parametrize("bad, shown", [(0.5, "0.5"), (float("nan"), "nan"), (2.0, "2.0")])
def test_other_float_targets_are_rejected_before_any_state_change(factory, bad, shown):
    target = TARGET.float()
    target[5] = bad
    check_rejects(factory, [(PREDS[:8], TARGET[:8])], (PREDS, target), ValueError,
                  rf"Expected `target` to hold only 0 and 1 .*got value {shown}")
