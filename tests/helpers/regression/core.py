"""The core regression functions (``test_regression.py``, ``test_regression_weights.py``): each with its
scikit-learn counterpart, module class and whether it allows ``multioutput="variance_weighted"``."""
import sklearn.metrics as skm

from torchmetrics_lite import (
    ExplainedVariance,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    R2Score,
    RootMeanSquaredError,
)
from torchmetrics_lite.functional import (
    explained_variance,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
)

FUNCTIONS = {  # name: (ours, sklearn, module class, allows variance_weighted)
    "mse": (mean_squared_error, skm.mean_squared_error, MeanSquaredError, False),
    "rmse": (root_mean_squared_error, skm.root_mean_squared_error, RootMeanSquaredError, False),
    "mae": (mean_absolute_error, skm.mean_absolute_error, MeanAbsoluteError, False),
    "mape": (mean_absolute_percentage_error, skm.mean_absolute_percentage_error, MeanAbsolutePercentageError, False),
    "r2": (r2_score, skm.r2_score, R2Score, True),
    "ev": (explained_variance, skm.explained_variance_score, ExplainedVariance, True),
}


def multioutputs(name):
    """The ``multioutput`` options the function ``name`` accepts."""
    return ["raw_values", "uniform_average"] + (["variance_weighted"] if FUNCTIONS[name][3] else [])
