"""Classification metrics from counts: stat scores, accuracy, precision, recall, F1, F-beta, specificity, negative
predictive value, confusion matrix, Hamming distance, exact match, group fairness; the hinge loss; binary,
multiclass and multilabel, with torchmetrics' names and arguments.

Conventions (all functions):

* **Inputs.** ``target`` holds integer (or bool) labels; binary and multilabel targets may also be floating
  tensors holding exactly 0.0/1.0 (``BCEWithLogitsLoss`` targets). Binary/multilabel ``preds`` are probabilities in
  [0, 1] (float), or 0/1 labels (int/bool). A float prediction is positive when ``preds > threshold``
  (torchmetrics' rule); with ``from_logits=True`` ``preds`` are real scores and positive when
  ``sigmoid(preds) > threshold``, computed without a sigmoid as ``preds > log(t / (1 - t))`` (0 for the
  default 0.5). Float ``preds`` outside [0, 1] without ``from_logits`` raise ``ValueError``: nothing is
  squashed silently. Multiclass ``preds`` are labels (N, ...) or real scores (N, C, ...); a score row predicts
  its first maximum (``argmax``); with ``top_k=k`` a sample predicts its target when the target is among its k
  highest scores (``torch.topk``), else its highest-scoring class (torchmetrics' rule; worked example in
  :mod:`~torchmetrics_lite.functional.classification.multiclass`).
* **Counts.** One counting pass per batch into int64 counts (see ``_stat_scores``), or float64 sums of
  ``weight=`` (one non-negative value per sample, scikit-learn's ``sample_weight``); samples whose target is
  ``ignore_index`` are left out of every count. Multiclass classes are one-vs-rest: for class c, tp counts
  target c predicted, fp other targets with c predicted, fn target c not predicted. Every metric of a task
  reads the same statistics (the 2x2, (C, C) or (L, 2, 2) confusion matrices), except exact match, which
  needs per-sample statistics.
* **Precision.** Scores, normalized matrices and weighted sums are float64; on a device without float64 (Apple
  MPS) they are float32 (about 7 significant digits; Matthews correlation and kappa, which square the counts,
  lose more on large counts), while int64 counts stay exact.
* **average.** ``"micro"``: the score of the counts summed over classes; ``"macro"``: the mean of the per-class
  scores (multiclass: over the classes that occur in targets or predictions, scikit-learn's default; multilabel:
  over all labels); ``"weighted"``: that mean weighted by each class's support; ``"none"`` (or ``None``): the
  per-class scores. Macro F1 is the mean of the per-class F1 scores (scikit-learn, torchmetrics); the
  literature also defines it as the F1 of macro precision and macro recall (Sokolova & Lapalme, 2009), which
  differs; compute that from ``*_precision`` and ``*_recall`` if wanted.
* **zero_division.** A 0/0 score (no predicted positives for precision, no support for recall, nothing
  counted at all) is ``zero_division`` (default 0.0); with ``float('nan')`` the class is left out of
  macro/weighted means (scikit-learn's rule). A mean over no class at all is ``zero_division``.
* **validate_args.** Value checks (label ranges, probability range, NaN) cost one fused pass and host sync
  each and are skipped with ``validate_args=False``; type and shape checks always run. On CPU the multiclass
  top-1 count (without ``ignore_index``) rejects an out-of-range target by itself, so the default multiclass
  path pays only the NaN check of the scores.

Reference: Sokolova, M. & Lapalme, G. (2009), "A systematic analysis of performance measures for
classification tasks", Information Processing & Management 45(4).
"""
from torchmetrics_lite import _compat, _lazy
from torchmetrics_lite import tasks as _tasks
from torchmetrics_lite.functional.classification.binary import (
    binary_accuracy,
    binary_confusion_matrix,
    binary_f1_score,
    binary_fbeta_score,
    binary_precision,
    binary_recall,
    binary_stat_scores,
)
from torchmetrics_lite.functional.classification.cohen_kappa import (
    binary_cohen_kappa,
    multiclass_cohen_kappa,
)
from torchmetrics_lite.functional.classification.exact_match import (
    multiclass_exact_match,
    multilabel_exact_match,
)
from torchmetrics_lite.functional.classification.group_fairness import (
    binary_fairness,
    binary_groups_stat_rates,
    demographic_parity,
    equal_opportunity,
)
from torchmetrics_lite.functional.classification.hamming import (
    binary_hamming_distance,
    multiclass_hamming_distance,
)
from torchmetrics_lite.functional.classification.hinge import (
    binary_hinge_loss,
    multiclass_hinge_loss,
)
from torchmetrics_lite.functional.classification.jaccard import (
    binary_jaccard_index,
    multiclass_jaccard_index,
    multilabel_jaccard_index,
)
from torchmetrics_lite.functional.classification.matthews_corrcoef import (
    binary_matthews_corrcoef,
    multiclass_matthews_corrcoef,
    multilabel_matthews_corrcoef,
)
from torchmetrics_lite.functional.classification.multiclass import (
    multiclass_accuracy,
    multiclass_confusion_matrix,
    multiclass_f1_score,
    multiclass_fbeta_score,
    multiclass_precision,
    multiclass_recall,
    multiclass_stat_scores,
)
from torchmetrics_lite.functional.classification.multilabel import (
    multilabel_accuracy,
    multilabel_confusion_matrix,
    multilabel_f1_score,
    multilabel_fbeta_score,
    multilabel_hamming_distance,
    multilabel_precision,
    multilabel_recall,
    multilabel_stat_scores,
)
from torchmetrics_lite.functional.classification.negative_predictive_value import (
    binary_negative_predictive_value,
    multiclass_negative_predictive_value,
    multilabel_negative_predictive_value,
)
from torchmetrics_lite.functional.classification.specificity import (
    binary_specificity,
    multiclass_specificity,
    multilabel_specificity,
)

__all__ = [
    "binary_stat_scores", "binary_accuracy", "binary_precision", "binary_recall", "binary_f1_score",
    "binary_fbeta_score", "binary_confusion_matrix", "binary_cohen_kappa", "multiclass_cohen_kappa",
    "multilabel_exact_match", "binary_jaccard_index", "multiclass_jaccard_index", "multilabel_jaccard_index",
    "binary_matthews_corrcoef", "multiclass_matthews_corrcoef", "multilabel_matthews_corrcoef",
    "multiclass_stat_scores", "multiclass_accuracy", "multiclass_precision", "multiclass_recall",
    "multiclass_f1_score", "multiclass_fbeta_score", "multiclass_confusion_matrix", "multilabel_stat_scores",
    "multilabel_accuracy", "multilabel_precision", "multilabel_recall", "multilabel_f1_score",
    "multilabel_fbeta_score", "multilabel_confusion_matrix", "multilabel_hamming_distance", "binary_specificity",
    "multiclass_specificity", "multilabel_specificity", "binary_negative_predictive_value",
    "multiclass_negative_predictive_value", "multilabel_negative_predictive_value", "binary_hamming_distance",
    "multiclass_hamming_distance", "multiclass_exact_match", "binary_hinge_loss", "multiclass_hinge_loss",
    "binary_fairness", "binary_groups_stat_rates", "demographic_parity", "equal_opportunity",
]

# torchmetrics exports these rank metrics from its classification package too; they live in the AUROC family
# (its __all__, _EXPORTS and docs page), so they are importable here but not listed in this __all__.
from torchmetrics_lite.functional.auroc import (  # noqa: E402,F401
    binary_eer,
    binary_logauc,
    multiclass_eer,
    multiclass_logauc,
    multilabel_coverage_error,
    multilabel_eer,
    multilabel_logauc,
    multilabel_precision_at_fixed_recall,
    multilabel_ranking_average_precision,
    multilabel_ranking_loss,
    multilabel_recall_at_fixed_precision,
    multilabel_sensitivity_at_specificity,
    multilabel_specificity_at_sensitivity,
)

_compat.advise_exports(globals())  # torchmetrics' arguments get the classes' advice (see _compat.advise)

# torchmetrics' task-level functions whose names are also concept modules of this package: imported after those
# modules, the functions take the package attributes (`functional.classification.cohen_kappa(..., task=...)`)
from torchmetrics_lite.functional.tasks import (  # noqa: E402, F401
    cohen_kappa,
    exact_match,
    matthews_corrcoef,
    negative_predictive_value,
    specificity,
)

# torchmetrics' paths: the functions torchmetrics.functional.classification exports that live in other families
# here (imported on first use; documented with their family), and a clear error for a name this library lacks
__getattr__, __dir__ = _lazy.attach(__name__, globals(), {
    "torchmetrics_lite.functional.auroc": [
        "binary_auroc", "binary_average_precision", "binary_precision_at_fixed_recall",
        "binary_precision_recall_curve", "binary_recall_at_fixed_precision", "binary_roc",
        "binary_sensitivity_at_specificity", "binary_specificity_at_sensitivity", "multiclass_auroc",
        "multiclass_average_precision", "multiclass_precision_at_fixed_recall",
        "multiclass_precision_recall_curve", "multiclass_recall_at_fixed_precision", "multiclass_roc",
        "multiclass_sensitivity_at_specificity", "multiclass_specificity_at_sensitivity",
        "multilabel_auroc", "multilabel_average_precision", "multilabel_precision_recall_curve",
        "multilabel_roc",
    ],
    "torchmetrics_lite.functional.calibration": ["binary_calibration_error", "multiclass_calibration_error"],
    "torchmetrics_lite.functional.tasks": [_tasks.snake_case(name) for name in _tasks.__all__],
})
