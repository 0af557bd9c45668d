"""The equal error rate: per class, micro and macro (the EER of the classes' mean ROC curve), against independent
oracles: the EER interpolated by hand on scikit-learn's ``roc_curve`` (``eer_oracle``), the macro EER on a mean
curve built by hand on scikit-learn's per-class curves (a plain loop over the union of the classes' false-positive
rates, read as ``eer_oracle`` does); ties, empty input, a class without positives; its modules through the harness
(the distributed case is in ``tests/helpers/auroc/rank_scores.py``); and torchmetrics 1.9 on the same inputs: equal
where its rates cross at a point, otherwise both values pinned, ours to the oracle, torchmetrics' to its
nearest-point rule written out by hand (``tm_eer_rule``), so a change on either side shows. A class or label
without positives: torchmetrics' rates are 0 (a safe division), ours nan with a warning (the README's row).
The binned EER is in ``test_binned_eer_logauc.py``."""
import math
import warnings
from functools import partial

import numpy as np
import pytest
import torch
import torchmetrics.functional.classification as tm
from sklearn.metrics import roc_curve

import torchmetrics_lite as T
import torchmetrics_lite.functional as F
from tests.helpers.auroc.rank_scores import BIN, MC, ML, C, L, make, per_column
from tests.helpers.metric_tester import check_metric_against_function, check_rejects


# ----------------------------------------------------------------------------------------------------------- oracles
def eer_oracle(y, s):
    """The EER by hand on scikit-learn's curve: the first point with fpr >= fnr (compared in exact integer
    counts, so an exact crossing at a point is seen as one), interpolated from the one before (a plain loop)."""
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    n_pos, n_neg = int(np.sum(y)), int(len(y) - np.sum(y))
    fp, fn = np.rint(fpr * n_neg).astype(int), n_pos - np.rint(tpr * n_pos).astype(int)
    fnr = fn / n_pos
    for i in range(1, len(fpr)):
        if fp[i] * n_pos >= fn[i] * n_neg:
            d0, d1 = fpr[i - 1] - fnr[i - 1], fpr[i] - fnr[i]
            return fpr[i - 1] + (fpr[i] - fpr[i - 1]) * d0 / (d0 - d1), thr[i]
    raise AssertionError("no crossing")

