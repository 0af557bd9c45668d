"""``binary_roc(drop_intermediate=True)`` / ``BinaryROC(drop_intermediate=True)``: scikit-learn's
``roc_curve(drop_intermediate=True)`` exactly (points, rates and thresholds), with and without weights."""
import warnings

import numpy as np
import pytest
import torch
from sklearn.metrics import roc_curve

import torchmetrics_lite as tl
import torchmetrics_lite.functional as F


def test_drop_intermediate_is_sklearns():
    rng = np.random.default_rng(30)
    for case in range(80):
        n = int(rng.integers(1, 30))
        s, y = rng.integers(0, 6, n) / 5.0, rng.integers(0, 2, n)
        w = None if case % 2 else rng.random(n)
        tw = None if w is None else torch.from_numpy(w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # one-class cases: nan rates (ours) and scikit-learn's warning
            want = roc_curve(y, s, drop_intermediate=True, sample_weight=w)
            got = F.binary_roc(torch.from_numpy(s), torch.from_numpy(y), drop_intermediate=True, weight=tw)
            m = tl.BinaryROC(drop_intermediate=True)
            m.update(torch.from_numpy(s), torch.from_numpy(y), **({} if tw is None else {"weight": tw}))
            streamed = m.compute()
        np.testing.assert_array_equal(got[2].numpy(), want[2])
        for ours, theirs in zip(got[:2], want[:2]):
            np.testing.assert_allclose(ours.numpy(), theirs, rtol=0, atol=1e-12)  # nan where one class is absent
        for a, b in zip(got, streamed):
            torch.testing.assert_close(a, b, equal_nan=True, rtol=0, atol=0)
    # the default keeps every distinct score
    s, y = torch.tensor([0.1, 0.2, 0.3, 0.4]), torch.tensor([0, 0, 1, 1])
    assert F.binary_roc(s, y)[2].shape[0] == 5 and F.binary_roc(s, y, drop_intermediate=True)[2].shape[0] == 4


def test_drop_intermediate_errors():
    with pytest.raises(ValueError, match="Expected `drop_intermediate=False` with `thresholds=`"):
        F.binary_roc(torch.tensor([0.1, 0.9]), torch.tensor([0, 1]), thresholds=5, drop_intermediate=True)
    with pytest.raises(ValueError, match="Expected `drop_intermediate=False` with `thresholds=`"):
        tl.BinaryROC(thresholds=5, drop_intermediate=True)
    with pytest.raises(TypeError, match="Expected `drop_intermediate` to be a bool"):
        tl.BinaryROC(drop_intermediate=1)
