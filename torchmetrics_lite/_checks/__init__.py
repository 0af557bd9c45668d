"""Input validation and formatting: the only place that raises about inputs.

Every message names the argument, what was expected and what was received. Checks on metadata (type,
shape, dtype) cost nothing and always run; checks on values (NaN, ranges) force a device-to-host sync and are
the ones that ``validate_args=False`` skips. Family-specific validators compose the primitives and
live in one module per family (``primitives``, ``classification``, ``rank``, ``regression``); this package
re-exports them all, so callers import from ``torchmetrics_lite._checks``.
"""

from torchmetrics_lite._checks.primitives import (  # noqa: F401
    check_choice,
    check_tensor,
    check_positive_int,
    check_number,
    check_zero_division,
    check_same_shape,
    check_ndim,
    check_floating,
    check_integer,
    check_real,
    check_no_nan,
    check_range,
    check_binary_values,
    upcast,
    check_process_group_args,
    shape_str,
    check_weight,
    check_aggregation_input,
)
from torchmetrics_lite._checks.classification import (  # noqa: F401
    check_average,
    check_ignore_index,
    check_threshold,
    check_beta,
    check_top_k,
    check_labels,
    check_probabilities,
    _check_pair,
    check_binary_inputs,
    check_multiclass_inputs,
    check_multilabel_inputs,
    CLASSIFICATION_AVERAGES,
)
from torchmetrics_lite._checks.rank import (  # noqa: F401
    check_rank_average,
    check_max_fpr,
    check_bins,
    _rank_scores,
    _rank_labels,
    check_binary_rank_inputs,
    check_multiclass_rank_inputs,
    check_multilabel_rank_inputs,
    check_retrieval_options,
    check_retrieval_inputs,
    check_retrieval_values,
    RANK_AVERAGES,
)
from torchmetrics_lite._checks.regression import (  # noqa: F401
    check_regression_inputs,
    check_regression_values,
    check_multioutput,
    check_adjusted,
    _check_probabilities,
    check_binary_prob_inputs,
    check_multiclass_prob_inputs,
    check_calibrator_inputs,
)