def tm_eer_rule(y, s):
    """torchmetrics' EER: at the first curve point minimising ``|fpr - fnr|``, ``(fpr + fnr) / 2``."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    k = int(np.argmin(np.abs(fpr - (1 - tpr))))
    return (fpr[k] + 1 - tpr[k]) / 2

def class_curves(y, probs):
    """Each class with both kinds of samples: its exact ROC curve (scikit-learn, every distinct score a point)."""
    curves = []
    for c in range(probs.shape[1]):
        positive = (y == c).astype(int)
        if 0 < positive.sum() < len(y):
            fpr, tpr, _ = roc_curve(positive, probs[:, c], drop_intermediate=False)
            curves.append((fpr, tpr))
    return curves

def mean_curve(curves):
    """Per distinct fpr ``g`` of any class, in increasing order: ``(g, T-(g))`` then ``(g, T+(g))``: the mean over
    classes of each class's tpr at ``g``, the lowest / highest of its points at ``g`` when it has some there, else
    linear between its points around ``g``."""
    grid = np.unique(np.concatenate([fpr for fpr, _ in curves]))
    points = []
    for g in grid:
        low, high = [], []
        for fpr, tpr in curves:
            at = tpr[fpr == g]
            low.append(at.min() if len(at) else np.interp(g, fpr, tpr))
            high.append(at.max() if len(at) else np.interp(g, fpr, tpr))
        points += [(g, np.mean(low)), (g, np.mean(high))]
    return np.array(points)

def macro_eer_oracle(y, probs):
    """The first mean-curve point with ``fpr >= fnr``, interpolated linearly from the point before it."""
    points = mean_curve(class_curves(y, probs))
    fpr, fnr = points[:, 0], 1 - points[:, 1]
    k = int(np.argmax(fpr >= fnr))
    if k == 0:
        return fpr[0]
    d0, d1 = fpr[k - 1] - fnr[k - 1], fpr[k] - fnr[k]
    return fpr[k - 1] + (fpr[k] - fpr[k - 1]) * d0 / (d0 - d1)


# ----------------------------------------------------------------------------------------------- per class and micro
@pytest.mark.parametrize("decimals", [1, 3])
def test_eer_is_the_interpolated_crossing_of_the_exact_curve(decimals, backend):
    logits, probs, y, scores, labels = make(400, decimals=decimals)
    s, t = scores[:, 2].double(), labels[:, 2]
    eer, threshold = F.binary_eer_threshold(s, t)
    want, want_threshold = eer_oracle(t.numpy(), s.numpy())
    assert abs(eer.item() - want) < 1e-12 and threshold.item() == want_threshold
    assert F.binary_eer(s, t).item() == eer.item()
    per_class = F.multiclass_eer_threshold(logits, y, C, from_logits=True)
    for c, (e, th) in enumerate(per_column(eer_oracle, probs, torch.nn.functional.one_hot(y, C))):
        assert abs(per_class[0][c].item() - e) < 1e-12 and abs(per_class[1][c].item() - th) < 1e-12
    micro = F.multiclass_eer(probs, y, C, average="micro")
    assert abs(micro.item() - eer_oracle(torch.nn.functional.one_hot(y, C).reshape(-1).numpy(),
                                         probs.reshape(-1).numpy())[0]) < 1e-12
    per_label = F.multilabel_eer_threshold(scores, labels, L)
    for j, (e, th) in enumerate(per_column(eer_oracle, scores.double(), labels)):
        assert abs(per_label[0][j].item() - e) < 1e-12 and abs(per_label[1][j].item() - th) < 1e-6

def test_eer_by_hand(backend):
    # curve (fpr, fnr): (0, 1) -> (0, 2/3) -> (1/2, 0) [the tie 0.3: one negative, two positives] -> (1, 0);
    # fpr = fnr on the diagonal segment at 2/7, the segment's end is threshold 0.3
    eer, threshold = F.binary_eer_threshold(torch.tensor([0.1, 0.3, 0.3, 0.3, 0.9]), torch.tensor([0, 0, 1, 1, 1]))
    assert eer.item() == pytest.approx(2 / 7, abs=1e-15) and threshold.item() == pytest.approx(0.3)
    eer, threshold = F.binary_eer_threshold(torch.tensor([0.2, 0.8]), torch.tensor([0, 1]))  # perfect: crosses at
    assert (eer.item(), threshold.item()) == (0.0, pytest.approx(0.8))  # the point (0, 0) of threshold 0.8
    eer = F.binary_eer(torch.tensor([0.8, 0.2]), torch.tensor([0, 1]))  # reversed: crosses at (1, 1)
    assert eer.item() == 1.0

def test_eer_undefined_and_empty(backend):
    with pytest.warns(UserWarning, match="EER is undefined with one class present"):
        eer, threshold = F.binary_eer_threshold(torch.rand(5), torch.ones(5, dtype=torch.long))
    assert math.isnan(eer.item()) and math.isnan(threshold.item())
    with pytest.warns(UserWarning, match="EER is undefined"):
        assert math.isnan(F.binary_eer(torch.zeros(0), torch.zeros(0, dtype=torch.long)).item())
    _, probs, y, scores, labels = make(60)
    y[y == 3] = 0
    labels[:, 1] = 0
    with pytest.warns(UserWarning, match=r"EER is undefined for class\(es\) \[3\]"):
        per_class = F.multiclass_eer(probs, y, C)
    assert torch.isnan(per_class[3]) and not torch.isnan(per_class[:3]).any()
    with pytest.warns(UserWarning, match=r"EER is undefined for class\(es\) \[1\]"):
        per_label = F.multilabel_eer(scores, labels, L)
    assert torch.isnan(per_label[1]) and not torch.isnan(per_label[[0, 2, 3, 4]]).any()


# ------------------------------------------------------------------------------------------------------------- macro
@pytest.mark.usefixtures("backend")  # the packed numpy curve and the torch sweep
@pytest.mark.parametrize("n, seed, decimals", [(60, 0, 1), (200, 1, 4), (7, 2, 0), (300, 3, 2)])
def test_macro_eer_is_the_crossing_of_the_mean_curve(n, seed, decimals):
    logits, probs, y, _, _ = make(n, seed=seed, decimals=decimals)
    want = macro_eer_oracle(y.numpy(), probs.numpy())
    assert abs(F.multiclass_eer(probs, y, C, average="macro").item() - want) < 1e-12
    assert abs(F.multiclass_eer(logits, y, C, average="macro", from_logits=True).item() - want) < 1e-12
    m = T.MulticlassEER(C, average="macro")
    m.update(probs[: n // 2], y[: n // 2])
    m.update(probs[n // 2:], y[n // 2:])
    assert abs(m.compute().item() - want) < 1e-12
    assert abs(T.EER(task="multiclass", num_classes=C, average="macro")(probs, y).item() - want) < 1e-12

def test_macro_eer_by_hand():
    probs = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]], dtype=torch.float64)
    y = torch.tensor([0, 1, 0, 1])  # both classes ranked perfectly: every curve, and their mean, passes (0, 1)
    assert F.multiclass_eer(probs, y, 2, average="macro").item() == 0.0
    # class 0 (positives 0.9, 0.2; negatives 0.6, 0.3): (0,0) (0,1/2) (1/2,1/2) (1,1/2) (1,1); class 1 (positives
    # 0.4, 0.7; negatives 0.8, 0.1): (0,0) (1/2,0) (1/2,1/2) (1/2,1) (1,1). Means of the lowest / highest tpr at
    # fpr 0, 1/2, 1: (0,0) (0,1/4) (1/2,1/4) (1/2,3/4) (1,3/4) (1,1); fpr - fnr goes -1, -3/4, -1/4, 1/4: the rates
    # cross on the vertical at fpr 1/2
    y = torch.tensor([0, 0, 1, 1])
    by_hand = mean_curve(class_curves(y.numpy(), probs.numpy()))
    assert by_hand.tolist() == [[0, 0], [0, 0.25], [0.5, 0.25], [0.5, 0.75], [1, 0.75], [1, 1]]
    assert F.multiclass_eer(probs, y, 2, average="macro").item() == 0.5
    # torchmetrics keeps the upper points (0,1/4) (1/2,3/4) (1,...): nearest |fpr - fnr| = 1/4 at (1/2, 3/4)
    assert tm.multiclass_eer(probs.float(), y, 2, average="macro").item() == 0.375  # (1/2 + 1/4) / 2

def test_absent_class_left_out_of_the_mean_curve():
    _, probs, y, _, _ = make(80, seed=4, decimals=2)
    y = torch.where(y == 3, 0, y)  # class 3 has no positives
    with pytest.warns(UserWarning, match=r"EER is undefined for class\(es\) \[3\] .* left out of the macro"):
        value = F.multiclass_eer(probs, y, C, average="macro")
    assert abs(value.item() - macro_eer_oracle(y.numpy(), probs.numpy())) < 1e-12
    with pytest.warns(UserWarning, match="EER is undefined for every class"):
        assert torch.isnan(F.multiclass_eer(torch.zeros(0, C), torch.zeros(0, dtype=torch.long), C,
                                            average="macro"))

# where the mean curve's crossing sits next to a class's vertex (issue 34's surviving mutant of
# ``result_segments._mean_d``): a class curve is read at its own point only where ``fpr`` equals the grid value
# exactly, and interpolated between its points everywhere else. Inputs from a scan of 300 small random ones,
# the ones where reading a point at ``fpr >= f`` instead changes the value.
@pytest.mark.parametrize("n, seed", [(12, 33), (20, 150), (40, 15), (40, 279)])
def test_macro_eer_interpolates_between_a_class_points(n, seed):
    _, probs, y, _, _ = make(n, seed=seed, decimals=0)
    assert F.multiclass_eer(probs, y, C, average="macro").item() == pytest.approx(
        macro_eer_oracle(y.numpy(), probs.numpy()), abs=1e-12)

def test_macro_eer_errors():
    probs, y = torch.rand(4, 3).softmax(1), torch.tensor([0, 1, 2, 0])
    with pytest.raises(ValueError, match=r"got 'macro': the macro EER is read off the classes' mean ROC curve, "
                                         r"which has no threshold"):
        F.multiclass_eer_threshold(probs, y, 3, average="macro")
    with pytest.raises(ValueError, match=r"Expected `average` to be one of \('none', 'micro', 'macro'\), got 'w'"):
        F.multiclass_eer(probs, y, 3, average="w")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert F.multiclass_eer(probs, y, 3, average="macro").shape == ()


# ------------------------------------------------------------------------------------------------------ torchmetrics
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

@pytest.mark.parametrize("decimals", [1, 4])
def test_torchmetrics_macro_curve_and_nearest_point(decimals):
    _, probs, y, _, _ = make(150, seed=6, decimals=decimals)
    points = mean_curve(class_curves(y.numpy(), probs.numpy()))
    upper = points[1::2]  # (g, T+(g)): torchmetrics' interp takes the last point at or below g
    mean_fpr, mean_tpr, _ = tm.multiclass_roc(probs.float(), y, C, average="macro")
    mean_fpr, mean_tpr = mean_fpr.double().numpy(), mean_tpr.double().numpy()
    inside = mean_fpr < 1 - 1e-6  # at fpr 1 its interp clamps to the last segment (README row)
    nearest = np.abs(mean_fpr[inside, None] - upper[None, :, 0]).argmin(1)
    assert np.abs(mean_fpr[inside] - upper[nearest, 0]).max() < 1e-6
    assert np.abs(mean_tpr[inside] - upper[nearest, 1]).max() < 1e-6
    k = int(np.argmin(np.abs(upper[:, 0] - (1 - upper[:, 1]))))
    theirs = tm.multiclass_eer(probs.float(), y, C, average="macro").item()
    assert abs(theirs - (upper[k, 0] + 1 - upper[k, 1]) / 2) < 1e-6  # the nearest point, not interpolated
    ours = F.multiclass_eer(probs, y, C, average="macro").item()
    assert abs(ours - macro_eer_oracle(y.numpy(), probs.numpy())) < 1e-12 and abs(ours - theirs) < 0.05

# and LogAUC's: both read the curve of a label without positives
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


# ----------------------------------------------------------------------------------------------------------- harness
def _f(name, **kw):
    return partial(getattr(F, name), **kw)

HARNESS = {
    "bin_eer": (T.BinaryEER, F.binary_eer, BIN),
    "mc_eer": (partial(T.MulticlassEER, C, from_logits=True), _f("multiclass_eer", num_classes=C, from_logits=True),
               MC),
    "mc_eer_micro": (partial(T.MulticlassEER, C, average="micro", from_logits=True),
                     _f("multiclass_eer", num_classes=C, average="micro", from_logits=True), MC),
    "mc_eer_macro": (partial(T.MulticlassEER, C, average="macro", from_logits=True),
                     _f("multiclass_eer", num_classes=C, average="macro", from_logits=True), MC),
    "ml_eer": (partial(T.MultilabelEER, L), _f("multilabel_eer", num_labels=L), ML),
}

@pytest.mark.parametrize("name", sorted(HARNESS))
def test_harness(name):
    check_metric_against_function(*HARNESS[name])


# ------------------------------------------------------------------------------------------------------------ errors
def test_option_errors():
    with pytest.raises(ValueError, match=r"Expected `average` to be one of \('none', 'micro', 'macro'\), got 'w"):
        T.MulticlassEER(3, average="weighted")


def test_modules_reject_bad_batches_unchanged():
    check_rejects(T.BinaryEER, BIN, (torch.rand(3), torch.tensor([0, 1, 1]), torch.rand(3)), TypeError,
                  r"Expected no `weight` for BinaryEER")
