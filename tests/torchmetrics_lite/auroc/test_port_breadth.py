"""torchmetrics 1.9 on the same inputs as ours, for the EER, LogAUC, the multilabel ranking metrics and the
multilabel operating points: equal where we promise torchmetrics' number; where it approximates or breaks ties
(EER without interpolation, LogAUC's trapezoid in log space, the ranking loss's argsort ties), both values pinned:
ours to an independent oracle (``test_breadth.py``), torchmetrics' to its rule written out by hand here, so a change
on either side shows. A class or label without positives: torchmetrics' rates are 0 (a safe division), ours nan
with a warning (the README's row)."""
import math
import warnings

import numpy as np
import pytest
import torch
import torchmetrics.classification as tmc
import torchmetrics.functional.classification as tm
from sklearn.metrics import label_ranking_loss, roc_curve

import torchmetrics_lite as T
import torchmetrics_lite.functional as F
from tests.torchmetrics_lite.auroc.test_breadth import C, L, eer_oracle, make


def tm_eer_rule(y, s):
    """torchmetrics' EER: at the first curve point minimising ``|fpr - fnr|``, ``(fpr + fnr) / 2``."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    k = int(np.argmin(np.abs(fpr - (1 - tpr))))
    return (fpr[k] + 1 - tpr[k]) / 2


def tm_logauc_rule(y, s, lo, hi):
    """torchmetrics' LogAUC: the curve's points plus (lo, tpr(lo)) and (hi, tpr(hi)) (linear in fpr), then the
    trapezoidal area in (log10 fpr, tpr) between them, over log10(hi / lo)."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    ends = np.interp([lo, hi], fpr, tpr)
    f, t = np.concatenate([fpr, [lo, hi]]), np.concatenate([tpr, ends])
    order = np.lexsort((t, f))
    f, t = f[order], t[order]
    keep = (f >= lo) & (f <= hi)
    x, t = np.log10(f[keep]), t[keep]
    return float(np.sum(np.diff(x) * (t[1:] + t[:-1]) / 2) / math.log10(hi / lo))


@pytest.mark.parametrize("decimals", [1, 4])
def test_eer_torchmetrics_takes_the_nearest_point(decimals):
    logits, probs, y, scores, labels = make(300, seed=3, decimals=decimals)
    s, t = scores[:, 1], labels[:, 1]
    ours, theirs = F.binary_eer(s, t).item(), tm.binary_eer(s, t).item()
    assert abs(ours - eer_oracle(t.numpy(), s.double().numpy())[0]) < 1e-12
    assert abs(theirs - tm_eer_rule(t.numpy(), s.numpy())) < 1e-6
    assert abs(ours - theirs) <= 0.5  # both on the same curve: at most half a segment apart
    assert T.BinaryEER()(s, t).item() == ours
    per_class, theirs = F.multiclass_eer(probs, y, C), tm.multiclass_eer(probs, y, C)
    for c in range(C):
        assert abs(theirs[c].item() - tm_eer_rule((y == c).numpy(), probs[:, c].numpy())) < 1e-6
        assert abs(per_class[c].item() - eer_oracle((y == c).numpy(), probs[:, c].numpy())[0]) < 1e-12
    one_hot = torch.nn.functional.one_hot(y, C).reshape(-1).numpy()
    theirs = tm.multiclass_eer(probs, y, C, average="micro").item()
    assert abs(theirs - tm_eer_rule(one_hot, probs.reshape(-1).numpy())) < 1e-6
    per_label, theirs = F.multilabel_eer(scores, labels, L), tm.multilabel_eer(scores, labels, L)
    for j in range(L):
        assert abs(theirs[j].item() - tm_eer_rule(labels[:, j].numpy(), scores[:, j].numpy())) < 1e-6
        assert abs(per_label[j].item() - eer_oracle(labels[:, j].numpy(), scores[:, j].double().numpy())[0]) < 1e-12


def test_eer_agrees_where_the_rates_cross_at_a_point():
    preds, target = torch.tensor([0.0, 0.5, 0.7, 0.8]), torch.tensor([0, 1, 1, 0])  # torchmetrics' example
    assert F.binary_eer(preds, target).item() == tm.binary_eer(preds, target).item() == 0.5
    preds, target = torch.tensor([0.1, 0.3, 0.3, 0.3, 0.9]), torch.tensor([0, 0, 1, 1, 1])  # our docstring's
    assert F.binary_eer(preds, target).item() == pytest.approx(2 / 7, abs=1e-15)
    assert tm.binary_eer(preds, target).item() == 0.25  # the point (1/2, 0): (1/2 + 0) / 2


