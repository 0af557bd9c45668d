"""Multiclass (one-vs-rest) and multilabel AUROC / average precision against scikit-learn, every average, raw
logits and negative scores, heavy ties; through the harness. Their distributed cases (``CASES`` of
``tests/helpers/auroc/multi.py``, beside the batches) run in test_auroc.py's single spawn per world size."""
import math
import warnings
from functools import partial

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score

from tests.helpers.auroc.multi import MC_BATCHES, ML_BATCHES, C, L, make_multiclass, make_multilabel
from tests.helpers.metric_tester import check_metric, check_rejects, concat
from torchmetrics_lite import (
    MulticlassAUROC,
    MulticlassAveragePrecision,
    MultilabelAUROC,
    MultilabelAveragePrecision,
)
from torchmetrics_lite.functional import (
    binary_auroc,
    binary_average_precision,
    multiclass_auroc,
    multiclass_average_precision,
    multilabel_auroc,
    multilabel_average_precision,
)


def ovr_oracle(preds, target, metric, average):
    """sklearn's binary metric per class on the float64 softmax of the logits (the definition of
    ``from_logits=True``; torch's, so that rows whose probabilities are equal mathematically, such as shifted
    rounded logits, tie exactly as in the metric), averaged as sklearn's ovr."""
    x, y = torch.softmax(preds.double(), dim=1).numpy(), target.numpy()
    per = np.array([metric(y == c, x[:, c]) for c in range(C)])
    support = np.array([(y == c).sum() for c in range(C)])
    return {"none": per, "macro": per.mean(), "weighted": np.average(per, weights=support)}[average]


KINDS = {"logits": dict(), "heavy_ties": dict(decimals=0), "float64": dict(dtype=torch.float64)}


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("average", ["macro", "weighted", "none"])
def test_multiclass_matches_sklearn(kind, average):
    preds, target = make_multiclass(400, **KINDS[kind])
    got = multiclass_auroc(preds, target, C, average=average, from_logits=True).numpy()
    np.testing.assert_allclose(got, ovr_oracle(preds, target, roc_auc_score, average), atol=1e-12, rtol=0)
    got = multiclass_average_precision(preds, target, C, average=average, from_logits=True).numpy()
    np.testing.assert_allclose(got, ovr_oracle(preds, target, average_precision_score, average), atol=1e-12, rtol=0)


def test_multiclass_probabilities_match_sklearn_ovr():
    preds, target = make_multiclass(300, decimals=1)
    probs = torch.softmax(preds.double(), dim=1)
    for average in ("macro", "weighted"):
        want = roc_auc_score(target.numpy(), probs.numpy(), multi_class="ovr", average=average)
        assert abs(multiclass_auroc(probs, target, C, average=average).item() - want) < 1e-12


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", "none"])
def test_multilabel_matches_sklearn(kind, average):
    preds, target = make_multilabel(400, **KINDS[kind])
    sk_average = None if average == "none" else average
    x, y = preds.double().numpy(), target.numpy()
    got = multilabel_auroc(preds, target, L, average=average).numpy()
    np.testing.assert_allclose(got, roc_auc_score(y, x, average=sk_average), atol=1e-12, rtol=0)
    got = multilabel_average_precision(preds, target, L, average=average).numpy()
    np.testing.assert_allclose(got, average_precision_score(y, x, average=sk_average), atol=1e-12, rtol=0)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.lists(st.integers(0, 3), min_size=4, max_size=40), st.integers(0, 2**16))
def test_rows_equal_binary_per_column(num_labels, flat, seed):
    """The batched column path equals the 1-D binary path column by column (heavy ties, +-inf scores)."""
    g = torch.Generator().manual_seed(seed)
    n = len(flat) // num_labels
    if n == 0:
        return
    values = torch.tensor([-math.inf, -1.0, 0.0, math.inf], dtype=torch.float64)
    preds = values[torch.tensor(flat[: n * num_labels])].view(n, num_labels)
    target = torch.randint(0, 2, (n, num_labels), generator=g)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        rows = multilabel_auroc(preds, target, num_labels, average="none")
        cols = torch.stack([binary_auroc(preds[:, j], target[:, j]) for j in range(num_labels)])
        torch.testing.assert_close(rows, cols, atol=1e-12, rtol=0, equal_nan=True)
        rows = multilabel_average_precision(preds, target, num_labels, average="none")
        cols = torch.stack([binary_average_precision(preds[:, j], target[:, j]) for j in range(num_labels)])
        torch.testing.assert_close(rows, cols, atol=1e-12, rtol=0, equal_nan=True)


