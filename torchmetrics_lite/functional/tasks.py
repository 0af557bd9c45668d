"""torchmetrics' task-level functions (``accuracy(preds, target, task="multiclass", num_classes=3)``): thin
forms that call the task's own function (``multiclass_accuracy``), built from the table of
:mod:`torchmetrics_lite.tasks` (the same arguments, defaults and forwarding as torchmetrics' functional forms).

``auroc`` is defined here too, but reached as ``torchmetrics_lite.functional.auroc(preds, target, task=...)``: that
name is also the AUROC family's package, which is callable for this reason.

Examples:
    >>> import torch
    >>> accuracy(torch.tensor([2, 0, 1]), torch.tensor([2, 1, 1]), task="multiclass", num_classes=3)
    tensor(0.6667, dtype=torch.float64)
"""
from __future__ import annotations

from typing import Any, Callable

from torchmetrics_lite import tasks as _tasks

__all__ = [
    "accuracy", "average_precision", "calibration_error", "cohen_kappa", "confusion_matrix", "eer", "exact_match",
    "f1_score", "fbeta_score", "hamming_distance", "hinge_loss", "jaccard_index", "logauc", "matthews_corrcoef",
    "negative_predictive_value", "precision", "precision_at_fixed_recall", "precision_recall_curve", "recall",
    "recall_at_fixed_precision", "roc", "sensitivity_at_specificity", "specificity", "specificity_at_sensitivity",
    "stat_scores",
]


def _function(factory: str) -> Callable[..., Any]:
    spec = _tasks.TASKS[factory]
    name = _tasks.snake_case(factory)
    sig = _tasks.signature(spec, function=True)

    def task_function(*args: Any, **kwargs: Any) -> Any:
        bound = _tasks._bind(name, sig, args, kwargs)
        preds, target = bound.pop("preds"), bound.pop("target")
        target_fn, forwarded = _tasks.resolve(factory, spec, bound["task"], bound, function=True)
        return target_fn(preds, target, **forwarded)

    task_function.__name__ = task_function.__qualname__ = name
    task_function.__module__ = __name__
    task_function.__doc__ = _tasks._doc(factory, spec, True)
    task_function.__signature__ = sig  # type: ignore[attr-defined]
    return task_function


accuracy = _function("Accuracy")
auroc = _function("AUROC")
average_precision = _function("AveragePrecision")
calibration_error = _function("CalibrationError")
cohen_kappa = _function("CohenKappa")
confusion_matrix = _function("ConfusionMatrix")
eer = _function("EER")
exact_match = _function("ExactMatch")
f1_score = _function("F1Score")
fbeta_score = _function("FBetaScore")
hamming_distance = _function("HammingDistance")
hinge_loss = _function("HingeLoss")
jaccard_index = _function("JaccardIndex")
logauc = _function("LogAUC")
matthews_corrcoef = _function("MatthewsCorrCoef")
negative_predictive_value = _function("NegativePredictiveValue")
precision = _function("Precision")
precision_at_fixed_recall = _function("PrecisionAtFixedRecall")
precision_recall_curve = _function("PrecisionRecallCurve")
recall = _function("Recall")
recall_at_fixed_precision = _function("RecallAtFixedPrecision")
roc = _function("ROC")
sensitivity_at_specificity = _function("SensitivityAtSpecificity")
specificity = _function("Specificity")
specificity_at_sensitivity = _function("SpecificityAtSensitivity")
stat_scores = _function("StatScores")
