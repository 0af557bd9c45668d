"""Per-class ROC / PR curves and the operating points against torchmetrics 1.9 (``thresholds=None``) and
scikit-learn, binary and multiclass, with ties; their modules through the harness."""
import math
from functools import partial

import numpy as np
import pytest
import torch
import torchmetrics.functional.classification as tm
from sklearn.metrics import precision_recall_curve, roc_curve

import torchmetrics_lite as T
import torchmetrics_lite.functional as F
from tests.helpers.auroc.curves import BIN, LOGITS, MC, ML, PROBS, C, L, Y, make
from tests.helpers.metric_tester import check_metric_against_function, check_rejects


def _close(ours, theirs, atol):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.double().numpy(), b.double().numpy(), atol=atol, rtol=0)


@pytest.mark.parametrize("decimals", [1, 3])
def test_per_class_curves_match_sklearn_and_torchmetrics(decimals):
    logits, probs, y, scores, labels = make(300, decimals=decimals)
    fpr, tpr, thr = F.multiclass_roc(logits, y, C, from_logits=True)
    precision, recall, pthr = F.multiclass_precision_recall_curve(logits, y, C, from_logits=True)
    for c in range(C):
        want = roc_curve(y.numpy() == c, probs[:, c].numpy(), drop_intermediate=False)
        _close((fpr[c], tpr[c], thr[c]), [torch.tensor(v.copy()) for v in want], 1e-12)
        want = precision_recall_curve(y.numpy() == c, probs[:, c].numpy())
        _close((precision[c], recall[c], pthr[c]), [torch.tensor(v.copy()) for v in want], 1e-12)
    peer = tm.multiclass_roc(probs, y, C)  # torchmetrics: float32 rates, first threshold 1.0 where ours is inf
    _close(fpr, peer[0], 1e-6), _close(tpr, peer[1], 1e-6)
    _close([t[1:] for t in thr], [t[1:] for t in peer[2]], 1e-6)
    _close(precision, tm.multiclass_precision_recall_curve(probs, y, C)[0], 1e-6)
    fpr, tpr, thr = F.multilabel_roc(scores, labels, L)
    precision, recall, pthr = F.multilabel_precision_recall_curve(scores, labels, L)
    for j in range(L):
        want = roc_curve(labels[:, j].numpy(), scores[:, j].numpy(), drop_intermediate=False)
        _close((fpr[j], tpr[j], thr[j]), [torch.tensor(v.copy()) for v in want], 1e-12)
        want = precision_recall_curve(labels[:, j].numpy(), scores[:, j].numpy())
        _close((precision[j], recall[j], pthr[j]), [torch.tensor(v.copy()) for v in want], 1e-12)
    _close(recall, tm.multilabel_precision_recall_curve(scores, labels, L)[1], 1e-6)


def test_absent_class_curve_is_nan_with_warning():
    _, probs, y, _, _ = make(50)
    y[y == 3] = 0
    with pytest.warns(UserWarning, match=r"ROC curve: only one class present in `target` for class\(es\) \[3\]"):
        fpr, tpr, _ = F.multiclass_roc(probs, y, C)
    assert torch.isnan(tpr[3][1:]).all() and not torch.isnan(tpr[0]).any()
    recall = F.multiclass_precision_recall_curve(probs, y, C)[1]
    assert (recall[3][:-1] == 1).all()


POINTS = ["recall_at_fixed_precision", "precision_at_fixed_recall", "sensitivity_at_specificity",
          "specificity_at_sensitivity"]


def _tm_threshold_to_ours(name, value, threshold, ours_threshold):
    """torchmetrics' ROC starts at threshold 1.0, ours (scikit-learn's) at inf: the one documented difference."""
    if name.startswith(("sensitivity", "specificity")):
        return torch.where(torch.isinf(ours_threshold) & (threshold.double() == 1.0), ours_threshold.double(),
                           threshold.double())
    return threshold.double()


@pytest.mark.parametrize("minimum", [0.0, 0.25, 0.5, 0.8, 0.95, 1.0])
@pytest.mark.parametrize("name", POINTS)
@pytest.mark.parametrize("seed", [0, 1])
def test_operating_points_match_torchmetrics(name, minimum, seed):
    logits, probs, y, _, _ = make(120, seed=seed)
    probs32 = probs.float()
    got = getattr(F, f"multiclass_{name}")(logits, y, C, minimum, from_logits=True)
    want = getattr(tm, f"multiclass_{name}")(probs, y, C, minimum)
    np.testing.assert_allclose(got[0].numpy(), want[0].double().numpy(), atol=1e-6, rtol=0)
    np.testing.assert_allclose(got[1].double().numpy(), _tm_threshold_to_ours(name, *want, got[1]).numpy(),
                               atol=1e-6, rtol=0)
    target = (y == 1).long()
    got = getattr(F, f"binary_{name}")(probs32[:, 1], target, minimum)
    want = getattr(tm, f"binary_{name}")(probs32[:, 1], target, minimum)
    assert got[0].item() == pytest.approx(want[0].item(), abs=1e-6)
    assert got[1].item() == pytest.approx(_tm_threshold_to_ours(name, *want, got[1]).item(), abs=1e-6,
                                          nan_ok=True)


