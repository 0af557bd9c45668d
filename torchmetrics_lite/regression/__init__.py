"""Stateful regression metrics: thin modules over :mod:`torchmetrics_lite.functional.regression`.

The correlations (``PearsonCorrCoef``, ``ConcordanceCorrCoef``: one co-moment fold state ``(6, num_outputs)``;
``SpearmanCorrCoef``, ``KendallRankCorrCoef``: the kept values as ``cat`` states) live in
:mod:`torchmetrics_lite.regression.correlation`; the rest of this page is about the error and moment metrics.

``update(preds, target)`` takes ``(N,)`` tensors (``num_outputs=1``) or ``(N, num_outputs)`` tensors.

States (all float64, on the inputs' device; float32 on a device without float64, with one warning at the first
update, see :mod:`torchmetrics_lite.functional.regression._kernels` for the precision kept):

* MSE / RMSE / MAE / MAPE: per-output error sums (``sum`` states), an int64 count of the unweighted samples and
  a float64 weight sum of the weighted ones (the mean's denominator is their sum). Memory O(d).
* R² / explained variance: one *fold* state ``moments`` ``(4, 2d)`` holding ``[count, W, mean, M2]`` (sample
  count, weight sum, weighted mean and centred sum of squares) of the target and residual columns, merged with
  Chan's parallel formula (West's weighted form)
  (:func:`~torchmetrics_lite.functional.regression.fold_moments`)
  when batches are merged, when metrics are merged (``merge_state``) and across ranks (one all-gather of every
  rank's moments, then one fold). Memory O(d), whatever the number of batches or samples, and no raw sum of
  squares anywhere, so a float32 stream of large-offset targets keeps every digit.

``MeanSquaredError``/``RootMeanSquaredError`` (the same statistics) and ``R2Score``/``ExplainedVariance``
(the same moments) declare equal ``stats_key``\\ s, so a ``MetricCollection`` computes each batch's
statistics once for both.

With ``num_outputs > 1`` torchmetrics' error metrics return the per-output values and scikit-learn their mean, so
``MeanSquaredError``, ``RootMeanSquaredError``, ``MeanAbsoluteError`` and ``MeanAbsolutePercentageError`` ask
for ``multioutput`` then (``"raw_values"``: the ``(d,)`` values, ``"uniform_average"``: their mean; a
``ValueError`` says so when it is missing); R² and explained variance default to ``"uniform_average"``, as both.
"""
from torchmetrics_lite import _lazy
from torchmetrics_lite.regression.correlation import (
    ConcordanceCorrCoef,
    KendallRankCorrCoef,
    PearsonCorrCoef,
    SpearmanCorrCoef,
)
from torchmetrics_lite.regression.divergence import (
    CosineSimilarity,
    JensenShannonDivergence,
    KLDivergence,
)
from torchmetrics_lite.regression.errors import (
    ContinuousRankedProbabilityScore,
    CriticalSuccessIndex,
    LogCoshError,
    MeanSquaredLogError,
    MinkowskiDistance,
    SymmetricMeanAbsolutePercentageError,
    TweedieDevianceScore,
    WeightedMeanAbsolutePercentageError,
)
from torchmetrics_lite.regression.measures import (
    ExplainedVariance,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    R2Score,
    RootMeanSquaredError,
)
from torchmetrics_lite.regression.normalized import NormalizedRootMeanSquaredError, RelativeSquaredError

__all__ = [
    "MeanSquaredError", "RootMeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
    "R2Score", "ExplainedVariance",
    "PearsonCorrCoef", "ConcordanceCorrCoef", "SpearmanCorrCoef", "KendallRankCorrCoef",
    "MeanSquaredLogError", "LogCoshError", "MinkowskiDistance", "TweedieDevianceScore",
    "WeightedMeanAbsolutePercentageError", "SymmetricMeanAbsolutePercentageError", "CriticalSuccessIndex",
    "ContinuousRankedProbabilityScore", "CosineSimilarity", "KLDivergence", "JensenShannonDivergence",
    "RelativeSquaredError", "NormalizedRootMeanSquaredError",
]
__getattr__ = _lazy.missing(__name__, globals())  # a name this library lacks: the error names the nearest
