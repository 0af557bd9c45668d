"""torchmetrics_lite: exact evaluation metrics for PyTorch, as pure functions and as stateful modules."""
from torchmetrics_lite import _lazy
from torchmetrics_lite._version import __version__

_EXPORTS = {  # module: the public names it provides (imported on first use, PEP 562)
    "torchmetrics_lite.aggregation": [
        "MaxMetric", "MeanMetric", "MinMetric", "SumMetric",
    ],
    "torchmetrics_lite.auroc": [
        "BinaryAUROC", "BinaryAveragePrecision", "BinaryPrecisionRecallCurve", "BinaryROC", "MulticlassAUROC",
        "MulticlassAveragePrecision", "MultilabelAUROC", "MultilabelAveragePrecision",
    ],
    "torchmetrics_lite.calibration": [
        "BinaryBrierScore", "BinaryCalibrationError", "MulticlassBrierScore", "MulticlassCalibrationError",
    ],
    "torchmetrics_lite.calibrators": [
        "IsotonicCalibrator", "PlattScaler",
    ],
    "torchmetrics_lite.classification": [
        "BinaryAccuracy", "BinaryConfusionMatrix", "BinaryF1Score", "BinaryFBetaScore", "BinaryPrecision",
        "BinaryRecall", "BinaryStatScores", "MulticlassAccuracy", "MulticlassConfusionMatrix", "MulticlassF1Score",
        "MulticlassFBetaScore", "MulticlassPrecision", "MulticlassRecall", "MulticlassStatScores",
        "MultilabelAccuracy", "MultilabelConfusionMatrix", "MultilabelF1Score", "MultilabelFBetaScore",
        "MultilabelHammingDistance", "MultilabelPrecision", "MultilabelRecall", "MultilabelStatScores",
    ],
    "torchmetrics_lite.collection": [
        "MetricCollection",
    ],
    "torchmetrics_lite.harness": [
        "EvalReport", "evaluate",
    ],
    "torchmetrics_lite.metric": [
        "Metric",
    ],
    "torchmetrics_lite.multiple_choice": [
        "MultipleChoiceAccuracy", "score_choices",
    ],
    "torchmetrics_lite.regression": [
        "ExplainedVariance", "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredError", "R2Score",
        "RootMeanSquaredError",
    ],
    "torchmetrics_lite.retrieval": [
        "RetrievalHitRate", "RetrievalMAP", "RetrievalMRR", "RetrievalNormalizedDCG", "RetrievalPrecision",
        "RetrievalRecall", "RetrievalRPrecision",
        "RetrievalDCG", "RetrievalFallOut", "RetrievalAUROC",
    ],
}
__getattr__, __dir__ = _lazy.attach(__name__, globals(), _EXPORTS)

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
    # --- auroc
    "BinaryAUROC",
    "MulticlassAUROC",
    "MultilabelAUROC",
    "BinaryAveragePrecision",
    "MulticlassAveragePrecision",
    "MultilabelAveragePrecision",
    "BinaryROC",
    "BinaryPrecisionRecallCurve",
    # --- retrieval
    "RetrievalNormalizedDCG",
    "RetrievalMAP",
    "RetrievalMRR",
    "RetrievalPrecision",
    "RetrievalRecall",
    "RetrievalHitRate",
    "RetrievalRPrecision",
    "RetrievalDCG",
    "RetrievalFallOut",
    "RetrievalAUROC",
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
    "MultipleChoiceAccuracy",
    "evaluate",
    "score_choices",
]
