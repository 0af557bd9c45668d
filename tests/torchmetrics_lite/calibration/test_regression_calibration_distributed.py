"""Regression and calibration metrics across real gloo ranks (uneven shards, an empty rank): one spawn per
world size for both families. The R² / explained-variance cases exercise the fold (Chan) state sync; the
weighted cases the weight-sum states beside the int64 counts."""
from functools import partial

import torch

from tests.helpers.distributed import Case, distributed_test
from torchmetrics_lite import (
    BinaryBrierScore,
    BinaryCalibrationError,
    ExplainedVariance,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    MulticlassBrierScore,
    MulticlassCalibrationError,
    R2Score,
    RootMeanSquaredError,
)

GEN = torch.Generator().manual_seed(66)
SIZES = (13, 0, 40, 2, 9, 31, 5)


def _regression(d):
    out = []
    for n in SIZES:
        target = 1e4 + torch.randn(n, d, generator=GEN, dtype=torch.float64)  # large offset: Chan matters
        preds = target + 0.5 * torch.randn(n, d, generator=GEN, dtype=torch.float64)
        out.append((preds.float().squeeze(1), target.float().squeeze(1)) if d == 1 else (preds, target))
    return out


def _binary():
    return [(torch.rand(n, generator=GEN, dtype=torch.float64), torch.randint(0, 2, (n,), generator=GEN))
            for n in SIZES]


def _multiclass(c):
    return [(torch.softmax(torch.randn(n, c, generator=GEN, dtype=torch.float64), 1),
             torch.randint(0, c, (n,), generator=GEN)) for n in SIZES]


def _weighted(batches):
    """The same batches with a third, weight column (zeros included)."""
    return [(*b, torch.rand(b[0].shape[0], generator=GEN, dtype=torch.float64).round(decimals=1)) for b in batches]


R1, R3, BIN, MC = _regression(1), _regression(2), _binary(), _multiclass(4)
TIGHT = {"atol": 1e-9, "rtol": 1e-9}

CASES = [
    Case("mse", MeanSquaredError, R1),
    Case("rmse", RootMeanSquaredError, R1),
    Case("mae", MeanAbsoluteError, R1),
    Case("mape", MeanAbsolutePercentageError, R1),
    Case("r2", R2Score, R1, TIGHT),
    Case("r2_adjusted", partial(R2Score, adjusted=3), R1, TIGHT),
    Case("ev", ExplainedVariance, R1, TIGHT),
    Case("r2_raw_2_outputs", partial(R2Score, num_outputs=2, multioutput="raw_values"), R3, TIGHT),
    Case("ev_weighted_2_outputs", partial(ExplainedVariance, num_outputs=2, multioutput="variance_weighted"), R3,
         TIGHT),
    Case("mse_raw_2_outputs", partial(MeanSquaredError, num_outputs=2, multioutput="raw_values"), R3),
    Case("brier_binary", BinaryBrierScore, BIN),
    Case("brier_multiclass", partial(MulticlassBrierScore, num_classes=4), MC),
    Case("ece_binary", partial(BinaryCalibrationError, n_bins=7), BIN),
    Case("mce_binary", partial(BinaryCalibrationError, norm="max"), BIN),
    Case("rms_multiclass", partial(MulticlassCalibrationError, num_classes=4, n_bins=5, norm="l2"), MC),
    Case("r2_no_data", R2Score, []),
    Case("r2_weighted", R2Score, _weighted(R1), TIGHT),
    Case("mse_weighted_2_outputs", partial(MeanSquaredError, num_outputs=2, multioutput="raw_values"),
         _weighted(R3)),
    Case("ece_weighted", partial(BinaryCalibrationError, n_bins=7), _weighted(BIN)),
    Case("brier_multiclass_weighted", partial(MulticlassBrierScore, num_classes=4), _weighted(MC)),
]

# the correlations (tests/torchmetrics_lite/regression/test_correlation.py), in this module's one spawn
from tests.torchmetrics_lite.regression.test_correlation import MULTI as CORR_MULTI  # noqa: E402
from tests.torchmetrics_lite.regression.test_correlation import ONE as CORR_ONE  # noqa: E402
from torchmetrics_lite import (  # noqa: E402
    ConcordanceCorrCoef,
    KendallRankCorrCoef,
    PearsonCorrCoef,
    SpearmanCorrCoef,
)

EXACT = {"atol": 1e-12, "rtol": 0}
CASES += [
    Case("pearson", PearsonCorrCoef, CORR_ONE, EXACT),
    Case("concordance_multi", partial(ConcordanceCorrCoef, num_outputs=3), CORR_MULTI, EXACT),
    Case("spearman", SpearmanCorrCoef, CORR_ONE, EXACT),
    Case("kendall_c_test", partial(KendallRankCorrCoef, "c", True), CORR_ONE, EXACT),
    Case("kendall_multi", partial(KendallRankCorrCoef, num_outputs=3), CORR_MULTI, EXACT),
]

# torchmetrics' other regression names (tests/torchmetrics_lite/regression/test_regression_extra.py), same spawn
from tests.torchmetrics_lite.regression import test_regression_extra as extra  # noqa: E402

CASES += [
    Case(f"extra_{i}_{getattr(factory, 'func', factory).__name__}", factory, batches, {"atol": 1e-12, "rtol": 1e-10})
    for i, (factory, _, batches, _) in enumerate(extra.CASES)
    if getattr(factory, "keywords", {}).get("reduction", "sum") not in ("none", None)  # rows: gathered by rank
]

test_distributed_equals_single_process = distributed_test(CASES)