def test_operating_point_rules_by_hand():
    preds = torch.tensor([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    target = torch.tensor([0, 1, 0, 1, 0, 1])
    # precision >= 0.61 at t = 0.4 (2/3, recall 2/3) and t = 0.6 (1, recall 1/3), not at t = 0.2 (3/5): the
    # highest recall wins
    recall, threshold = F.binary_recall_at_fixed_precision(preds, target, 0.61)
    assert (recall.item(), threshold.item()) == (pytest.approx(2 / 3), pytest.approx(0.4))
    recall, threshold = F.binary_recall_at_fixed_precision(torch.tensor([0.9, 0.1]), torch.tensor([0, 1]), 0.9)
    assert recall.item() == 0.0 and math.isnan(threshold.item())  # none qualifies
    sensitivity, threshold = F.binary_sensitivity_at_specificity(torch.tensor([0.9, 0.1]), torch.tensor([0, 1]), 1.0)
    assert sensitivity.item() == 0.0 and math.isinf(threshold.item())  # only the curve's start: inf (tm: 1.0)
    precision, threshold = F.binary_precision_at_fixed_recall(preds, target, 1.0)
    assert (precision.item(), threshold.item()) == (pytest.approx(0.6), pytest.approx(0.2))


def test_operating_points_reject_bad_constraints():
    preds, target = torch.rand(4), torch.tensor([0, 1, 0, 1])
    with pytest.raises(ValueError, match=r"Expected `min_precision` to be a number in \[0.0, 1.0\], got 1.5"):
        F.binary_recall_at_fixed_precision(preds, target, 1.5)
    with pytest.raises(ValueError, match=r"Expected `min_sensitivity` to be a number in \[0.0, 1.0\], got -0.1"):
        T.MulticlassSpecificityAtSensitivity(3, -0.1)
    with pytest.raises(ValueError, match=r"from_logits=True"):
        F.multiclass_recall_at_fixed_precision(torch.randn(4, 3) * 5, torch.tensor([0, 1, 2, 0]), 3, 0.5)


# ------------------------------------------------------------------------------------------------ harness
def _f(name, **kw):
    return partial(getattr(F, name), **kw)


HARNESS = {
    "mc_roc": (partial(T.MulticlassROC, C, from_logits=True), _f("multiclass_roc", num_classes=C, from_logits=True),
               MC),
    "mc_pr": (partial(T.MulticlassPrecisionRecallCurve, C, from_logits=True),
              _f("multiclass_precision_recall_curve", num_classes=C, from_logits=True), MC),
    "ml_roc": (partial(T.MultilabelROC, L), _f("multilabel_roc", num_labels=L), ML),
    "ml_pr": (partial(T.MultilabelPrecisionRecallCurve, L), _f("multilabel_precision_recall_curve", num_labels=L), ML),
    **{f"bin_{n}": (partial(getattr(T, cls), 0.5), _f(f"binary_{n}", **{arg: 0.5}), BIN)
       for n, cls, arg in (("recall_at_fixed_precision", "BinaryRecallAtFixedPrecision", "min_precision"),
                           ("precision_at_fixed_recall", "BinaryPrecisionAtFixedRecall", "min_recall"),
                           ("sensitivity_at_specificity", "BinarySensitivityAtSpecificity", "min_specificity"),
                           ("specificity_at_sensitivity", "BinarySpecificityAtSensitivity", "min_sensitivity"))},
    **{f"mc_{n}": (partial(getattr(T, cls), C, 0.7, from_logits=True),
                   _f(f"multiclass_{n}", num_classes=C, from_logits=True, **{arg: 0.7}), MC)
       for n, cls, arg in (("recall_at_fixed_precision", "MulticlassRecallAtFixedPrecision", "min_precision"),
                           ("precision_at_fixed_recall", "MulticlassPrecisionAtFixedRecall", "min_recall"),
                           ("sensitivity_at_specificity", "MulticlassSensitivityAtSpecificity", "min_specificity"),
                           ("specificity_at_sensitivity", "MulticlassSpecificityAtSensitivity", "min_sensitivity"))},
}


@pytest.mark.parametrize("name", sorted(HARNESS))
def test_harness(name):
    check_metric_against_function(*HARNESS[name], max_examples=4)


def test_modules_reject_bad_batches_unchanged():
    check_rejects(partial(T.MulticlassROC, C), [(PROBS[:10].float(), Y[:10])], (LOGITS[:4], Y[:4]), ValueError,
                  r"from_logits=True")
    check_rejects(partial(T.BinaryRecallAtFixedPrecision, 0.5), BIN, (torch.rand(3), torch.tensor([0, 2, 1])),
                  ValueError, r"`target` to hold only 0 and 1 .*got value 2")
