"""Binary, multiclass (a class absent from both targets and predictions, a rare class) and multilabel inputs with
sample weights, their batches (an empty one among them) and the module table of specificity, Matthews correlation,
Cohen's kappa, Jaccard index and exact match (``test_confusion_matrix_scores.py``, ``test_classification_weights.py``,
``test_classification_compile.py``), with the names of those that run across ranks."""
from functools import partial

import torch

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional as F

GEN = torch.Generator().manual_seed(11)
C, L = 5, 4
AVERAGES = ["micro", "macro", "weighted", "none"]


def _mc(n=140):
    """Class 4 is neither a target nor predicted (absent from both); class 3 is rare."""
    target = torch.randint(0, 4, (n,), generator=GEN)
    scores = torch.rand(n, C, generator=GEN)
    scores[:, 4] = -1.0
    scores[torch.arange(n), target] += 0.5 * torch.rand(n, generator=GEN)
    return scores, target


MC_SCORES, MC_TARGET = _mc()
MC_PREDS = MC_SCORES.argmax(1)
W = torch.rand(MC_TARGET.shape[0], generator=GEN, dtype=torch.float64) * 3
W[::7] = 0.0
BIN_PREDS = torch.rand(160, generator=GEN)
BIN_TARGET = (torch.rand(160, generator=GEN) < BIN_PREDS).long()
BIN_W = torch.rand(160, generator=GEN, dtype=torch.float64)
ML_PREDS = torch.rand(100, L, generator=GEN)
ML_TARGET = (torch.rand(100, L, generator=GEN) < ML_PREDS * 0.8).long()
ML_W = torch.rand(100, generator=GEN)  # float32: sklearn sums it in float32


def _batches(args, sizes):
    out, start = [], 0
    for n in sizes:
        out.append(tuple(a[start:start + n] for a in args))
        start += n
    return out


BIN_B = _batches((BIN_PREDS, BIN_TARGET), (50, 0, 70, 40))
BIN_WB = _batches((BIN_PREDS, BIN_TARGET, BIN_W), (50, 0, 70, 40))
MC_B = _batches((MC_SCORES, MC_TARGET), (40, 60, 0, 40))
MC_WB = _batches((MC_SCORES, MC_TARGET, W), (40, 60, 0, 40))
ML_B = _batches((ML_PREDS, ML_TARGET), (30, 0, 45, 25))
ML_WB = _batches((ML_PREDS, ML_TARGET, ML_W), (30, 0, 45, 25))

MODULES = [
    ("BinarySpecificity", partial(tmc.BinarySpecificity), F.binary_specificity, BIN_B),
    ("MulticlassSpecificity", partial(tmc.MulticlassSpecificity, C, top_k=2),
     partial(F.multiclass_specificity, num_classes=C, top_k=2), MC_B),
    ("MultilabelSpecificity", partial(tmc.MultilabelSpecificity, L, weighted=True),
     lambda p, t, w: F.multilabel_specificity(p, t, L, weight=w), ML_WB),
    ("BinaryMatthewsCorrCoef", partial(tmc.BinaryMatthewsCorrCoef), F.binary_matthews_corrcoef, BIN_B),
    ("MulticlassMatthewsCorrCoef", partial(tmc.MulticlassMatthewsCorrCoef, C, weighted=True),
     lambda p, t, w: F.multiclass_matthews_corrcoef(p, t, C, weight=w), MC_WB),
    ("MultilabelMatthewsCorrCoef", partial(tmc.MultilabelMatthewsCorrCoef, L),
     partial(F.multilabel_matthews_corrcoef, num_labels=L), ML_B),
    ("BinaryCohenKappa", partial(tmc.BinaryCohenKappa, weighted=True),
     lambda p, t, w: F.binary_cohen_kappa(p, t, weight=w), BIN_WB),
    ("MulticlassCohenKappa", partial(tmc.MulticlassCohenKappa, C, weights="linear"),
     partial(F.multiclass_cohen_kappa, num_classes=C, weights="linear"), MC_B),
    ("BinaryJaccardIndex", partial(tmc.BinaryJaccardIndex), F.binary_jaccard_index, BIN_B),
    ("MulticlassJaccardIndex", partial(tmc.MulticlassJaccardIndex, C, ignore_index=1),
     partial(F.multiclass_jaccard_index, num_classes=C, ignore_index=1), MC_B),
    ("MultilabelJaccardIndex", partial(tmc.MultilabelJaccardIndex, L, average="micro"),
     partial(F.multilabel_jaccard_index, num_labels=L, average="micro"), ML_B),
    ("MultilabelExactMatch", partial(tmc.MultilabelExactMatch, L), partial(F.multilabel_exact_match, num_labels=L),
     ML_B),
]

# the multi-process checks of these modules run in test_classification.py's one spawn (DIST_NAMES)
DIST_NAMES = {"MulticlassMatthewsCorrCoef", "BinaryCohenKappa", "MultilabelExactMatch", "MulticlassJaccardIndex"}
