"""Input validation and formatting: the only place that raises about inputs.

Every message names the argument, what was expected and what was received. Checks on metadata (type,
shape, dtype) cost nothing and always run; checks on values (NaN, ranges) force a device-to-host sync and are
the ones that ``validate_args=False`` skips. Family-specific validators compose the primitives and
live in one module per family (``primitives`` and one module named as each family); this package
re-exports them all, so callers import from ``torchmetrics_lite._checks``.
"""

from torchmetrics_lite._checks.aggregation import (  # noqa: F401
    NAN_STRATEGIES,
    NaNInputError,
    apply_nan_strategy,
    check_cat_input,
    check_nan_strategy,
)
from torchmetrics_lite._checks.auroc import (  # noqa: F401
    RANK_AVERAGES,
    Weighting,
    _rank_labels,
    _rank_scores,
    check_alpha,
    check_binary_rank_inputs,
    check_binned_auroc,
    check_binned_scores,
    check_binned_weight,
    check_bins,
    check_eer_average,
    check_fpr_range,
    check_max_fpr,
    check_multiclass_rank_inputs,
    check_multilabel_rank_inputs,
    check_probability,
    check_rank_average,
    check_rank_ignore_index,
    check_rank_weight,
    check_rank_weighting,
    check_thresholds,
    drop_ignored,
    flatten_extra_dims,
    plain_binary_rank_rows,
)
from torchmetrics_lite._checks.calibration import (  # noqa: F401
    _check_probabilities,
    check_binary_prob_inputs,
    check_calibrator_inputs,
    check_multiclass_prob_inputs,
)
from torchmetrics_lite._checks.classification import (  # noqa: F401
    CLASSIFICATION_AVERAGES,
    FAIRNESS_TASKS,
    HINGE_MODES,
    _check_pair,
    check_absent,
    check_accuracy_normalize,
    check_average,
    check_beta,
    check_binary_hinge_inputs,
    check_binary_inputs,
    check_groups,
    check_hinge_options,
    check_ignore_index,
    check_labels,
    check_multiclass_hinge_inputs,
    check_multiclass_inputs,
    check_multilabel_inputs,
    check_num_classes_hinge,
    check_probabilities,
    check_samplewise,
    check_threshold,
    check_top_k,
    check_weighted_update,
    fused_multiclass_checks,
)
from torchmetrics_lite._checks.correlation import check_correlation_inputs, check_kendall_options  # noqa: F401
from torchmetrics_lite._checks.multiple_choice import _check_multiple_choice  # noqa: F401
from torchmetrics_lite._checks.primitives import (  # noqa: F401
    check_aggregation_input,
    check_binary_target,
    check_binary_values,
    check_bool,
    check_choice,
    check_floating,
    check_integer,
    check_ndim,
    check_no_nan,
    check_number,
    check_positive_int,
    check_process_group_args,
    check_range,
    check_real,
    check_result_dtype,
    check_same_shape,
    check_sample_weight,
    check_sync_timeout,
    check_tensor,
    check_zero_division,
    integral_labels,
    shape_str,
    upcast,
    warn_probabilities_as_logits,
)
from torchmetrics_lite._checks.regression import (  # noqa: F401
    check_adjusted,
    check_ensemble,
    check_keep_sequence_dim,
    check_lower_bound,
    check_minkowski_p,
    check_multioutput,
    check_real_pair,
    check_reduction,
    check_regression_inputs,
    check_regression_values,
    check_tweedie_domain,
    check_tweedie_power,
    error_multioutput,
    rmse_multioutput,
)
from torchmetrics_lite._checks.retrieval import (  # noqa: F401
    AGGREGATIONS,
    check_module_indexes,
    check_retrieval_aggregated,
    check_retrieval_aggregation,
    check_retrieval_inputs,
    check_retrieval_options,
    check_retrieval_values,
)
from torchmetrics_lite._checks.retrieval_curves import check_curve_options, check_min_precision  # noqa: F401
