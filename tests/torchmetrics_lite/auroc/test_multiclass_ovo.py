"""``multi_class="ovo"`` on ``multiclass_auroc`` / ``MulticlassAUROC``: scikit-learn's one-vs-one AUROC (Hand & Till),
exact on tied scores with 3-5 classes, a class absent, the module streamed, and the refused options."""
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from torchmetrics_lite import MulticlassAUROC, _backend
from torchmetrics_lite.functional import multiclass_auroc


@st.composite
def _batches(draw, absent=False):
    c = draw(st.integers(3, 5))
    n = draw(st.integers(c, 30))
    levels = draw(st.integers(1, 4))  # few levels: many tied scores
    raw = np.array(draw(st.lists(st.integers(0, levels), min_size=n * c, max_size=n * c)), float).reshape(n, c)
    probs = (raw + 0.5) / (raw + 0.5).sum(1, keepdims=True)
    labels = np.array(draw(st.lists(st.integers(0, c - 1), min_size=n, max_size=n)))
    labels[:c] = np.arange(c)
    if absent:
        gone = draw(st.integers(0, c - 1))
        labels[labels == gone] = (gone + 1) % c
    return probs, labels, c


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("average", ["macro", "weighted"])
@settings(max_examples=40, deadline=None)
@given(batch=_batches())
def test_ovo_matches_sklearn(batch, average, backend):
    probs, labels, c = batch
    expected = roc_auc_score(labels, probs, multi_class="ovo", average=average)
    with _backend.force(backend):
        got = multiclass_auroc(torch.tensor(probs), torch.tensor(labels), c, multi_class="ovo", average=average)
    assert got.dtype == torch.float64
    assert got.item() == pytest.approx(expected, abs=1e-12)
    f32 = multiclass_auroc(torch.tensor(probs, dtype=torch.float32), torch.tensor(labels), c, multi_class="ovo",
                           average=average)
    expected32 = roc_auc_score(labels, torch.tensor(probs, dtype=torch.float32).double().numpy(), multi_class="ovo",
                               average=average)
    assert f32.item() == pytest.approx(expected32, abs=1e-12)


@pytest.mark.parametrize("average", ["macro", "weighted"])
@settings(max_examples=25, deadline=None)
@given(batch=_batches(absent=True))
def test_ovo_absent_class_is_sklearns_value_with_a_warning(batch, average):
    probs, labels, c = batch
    expected = roc_auc_score(labels, probs, multi_class="ovo", average=average, labels=list(range(c)))
    with pytest.warns(UserWarning, match="class pair"):
        got = multiclass_auroc(torch.tensor(probs), torch.tensor(labels), c, multi_class="ovo", average=average)
    assert got.item() == pytest.approx(expected, abs=1e-12)
    with pytest.raises(ValueError, match="class pair"):
        multiclass_auroc(torch.tensor(probs), torch.tensor(labels), c, multi_class="ovo", average=average,
                         strict=True)


@settings(max_examples=20, deadline=None)
@given(batch=_batches(), split=st.integers(1, 3))
def test_ovo_module_streams_and_from_logits(batch, split):
    probs, labels, c = batch
    m = MulticlassAUROC(num_classes=c, multi_class="ovo", average="weighted")
    for p, t in zip(np.array_split(probs, split), np.array_split(labels, split)):
        m.update(torch.tensor(p), torch.tensor(t))
    expected = roc_auc_score(labels, probs, multi_class="ovo", average="weighted")
    assert m.compute().item() == pytest.approx(expected, abs=1e-12)
    logits = torch.tensor(np.log(probs))
    got = multiclass_auroc(logits, torch.tensor(labels), c, multi_class="ovo", from_logits=True)
    assert got.item() == pytest.approx(roc_auc_score(labels, torch.softmax(logits, 1).numpy(), multi_class="ovo"),
                                       abs=1e-12)


def test_ovo_ignore_index_drops_the_samples():
    probs = torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4], [0.5, 0.1, 0.4]])
    target = torch.tensor([0, 1, 2, -1, 0])
    keep = target != -1
    expected = roc_auc_score(target[keep].numpy(), probs[keep].double().numpy(), multi_class="ovo")
    got = multiclass_auroc(probs, target, 3, multi_class="ovo", ignore_index=-1)
    assert got.item() == pytest.approx(expected, abs=1e-12)


def test_ovr_default_unchanged():
    probs = torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4]])
    target = torch.tensor([0, 1, 2, 1])
    assert torch.equal(multiclass_auroc(probs, target, 3), multiclass_auroc(probs, target, 3, multi_class="ovr"))


def test_ovo_refused_options():
    probs, target = torch.tensor([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]]), torch.tensor([0, 1, 2])
    with pytest.raises(ValueError, match=r"`multi_class` to be one of \('ovr', 'ovo'\), got 'ovx'"):
        multiclass_auroc(probs, target, 3, multi_class="ovx")
    for average in ("none", None):
        with pytest.raises(ValueError, match=r"`average` to be one of \('macro', 'weighted'\) with multi_class='ovo'"):
            multiclass_auroc(probs, target, 3, multi_class="ovo", average=average)
    with pytest.raises(ValueError, match="`average` to be one of"):
        multiclass_auroc(probs, target, 3, multi_class="ovo", average="micro")
    with pytest.raises(ValueError, match=r"`weight=None` with multi_class='ovo'.*got weights \(3,\)"):
        multiclass_auroc(probs, target, 3, multi_class="ovo", weight=torch.ones(3))
    with pytest.raises(ValueError, match="`thresholds=None` with multi_class='ovo'"):
        multiclass_auroc(probs, target, 3, multi_class="ovo", thresholds=5)
    with pytest.raises(ValueError, match="with multi_class='ovo'"):
        MulticlassAUROC(num_classes=3, multi_class="ovo", average="none")
    with pytest.raises(ValueError, match="`thresholds=None` with multi_class='ovo'"):
        MulticlassAUROC(num_classes=3, multi_class="ovo", thresholds=5)
    with pytest.raises(ValueError, match="`multi_class` to be one of"):
        MulticlassAUROC(num_classes=3, multi_class="OVO")
    m = MulticlassAUROC(num_classes=3, multi_class="ovo")
    m.update(probs, target, torch.ones(3))
    with pytest.raises(ValueError, match="`weight=None` with multi_class='ovo'"):
        m.compute()


def test_ovo_empty_and_one_class():
    with pytest.warns(UserWarning, match="class pair"):
        got = multiclass_auroc(torch.zeros(0, 3), torch.zeros(0, dtype=torch.long), 3, multi_class="ovo")
    assert torch.isnan(got)
