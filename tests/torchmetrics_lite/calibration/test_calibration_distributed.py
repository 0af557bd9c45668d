"""Calibration metrics across real gloo ranks (uneven shards, an empty rank; weighted cases: the weight-sum
states beside the int64 counts): one spawn per world size for the family."""
from functools import partial

from tests.helpers.distributed import Case, distributed_test
from tests.helpers.shards import BIN, MC, W_BIN, W_MC
from torchmetrics_lite import (
    BinaryBrierScore,
    BinaryCalibrationError,
    MulticlassBrierScore,
    MulticlassCalibrationError,
)

CASES = [
    Case("brier_binary", BinaryBrierScore, BIN),
    Case("brier_multiclass", partial(MulticlassBrierScore, num_classes=4), MC),
    Case("ece_binary", partial(BinaryCalibrationError, n_bins=7), BIN),
    Case("mce_binary", partial(BinaryCalibrationError, norm="max"), BIN),
    Case("rms_multiclass", partial(MulticlassCalibrationError, num_classes=4, n_bins=5, norm="l2"), MC),
    Case("ece_weighted", partial(BinaryCalibrationError, n_bins=7), W_BIN),
    Case("brier_multiclass_weighted", partial(MulticlassBrierScore, num_classes=4), W_MC),
]

test_distributed_equals_single_process = distributed_test(CASES)
