"""Exact rank metrics: AUROC (binary, multiclass one-vs-rest, multilabel, partial), average precision, and
the ROC and precision-recall curves.

Rank metrics use the scores' order only: probabilities, logits of any size, negative scores and float64
scores 1e-9 apart all give the exact answer. No sigmoid or softmax is applied and float64 is never cast down
(float16/bfloat16 go up to float32, which is exact and keeps the order). Labels are 0/1 (int or bool).

Exact AUROC is the Mann-Whitney statistic: the fraction of positive/negative pairs ranked correctly, a tied
pair counting 1/2 (mid-ranks), from one sort in O(n log n) with integer pair counts; see ``_ranking``.
With one class present AUROC is undefined: ``nan`` and a ``UserWarning`` (``ValueError`` with
``strict=True``). Average precision is undefined without positives (same rule) and 1 without negatives.

Each public function is ``_x_from_stats(_x_stats(checked inputs))``; the modules in
:mod:`torchmetrics_lite.auroc` call the same two functions. Reference: Hanley & McNeil (1982), "The meaning
and use of the area under a ROC curve"; McClish (1989) for the standardised partial AUC; scikit-learn's
``roc_auc_score`` / ``average_precision_score`` / ``roc_curve`` / ``precision_recall_curve`` conventions.
"""
from torchmetrics_lite.functional.auroc.binary import (
    binary_auroc,
    binary_average_precision,
    binary_precision_recall_curve,
    binary_roc,
)
from torchmetrics_lite.functional.auroc.multiclass import multiclass_auroc, multiclass_average_precision
from torchmetrics_lite.functional.auroc.multilabel import multilabel_auroc, multilabel_average_precision

__all__ = [
    "binary_auroc",
    "binary_average_precision",
    "binary_roc",
    "binary_precision_recall_curve",
    "multiclass_auroc",
    "multiclass_average_precision",
    "multilabel_auroc",
    "multilabel_average_precision",
]
