"""Binary (ties at the threshold), multiclass (a class never a target, a rare class), multilabel (a label without a
positive target) inputs, group ids (a group without a sample) and label sequences, with sample weights; their
batches (the middle one empty) and the module table of negative predictive value, Hamming distance, exact match,
hinge loss and group fairness (``test_npv_hamming_exact_match.py``, ``test_hinge_loss.py``,
``test_group_fairness.py``, ``test_classification_compile.py``), with the names of those that run across ranks."""
from functools import partial

import torch

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional as F
from tests.helpers.metric_tester import split

GEN = torch.Generator().manual_seed(24)
C, L, G = 5, 4, 4
AVERAGES = ["micro", "macro", "weighted", "none"]
ZDS = [0.0, 1.0, float("nan")]


def _mc(n=150):
    """Class 4 is never a target (it may be predicted); class 3 is rare; continuous scores (no ties)."""
    target = torch.randint(0, 4, (n,), generator=GEN)
    target[(torch.rand(n, generator=GEN) < 0.8) & (target == 3)] = 0
    scores = torch.rand(n, C, generator=GEN)
    scores[torch.arange(n), target] += 0.4 * torch.rand(n, generator=GEN)
    return scores / scores.sum(1, keepdim=True), target


MC_SCORES, MC_TARGET = _mc()
MC_PREDS = MC_SCORES.argmax(1)
MC_W = torch.rand(150, generator=GEN, dtype=torch.float64) * 2
BIN_PREDS = torch.rand(170, generator=GEN)
BIN_PREDS[:20] = 0.5  # ties at the threshold: 0.5 is not > 0.5
BIN_TARGET = (torch.rand(170, generator=GEN) < BIN_PREDS).long()
BIN_W = torch.rand(170, generator=GEN, dtype=torch.float64)
ML_PREDS = torch.rand(90, L, generator=GEN)
ML_TARGET = (torch.rand(90, L, generator=GEN) < ML_PREDS * 0.7).long()
ML_TARGET[:, 3] = 0  # a label with no positive target
GROUPS = torch.randint(0, G - 1, (170,), generator=GEN)  # group 3 has no sample


def _batches(*tensors, cuts=(60, 60)):
    """The tensors cut into three batches, the middle one empty."""
    return split(tuple(tensors), list(cuts))


def with_ignored(t, every=6):
    """A copy of the targets with every ``every``-th one -1 (the ``ignore_index`` of the tests)."""
    t = t.clone()
    t[::every] = -1
    return t


# ------------------------------------------------------------------------------- modules, the harness
BIN_B = _batches(BIN_PREDS, BIN_TARGET)
BIN_IGN_B = _batches(BIN_PREDS, with_ignored(BIN_TARGET))
BIN_WB = _batches(BIN_PREDS, BIN_TARGET, BIN_W)
MC_B = _batches(MC_SCORES, MC_TARGET)
MC_WB = _batches(MC_SCORES, MC_TARGET, MC_W)
ML_B = _batches(ML_PREDS, ML_TARGET, cuts=(30, 30))
SEQ_T = torch.randint(0, 3, (60, 5), generator=GEN)
SEQ_P = torch.where(torch.rand(60, 5, generator=GEN) < 0.1, 0, SEQ_T)
SEQ_B = _batches(SEQ_P, SEQ_T, cuts=(25, 25))
GRP_B = _batches(BIN_PREDS, BIN_TARGET, GROUPS)
GRP_WB = _batches(BIN_PREDS, BIN_TARGET, GROUPS, BIN_W)
LOGITS = BIN_PREDS * 8 - 4
BIN_LOGIT_B = _batches(LOGITS, BIN_TARGET)


def _fairness(num_groups, **kw):
    return lambda p, t, g, w=None: F.binary_fairness(p, t, g, num_groups=num_groups, weight=w, **kw)


MODULES = [  # name, factory, functional (the one-shot value), batches
    ("BinaryNegativePredictiveValue", partial(tmc.BinaryNegativePredictiveValue),
     F.binary_negative_predictive_value, BIN_B),
    ("BinaryNegativePredictiveValue-weighted", partial(tmc.BinaryNegativePredictiveValue, weighted=True),
     lambda p, t, w=None: F.binary_negative_predictive_value(p, t, weight=w), BIN_WB),
    ("MulticlassNegativePredictiveValue", partial(tmc.MulticlassNegativePredictiveValue, C, top_k=2),
     partial(F.multiclass_negative_predictive_value, num_classes=C, top_k=2), MC_B),
    ("MultilabelNegativePredictiveValue", partial(tmc.MultilabelNegativePredictiveValue, L, average="weighted"),
     partial(F.multilabel_negative_predictive_value, num_labels=L, average="weighted"), ML_B),
    ("BinaryHammingDistance", partial(tmc.BinaryHammingDistance, ignore_index=-1),
     partial(F.binary_hamming_distance, ignore_index=-1), BIN_IGN_B),
    ("MulticlassHammingDistance", partial(tmc.MulticlassHammingDistance, C, None),
     partial(F.multiclass_hamming_distance, num_classes=C, average=None), MC_B),
    ("MulticlassExactMatch", partial(tmc.MulticlassExactMatch, 3), partial(F.multiclass_exact_match, num_classes=3),
     SEQ_B),
    ("BinaryHingeLoss", partial(tmc.BinaryHingeLoss, from_logits=True),
     partial(F.binary_hinge_loss, from_logits=True), BIN_LOGIT_B),
    ("BinaryHingeLoss-weighted", partial(tmc.BinaryHingeLoss, True),
     lambda p, t, w=None: F.binary_hinge_loss(p, t, True, weight=w), BIN_WB),
    ("MulticlassHingeLoss", partial(tmc.MulticlassHingeLoss, C), partial(F.multiclass_hinge_loss, num_classes=C),
     MC_B),
    ("MulticlassHingeLoss-ova", partial(tmc.MulticlassHingeLoss, C, True, "one-vs-all"),
     lambda p, t, w=None: F.multiclass_hinge_loss(p, t, C, True, "one-vs-all", weight=w), MC_WB),
    ("BinaryGroupStatRates", partial(tmc.BinaryGroupStatRates, G),
     partial(F.binary_groups_stat_rates, num_groups=G), GRP_B),
    ("BinaryFairness", partial(tmc.BinaryFairness, G), _fairness(G), GRP_B),
    ("BinaryFairness-weighted-nan", partial(tmc.BinaryFairness, G, weighted=True, zero_division=float("nan")),
     _fairness(G, zero_division=float("nan")), GRP_WB),
]
NAMES = {m[0].split("-")[0] for m in MODULES}
# the multi-process checks run in test_classification.py's one spawn
DIST_NAMES = {"MulticlassNegativePredictiveValue", "MulticlassExactMatch", "MulticlassHingeLoss-ova",
                "BinaryFairness", "BinaryHammingDistance"}
