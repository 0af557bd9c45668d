"""Regression metrics across real gloo ranks (uneven shards, an empty rank): one spawn per world size for the
family, the correlations (``test_correlation.py``) and torchmetrics' other names (``test_regression_measures.py``)
included. The R² / explained-variance cases exercise the fold (Chan) state sync; the weighted cases the weight-sum
states beside the int64 counts."""
from functools import partial

from tests.helpers.distributed import Case, distributed_test
from tests.helpers.regression import measures
from tests.helpers.regression.correlation import MULTI as CORR_MULTI
from tests.helpers.regression.correlation import ONE as CORR_ONE
from tests.helpers.shards import R1, R3, TIGHT, W_R1, W_R3
from torchmetrics_lite import (
    ConcordanceCorrCoef,
    ExplainedVariance,
    KendallRankCorrCoef,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    PearsonCorrCoef,
    R2Score,
    RootMeanSquaredError,
    SpearmanCorrCoef,
)

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
    Case("r2_no_data", R2Score, []),
    Case("r2_weighted", R2Score, W_R1, TIGHT),
    Case("mse_weighted_2_outputs", partial(MeanSquaredError, num_outputs=2, multioutput="raw_values"), W_R3),
]

# the correlations (tests/torchmetrics_lite/regression/test_correlation.py)
EXACT = {"atol": 1e-12, "rtol": 0}
CASES += [
    Case("pearson", PearsonCorrCoef, CORR_ONE, EXACT),
    Case("concordance_multi", partial(ConcordanceCorrCoef, num_outputs=3), CORR_MULTI, EXACT),
    Case("spearman", SpearmanCorrCoef, CORR_ONE, EXACT),
    Case("kendall_c_test", partial(KendallRankCorrCoef, "c", True), CORR_ONE, EXACT),
    Case("kendall_multi", partial(KendallRankCorrCoef, num_outputs=3), CORR_MULTI, EXACT),
]

# torchmetrics' other regression names (tests/torchmetrics_lite/regression/test_regression_measures.py)
CASES += [
    Case(f"extra_{i}_{getattr(factory, 'func', factory).__name__}", factory, batches, {"atol": 1e-12, "rtol": 1e-10})
    for i, (factory, _, batches, _) in enumerate(measures.CASES)
    if getattr(factory, "keywords", {}).get("reduction", "sum") not in ("none", None)  # rows: gathered by rank
]

test_distributed_equals_single_process = distributed_test(CASES)
