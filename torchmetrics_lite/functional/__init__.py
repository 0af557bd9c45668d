"""Pure, exact metric functions: ``x(...) = _x_from_stats(_x_stats(checked inputs))``."""

from torchmetrics_lite import _lazy

_EXPORTS = {  # module: the public names it provides (imported on first use, PEP 562)
    "torchmetrics_lite.functional.auroc": [
        "binary_auroc", "binary_average_precision", "binary_precision_recall_curve", "binary_roc", "multiclass_auroc",
        "multiclass_average_precision", "multilabel_auroc", "multilabel_average_precision",
    ],
    "torchmetrics_lite.functional.calibration": [
        "binary_brier_score", "binary_calibration_error", "multiclass_brier_score", "multiclass_calibration_error",
    ],
    "torchmetrics_lite.functional.classification": [
        "binary_accuracy", "binary_confusion_matrix", "binary_f1_score", "binary_fbeta_score", "binary_precision",
        "binary_recall", "binary_stat_scores", "multiclass_accuracy", "multiclass_confusion_matrix",
        "multiclass_f1_score", "multiclass_fbeta_score", "multiclass_precision", "multiclass_recall",
        "multiclass_stat_scores", "multilabel_accuracy", "multilabel_confusion_matrix", "multilabel_f1_score",
        "multilabel_fbeta_score", "multilabel_hamming_distance", "multilabel_precision", "multilabel_recall",
        "multilabel_stat_scores",
    ],
    "torchmetrics_lite.functional.multiple_choice": [
        "multiple_choice_accuracy",
    ],
    "torchmetrics_lite.functional.regression": [
        "explained_variance", "mean_absolute_error", "mean_absolute_percentage_error", "mean_squared_error",
        "r2_score", "root_mean_squared_error",
    ],
    "torchmetrics_lite.functional.retrieval": [
        "retrieval_average_precision", "retrieval_hit_rate", "retrieval_normalized_dcg", "retrieval_precision",
        "retrieval_r_precision", "retrieval_recall", "retrieval_reciprocal_rank",
        "retrieval_dcg", "retrieval_fall_out", "retrieval_auroc",
    ],
}
__getattr__, __dir__ = _lazy.attach(__name__, globals(), _EXPORTS)

__all__ = [
    # --- classification
    "binary_stat_scores",
    "binary_accuracy",
    "binary_precision",
    "binary_recall",
    "binary_f1_score",
    "binary_fbeta_score",
    "binary_confusion_matrix",
    "multiclass_stat_scores",
    "multiclass_accuracy",
    "multiclass_precision",
    "multiclass_recall",
    "multiclass_f1_score",
    "multiclass_fbeta_score",
    "multiclass_confusion_matrix",
    "multilabel_stat_scores",
    "multilabel_accuracy",
    "multilabel_precision",
    "multilabel_recall",
    "multilabel_f1_score",
    "multilabel_fbeta_score",
    "multilabel_confusion_matrix",
    "multilabel_hamming_distance",
    # --- auroc
    "binary_auroc",
    "multiclass_auroc",
    "multilabel_auroc",
    "binary_average_precision",
    "multiclass_average_precision",
    "multilabel_average_precision",
    "binary_roc",
    "binary_precision_recall_curve",
    # --- retrieval
    "retrieval_normalized_dcg",
    "retrieval_average_precision",
    "retrieval_reciprocal_rank",
    "retrieval_precision",
    "retrieval_recall",
    "retrieval_hit_rate",
    "retrieval_r_precision",
    "retrieval_dcg",
    "retrieval_fall_out",
    "retrieval_auroc",
    # --- regression, calibration
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "r2_score",
    "explained_variance",
    "binary_brier_score",
    "multiclass_brier_score",
    "binary_calibration_error",
    "multiclass_calibration_error",
    "multiple_choice_accuracy",
]
