"""``torch.compile(fullgraph=True)`` of the classification functions and module updates with
``validate_args=False``: every function of a score path once (the confusion-matrix scores' inputs of
``tests/helpers/classification/scores.py``; NPV and Hamming share that path), the functions and updates with a path
of their own (exact match of sequences, hinge loss, group fairness: the inputs of
``tests/helpers/classification/counts.py``), one module per update base (every other module's update is its base's,
checked), and F1 under inductor."""
from functools import partial

import pytest
import torch

import torchmetrics_lite.classification as tmc
import torchmetrics_lite.functional as F
from tests.helpers.classification import counts
from tests.helpers.classification.counts import BIN_LOGIT_B, GROUPS, GRP_B, GRP_WB, LOGITS, SEQ_B, SEQ_P, SEQ_T, G
from tests.helpers.classification.scores import (
    BIN_B,
    BIN_PREDS,
    BIN_TARGET,
    BIN_W,
    BIN_WB,
    MC_B,
    MC_SCORES,
    MC_TARGET,
    MC_WB,
    ML_B,
    ML_PREDS,
    ML_TARGET,
    ML_W,
    ML_WB,
    C,
    L,
    W,
)
from tests.helpers.compile import check_compiles, check_update_compiles
from tests.helpers.metric_tester import assert_close

# ------------------------------------------------------------------------------------------------------- score paths
COMPILE_FUNCS = [
    (F.binary_f1_score, (BIN_PREDS, BIN_TARGET), {}), (F.binary_stat_scores, (BIN_PREDS, BIN_TARGET), {}),
    (F.binary_confusion_matrix, (BIN_PREDS, BIN_TARGET), {"weight": BIN_W}),
    (F.binary_matthews_corrcoef, (BIN_PREDS, BIN_TARGET), {}), (F.binary_cohen_kappa, (BIN_PREDS, BIN_TARGET), {}),
    (F.binary_specificity, (BIN_PREDS, BIN_TARGET), {}), (F.binary_jaccard_index, (BIN_PREDS, BIN_TARGET), {}),
    (F.multiclass_f1_score, (MC_SCORES, MC_TARGET, C), {"top_k": 2, "ignore_index": 1}),
    (F.multiclass_accuracy, (MC_SCORES, MC_TARGET, C), {"weight": W}),
    (F.multiclass_stat_scores, (MC_SCORES, MC_TARGET, C), {}),
    (F.multiclass_confusion_matrix, (MC_SCORES, MC_TARGET, C), {"normalize": "true"}),
    (F.multiclass_matthews_corrcoef, (MC_SCORES, MC_TARGET, C), {}),
    (F.multiclass_cohen_kappa, (MC_SCORES, MC_TARGET, C), {"weights": "quadratic"}),
    (F.multiclass_jaccard_index, (MC_SCORES, MC_TARGET, C), {"ignore_index": 1}),
    (F.multiclass_specificity, (MC_SCORES, MC_TARGET, C), {}),
    (F.multilabel_f1_score, (ML_PREDS, ML_TARGET, L), {"weight": ML_W}),
    (F.multilabel_hamming_distance, (ML_PREDS, ML_TARGET, L), {}),
    (F.multilabel_exact_match, (ML_PREDS, ML_TARGET, L), {"ignore_index": -1}),
    (F.multilabel_matthews_corrcoef, (ML_PREDS, ML_TARGET, L), {}),
    (F.binary_fbeta_score, (BIN_PREDS, BIN_TARGET, 2.0), {}),
    (F.multilabel_fbeta_score, (ML_PREDS, ML_TARGET, 0.5, L), {}),
    (F.multilabel_precision, (ML_PREDS, ML_TARGET, L), {}),
    (F.multilabel_stat_scores, (ML_PREDS, ML_TARGET, L), {}),
]


@pytest.mark.parametrize("fn,args,kwargs", COMPILE_FUNCS, ids=[c[0].__name__ for c in COMPILE_FUNCS])
def test_functional_compiles(fn, args, kwargs):
    check_compiles(partial(fn, validate_args=False, **kwargs), *args)