@pytest.mark.parametrize("fpr_range", [(0.001, 0.1), (0.05, 1.0)])
def test_logauc_equal_without_ties_pinned_with_ties(fpr_range):
    g = torch.Generator().manual_seed(4)
    s, t = torch.rand(400, generator=g), (torch.rand(400, generator=g) < 0.3).long()
    ours, theirs = F.binary_logauc(s, t, fpr_range).item(), tm.binary_logauc(s, t, fpr_range).item()
    assert abs(ours - theirs) < 1e-6  # no tie: every segment is horizontal or vertical, the trapezoid is exact
    assert abs(T.BinaryLogAUC(fpr_range)(s, t).item() - ours) < 1e-15
    tied = s.round(decimals=1)
    ours, theirs = F.binary_logauc(tied, t, fpr_range).item(), tm.binary_logauc(tied, t, fpr_range).item()
    assert abs(theirs - tm_logauc_rule(t.numpy(), tied.numpy(), *fpr_range)) < 1e-6
    assert theirs > ours + 1e-4  # the trapezoid in log space lies above a diagonal segment (tpr concave in log f)
    _, probs, y, scores, labels = make(300, seed=4, decimals=4)
    got = F.multiclass_logauc(probs, y, C, fpr_range, average=None)
    np.testing.assert_allclose(got.numpy(), tm.multiclass_logauc(probs, y, C, fpr_range, average=None).numpy(),
                               atol=1e-5, rtol=0)
    got = F.multilabel_logauc(scores, labels, L, fpr_range)
    assert abs(got.item() - tm.multilabel_logauc(scores, labels, L, fpr_range).item()) < 1e-5


@pytest.mark.parametrize("decimals", [1, 4])
def test_ranking_metrics_against_torchmetrics(decimals):
    _, _, _, scores, labels = make(400, seed=6, decimals=decimals)
    labels[:3] = 0
    labels[3] = 1
    probs = torch.sigmoid(scores.double()).float()  # in [0, 1]: torchmetrics applies no sigmoid of its own
    for ours, theirs in ((F.multilabel_coverage_error, tm.multilabel_coverage_error),
                         (F.multilabel_ranking_average_precision, tm.multilabel_ranking_average_precision)):
        assert abs(ours(probs, labels, L).item() - theirs(probs, labels, L).item()) < 1e-5
    ours, theirs = F.multilabel_ranking_loss(probs, labels, L).item(), tm.multilabel_ranking_loss(probs, labels, L)
    assert abs(ours - label_ranking_loss(labels.numpy(), probs.numpy())) < 1e-12
    tied_pairs = sum(int(((probs[i][labels[i] == 1][:, None] == probs[i][labels[i] == 0][None, :]).sum()))
                     / max(int(labels[i].sum()) * int((1 - labels[i]).sum()), 1) for i in range(len(labels)))
    if decimals == 4 and tied_pairs == 0:
        assert abs(ours - theirs.item()) < 1e-6
    else:  # torchmetrics counts a tied (relevant, irrelevant) pair 0 or 1 by argsort position, scikit-learn 1
        assert tied_pairs > 0
        assert ours - tied_pairs / len(labels) - 1e-6 <= theirs.item() < ours - 1e-3
    module = tmc.MultilabelRankingLoss(L)
    module.update(probs, labels)
    assert module.compute().item() == pytest.approx(theirs.item(), abs=1e-7)


def test_ranking_loss_issue_example():
    preds, target = torch.tensor([[0.2, 0.4, 0.4]]), torch.tensor([[0, 1, 0]])
    assert F.multilabel_ranking_loss(preds, target, 3).item() == 0.5  # the tie (0.4, 0.4) is misordered
    assert tm.multilabel_ranking_loss(preds, target, 3).item() in (0.0, 0.5)  # by argsort position


POINTS = ["recall_at_fixed_precision", "precision_at_fixed_recall", "sensitivity_at_specificity",
          "specificity_at_sensitivity"]


@pytest.mark.parametrize("minimum", [0.0, 0.3, 0.8, 1.0])
@pytest.mark.parametrize("name", POINTS)
def test_multilabel_points_match_torchmetrics(name, minimum):
    _, _, _, scores, labels = make(200, seed=7, decimals=2)
    probs = torch.sigmoid(scores.double()).float()
    values, thresholds = getattr(F, f"multilabel_{name}")(probs, labels, L, minimum)
    want_values, want_thresholds = getattr(tm, f"multilabel_{name}")(probs, labels, L, minimum)
    np.testing.assert_allclose(values.numpy(), want_values.double().numpy(), atol=1e-6, rtol=0)
    # torchmetrics' ROC starts at threshold 1.0, ours (scikit-learn's) at inf: the family's documented difference
    start = torch.isinf(thresholds) & (want_thresholds == 1.0)
    np.testing.assert_allclose(torch.where(start, math.inf, thresholds.double()).numpy(),
                               torch.where(start, math.inf, want_thresholds.double()).numpy(), atol=1e-6, rtol=0)
    module = getattr(T, "Multilabel" + "".join(p.title() for p in name.split("_")))(L, minimum)
    torch.testing.assert_close(module(probs, labels)[0], values)


def test_a_label_without_positives():
    _, _, _, scores, labels = make(100, seed=8)
    labels[:, 2] = 0
    probs = torch.sigmoid(scores.double()).float()
    assert tm.multilabel_eer(probs, labels, L)[2].item() == 1.0  # fpr - fnr with tpr = 0 (0/0 as 0)
    assert tm.multilabel_logauc(probs, labels, L, average=None)[2].item() == 0.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert math.isnan(F.multilabel_eer(probs, labels, L)[2].item())
        assert math.isnan(F.multilabel_logauc(probs, labels, L, average=None)[2].item())
    assert len([w for w in caught if "undefined for class(es) [2]" in str(w.message)]) == 2