def test_absent_class_is_nan_warned_and_left_out():
    preds, target = make_multiclass(60)
    target[target == 2] = 1
    with pytest.warns(UserWarning, match=r"AUROC is undefined for class\(es\) \[2\]"):
        per = multiclass_auroc(preds, target, C, average="none", from_logits=True)
    assert torch.isnan(per[2]) and not torch.isnan(per[[0, 1, 3, 4]]).any()
    with pytest.warns(UserWarning, match="undefined"):
        value = multiclass_auroc(preds, target, C, from_logits=True).item()
        assert value == pytest.approx(per[[0, 1, 3, 4]].mean().item(), abs=1e-15)
    with pytest.raises(ValueError, match=r"Expected both classes in `target` for AUROC, but it is undefined for"):
        multiclass_auroc(preds, target, C, strict=True, from_logits=True)
    with pytest.warns(UserWarning, match=r"average precision is undefined for class\(es\) \[2\]"):
        multiclass_average_precision(preds, target, C, from_logits=True)
    labels = torch.zeros(3, L, dtype=torch.long)
    with pytest.warns(UserWarning, match=r"for class\(es\) \[0, 1, 2, 3\]"):
        assert math.isnan(multilabel_auroc(torch.rand(3, L), labels, L).item())
    with pytest.warns(UserWarning, match="with one class present"):
        assert math.isnan(multilabel_auroc(torch.rand(3, L), labels, L, average="micro").item())


def test_state_dtypes():
    m = MulticlassAUROC(num_classes=300)
    m.update(torch.rand(4, 300), torch.tensor([0, 299, 5, 7]))
    assert m.preds.dtype == torch.float32 and m.target.dtype == torch.int16
    m = MultilabelAUROC(num_labels=2)
    m.update(torch.rand(3, 2).double(), torch.tensor([[0, 1], [1, 0], [1, 1]]).bool())
    assert m.preds.dtype == torch.float64 and m.target.dtype == torch.uint8


MC_OK = make_multiclass(30)
ML_OK = make_multilabel(30)
MC_BAD = [
    ((torch.rand(4, C + 1), torch.tensor([0, 1, 2, 3])), ValueError,
     r"`preds` to have shape \(N, num_classes\) = \(4, 5\), got \(4, 6\)"),
    ((torch.rand(4, C), torch.tensor([0, 1, 2, C])), ValueError, r"`target` to lie in \[0, 4\], got values in"),
    ((torch.rand(4, C), torch.tensor([[0], [1], [2], [3]])), ValueError, r"`target` to be 1-D, got shape \(4, 1\)"),
    ((torch.rand(4), torch.tensor([0, 1, 2, 3])), ValueError, r"`preds` to be 2-D, got shape \(4,\)"),
    ((torch.tensor([[0.1] * C, [float("nan")] * C]), torch.tensor([0, 1])), ValueError, r"`preds` to contain no NaN"),
    ((torch.rand(2, C), torch.tensor([True, False])), TypeError, r"`target` to have an integer dtype, got torch.bool"),
    ((torch.rand(2, C) * 2, torch.tensor([0, 1])), ValueError,
     r"Expected `preds` to be probabilities in \[0, 1\], got values in .*pass `from_logits=True`"),
]
ML_BAD = [
    ((torch.rand(4, L + 1), torch.ones(4, L + 1, dtype=torch.long)), ValueError,
     r"`preds` to have shape \(N, num_labels\) with num_labels = 4, got \(4, 5\)"),
    ((torch.rand(4, L), torch.ones(4, L - 1, dtype=torch.long)), ValueError, r"the same shape, got \(4, 4\) and"),
    ((torch.rand(2, L), torch.full((2, L), 3)), ValueError, r"`target` to hold only 0 and 1 .*got value 3"),
]


@pytest.mark.parametrize("bad,exc,match", MC_BAD, ids=[b[2][:25] for b in MC_BAD])
@pytest.mark.parametrize("cls", [MulticlassAUROC, MulticlassAveragePrecision])
def test_multiclass_rejects(cls, bad, exc, match):
    probs = (torch.softmax(MC_OK[0], 1), MC_OK[1])
    check_rejects(partial(cls, num_classes=C), [probs], bad, exc, match)


@pytest.mark.parametrize("bad,exc,match", ML_BAD, ids=[b[2][:25] for b in ML_BAD])
@pytest.mark.parametrize("cls", [MultilabelAUROC, MultilabelAveragePrecision])
def test_multilabel_rejects(cls, bad, exc, match):
    check_rejects(partial(cls, num_labels=L), [ML_OK], bad, exc, match)


def test_rejects_bad_options():
    with pytest.raises(ValueError,
                       match=r"Expected `average` to be one of \('macro', 'weighted', 'none'\), got 'micro'"):
        MulticlassAUROC(num_classes=3, average="micro")
    with pytest.raises(ValueError, match=r"Expected `average` to be one of \('micro', 'macro', 'weighted', 'none'\)"):
        multilabel_auroc(*ML_OK, L, average="samples")
    with pytest.raises(ValueError, match=r"Expected `num_classes` to be a positive int, got 0"):
        MulticlassAveragePrecision(num_classes=0)
    with pytest.raises(ValueError, match=r"Expected `num_labels` to be a positive int, got 2.0"):
        MultilabelAUROC(num_labels=2.0)


# ------------------------------------------------------------------------------------------------ harness
# the batches (MC_BATCHES, ML_BATCHES) are the distributed cases' (tests/helpers/auroc/multi.py)
def _mc_expected(metric, average):
    return torch.tensor(ovr_oracle(*concat(MC_BATCHES), metric, average), dtype=torch.float64)


def _ml_expected(metric, average):
    preds, target = concat(ML_BATCHES)
    value = metric(target.numpy(), preds.double().numpy(), average=None if average == "none" else average)
    return torch.tensor(value, dtype=torch.float64)


HARNESS = {
    **{f"mc_auroc_{a}": (partial(MulticlassAUROC, C, average=a, from_logits=True),
                         partial(multiclass_auroc, num_classes=C, average=a, from_logits=True),
                         MC_BATCHES, lambda a=a: _mc_expected(roc_auc_score, a))
       for a in ("macro", "weighted", "none")},
    "mc_ap_weighted": (partial(MulticlassAveragePrecision, C, average="weighted", from_logits=True),
                       partial(multiclass_average_precision, num_classes=C, average="weighted", from_logits=True),
                       MC_BATCHES,
                       lambda: _mc_expected(average_precision_score, "weighted")),
    **{f"ml_auroc_{a}": (partial(MultilabelAUROC, L, average=a), partial(multilabel_auroc, num_labels=L, average=a),
                         ML_BATCHES, lambda a=a: _ml_expected(roc_auc_score, a))
       for a in ("micro", "macro", "weighted", "none")},
    **{f"ml_ap_{a}": (partial(MultilabelAveragePrecision, L, average=a),
                      partial(multilabel_average_precision, num_labels=L, average=a), ML_BATCHES,
                      lambda a=a: _ml_expected(average_precision_score, a)) for a in ("micro", "none")},
}


@pytest.mark.parametrize("name", sorted(HARNESS))
def test_harness(name):
    factory, functional, batches, oracle = HARNESS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # tiny batches may miss a class
        check_metric(factory, batches, oracle(), batch_value=functional, max_examples=6, atol=1e-12, rtol=0)


@pytest.mark.parametrize("factory", [
    partial(MulticlassAUROC, C), partial(MulticlassAveragePrecision, C, average="none"),
    partial(MultilabelAUROC, L, average="micro"), partial(MultilabelAveragePrecision, L)])
def test_empty_state_is_nan_with_warning(factory):
    with pytest.warns(UserWarning, match="undefined"):
        value = factory().compute()
    assert torch.isnan(value).all()
