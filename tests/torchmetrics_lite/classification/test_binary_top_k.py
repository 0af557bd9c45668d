"""scikit-learn's ``top_k_accuracy_score`` of binary targets (issue 35 item 8, its 13 "binary top-k" cases):
``binary_accuracy(..., top_k=)`` / ``BinaryAccuracy(top_k=)``. scikit-learn's rule: ``k=1`` is the accuracy of
``y_score > 0.5`` for scores in [0, 1], of ``y_score > 0`` otherwise (ours: the default threshold, or
``from_logits=True`` for decision values); ``k=2`` is 1 (both classes are in the top 2). Oracles: scikit-learn on
random inputs (weights, ``normalize``), its own parametrised cases, the harness for the module."""
import warnings
from functools import partial

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import top_k_accuracy_score

import torchmetrics_lite as tl
import torchmetrics_lite.functional as F
from tests.helpers.metric_tester import check_metric


def _ours_like_sklearn(y_score, y, k, **kw):
    """scikit-learn's threshold choice, written as our arguments."""
    s = torch.as_tensor(y_score, dtype=torch.float64)
    unit = bool(s.min() >= 0 and s.max() <= 1)
    return F.binary_accuracy(s, torch.as_tensor(y), top_k=k, from_logits=not unit, **kw)


@pytest.mark.parametrize("y_score, k, true_score", [
    (np.array([-1, -1, 1, 1]), 1, 1.0),
    (np.array([-1, 1, -1, 1]), 1, 0.5),
    (np.array([-1, 1, -1, 1]), 2, 1.0),
    (np.array([0.2, 0.2, 0.7, 0.7]), 1, 1.0),
    (np.array([0.2, 0.7, 0.2, 0.7]), 1, 0.5),
    (np.array([0.2, 0.7, 0.2, 0.7]), 2, 1.0),
])
def test_scikit_learn_s_own_binary_cases(y_score, k, true_score):
    y = [0, 0, 1, 1]
    assert top_k_accuracy_score(y, y_score, k=k) == true_score
    assert _ours_like_sklearn(y_score, y, k).item() == true_score


@st.composite
def _case(draw):
    n = draw(st.integers(2, 30))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[0], y[1] = 0, 1  # scikit-learn needs both classes to call the targets binary
    unit = draw(st.booleans())
    values = st.floats(0.0, 1.0) if unit else st.floats(-5.0, 5.0)
    s = np.round(np.array(draw(st.lists(values, min_size=n, max_size=n))), 2)
    if not unit:
        s[0] = -5.5  # outside [0, 1]: scikit-learn cuts at 0
    w = np.array(draw(st.lists(st.floats(0.0, 3.0), min_size=n, max_size=n))) if draw(st.booleans()) else None
    if w is not None:
        w[0] = 1.0  # a positive sum
    return y, s, w, draw(st.sampled_from([1, 2])), draw(st.booleans())


@settings(max_examples=80, deadline=None, derandomize=True)
@given(_case())
def test_binary_top_k_equals_scikit_learn(case):
    y, s, w, k, normalize = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # k >= n_classes: "will result in a perfect score"
        expected = top_k_accuracy_score(y, s, k=k, normalize=normalize, sample_weight=w)
    got = _ours_like_sklearn(s, y, k, normalize=normalize, weight=None if w is None else torch.as_tensor(w)).item()
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_top_2_counts_every_counted_sample_and_keeps_the_empty_and_ignore_rules():
    p, y = torch.tensor([0.9, 0.1, 0.6, 0.3]), torch.tensor([0, 1, -1, 1])
    assert F.binary_accuracy(p, y, ignore_index=-1, top_k=2).item() == 1.0
    assert F.binary_accuracy(p, y, ignore_index=-1, top_k=2, normalize=False).item() == 3.0
    with pytest.warns(UserWarning, match="empty input"):
        assert F.binary_accuracy(torch.zeros(0), torch.zeros(0), top_k=2, zero_division=0.5).item() == 0.5
    got = F.binary_accuracy(torch.rand(3, 4), torch.randint(0, 2, (3, 4)), top_k=2, multidim_average="samplewise")
    assert got.tolist() == [1.0, 1.0, 1.0]
    # the same number as multiclass top-2 accuracy of the two-column scores
    scores = torch.stack([1 - p, p], dim=1)
    assert F.multiclass_accuracy(scores, y.clamp(min=0), 2, "micro", top_k=2).item() == 1.0


def _batches(weighted):
    g = torch.Generator().manual_seed(2)
    out = []
    for n in (4, 1, 6):
        b = (torch.rand(n, generator=g), torch.randint(0, 2, (n,), generator=g))
        out.append(b + (torch.rand(n, generator=g),) if weighted else b)
    return out


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("k", [1, 2])
def test_the_module_streams_to_the_function(k, weighted):
    batches = _batches(weighted)
    preds, target = torch.cat([b[0] for b in batches]), torch.cat([b[1] for b in batches])
    weight = torch.cat([b[2] for b in batches]) if weighted else None
    expected = F.binary_accuracy(preds, target, top_k=k, weight=weight)
    if k == 1:
        assert torch.equal(expected, F.binary_accuracy(preds, target, weight=weight))

    def batch_value(p, t, w=None):
        return F.binary_accuracy(p, t, top_k=k, weight=w)

    check_metric(partial(tl.BinaryAccuracy, top_k=k, weighted=weighted), batches, expected, batch_value=batch_value,
                 max_examples=6)


@pytest.mark.parametrize("bad", [0, 3, True, 1.0, "2"])
def test_a_bad_top_k_names_the_argument_the_choices_and_the_value(bad):
    msg = r"Expected `top_k` to be 1 or 2 \(a binary problem has 2 classes.*got " + repr(bad).replace(".", r"\.")
    with pytest.raises(ValueError, match=msg):
        F.binary_accuracy(torch.rand(3), torch.tensor([0, 1, 1]), top_k=bad)
    with pytest.raises(ValueError, match=msg):
        tl.BinaryAccuracy(top_k=bad)
