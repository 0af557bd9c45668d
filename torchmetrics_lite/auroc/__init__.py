"""Stateful exact rank metrics: AUROC, average precision, ROC and precision-recall curves.

The exact modes keep every score and label in a growable ``cat`` buffer (amortised doubling): scores in
float32, or in the input's floating dtype when it is wider (a float64 batch promotes the buffer, so float64
scores are never cast down), labels as uint8: 5 bytes per binary sample plus the doubling slack. ``compute``
sorts once (see :mod:`torchmetrics_lite.functional.auroc`); the value equals the functional form on all the
data, whatever the batching, the merge order or the number of ranks.

``BinaryAUROC(bins=B, range=(lo, hi))`` is the constant-memory alternative: two ``B``-bin histograms summed
across batches and ranks, and the exact Mann-Whitney statistic of the binned scores, within a computable
bound of the exact value (:meth:`BinaryAUROC.error_bound`).
"""
from torchmetrics_lite.auroc.binary import BinaryAUROC, BinaryAveragePrecision, BinaryPrecisionRecallCurve, BinaryROC
from torchmetrics_lite.auroc.multiclass import MulticlassAUROC, MulticlassAveragePrecision
from torchmetrics_lite.auroc.multilabel import MultilabelAUROC, MultilabelAveragePrecision

__all__ = [
    "BinaryAUROC",
    "BinaryAveragePrecision",
    "BinaryROC",
    "BinaryPrecisionRecallCurve",
    "MulticlassAUROC",
    "MulticlassAveragePrecision",
    "MultilabelAUROC",
    "MultilabelAveragePrecision",
]