# Every module's update is its base's (binary, multiclass, multilabel, exact match: test_update_is_a_base_update),
# so one module per base, unweighted and weighted, covers every module's update path.
UPDATE_CASES = [
    ("BinaryF1Score", partial(tmc.BinaryF1Score, from_logits=True), BIN_B[0]),
    ("BinaryRecall-weighted", partial(tmc.BinaryRecall, weighted=True, ignore_index=-1), BIN_WB[0]),
    ("MulticlassF1Score", partial(tmc.MulticlassF1Score, C), MC_B[0]),
    ("MulticlassAccuracy-top2-weighted", partial(tmc.MulticlassAccuracy, C, top_k=2, weighted=True), MC_WB[0]),
    ("MulticlassConfusionMatrix-ignore", partial(tmc.MulticlassConfusionMatrix, C, ignore_index=1), MC_B[0]),
    ("MultilabelF1Score", partial(tmc.MultilabelF1Score, L), ML_B[0]),
    ("MultilabelRecall-weighted", partial(tmc.MultilabelRecall, L, weighted=True), ML_WB[0]),
    ("MultilabelExactMatch", partial(tmc.MultilabelExactMatch, L, ignore_index=-1), ML_B[0]),
    ("MultilabelExactMatch-weighted", partial(tmc.MultilabelExactMatch, L, weighted=True), ML_WB[0]),
]


def test_update_is_a_base_update():
    from torchmetrics_lite.classification import _base

    bases = {_base._BinaryMetric.batch_stats, _base._MulticlassMetric.batch_stats,
             _base._MultilabelMetric.batch_stats, tmc.MultilabelExactMatch.batch_stats}
    own = {"MulticlassExactMatch", "BinaryHingeLoss", "MulticlassHingeLoss", "BinaryFairness",
           "BinaryGroupStatRates"}  # their own update, compiled below
    for name in set(tmc.__all__) - own:
        cls = getattr(tmc, name)
        assert cls.batch_stats in bases and cls.update is tmc.MultilabelExactMatch.update, name


@pytest.mark.parametrize("name,factory,batch", UPDATE_CASES, ids=[c[0] for c in UPDATE_CASES])
def test_module_update_compiles(name, factory, batch):
    metric = factory(validate_args=False)
    reference = factory(validate_args=False)
    reference.update(*batch)

    def step(*args):  # what one update adds to the state (the state accumulates over the traced calls)
        before = {k: v.clone() for k, v in metric.local_state().items()}
        metric.update(*args)
        return {k: v - before[k] for k, v in metric.local_state().items()}

    check_compiles(step, *batch)
    compiled = torch.compile(step, backend="eager", fullgraph=True)
    metric.reset()
    compiled(*batch)
    assert_close(metric.compute(), reference.compute())


def test_f1_update_compiles_with_inductor():
    check_compiles(partial(F.multiclass_f1_score, num_classes=C, validate_args=False), MC_SCORES, MC_TARGET,
                   backends=("eager", "inductor"))


# ------------------------------------------------------------------------------------------------ paths of their own
OWN_PATH_FUNCS = [  # one per concept: NPV and Hamming share the score path compiled above
    (F.multiclass_negative_predictive_value, (counts.MC_SCORES, counts.MC_TARGET, C), {"top_k": 2}),
    (F.binary_hamming_distance, (counts.BIN_PREDS, counts.BIN_TARGET), {"weight": counts.BIN_W}),
    (F.multiclass_exact_match, (SEQ_P, SEQ_T, 3), {"ignore_index": 0}),
    (F.binary_hinge_loss, (LOGITS, counts.BIN_TARGET), {"from_logits": True, "ignore_index": -1}),
    (F.multiclass_hinge_loss, (counts.MC_SCORES, counts.MC_TARGET, C),
     {"multiclass_mode": "one-vs-all", "squared": True}),
    (F.binary_groups_stat_rates, (counts.BIN_PREDS, counts.BIN_TARGET, GROUPS, G), {}),
]


@pytest.mark.parametrize("fn,args,kwargs", OWN_PATH_FUNCS, ids=[f"{c[0].__name__}{i}" for i, c in
                                                                  enumerate(OWN_PATH_FUNCS)])
def test_own_path_functional_compiles(fn, args, kwargs):
    check_compiles(partial(fn, validate_args=False, **kwargs), *args)


OWN_UPDATE_CASES = [  # the bases' updates are compiled above; these have their own
    ("MulticlassExactMatch", partial(tmc.MulticlassExactMatch, 3, validate_args=False), SEQ_B),
    ("BinaryHingeLoss", partial(tmc.BinaryHingeLoss, margins=True, validate_args=False), BIN_LOGIT_B),
    ("MulticlassHingeLoss", partial(tmc.MulticlassHingeLoss, C, multiclass_mode="one-vs-all",
                                    validate_args=False), counts.MC_WB),
    ("BinaryFairness", partial(tmc.BinaryFairness, G, weighted=True, validate_args=False), GRP_WB),
    ("BinaryGroupStatRates", partial(tmc.BinaryGroupStatRates, G, ignore_index=-1, validate_args=False), GRP_B),
]


@pytest.mark.parametrize("name,factory,batches", OWN_UPDATE_CASES, ids=[c[0] for c in OWN_UPDATE_CASES])
def test_own_update_compiles(name, factory, batches):
    check_update_compiles(factory, batches[:1])  # one shape: no recompile
