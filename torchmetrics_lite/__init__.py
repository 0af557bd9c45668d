"""torchmetrics_lite: exact evaluation metrics for PyTorch, as pure functions and as stateful modules."""
from torchmetrics_lite._version import __version__
from torchmetrics_lite.aggregation import MaxMetric, MeanMetric, MinMetric, SumMetric

# --- auroc
from torchmetrics_lite.auroc import (
    BinaryAUROC,
    BinaryAUROCCI,
    BinaryAveragePrecision,
    BinaryPrecisionAtFixedRecall,
    BinaryPrecisionRecallCurve,
    BinaryRecallAtFixedPrecision,
    BinaryROC,
    BinarySensitivityAtSpecificity,
    BinarySpecificityAtSensitivity,
    MulticlassAUROC,
    MulticlassAveragePrecision,
    MulticlassPrecisionAtFixedRecall,
    MulticlassPrecisionRecallCurve,
    MulticlassRecallAtFixedPrecision,
    MulticlassROC,
    MulticlassSensitivityAtSpecificity,
    MulticlassSpecificityAtSensitivity,
    MultilabelAUROC,
    MultilabelAveragePrecision,
    MultilabelPrecisionRecallCurve,
    MultilabelROC,
    PairedAUROCTest,
)

# --- regression, calibration
from torchmetrics_lite.calibration import (
    BinaryBrierScore,
    BinaryCalibrationError,
    MulticlassBrierScore,
    MulticlassCalibrationError,
)
from torchmetrics_lite.calibrators import IsotonicCalibrator, PlattScaler

# --- classification (exports added by the classification work)
from torchmetrics_lite.classification import (  # noqa: I001 (added by the classification work)
    BinaryAccuracy,
    BinaryCohenKappa,
    BinaryConfusionMatrix,
    BinaryF1Score,
    BinaryFBetaScore,
    BinaryJaccardIndex,
    BinaryMatthewsCorrCoef,
    BinaryPrecision,
    BinaryRecall,
    BinarySpecificity,
    BinaryStatScores,
    MulticlassAccuracy,
    MulticlassCohenKappa,
    MulticlassConfusionMatrix,
    MulticlassF1Score,
    MulticlassFBetaScore,
    MulticlassJaccardIndex,
    MulticlassMatthewsCorrCoef,
    MulticlassPrecision,
    MulticlassRecall,
    MulticlassSpecificity,
    MulticlassStatScores,
    MultilabelAccuracy,
    MultilabelConfusionMatrix,
    MultilabelExactMatch,
    MultilabelF1Score,
    MultilabelFBetaScore,
    MultilabelHammingDistance,
    MultilabelJaccardIndex,
    MultilabelMatthewsCorrCoef,
    MultilabelPrecision,
    MultilabelRecall,
    MultilabelSpecificity,
    MultilabelStatScores,
)
from torchmetrics_lite.collection import MetricCollection

# --- harness
from torchmetrics_lite.harness import EvalReport, EvaluationError, evaluate
from torchmetrics_lite.metric import Metric
from torchmetrics_lite.multiple_choice import MultipleChoiceAccuracy, score_choices
from torchmetrics_lite.regression import (
    ExplainedVariance,
    MeanAbsoluteError,
    MeanAbsolutePercentageError,
    MeanSquaredError,
    R2Score,
    RootMeanSquaredError,
)

# --- retrieval
from torchmetrics_lite.retrieval import (
    RetrievalHitRate,
    RetrievalMAP,
    RetrievalMRR,
    RetrievalNormalizedDCG,
    RetrievalPrecision,
    RetrievalRecall,
    RetrievalRPrecision,
)

# --- wrappers
from torchmetrics_lite.wrappers import BootStrapper, ClasswiseWrapper, MetricTracker, Running

__all__ = [
    "__version__",
    "Metric",
    "MetricCollection",
    "MaxMetric",
    "MeanMetric",
    "MinMetric",
    "SumMetric",
    # --- classification
    "BinaryStatScores",
    "BinaryAccuracy",
    "BinaryPrecision",
    "BinaryRecall",
    "BinaryF1Score",
    "BinaryFBetaScore",
    "BinaryConfusionMatrix",
    "MulticlassStatScores",
    "MulticlassAccuracy",
    "MulticlassPrecision",
    "MulticlassRecall",
    "MulticlassF1Score",
    "MulticlassFBetaScore",
    "MulticlassConfusionMatrix",
    "MultilabelStatScores",
    "MultilabelAccuracy",
    "MultilabelPrecision",
    "MultilabelRecall",
    "MultilabelF1Score",
    "MultilabelFBetaScore",
    "MultilabelConfusionMatrix",
    "MultilabelHammingDistance",
    "BinarySpecificity",
    "MulticlassSpecificity",
    "MultilabelSpecificity",
    "BinaryMatthewsCorrCoef",
    "MulticlassMatthewsCorrCoef",
    "MultilabelMatthewsCorrCoef",
    "BinaryCohenKappa",
    "MulticlassCohenKappa",
    "BinaryJaccardIndex",
    "MulticlassJaccardIndex",
    "MultilabelJaccardIndex",
    "MultilabelExactMatch",
    # --- auroc
    "BinaryAUROC",
    "MulticlassAUROC",
    "MultilabelAUROC",
    "BinaryAveragePrecision",
    "MulticlassAveragePrecision",
    "MultilabelAveragePrecision",
    "BinaryROC",
    "BinaryPrecisionRecallCurve",
    "MulticlassROC",
    "MultilabelROC",
    "MulticlassPrecisionRecallCurve",
    "MultilabelPrecisionRecallCurve",
    "BinaryRecallAtFixedPrecision",
    "BinaryPrecisionAtFixedRecall",
    "BinarySensitivityAtSpecificity",
    "BinarySpecificityAtSensitivity",
    "MulticlassRecallAtFixedPrecision",
    "MulticlassPrecisionAtFixedRecall",
    "MulticlassSensitivityAtSpecificity",
    "MulticlassSpecificityAtSensitivity",
    "BinaryAUROCCI",
    "PairedAUROCTest",
    # --- retrieval
    "RetrievalNormalizedDCG",
    "RetrievalMAP",
    "RetrievalMRR",
    "RetrievalPrecision",
    "RetrievalRecall",
    "RetrievalHitRate",
    "RetrievalRPrecision",
    # --- regression, calibration
    "MeanSquaredError",
    "RootMeanSquaredError",
    "MeanAbsoluteError",
    "MeanAbsolutePercentageError",
    "R2Score",
    "ExplainedVariance",
    "BinaryBrierScore",
    "MulticlassBrierScore",
    "BinaryCalibrationError",
    "MulticlassCalibrationError",
    "PlattScaler",
    "IsotonicCalibrator",
    # --- harness
    "EvalReport",
    "EvaluationError",
    "MultipleChoiceAccuracy",
    "evaluate",
    "score_choices",
    # --- wrappers
    "BootStrapper",
    "ClasswiseWrapper",
    "MetricTracker",
    "Running",
]
