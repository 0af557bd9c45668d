"""Stateful exact rank metrics: AUROC, average precision, ROC and precision-recall curves for every task,
operating points (recall at fixed precision and friends, binary, multiclass and multilabel), DeLong's intervals and
paired tests, the equal error rate and LogAUC of every task, and the multilabel ranking metrics (coverage error,
label ranking average precision and loss: per-sample sums, constant memory).

The exact modes keep every score and label in a growable ``cat`` buffer (amortised doubling): scores in
float32, or in the input's floating dtype when it is wider (a float64 batch promotes the buffer, so float64
scores are never cast down), labels as uint8: 5 bytes per binary sample plus the doubling slack, and 4 more per
sample when the updates are weighted (``weight=``). ``compute`` sorts once (see
:mod:`torchmetrics_lite.functional.auroc`); the value equals the functional form on all the data, whatever the
batching, the merge order or the number of ranks.

The modules are declarative (:mod:`._base`): a class names its formula, the ``_x_from_stats`` function that the
public function also calls, and the options passed to it. ``update`` with ``validate_args=False`` traces under
``torch.compile(fullgraph=True)``; ``compute`` syncs and is not meant to be compiled.

``BinaryAUROC(bins=B, range=(lo, hi))`` is the constant-memory alternative: two ``B``-bin histograms summed
across batches and ranks, and the exact Mann-Whitney statistic of the binned scores, within a computable
bound of the exact value (:meth:`BinaryAUROC.error_bound`).
"""
from torchmetrics_lite import _lazy
from torchmetrics_lite.auroc.binary import BinaryAUROC, BinaryAveragePrecision
from torchmetrics_lite.auroc.curves import (
    BinaryPrecisionRecallCurve,
    BinaryROC,
    MulticlassPrecisionRecallCurve,
    MulticlassROC,
    MultilabelPrecisionRecallCurve,
    MultilabelROC,
)
from torchmetrics_lite.auroc.delong import BinaryAUROCCI, PairedAUROCTest
from torchmetrics_lite.auroc.eer import (
    BinaryEER,
    BinaryLogAUC,
    MulticlassEER,
    MulticlassLogAUC,
    MultilabelEER,
    MultilabelLogAUC,
)
from torchmetrics_lite.auroc.label_ranking import (
    MultilabelCoverageError,
    MultilabelRankingAveragePrecision,
    MultilabelRankingLoss,
)
from torchmetrics_lite.auroc.multiclass import MulticlassAUROC, MulticlassAveragePrecision
from torchmetrics_lite.auroc.multilabel import MultilabelAUROC, MultilabelAveragePrecision
from torchmetrics_lite.auroc.operating_points import (
    BinaryPrecisionAtFixedRecall,
    BinaryRecallAtFixedPrecision,
    BinarySensitivityAtSpecificity,
    BinarySpecificityAtSensitivity,
    MulticlassPrecisionAtFixedRecall,
    MulticlassRecallAtFixedPrecision,
    MulticlassSensitivityAtSpecificity,
    MulticlassSpecificityAtSensitivity,
    MultilabelPrecisionAtFixedRecall,
    MultilabelRecallAtFixedPrecision,
    MultilabelSensitivityAtSpecificity,
    MultilabelSpecificityAtSensitivity,
)

__all__ = [
    "BinaryAUROC",
    "BinaryAveragePrecision",
    "BinaryROC",
    "BinaryPrecisionRecallCurve",
    "MulticlassAUROC",
    "MulticlassAveragePrecision",
    "MultilabelAUROC",
    "MultilabelAveragePrecision",
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
    "MultilabelRecallAtFixedPrecision",
    "MultilabelPrecisionAtFixedRecall",
    "MultilabelSensitivityAtSpecificity",
    "MultilabelSpecificityAtSensitivity",
    "BinaryEER",
    "MulticlassEER",
    "MultilabelEER",
    "BinaryLogAUC",
    "MulticlassLogAUC",
    "MultilabelLogAUC",
    "MultilabelCoverageError",
    "MultilabelRankingAveragePrecision",
    "MultilabelRankingLoss",
]
__getattr__ = _lazy.missing(__name__, globals())  # a name this library lacks: the error names the nearest
