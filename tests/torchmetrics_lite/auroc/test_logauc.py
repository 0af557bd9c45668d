"""LogAUC, the area under the ROC curve on a log-scaled false-positive axis, against an independent oracle: the
numerical quadrature of ``np.interp`` on scikit-learn's ``roc_curve`` (``logauc_oracle``), with ties, empty input
and a class or label without positives; its modules through the harness (the distributed case is in
``tests/helpers/auroc/rank_scores.py``); and torchmetrics 1.9 on the same inputs: equal without ties, pinned with
ties, where torchmetrics' trapezoid in log space (``tm_logauc_rule``, its rule written out by hand) lies above ours.
The binned LogAUC is in ``test_binned_eer_logauc.py``."""
import math
from functools import partial

import numpy as np
import pytest
import torch
import torchmetrics.functional.classification as tm
from scipy.integrate import quad
from sklearn.metrics import roc_curve

import torchmetrics_lite as T
import torchmetrics_lite.functional as F
from tests.helpers.auroc.rank_scores import BIN, MC, ML, C, L, make, per_column
from tests.helpers.metric_tester import check_metric_against_function


# ----------------------------------------------------------------------------------------------------------- oracles
def logauc_oracle(y, s, lo, hi):
    """``integral tpr d(ln f) / ln(hi / lo)`` by adaptive quadrature over ``x = ln f``, the curve's points as
    break points (``np.interp`` of the curve, whose vertical steps have no width)."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    inside = [math.log(f) for f in fpr if lo < f < hi]
    value, _ = quad(lambda x: np.interp(math.exp(x), fpr, tpr), math.log(lo), math.log(hi), points=inside or None,
                    limit=500, epsabs=1e-14, epsrel=1e-13)
    return value / math.log(hi / lo)

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


# ------------------------------------------------------------------------------------------------------------ values
@pytest.mark.parametrize("fpr_range", [(0.001, 0.1), (0.05, 1.0), (0.2, 0.3)])
@pytest.mark.parametrize("decimals", [1, 3])
def test_logauc_equals_the_integral_of_the_exact_curve(decimals, fpr_range, backend):
    logits, probs, y, scores, labels = make(300, seed=1, decimals=decimals)
    lo, hi = fpr_range
    s, t = scores[:, 3].double(), labels[:, 3]
    assert abs(F.binary_logauc(s, t, fpr_range).item() - logauc_oracle(t.numpy(), s.numpy(), lo, hi)) < 1e-10
    want = per_column(lambda a, b: logauc_oracle(a, b, lo, hi), probs, torch.nn.functional.one_hot(y, C))
    got = F.multiclass_logauc(logits, y, C, fpr_range, average=None, from_logits=True)
    np.testing.assert_allclose(got.numpy(), want, atol=1e-10, rtol=0)
    assert abs(F.multiclass_logauc(logits, y, C, fpr_range, from_logits=True).item() - np.mean(want)) < 1e-10
    want = per_column(lambda a, b: logauc_oracle(a, b, lo, hi), scores.double(), labels)
    np.testing.assert_allclose(F.multilabel_logauc(scores, labels, L, fpr_range, average="none").numpy(), want,
                               atol=1e-10, rtol=0)

def test_logauc_by_hand_and_undefined(backend):
    preds, target = torch.tensor([0.9, 0.8, 0.7, 0.6]), torch.tensor([1, 0, 1, 0])
    want = (0.5 * math.log(5) + math.log(2)) / math.log(10)  # tpr 1/2 on [0.1, 0.5), 1 on [0.5, 1]
    assert F.binary_logauc(preds, target, (0.1, 1.0)).item() == pytest.approx(want, abs=1e-15)
    # one tie group of a positive and a negative: the diagonal (0, 0) -> (1, 1); integral of f d(ln f) = hi - lo
    value = F.binary_logauc(torch.tensor([0.5, 0.5]), torch.tensor([0, 1]), (0.01, 0.1))
    assert value.item() == pytest.approx((0.1 - 0.01) / math.log(10), abs=1e-15)
    with pytest.warns(UserWarning, match="LogAUC is undefined with one class present"):
        assert math.isnan(F.binary_logauc(torch.rand(4), torch.zeros(4, dtype=torch.long)).item())
    with pytest.raises(ValueError, match="Expected both classes in `target` for LogAUC"):
        F.binary_logauc(torch.zeros(0), torch.zeros(0, dtype=torch.long), strict=True)
    _, _, _, scores, labels = make(50)
    labels[:, 0] = 1
    with pytest.warns(UserWarning, match=r"LogAUC is undefined for class\(es\) \[0\]"):
        macro = F.multilabel_logauc(scores, labels, L)
    with pytest.warns(UserWarning):
        per_label = F.multilabel_logauc(scores, labels, L, average=None)
    assert macro.item() == pytest.approx(per_label[1:].mean().item(), abs=1e-15)


# ------------------------------------------------------------------------------------------------------ torchmetrics
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


# ----------------------------------------------------------------------------------------------------------- harness
def _f(name, **kw):
    return partial(getattr(F, name), **kw)

HARNESS = {
    "bin_logauc": (partial(T.BinaryLogAUC, (0.01, 0.5)), _f("binary_logauc", fpr_range=(0.01, 0.5)), BIN),
    "mc_logauc": (partial(T.MulticlassLogAUC, C, average=None, from_logits=True),
                  _f("multiclass_logauc", num_classes=C, average=None, from_logits=True), MC),
    "ml_logauc": (partial(T.MultilabelLogAUC, L, (0.05, 1.0), average="macro"), _f("multilabel_logauc", num_labels=L,
                                                                  fpr_range=(0.05, 1.0)), ML),
}

@pytest.mark.parametrize("name", sorted(HARNESS))
def test_harness(name):
    check_metric_against_function(*HARNESS[name])


# ------------------------------------------------------------------------------------------------------------ errors
def test_option_errors():
    preds, target = torch.rand(4), torch.tensor([0, 1, 0, 1])
    for bad in ((0.0, 0.1), (0.2, 0.1), (0.1, 1.5), 0.1, (0.1, float("nan"))):
        with pytest.raises(ValueError, match=r"Expected `fpr_range` to be a pair \(lo, hi\) with 0 < lo < hi <= 1"):
            F.binary_logauc(preds, target, bad)
    with pytest.raises(ValueError, match=r"Expected `fpr_range` to be a pair"):
        T.MultilabelLogAUC(3, (0.5, 0.5))
    with pytest.raises(ValueError, match=r"Expected `average` to be one of \('macro', 'none'\), got 'weighted'"):
        F.multilabel_logauc(torch.rand(4, 3), torch.ones(4, 3, dtype=torch.long), 3, average="weighted")
