"""Pure, exact metric functions: ``x(...) = _x_from_stats(_x_stats(checked inputs))``."""

# --- classification
# --- auroc
from torchmetrics_lite.functional.auroc import (
    binary_auroc, binary_average_precision, binary_precision_recall_curve, binary_roc, multiclass_auroc,
    multiclass_average_precision, multilabel_auroc, multilabel_average_precision,
)
# --- retrieval
# --- regression, calibration

__all__ = [
    # --- classification
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
    # --- regression, calibration
]
