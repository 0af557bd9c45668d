"""Regression metrics: MSE, RMSE, MAE, MAPE, R² (adjusted), explained variance; and the correlations: Pearson and
Lin's concordance (:mod:`~torchmetrics_lite.functional.regression.correlation`, streamed co-moments), Spearman and
Kendall (:mod:`~torchmetrics_lite.functional.regression.rank_correlation`, ranks of the kept values); and
torchmetrics' other names: the pooled errors (:mod:`~torchmetrics_lite.functional.regression.errors`: MSLE,
log-cosh, Minkowski, Tweedie, weighted and symmetric MAPE, CSI, CRPS), the row-wise measures
(:mod:`~torchmetrics_lite.functional.regression.divergence`: cosine similarity, KL and JS divergence) and the
spread-relative errors over R²'s moments (:mod:`~torchmetrics_lite.functional.regression.normalized`: RSE, NRMSE).
These take torchmetrics' arguments and no ``weight=``.

Inputs are ``preds`` and ``target`` of the same shape, ``(N,)`` (one output) or ``(N, d)`` (``d`` outputs,
scored column by column), any real dtype; all statistics are computed in float64 (the conversion from
float32/float16/int is exact), so a long float32 stream does not drift. On a device without float64 (Apple MPS,
:func:`~torchmetrics_lite.metric.float_dtype`) they are float32 and so are the values: about 7 significant
digits, the moments still well-conditioned (the precision a float32 stream keeps, with a measured figure, is in
:mod:`torchmetrics_lite.functional.regression._kernels`).

**Sample weights.** Every MSE to explained-variance function and module ``update`` takes ``weight=``: ``None`` or a
non-negative ``(N,)`` tensor, one value per sample (row), with scikit-learn's ``sample_weight`` semantics: a sample
of weight ``k`` counts as ``k`` copies of it, weight 0 as absent. A weighted mean divides by the weight sum;
unweighted samples weigh 1, so weighted and unweighted batches mix in one stream. Unweighted batches keep their
int64 counts.

Two kinds of sufficient statistics, both exact under streaming and across ranks:

* **Error sums** (MSE, RMSE, MAE, MAPE): per-output sums of non-negative terms (``w e²``, ``w |e|``,
  ``w |e| / max(|y|, eps)``), the int64 count of unweighted samples and the float64 weight sum of weighted
  ones. Adding non-negative float64 terms has no cancellation.
* **Moments** (R², explained variance): per column, the sample count, the weight sum ``W``, the weighted mean
  and the centred second moment ``M2 = sum w (x - mean)²`` of the target and of the residual
  ``target - preds``. Batches and ranks merge with Chan et al.'s parallel formula in West's weighted form
  (:func:`fold_moments`), never through raw sums of squares, which lose every significant digit when the
  values sit far from zero (targets around 1e4 with unit noise). The sample count (not ``W``) decides R²'s
  "fewer than two samples" rule and the adjusted score's ``n``.

``multioutput`` (scikit-learn's): ``"raw_values"`` returns the ``(d,)`` per-output scores,
``"uniform_average"`` (default) their mean, ``"variance_weighted"`` (R², explained variance) their mean
weighted by each target column's variance. Constant targets follow scikit-learn (``force_finite=True``):
a score whose numerator is 0 is 1.0, one with a zero denominator and a non-zero numerator is 0.0; when every
column is constant, ``"variance_weighted"`` falls back to the uniform mean.

References: Chan, Golub & LeVeque, "Algorithms for computing the sample variance: analysis and
recommendations", The American Statistician 37(3), 1983; West, "Updating mean and variance estimates: an
improved method", Communications of the ACM 22(9), 1979.
"""
from torchmetrics_lite import _compat, _lazy
from torchmetrics_lite.functional.regression.correlation import (
    concordance_corrcoef,
    fold_comoments,
    pearson_corrcoef,
)
from torchmetrics_lite.functional.regression.divergence import (
    cosine_similarity,
    jensen_shannon_divergence,
    kl_divergence,
)
from torchmetrics_lite.functional.regression.errors import (
    continuous_ranked_probability_score,
    critical_success_index,
    log_cosh_error,
    mean_squared_log_error,
    minkowski_distance,
    symmetric_mean_absolute_percentage_error,
    tweedie_deviance_score,
    weighted_mean_absolute_percentage_error,
)
from torchmetrics_lite.functional.regression.measures import (
    explained_variance,
    fold_moments,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
)
from torchmetrics_lite.functional.regression.normalized import (
    normalized_root_mean_squared_error,
    relative_squared_error,
)
from torchmetrics_lite.functional.regression.rank_correlation import kendall_rank_corrcoef, spearman_corrcoef

__all__ = [
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "r2_score",
    "explained_variance",
    "fold_moments",
    "pearson_corrcoef",
    "concordance_corrcoef",
    "spearman_corrcoef",
    "kendall_rank_corrcoef",
    "fold_comoments",
    "mean_squared_log_error",
    "log_cosh_error",
    "minkowski_distance",
    "tweedie_deviance_score",
    "weighted_mean_absolute_percentage_error",
    "symmetric_mean_absolute_percentage_error",
    "critical_success_index",
    "continuous_ranked_probability_score",
    "cosine_similarity",
    "kl_divergence",
    "jensen_shannon_divergence",
    "relative_squared_error",
    "normalized_root_mean_squared_error",
]
_compat.advise_exports(globals())  # torchmetrics' arguments get the classes' advice (see _compat.advise)

__getattr__ = _lazy.missing(__name__, globals())  # a name this library lacks: the error names the nearest
