"""Spearman and Kendall rank integers as integers (issue 34): int64 values beyond 2**53 (nanosecond timestamps,
64-bit ids), which float64 would merge, equal scipy in functions and modules; the host rows keep each dtype; a
non-integer among few-valued floats never reaches the integer contingency table."""
import numpy as np
import pytest
import torch
from scipy import stats

import torchmetrics_lite as ours
from torchmetrics_lite import functional as F
from torchmetrics_lite.functional.regression import _rank_kernels as RK

RNG = np.random.default_rng(34)
N = 400


def _wide_integers():
    """Pairs of int64 columns whose values differ only beyond float64's 53 bits (float64 collapses them)."""
    near = 2**62 + RNG.integers(0, 60, N)  # few distinct values: the contingency table
    spread = 2**62 + RNG.integers(0, 2**20, N)  # a span beyond the table: the sorting path
    stamps = 1_700_000_000_000_000_000 + RNG.integers(0, 10**6, N)  # nanosecond timestamps
    return [(near, 2**62 + (near - 2**62) * 3 + RNG.integers(0, 50, N)),
            (spread, 2**62 - (spread - 2**62) * 5 + RNG.integers(0, 2**21, N)),
            (stamps, -stamps + RNG.integers(0, 10**6, N))]


@pytest.mark.parametrize("case", range(3))
def test_int64_beyond_2_53_equals_scipy(case):
    x, y = _wide_integers()[case]
    assert np.unique(x.astype(np.float64)).size < np.unique(x).size  # float64 merges some of them
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    assert F.spearman_corrcoef(xt, yt).item() == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-12)
    for variant in ("a", "b", "c"):
        expected = stats.kendalltau(x, y, variant="c" if variant == "c" else "b", method="asymptotic")
        tau, p = F.kendall_rank_corrcoef(xt, yt, variant=variant, t_test=True)
        if variant != "a":
            assert tau.item() == pytest.approx(expected.statistic, abs=1e-12)
            if variant == "b":
                assert p.item() == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-300)
    for cls, fn in ((ours.SpearmanCorrCoef, F.spearman_corrcoef), (ours.KendallRankCorrCoef, F.kendall_rank_corrcoef)):
        m = cls()
        m.update(xt[:150], yt[:150])
        m.update(xt[150:], yt[150:])
        assert m.preds.dtype == torch.int64
        assert m.compute().item() == fn(xt, yt).item()


def test_tau_a_of_wide_integers_counts_every_pair():
    x, y = _wide_integers()[0]
    c = stats.kendalltau(x, y).statistic  # tau-b; tau-a by the pair counts below
    n0 = N * (N - 1) / 2
    sign = np.sign(x[:, None] - x[None]) * np.sign(y[:, None] - y[None])
    expected = sign.sum() / 2 / n0
    assert F.kendall_rank_corrcoef(torch.from_numpy(x), torch.from_numpy(y), variant="a").item() == \
        pytest.approx(expected, abs=1e-12)
    assert c != expected  # ties: tau-a and tau-b differ here


def test_two_columns_of_wide_integers():
    (x1, y1), (x2, y2) = _wide_integers()[:2]
    x, y = torch.from_numpy(np.stack([x1, x2], 1)), torch.from_numpy(np.stack([y1, y2], 1))
    got = F.kendall_rank_corrcoef(x, y)
    np.testing.assert_allclose(got.numpy(), [stats.kendalltau(x1, y1).statistic, stats.kendalltau(x2, y2).statistic],
                               atol=1e-12)
    got = F.spearman_corrcoef(x, y)
    np.testing.assert_allclose(got.numpy(), [stats.spearmanr(x1, y1).statistic, stats.spearmanr(x2, y2).statistic],
                               atol=1e-12)


@pytest.mark.parametrize("dtype, host", [(torch.float32, np.float32), (torch.float64, np.float64),
                                         (torch.float16, np.float32), (torch.int32, np.int64),
                                         (torch.int64, np.int64), (torch.uint8, np.int64)])
def test_host_rows_keep_floats_and_widen_integers_to_int64(dtype, host):
    x = torch.tensor([[3, 1], [2, 7], [9, 4]]).to(dtype)
    rows = RK._host_rows(x)
    assert rows.dtype == host and rows.shape == (2, 3) and rows.flags.c_contiguous
    np.testing.assert_array_equal(rows, x.double().numpy().T)
    half = RK._host_rows(torch.tensor([[0.5], [2**60 + 1.0]], dtype=torch.float64))
    assert half.dtype == np.float64 and half[0, 0] == 0.5  # a float is never truncated
    big = RK._host_rows(torch.tensor([[2**62 + 1], [2**62]]))
    assert big.tolist() == [[2**62 + 1, 2**62]]  # exact


def test_one_non_integer_among_few_valued_floats_equals_scipy():
    """20,000 floats of five integer values and one 0.5 at an odd position (the cheap probe of ``_codes`` reads
    the even ones only): the 0.5 must send them off the integer table, else it is truncated to 0."""
    n = 20_000
    x = RNG.integers(0, 5, n).astype(np.float64)
    y = (x + RNG.integers(0, 3, n)).astype(np.float64)
    x[2 * 4321 + 1] = 0.5
    got = F.kendall_rank_corrcoef(torch.from_numpy(x), torch.from_numpy(y), t_test=True)
    expected = stats.kendalltau(x, y, method="asymptotic")
    assert got[0].item() == pytest.approx(expected.statistic, abs=1e-12)
    assert got[1].item() == pytest.approx(expected.pvalue, rel=1e-9)
    truncated = np.where(x == 0.5, 0.0, x)
    assert stats.kendalltau(truncated, y).statistic != pytest.approx(expected.statistic, abs=1e-12)


def test_the_whole_int64_range():
    x = np.array([-2**63, 2**63 - 1, 0, -2**63 + 1, 2**63 - 2, 5, -7, 2**53 + 1, 2**53], dtype=np.int64)
    y = np.array([1, 9, 4, 2, 8, 5, 3, 7, 6], dtype=np.int64)
    for span in (x, x[[0, 3, 1, 4]]):  # the sorting path; a span that overflows int64 differences
        ys = y[:span.size]
        assert F.kendall_rank_corrcoef(torch.from_numpy(span), torch.from_numpy(ys)).item() == \
            pytest.approx(stats.kendalltau(span, ys).statistic, abs=1e-12)
        assert F.spearman_corrcoef(torch.from_numpy(span), torch.from_numpy(ys)).item() == \
            pytest.approx(stats.spearmanr(span, ys).statistic, abs=1e-12)
