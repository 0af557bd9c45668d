"""Issue 12's reproduction: multiclass AUROC / AP on logits equal torchmetrics and scikit-learn (on softmax) with
``from_logits=True``, raise a ValueError naming ``from_logits=True`` without it, and use probabilities as given;
multilabel scores are rank-invariant (torchmetrics' sigmoid changes nothing)."""
import warnings

import numpy as np
import pytest
import torch
import torchmetrics.functional.classification as tm
from scipy.special import softmax
from sklearn.metrics import average_precision_score, roc_auc_score

from torchmetrics_lite import MulticlassAUROC, MulticlassAveragePrecision, MultilabelAUROC
from torchmetrics_lite.functional import (
    multiclass_auroc,
    multiclass_average_precision,
    multilabel_auroc,
    multilabel_average_precision,
)

C = 4


def reproduction(seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, C, (500,), generator=g)
    lg = torch.randn(500, C, generator=g) * 2 + torch.nn.functional.one_hot(y, C)
    return lg, y


@pytest.mark.parametrize("average", ["macro", "weighted", "none"])
def test_logits_equal_torchmetrics_and_sklearn_on_softmax(average):
    lg, y = reproduction()
    probs = softmax(lg.double().numpy(), axis=1)
    tm_average = None if average == "none" else average
    for ours, peer, sk in ((multiclass_auroc, tm.multiclass_auroc, roc_auc_score),
                           (multiclass_average_precision, tm.multiclass_average_precision, average_precision_score)):
        got = ours(lg, y, C, average=average, from_logits=True)
        per = np.array([sk(y.numpy() == c, probs[:, c]) for c in range(C)])
        support = np.bincount(y.numpy(), minlength=C)
        want = {"none": per, "macro": per.mean(), "weighted": np.average(per, weights=support)}[average]
        np.testing.assert_allclose(got.numpy(), want, atol=1e-12, rtol=0)
        np.testing.assert_allclose(got.numpy(), peer(lg, y, C, average=tm_average).double().numpy(), atol=1e-6,
                                   rtol=0)


def test_reproduction_values_and_module():
    lg, y = reproduction()
    ours = multiclass_auroc(lg, y, C, from_logits=True).item()
    assert ours == pytest.approx(tm.multiclass_auroc(lg, y, C).item(), abs=1e-6)
    raw_columns = np.mean([roc_auc_score(y.numpy() == c, lg[:, c].numpy()) for c in range(C)])
    assert abs(ours - raw_columns) > 1e-3  # the issue: ranking the raw columns gives another number
    for cls, fn in ((MulticlassAUROC, multiclass_auroc), (MulticlassAveragePrecision, multiclass_average_precision)):
        m = cls(C, from_logits=True)
        m.update(lg[:200], y[:200])
        m.update(lg[200:], y[200:])
        assert m.compute().item() == pytest.approx(fn(lg, y, C, from_logits=True).item(), abs=1e-15)


def test_scores_outside_unit_interval_raise_naming_from_logits():
    lg, y = reproduction()
    for fn in (multiclass_auroc, multiclass_average_precision):
        with pytest.raises(ValueError, match=r"probabilities in \[0, 1\], got values in .*from_logits=True"):
            fn(lg, y, C)
    m = MulticlassAUROC(C)
    with pytest.raises(ValueError, match=r"from_logits=True"):
        m.update(lg, y)
    assert m.local_state()["preds"].shape[0] == 0


def test_probabilities_are_used_as_given_as_torchmetrics():
    lg, y = reproduction(1)
    probs = torch.rand(500, C)  # in [0, 1], not normalised: no softmax on either side
    for ours, peer in ((multiclass_auroc, tm.multiclass_auroc),
                       (multiclass_average_precision, tm.multiclass_average_precision)):
        assert ours(probs, y, C).item() == pytest.approx(peer(probs, y, C).item(), abs=1e-6)


def test_validate_args_false_skips_the_check_and_ranks_the_columns_as_given():
    lg, y = reproduction()
    got = multiclass_auroc(lg, y, C, validate_args=False).item()
    want = np.mean([roc_auc_score(y.numpy() == c, lg[:, c].numpy()) for c in range(C)])
    assert got == pytest.approx(want, abs=1e-12)


def test_multilabel_logits_are_rank_invariant():
    g = torch.Generator().manual_seed(2)
    target = (torch.rand(300, 3, generator=g) < 0.4).long()
    logits = torch.randn(300, 3, generator=g) * 3 + target
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for average in ("macro", "micro"):
            ours = multilabel_auroc(logits, target, 3, average=average)
            probs = torch.sigmoid(logits.double())  # torchmetrics' own sigmoid is float32: it can merge close
            # large logits into ties (about 1e-6 here), where ours ranks the logits exactly
            assert ours.item() == pytest.approx(tm.multilabel_auroc(probs, target, 3, average=average).item(),
                                                abs=1e-7)  # torchmetrics returns float32
            flat = average == "micro"
            y, x = (target.numpy().ravel(), logits.numpy().ravel()) if flat else (target.numpy(), logits.numpy())
            assert ours.item() == pytest.approx(roc_auc_score(y, x), abs=1e-12)
            assert ours.item() == pytest.approx(tm.multilabel_auroc(logits, target, 3, average=average).item(),
                                                abs=1e-5)
            assert ours.item() == multilabel_auroc(logits, target, 3, average=average, from_logits=True).item()
            assert ours.item() == pytest.approx(multilabel_auroc(torch.sigmoid(logits.double()), target, 3,
                                                                 average=average).item(), abs=1e-15)
            ap = multilabel_average_precision(logits, target, 3, average=average).item()
            assert ap == pytest.approx(tm.multilabel_average_precision(probs, target, 3, average=average).item(),
                                       abs=1e-7)
    m = MultilabelAUROC(3, from_logits=True)
    m.update(logits, target)
    assert m.compute().item() == multilabel_auroc(logits, target, 3).item()
