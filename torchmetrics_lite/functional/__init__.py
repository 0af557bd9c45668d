"""Pure, exact metric functions: ``x(...) = _x_from_stats(_x_stats(checked inputs))``."""
from torchmetrics_lite import _lazy

_EXPORTS = {  # module: the public names it provides (imported on first use, PEP 562)
    "torchmetrics_lite.functional.auroc": [
        "binary_auroc", "binary_auroc_ci", "binary_average_precision", "binary_precision_at_fixed_recall",
        "binary_precision_recall_curve", "binary_recall_at_fixed_precision", "binary_roc",
        "binary_sensitivity_at_specificity", "binary_specificity_at_sensitivity", "multiclass_auroc",
        "multiclass_average_precision", "multiclass_precision_at_fixed_recall", "multiclass_precision_recall_curve",
        "multiclass_recall_at_fixed_precision", "multiclass_roc", "multiclass_sensitivity_at_specificity",
        "multiclass_specificity_at_sensitivity", "multilabel_auroc", "multilabel_average_precision",
        "multilabel_precision_recall_curve", "multilabel_roc", "paired_auroc_test",
        "binary_eer", "binary_eer_threshold", "multiclass_eer", "multiclass_eer_threshold", "multilabel_eer",
        "multilabel_eer_threshold", "binary_logauc", "multiclass_logauc", "multilabel_logauc",
        "multilabel_coverage_error", "multilabel_ranking_average_precision", "multilabel_ranking_loss",
        "multilabel_precision_at_fixed_recall", "multilabel_recall_at_fixed_precision",
        "multilabel_sensitivity_at_specificity", "multilabel_specificity_at_sensitivity",
    ],
    "torchmetrics_lite.functional.calibration": [
        "binary_brier_score", "binary_calibration_error", "multiclass_brier_score", "multiclass_calibration_error",
    ],
    "torchmetrics_lite.functional.classification": [
        "binary_accuracy", "binary_cohen_kappa", "binary_confusion_matrix", "binary_f1_score", "binary_fbeta_score",
        "binary_jaccard_index", "binary_matthews_corrcoef", "binary_precision", "binary_recall", "binary_specificity",
        "binary_stat_scores", "multiclass_accuracy", "multiclass_cohen_kappa", "multiclass_confusion_matrix",
        "multiclass_f1_score", "multiclass_fbeta_score", "multiclass_jaccard_index", "multiclass_matthews_corrcoef",
        "multiclass_precision", "multiclass_recall", "multiclass_specificity", "multiclass_stat_scores",
        "multilabel_accuracy", "multilabel_confusion_matrix", "multilabel_exact_match", "multilabel_f1_score",
        "multilabel_fbeta_score", "multilabel_hamming_distance", "multilabel_jaccard_index",
        "multilabel_matthews_corrcoef", "multilabel_precision", "multilabel_recall", "multilabel_specificity",
        "multilabel_stat_scores", "binary_negative_predictive_value", "multiclass_negative_predictive_value",
        "multilabel_negative_predictive_value", "binary_hamming_distance", "multiclass_hamming_distance",
        "multiclass_exact_match", "binary_hinge_loss", "multiclass_hinge_loss", "binary_fairness",
        "binary_groups_stat_rates", "demographic_parity", "equal_opportunity",
    ],
    "torchmetrics_lite.functional.multiple_choice": [
        "multiple_choice_accuracy",
    ],
    "torchmetrics_lite.functional.regression": [
        "explained_variance", "mean_absolute_error", "mean_absolute_percentage_error", "mean_squared_error",
        "r2_score", "root_mean_squared_error", "fold_moments",
        "pearson_corrcoef", "concordance_corrcoef", "spearman_corrcoef", "kendall_rank_corrcoef", "fold_comoments",
        "mean_squared_log_error", "log_cosh_error", "minkowski_distance", "tweedie_deviance_score",
        "weighted_mean_absolute_percentage_error", "symmetric_mean_absolute_percentage_error",
        "critical_success_index", "continuous_ranked_probability_score", "cosine_similarity", "kl_divergence",
        "jensen_shannon_divergence", "relative_squared_error", "normalized_root_mean_squared_error",
    ],
    "torchmetrics_lite.functional.retrieval": [
        "retrieval_average_precision", "retrieval_hit_rate", "retrieval_normalized_dcg", "retrieval_precision",
        "retrieval_r_precision", "retrieval_recall", "retrieval_reciprocal_rank", "retrieval_dcg",
        "retrieval_fall_out", "retrieval_auroc",
        "retrieval_precision_recall_curve", "retrieval_recall_at_fixed_precision",
    ],
    # torchmetrics' task-string functions: accuracy(..., task="binary"); `auroc` is the callable auroc subpackage
    "torchmetrics_lite.functional.tasks": [
        "accuracy", "average_precision", "calibration_error", "cohen_kappa", "confusion_matrix", "eer",
        "exact_match", "f1_score", "fbeta_score", "hamming_distance", "hinge_loss", "jaccard_index", "logauc",
        "matthews_corrcoef", "negative_predictive_value", "precision", "precision_at_fixed_recall",
        "precision_recall_curve", "recall", "recall_at_fixed_precision", "roc", "sensitivity_at_specificity",
        "specificity", "specificity_at_sensitivity", "stat_scores",
    ],
}
__getattr__, __dir__ = _lazy.attach(__name__, globals(), _EXPORTS)

__all__ = [*(name for names in _EXPORTS.values() for name in names)]
