"""DeLong's AUROC interval and paired test against an O(n^2) structural-components reference (ties included),
against scipy's normal distribution, and their modules through the harness."""
import math
import warnings
from functools import partial

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

from tests.helpers.auroc.delong import BATCHES, PAIRED, make
from tests.helpers.metric_tester import check_metric, check_rejects, concat
from torchmetrics_lite import BinaryAUROCCI, PairedAUROCTest, _backend
from torchmetrics_lite.functional import binary_auroc, binary_auroc_ci, paired_auroc_test


def delong_reference(scores, labels):
    """O(n^2) DeLong (1988): psi over every positive/negative pair, V10 / V01 means, sample covariances."""
    s = np.atleast_2d(np.asarray(scores, dtype=np.float64))
    y = np.asarray(labels).astype(bool)
    x, z = s[:, y], s[:, ~y]
    psi = (x[:, :, None] > z[:, None, :]) + 0.5 * (x[:, :, None] == z[:, None, :])
    v10, v01 = psi.mean(2), psi.mean(1)
    cov = np.atleast_2d(np.cov(v10, ddof=1)) / x.shape[1] + np.atleast_2d(np.cov(v01, ddof=1)) / z.shape[1]
    return psi.mean((1, 2)), cov


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("decimals,alpha", [(0, 0.05), (1, 0.1), (4, 0.01)])
def test_interval_matches_reference(decimals, alpha, backend):
    a, _, y = make(300, decimals=decimals)
    auroc, cov = delong_reference(a.double().numpy(), y.numpy())
    half = norm.ppf(1 - alpha / 2) * math.sqrt(cov[0, 0])
    with _backend.force(backend):
        got = binary_auroc_ci(a, y, alpha=alpha)
    want = (auroc[0], max(auroc[0] - half, 0.0), min(auroc[0] + half, 1.0))
    np.testing.assert_allclose([v.item() for v in got], want, atol=1e-12, rtol=0)
    assert got[0].item() == binary_auroc(a, y).item()


@pytest.mark.parametrize("decimals", [0, 1, 4])
def test_paired_test_matches_reference(decimals):
    a, b, y = make(300, seed=1, decimals=decimals)
    aurocs, cov = delong_reference(np.stack([a.double().numpy(), b.double().numpy()]), y.numpy())
    z = (aurocs[0] - aurocs[1]) / math.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    got = paired_auroc_test(a, b, y)
    want = {"auroc_a": aurocs[0], "auroc_b": aurocs[1], "difference": aurocs[0] - aurocs[1], "z": z,
            "p_value": 2 * norm.sf(abs(z))}
    for key, value in want.items():
        assert got[key].item() == pytest.approx(value, abs=1e-12), key


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2), st.booleans()), min_size=4, max_size=30))
def test_heavy_ties_against_reference(rows):
    a = torch.tensor([float(r[0]) for r in rows], dtype=torch.float64)
    b = torch.tensor([float(r[1]) for r in rows], dtype=torch.float64)
    y = torch.tensor([int(r[2]) for r in rows])
    if not 2 <= int(y.sum()) <= len(rows) - 2:
        return
    aurocs, cov = delong_reference(np.stack([a.numpy(), b.numpy()]), y.numpy())
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    got = paired_auroc_test(a, b, y)
    assert got["auroc_a"].item() == pytest.approx(aurocs[0], abs=1e-12)
    if var > 1e-12:
        assert got["z"].item() == pytest.approx((aurocs[0] - aurocs[1]) / math.sqrt(var), rel=1e-9, abs=1e-9)
    low = binary_auroc_ci(a, y)[1].item()
    assert low == pytest.approx(max(aurocs[0] - norm.ppf(0.975) * math.sqrt(max(cov[0, 0], 0)), 0.0), abs=1e-12)


def test_edge_cases():
    y = torch.tensor([0, 1, 0, 1])
    auroc, low, high = binary_auroc_ci(torch.tensor([0.1, 0.9, 0.2, 0.8]), y)
    assert (auroc.item(), low.item(), high.item()) == (1.0, 1.0, 1.0)  # perfect: zero variance, clipped
    same = torch.tensor([0.3, 0.4, 0.2, 0.9])
    got = paired_auroc_test(same, same, y)
    assert got["difference"].item() == 0 and math.isnan(got["z"].item())  # identical: 0 / 0
    with pytest.warns(UserWarning, match="AUROC is undefined with one class present"):
        assert all(math.isnan(v.item()) for v in binary_auroc_ci(torch.rand(3), torch.ones(3, dtype=torch.long)))
    with pytest.raises(ValueError, match="Expected both classes in `target` for AUROC"):
        paired_auroc_test(torch.rand(3), torch.rand(3), torch.zeros(3, dtype=torch.long), strict=True)
    auroc, low, high = binary_auroc_ci(torch.tensor([0.9, 0.1, 0.2]), torch.tensor([1, 0, 0]))
    assert auroc.item() == 1.0 and math.isnan(low.item()) and math.isnan(high.item())  # one positive: no variance


def test_rejects():
    with pytest.raises(ValueError, match=r"Expected `alpha` to be a number in \(0.0, 1.0\), got 1.0"):
        binary_auroc_ci(torch.rand(4), torch.tensor([0, 1, 0, 1]), alpha=1.0)
    with pytest.raises(ValueError, match=r"`preds_a` and `preds_b` to have the same shape"):
        paired_auroc_test(torch.rand(4), torch.rand(5), torch.tensor([0, 1, 0, 1]))
    check_rejects(BinaryAUROCCI, [(torch.rand(4), torch.tensor([0, 1, 0, 1]))], (torch.rand(4),
                  torch.tensor([0, 2, 1, 0])), ValueError, r"`target` to hold only 0 and 1 .*got value 2")
    check_rejects(PairedAUROCTest, PAIRED, (torch.rand(4), torch.rand(4), torch.tensor([0, 1, 1, 0]),
                                            torch.ones(4)), TypeError, r"positional argument")


@pytest.mark.parametrize("name", ["ci", "paired"])
def test_harness(name):
    factory, functional, batches = {
        "ci": (partial(BinaryAUROCCI, alpha=0.1), partial(binary_auroc_ci, alpha=0.1), BATCHES),
        "paired": (PairedAUROCTest, paired_auroc_test, PAIRED)}[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        expected = functional(*concat(batches))
        check_metric(factory, batches, expected, batch_value=functional, max_examples=4, atol=1e-12, rtol=0)
