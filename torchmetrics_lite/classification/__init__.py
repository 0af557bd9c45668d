"""Stateful classification metrics: thin modules over :mod:`torchmetrics_lite.functional.classification`.

Each module keeps count states on the inputs' device (binary: a 2x2 confusion matrix; multiclass: the (C, C)
confusion matrix; multilabel: (L, 2, 2) matrices; exact match: per-sample counts), int64, or float64 sums of
``weight`` when built with ``weighted=True`` (the dtype is fixed at construction so merge and sync always
agree), adds one batch's counts per ``update`` (one counting pass, no host sync with ``validate_args=False``),
and computes the value with the same function as the functional form. Options, formulas and edge rules are
documented on the functions. Modules with the same input options (task, classes, ``top_k``/``threshold``,
``ignore_index``, ``weighted``) share a ``stats_key``: in a :class:`~torchmetrics_lite.MetricCollection`,
precision, recall, F1, specificity, Jaccard, Matthews correlation and kappa over the same inputs count each
batch once (exact match keeps per-sample counts of its own). The hinge loss keeps two float64 sums; the group
fairness metrics one confusion matrix per group, (G, 2, 2).
"""
from torchmetrics_lite import _lazy
from torchmetrics_lite import tasks as _tasks
from torchmetrics_lite.classification.agreement import (
    BinaryCohenKappa,
    BinaryMatthewsCorrCoef,
    MulticlassCohenKappa,
    MulticlassMatthewsCorrCoef,
    MultilabelMatthewsCorrCoef,
)
from torchmetrics_lite.classification.binary import (
    BinaryAccuracy,
    BinaryConfusionMatrix,
    BinaryF1Score,
    BinaryFBetaScore,
    BinaryPrecision,
    BinaryRecall,
    BinaryStatScores,
)
from torchmetrics_lite.classification.exact_match import (
    MulticlassExactMatch,
    MultilabelExactMatch,
)
from torchmetrics_lite.classification.group_fairness import (
    BinaryFairness,
    BinaryGroupStatRates,
)
from torchmetrics_lite.classification.hamming import (
    BinaryHammingDistance,
    MulticlassHammingDistance,
)
from torchmetrics_lite.classification.hinge import (
    BinaryHingeLoss,
    MulticlassHingeLoss,
)
from torchmetrics_lite.classification.jaccard import (
    BinaryJaccardIndex,
    MulticlassJaccardIndex,
    MultilabelJaccardIndex,
)
from torchmetrics_lite.classification.multiclass import (
    MulticlassAccuracy,
    MulticlassConfusionMatrix,
    MulticlassF1Score,
    MulticlassFBetaScore,
    MulticlassPrecision,
    MulticlassRecall,
    MulticlassStatScores,
)
from torchmetrics_lite.classification.multilabel import (
    MultilabelAccuracy,
    MultilabelConfusionMatrix,
    MultilabelF1Score,
    MultilabelFBetaScore,
    MultilabelHammingDistance,
    MultilabelPrecision,
    MultilabelRecall,
    MultilabelStatScores,
)
from torchmetrics_lite.classification.negative_predictive_value import (
    BinaryNegativePredictiveValue,
    MulticlassNegativePredictiveValue,
    MultilabelNegativePredictiveValue,
)
from torchmetrics_lite.classification.specificity import (
    BinarySpecificity,
    MulticlassSpecificity,
    MultilabelSpecificity,
)

__all__ = [
    "BinaryStatScores", "BinaryAccuracy", "BinaryPrecision", "BinaryRecall", "BinaryF1Score", "BinaryFBetaScore",
    "BinaryConfusionMatrix", "MulticlassStatScores", "MulticlassAccuracy", "MulticlassPrecision", "MulticlassRecall",
    "MulticlassF1Score", "MulticlassFBetaScore", "MulticlassConfusionMatrix", "MultilabelStatScores",
    "MultilabelAccuracy", "MultilabelPrecision", "MultilabelRecall", "MultilabelF1Score", "MultilabelFBetaScore",
    "MultilabelConfusionMatrix", "MultilabelHammingDistance", "BinarySpecificity", "MulticlassSpecificity",
    "MultilabelSpecificity", "BinaryMatthewsCorrCoef", "MulticlassMatthewsCorrCoef", "MultilabelMatthewsCorrCoef",
    "BinaryCohenKappa", "MulticlassCohenKappa", "BinaryJaccardIndex", "MulticlassJaccardIndex",
    "MultilabelJaccardIndex", "MultilabelExactMatch", "BinaryNegativePredictiveValue",
    "MulticlassNegativePredictiveValue", "MultilabelNegativePredictiveValue", "BinaryHammingDistance",
    "MulticlassHammingDistance", "MulticlassExactMatch", "BinaryHingeLoss", "MulticlassHingeLoss", "BinaryFairness",
    "BinaryGroupStatRates",
]

# torchmetrics exports these rank metrics from its classification package too; they live in the AUROC family
# (its __all__, _EXPORTS and docs page), so they are importable here but not listed in this __all__.
from torchmetrics_lite.auroc import (  # noqa: E402,F401
    BinaryEER,
    BinaryLogAUC,
    MulticlassEER,
    MulticlassLogAUC,
    MultilabelCoverageError,
    MultilabelEER,
    MultilabelLogAUC,
    MultilabelPrecisionAtFixedRecall,
    MultilabelRankingAveragePrecision,
    MultilabelRankingLoss,
    MultilabelRecallAtFixedPrecision,
    MultilabelSensitivityAtSpecificity,
    MultilabelSpecificityAtSensitivity,
)

# torchmetrics' paths: the names torchmetrics.classification exports that live in other families here (imported
# on first use; documented with their family), and a clear error for a name this library lacks
__getattr__, __dir__ = _lazy.attach(__name__, globals(), {
    "torchmetrics_lite.auroc": [
        "BinaryAUROC", "BinaryAveragePrecision", "BinaryPrecisionAtFixedRecall",
        "BinaryPrecisionRecallCurve", "BinaryRecallAtFixedPrecision", "BinaryROC",
        "BinarySensitivityAtSpecificity", "BinarySpecificityAtSensitivity", "MulticlassAUROC",
        "MulticlassAveragePrecision", "MulticlassPrecisionAtFixedRecall", "MulticlassPrecisionRecallCurve",
        "MulticlassRecallAtFixedPrecision", "MulticlassROC", "MulticlassSensitivityAtSpecificity",
        "MulticlassSpecificityAtSensitivity", "MultilabelAUROC", "MultilabelAveragePrecision",
        "MultilabelPrecisionRecallCurve", "MultilabelROC",
    ],
    "torchmetrics_lite.calibration": ["BinaryCalibrationError", "MulticlassCalibrationError"],
    "torchmetrics_lite.tasks": _tasks.__all__,
})
