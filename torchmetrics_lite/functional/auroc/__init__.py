"""Exact rank metrics: AUROC (binary, multiclass one-vs-rest, multilabel, partial), average precision, and
the ROC and precision-recall curves.

Rank metrics use the scores' order only: probabilities, logits of any size, negative scores and float64
scores 1e-9 apart all give the exact answer. Binary and multilabel scores are used as given (a sigmoid would not
change their order). Multiclass scores are probabilities, or logits with ``from_logits=True`` (a float64 softmax
is applied: it changes the order within a column, so it matters); without it scores outside ``[0, 1]`` raise.
float64 is never cast down (float16/bfloat16 go up to float32, which is exact and keeps the order). Labels are
0/1 (bool, integer, or floating 0.0/1.0). ``weight=`` gives scikit-learn's ``sample_weight`` semantics
(weighted Mann-Whitney).

Exact AUROC is the Mann-Whitney statistic: the fraction of positive/negative pairs ranked correctly, a tied
pair counting 1/2 (mid-ranks), from one sort in O(n log n) with integer pair counts; see ``_kernels/ranks.py``.
With one class present AUROC is undefined: ``nan`` and a ``UserWarning`` (``ValueError`` with
``strict=True``). Average precision is undefined without positives (same rule) and 1 without negatives.

On a device without float64 (Apple MPS; :func:`torchmetrics_lite.metric.float_dtype`) every floating result is
float32 and nothing float64 is made. What that costs: unweighted pair and threshold counts stay exact int64 and
only the final ratios (AUROC, precisions, rates) are rounded to float32, a relative error of a few 1e-8 whatever
the size (a count above 2**24 is itself rounded once when converted); weighted counts are float32 sums of the
weights, whose rounding grows with the number of samples (worst case about ``n * 6e-8`` relative, typically
``sqrt(n) * 6e-8``); the ``from_logits`` softmax is float32, so logits closer than float32 resolution can tie;
DeLong's components are ratios of exact int64 counts, their covariances float32.

Files, one concept each: ``binary``, ``multiclass``, ``multilabel`` (AUROC, AP), ``curves`` (ROC / PR for every
task), ``operating_points`` (recall at fixed precision and friends), ``delong`` (intervals and paired tests), ``eer``
(equal error rate), ``logauc`` (log-scaled partial area), ``label_ranking`` (coverage error, label ranking average
precision and loss);
the kernels in their own room, ``_kernels/``, whose door chooses in one place (``_kernels.choose``: tracing,
backend, weights, rows, what is read) and decides the backend once (the ``xp`` namespace every kernel is written
over): ``ranks`` (fast unweighted counts), ``curve_counts``, ``groups`` (one position per tie group: on CPU the
weighted counting or packed-sort group sums, no argsort, no gather), ``gather``, ``packed`` (the unweighted curve
reads on CPU) and ``static_sweep`` (the static-shape descending sweep, also the ``torch.compile`` path), their row
sort (``row_sort``), and the results every kernel builds with the formulas that read them (``result_swept``,
``result_segments``).

Each public function is ``_x_from_stats(_x_stats(checked inputs))``; the modules in
:mod:`torchmetrics_lite.auroc` call the same two functions. Reference: Hanley & McNeil (1982), "The meaning
and use of the area under a ROC curve"; McClish (1989) for the standardised partial AUC; scikit-learn's
``roc_auc_score`` / ``average_precision_score`` / ``roc_curve`` / ``precision_recall_curve`` conventions.
"""
import sys
import types
from typing import Any

from torchmetrics_lite import _compat, _lazy
from torchmetrics_lite.functional.auroc.binary import (
    binary_auroc,
    binary_average_precision,
)
from torchmetrics_lite.functional.auroc.curves import (
    binary_precision_recall_curve,
    binary_roc,
    multiclass_precision_recall_curve,
    multiclass_roc,
    multilabel_precision_recall_curve,
    multilabel_roc,
)
from torchmetrics_lite.functional.auroc.delong import (
    binary_auroc_ci,
    paired_auroc_test,
)
from torchmetrics_lite.functional.auroc.eer import (
    binary_eer,
    binary_eer_threshold,
    multiclass_eer,
    multiclass_eer_threshold,
    multilabel_eer,
    multilabel_eer_threshold,
)
from torchmetrics_lite.functional.auroc.label_ranking import (
    multilabel_coverage_error,
    multilabel_ranking_average_precision,
    multilabel_ranking_loss,
)
from torchmetrics_lite.functional.auroc.logauc import (
    binary_logauc,
    multiclass_logauc,
    multilabel_logauc,
)
from torchmetrics_lite.functional.auroc.multiclass import (
    multiclass_auroc,
    multiclass_average_precision,
)
from torchmetrics_lite.functional.auroc.multilabel import (
    multilabel_auroc,
    multilabel_average_precision,
)
from torchmetrics_lite.functional.auroc.operating_points import (
    binary_precision_at_fixed_recall,
    binary_recall_at_fixed_precision,
    binary_sensitivity_at_specificity,
    binary_specificity_at_sensitivity,
    multiclass_precision_at_fixed_recall,
    multiclass_recall_at_fixed_precision,
    multiclass_sensitivity_at_specificity,
    multiclass_specificity_at_sensitivity,
    multilabel_precision_at_fixed_recall,
    multilabel_recall_at_fixed_precision,
    multilabel_sensitivity_at_specificity,
    multilabel_specificity_at_sensitivity,
)

__all__ = [
    "binary_auroc",
    "binary_average_precision",
    "binary_roc",
    "binary_precision_recall_curve",
    "multiclass_roc",
    "multilabel_roc",
    "multiclass_precision_recall_curve",
    "multilabel_precision_recall_curve",
    "binary_auroc_ci",
    "paired_auroc_test",
    "multiclass_auroc",
    "multiclass_average_precision",
    "multilabel_auroc",
    "multilabel_average_precision",
    "binary_recall_at_fixed_precision",
    "binary_precision_at_fixed_recall",
    "binary_sensitivity_at_specificity",
    "binary_specificity_at_sensitivity",
    "multiclass_recall_at_fixed_precision",
    "multiclass_precision_at_fixed_recall",
    "multiclass_sensitivity_at_specificity",
    "multiclass_specificity_at_sensitivity",
    "multilabel_recall_at_fixed_precision",
    "multilabel_precision_at_fixed_recall",
    "multilabel_sensitivity_at_specificity",
    "multilabel_specificity_at_sensitivity",
    "binary_eer",
    "multiclass_eer",
    "multilabel_eer",
    "binary_eer_threshold",
    "multiclass_eer_threshold",
    "multilabel_eer_threshold",
    "binary_logauc",
    "multiclass_logauc",
    "multilabel_logauc",
    "multilabel_coverage_error",
    "multilabel_ranking_average_precision",
    "multilabel_ranking_loss",
]
_compat.advise_exports(globals())  # torchmetrics' arguments get the classes' advice (see _compat.advise)

__getattr__ = _lazy.missing(__name__, globals())  # a name this library lacks: the error names the nearest


class _CallableFamily(types.ModuleType):
    """``torchmetrics_lite.functional.auroc`` is this family's package and, as in torchmetrics, the task-level
    function ``auroc(preds, target, task=...)``: the two names clash, so calling the package calls
    :func:`torchmetrics_lite.functional.tasks.auroc`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from torchmetrics_lite.functional.tasks import auroc

        return auroc(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableFamily
