"""``torch.compile(fullgraph=True)`` with ``validate_args=False``: the functional AUROC / AP (every task,
weighted or not) and every module's ``update`` trace without a graph break and give the eager value (backend
"eager"; one inductor case). The binary ROC / PR curves, whose length is the number of distinct scores, trace
with ``capture_dynamic_output_shape_ops``."""
from functools import partial

import pytest
import torch
import torch._dynamo.config as dynamo_config

import torchmetrics_lite as T
import torchmetrics_lite.functional as F
from tests.helpers.compile import check_compiles, graph_breaks
from tests.helpers.metric_tester import states_equal

G = torch.Generator().manual_seed(0)
P = torch.rand(200, generator=G).round(decimals=1)  # ties
Y = (torch.rand(200, generator=G) < 0.4).long()
W = torch.rand(200, generator=G)
LG = torch.randn(100, 4, generator=G).round(decimals=1)
MC_Y = torch.randint(0, 4, (100,), generator=G)
ML_Y = (torch.rand(100, 4, generator=G) < 0.5).long()

FUNCTIONAL = {
    "binary_auroc_weighted": (lambda p, t, w: F.binary_auroc(p, t, weight=w, validate_args=False), (P, Y, W)),
    "binary_ap": (partial(F.binary_average_precision, validate_args=False), (P, Y)),
    "binary_ap_weighted": (lambda p, t, w: F.binary_average_precision(p, t, weight=w, validate_args=False),
                           (P, Y, W)),
    "multiclass_auroc": (partial(F.multiclass_auroc, num_classes=4, from_logits=True, validate_args=False),
                         (LG, MC_Y)),
    "multiclass_ap_weighted": (lambda p, t, w: F.multiclass_average_precision(
        p, t, 4, average="weighted", from_logits=True, weight=w, validate_args=False), (LG, MC_Y, W[:100])),
    "multilabel_auroc_micro": (partial(F.multilabel_auroc, num_labels=4, average="micro", validate_args=False),
                               (LG, ML_Y)),
    "multilabel_ap": (partial(F.multilabel_average_precision, num_labels=4, validate_args=False), (LG, ML_Y)),
    "binary_precision_at_fixed_recall": (partial(F.binary_precision_at_fixed_recall, min_recall=0.5,
                                                 validate_args=False), (P, Y)),
    "binary_recall_at_fixed_precision": (partial(F.binary_recall_at_fixed_precision, min_precision=0.5,
                                                 validate_args=False), (P, Y)),
    "binary_sensitivity_at_specificity": (partial(F.binary_sensitivity_at_specificity, min_specificity=0.5,
                                                  validate_args=False), (P, Y)),
    "binary_specificity_at_sensitivity": (partial(F.binary_specificity_at_sensitivity, min_sensitivity=0.5,
                                                  validate_args=False), (P, Y)),
    "multiclass_precision_at_fixed_recall": (partial(F.multiclass_precision_at_fixed_recall, num_classes=4,
                                                     min_recall=0.5, from_logits=True, validate_args=False),
                                             (LG, MC_Y)),
    "multiclass_specificity_at_sensitivity": (partial(F.multiclass_specificity_at_sensitivity, num_classes=4,
                                                      min_sensitivity=0.5, from_logits=True, validate_args=False),
                                              (LG, MC_Y)),
    # the EER and LogAUC reads of the sweep (per-class rows share them), the per-row label-ranking counts
    "binary_eer_threshold": (partial(F.binary_eer_threshold, validate_args=False), (P, Y)),
    "multiclass_eer_macro": (partial(F.multiclass_eer, num_classes=4, average="macro", from_logits=True,
                                     validate_args=False), (LG, MC_Y)),
    "binary_logauc": (partial(F.binary_logauc, fpr_range=(0.05, 1.0), validate_args=False), (P, Y)),
    "multilabel_coverage_error": (partial(F.multilabel_coverage_error, num_labels=4, validate_args=False),
                                  (LG, ML_Y)),
    "multilabel_ranking_loss": (partial(F.multilabel_ranking_loss, num_labels=4, validate_args=False), (LG, ML_Y)),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONAL))
def test_functional_compiles(name):
    fn, args = FUNCTIONAL[name]
    check_compiles(fn, *args)


def test_inductor_representative():
    check_compiles(partial(F.binary_auroc, validate_args=False), P, Y, backends=("inductor",))


def test_binary_curves_compile_with_dynamic_output_shapes():
    with dynamo_config.patch(capture_dynamic_output_shape_ops=True):  # PR shares the ROC's code path
        check_compiles(lambda p, t, w: F.binary_roc(p, t, weight=w, validate_args=False), P, Y, W)


MODULES = {  # one per distinct update path (a module's update is its task base's batch_stats)
    "BinaryAUROC": (T.BinaryAUROC, (P, Y)),
    "BinaryAUROC_weighted": (T.BinaryAUROC, (P, Y, W)),
    "BinaryAUROC_binned": (partial(T.BinaryAUROC, bins=16), (P, Y)),
    "MulticlassAUROC_weighted": (partial(T.MulticlassAUROC, 4, from_logits=True), (LG, MC_Y, W[:100])),
    "MultilabelAveragePrecision_weighted": (partial(T.MultilabelAveragePrecision, 4), (LG, ML_Y, W[:100])),
    "BinaryRecallAtFixedPrecision": (partial(T.BinaryRecallAtFixedPrecision, 0.5), (P, Y)),
    "MulticlassRecallAtFixedPrecision": (partial(T.MulticlassRecallAtFixedPrecision, 4, 0.5, from_logits=True),
                                         (LG, MC_Y)),
    "PairedAUROCTest": (T.PairedAUROCTest, (P, W, Y)),
    "MultilabelRankingLoss": (partial(T.MultilabelRankingLoss, 4), (LG, ML_Y)),
}


def test_every_module_shares_a_covered_update_path():
    covered = {type(factory()).batch_stats for factory, _ in MODULES.values()}
    for name in T.auroc.__all__:
        assert getattr(T, name).batch_stats in covered, name


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_update_compiles(name):
    factory, args = MODULES[name]
    probe = factory(validate_args=False)
    assert graph_breaks(lambda *a: probe.update(*a), *args) == 0
    eager, compiled = factory(validate_args=False), factory(validate_args=False)
    eager.update(*args)
    eager.update(*args)
    step = torch.compile(lambda *a: compiled.update(*a), backend="eager", fullgraph=True)
    step(*args)
    step(*args)  # a second call appends to a grown state
    assert states_equal(compiled.local_state(), eager.local_state())
