"""torchmetrics_lite: exact evaluation metrics for PyTorch, as pure functions and as stateful modules."""
from torchmetrics_lite import _lazy

_EXPORTS = {  # module: the public names it provides (imported on first use, PEP 562)
    "torchmetrics_lite._dtype": [
        "float_dtype",
    ],
    "torchmetrics_lite._version": [
        "__version__",
    ],
    "torchmetrics_lite.aggregation": [
        "CatMetric", "MaxMetric", "MeanMetric", "MinMetric", "RunningMean", "RunningSum", "SumMetric",
    ],
    "torchmetrics_lite.auroc": [
        "BinaryAUROC", "BinaryAUROCCI", "BinaryAveragePrecision", "BinaryPrecisionAtFixedRecall",
        "BinaryPrecisionRecallCurve", "BinaryRecallAtFixedPrecision", "BinaryROC", "BinarySensitivityAtSpecificity",
        "BinarySpecificityAtSensitivity", "MulticlassAUROC", "MulticlassAveragePrecision",
        "MulticlassPrecisionAtFixedRecall", "MulticlassPrecisionRecallCurve", "MulticlassRecallAtFixedPrecision",
        "MulticlassROC", "MulticlassSensitivityAtSpecificity", "MulticlassSpecificityAtSensitivity",
        "MultilabelAUROC", "MultilabelAveragePrecision", "MultilabelPrecisionRecallCurve", "MultilabelROC",
        "PairedAUROCTest", "BinaryEER", "MulticlassEER", "MultilabelEER", "BinaryLogAUC", "MulticlassLogAUC",
        "MultilabelLogAUC", "MultilabelCoverageError", "MultilabelRankingAveragePrecision", "MultilabelRankingLoss",
        "MultilabelPrecisionAtFixedRecall", "MultilabelRecallAtFixedPrecision", "MultilabelSensitivityAtSpecificity",
        "MultilabelSpecificityAtSensitivity",
    ],
    "torchmetrics_lite.calibration": [
        "BinaryBrierScore", "BinaryCalibrationError", "MulticlassBrierScore", "MulticlassCalibrationError",
    ],
    "torchmetrics_lite.calibrators": [
        "IsotonicCalibrator", "PlattScaler",
    ],
    "torchmetrics_lite.classification": [
        "BinaryAccuracy", "BinaryCohenKappa", "BinaryConfusionMatrix", "BinaryF1Score", "BinaryFBetaScore",
        "BinaryJaccardIndex", "BinaryMatthewsCorrCoef", "BinaryPrecision", "BinaryRecall", "BinarySpecificity",
        "BinaryStatScores", "MulticlassAccuracy", "MulticlassCohenKappa", "MulticlassConfusionMatrix",
        "MulticlassF1Score", "MulticlassFBetaScore", "MulticlassJaccardIndex", "MulticlassMatthewsCorrCoef",
        "MulticlassPrecision", "MulticlassRecall", "MulticlassSpecificity", "MulticlassStatScores",
        "MultilabelAccuracy", "MultilabelConfusionMatrix", "MultilabelExactMatch", "MultilabelF1Score",
        "MultilabelFBetaScore", "MultilabelHammingDistance", "MultilabelJaccardIndex", "MultilabelMatthewsCorrCoef",
        "MultilabelPrecision", "MultilabelRecall", "MultilabelSpecificity", "MultilabelStatScores",
        "BinaryNegativePredictiveValue", "MulticlassNegativePredictiveValue", "MultilabelNegativePredictiveValue",
        "BinaryHammingDistance", "MulticlassHammingDistance", "MulticlassExactMatch", "BinaryHingeLoss",
        "MulticlassHingeLoss", "BinaryFairness", "BinaryGroupStatRates",
    ],
    "torchmetrics_lite.collection": [
        "MetricCollection",
    ],
    "torchmetrics_lite.harness": [
        "EvalReport", "EvaluationError", "evaluate",
    ],
    "torchmetrics_lite.metric": [
        "Metric", "Fold",
    ],
    "torchmetrics_lite.multiple_choice": [
        "MultipleChoiceAccuracy", "score_choices",
    ],
    "torchmetrics_lite.regression": [
        "ExplainedVariance", "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredError", "R2Score",
        "RootMeanSquaredError",
        "PearsonCorrCoef", "ConcordanceCorrCoef", "SpearmanCorrCoef", "KendallRankCorrCoef",
        "MeanSquaredLogError", "LogCoshError", "MinkowskiDistance", "TweedieDevianceScore",
        "WeightedMeanAbsolutePercentageError", "SymmetricMeanAbsolutePercentageError", "CriticalSuccessIndex",
        "ContinuousRankedProbabilityScore", "CosineSimilarity", "KLDivergence", "JensenShannonDivergence",
        "RelativeSquaredError", "NormalizedRootMeanSquaredError",
    ],
    "torchmetrics_lite.retrieval": [
        "RetrievalHitRate", "RetrievalMAP", "RetrievalMRR", "RetrievalNormalizedDCG", "RetrievalPrecision",
        "RetrievalRecall", "RetrievalRPrecision", "RetrievalDCG", "RetrievalFallOut", "RetrievalAUROC",
        "RetrievalPrecisionRecallCurve", "RetrievalRecallAtFixedPrecision",
    ],
    "torchmetrics_lite.tasks": [  # torchmetrics' task-string factories: Accuracy(task="multiclass", ...)
        "AUROC", "Accuracy", "AveragePrecision", "CalibrationError", "CohenKappa", "ConfusionMatrix", "EER",
        "ExactMatch", "F1Score", "FBetaScore", "HammingDistance", "HingeLoss", "JaccardIndex", "LogAUC",
        "MatthewsCorrCoef", "NegativePredictiveValue", "Precision", "PrecisionAtFixedRecall", "PrecisionRecallCurve",
        "ROC", "Recall", "RecallAtFixedPrecision", "SensitivityAtSpecificity", "Specificity",
        "SpecificityAtSensitivity", "StatScores",
    ],
    "torchmetrics_lite.wrappers": [
        "BootStrapper", "ClasswiseWrapper", "MetricTracker", "Running", "MinMaxMetric", "MultioutputWrapper",
        "MultitaskWrapper",
    ],
}
__getattr__, __dir__ = _lazy.attach(__name__, globals(), _EXPORTS)

__all__ = [*(name for names in _EXPORTS.values() for name in names)]
