"""The macro EER (``multiclass_eer(average="macro")``): the EER of the classes' mean ROC curve, against an oracle
that builds that curve by hand on scikit-learn's per-class ``roc_curve`` (a plain loop over the union of the
classes' false-positive rates) and reads the crossing as ``eer_oracle`` does; torchmetrics 1.9's macro ROC curve
against the same mean curve's points, and its macro EER against its nearest-point rule on them (the README row)."""
import warnings

import numpy as np
import pytest
import torch
import torchmetrics.functional.classification as tm
from sklearn.metrics import roc_curve

import torchmetrics_lite as T
import torchmetrics_lite.functional as F
from tests.torchmetrics_lite.auroc.test_breadth import C, backend, make  # noqa: F401 (a fixture)


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
