"""Pearson, concordance, Spearman and Kendall against scipy / brute force / the formula and torchmetrics, streamed,
merged, compiled where they compile, and every error message (across ranks: the CASES of
tests/torchmetrics_lite/regression/test_regression_distributed.py, in its one spawn)."""
import warnings
from functools import partial
from itertools import combinations

import numpy as np
import pytest
import scipy.stats as st
import torch
from hypothesis import given, settings
from hypothesis import strategies as hs

from tests.helpers.compile import check_compiles, check_update_compiles
from tests.helpers.metric_tester import check_metric, check_rejects, concat
from tests.helpers.regression.correlation import MULTI, ONE, _batches
from torchmetrics_lite import ConcordanceCorrCoef, KendallRankCorrCoef, PearsonCorrCoef, SpearmanCorrCoef
from torchmetrics_lite.functional import (
    concordance_corrcoef,
    fold_comoments,
    kendall_rank_corrcoef,
    pearson_corrcoef,
    spearman_corrcoef,
)
from torchmetrics_lite.functional.regression import _rank_kernels
from torchmetrics_lite.functional.regression._rank_kernels import inversions, kendall_counts


# ------------------------------------------------------------------------------------------------- oracles
def _ccc(p, t):
    """torchmetrics' concordance: unbiased variances and covariance (numpy, by the formula)."""
    vp, vt = np.var(p, ddof=1), np.var(t, ddof=1)
    cov = np.cov(p, t, ddof=1)[0, 1]
    return 2 * cov / (vp + vt + (p.mean() - t.mean()) ** 2)


def _tau_a(p, t):
    """Kendall's tau-a by brute force over all pairs: (concordant - discordant) / (n (n-1) / 2)."""
    s = sum(np.sign(p[i] - p[j]) * np.sign(t[i] - t[j]) for i, j in combinations(range(len(p)), 2))
    n = len(p)
    return s / (n * (n - 1) / 2)


def _kendall_oracle(p, t, variant, alternative="two-sided"):
    tau, pval = st.kendalltau(p, t, variant="c" if variant == "c" else "b", method="asymptotic",
                              alternative=alternative)
    if variant == "a":  # tau-a and the tie-free variance of S (torchmetrics' p-value for tau-a)
        n = len(p)
        s = _tau_a(p, t) * n * (n - 1) / 2
        z = s / np.sqrt(n * (n - 1) * (2 * n + 5) / 18)
        pval = {"two-sided": 2 * st.norm.sf(abs(z)), "greater": st.norm.sf(z), "less": st.norm.cdf(z)}[alternative]
        tau = _tau_a(p, t)
    return tau, pval


ORACLES = {
    "pearson": lambda p, t: st.pearsonr(p, t)[0],
    "spearman": lambda p, t: st.spearmanr(p, t)[0],
    "concordance": _ccc,
}
FUNCTIONS = {"pearson": pearson_corrcoef, "spearman": spearman_corrcoef, "concordance": concordance_corrcoef}
MODULES = {"pearson": PearsonCorrCoef, "spearman": SpearmanCorrCoef, "concordance": ConcordanceCorrCoef}


def _columns(oracle, p, t):
    return torch.tensor([oracle(p[:, j], t[:, j]) for j in range(p.shape[1])], dtype=torch.float64)


@pytest.mark.parametrize("name", sorted(ORACLES))
def test_linear_and_spearman_equal_their_oracle_streamed_with_ties_and_outputs(name):
    fn, oracle, cls = FUNCTIONS[name], ORACLES[name], MODULES[name]
    p, t = concat(ONE)
    expected = torch.tensor(oracle(p.numpy(), t.numpy()), dtype=torch.float64)
    torch.testing.assert_close(fn(p, t), expected, atol=1e-12, rtol=0)
    check_metric(cls, ONE, expected, max_examples=4, atol=1e-12, rtol=0)
    pm, tm = concat(MULTI)
    expected_multi = _columns(oracle, pm.numpy(), tm.numpy())
    torch.testing.assert_close(fn(pm, tm), expected_multi, atol=1e-12, rtol=0)
    check_metric(partial(cls, num_outputs=3), MULTI, expected_multi, max_examples=3, atol=1e-12, rtol=0)


@pytest.mark.parametrize("variant", ["a", "b", "c"])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_kendall_equals_scipy_and_brute_force_with_ties(variant, alternative):
    p, t = concat(ONE)
    tau, pval = _kendall_oracle(p.numpy(), t.numpy(), variant, alternative)
    got_tau, got_p = kendall_rank_corrcoef(p, t, variant, True, alternative)
    torch.testing.assert_close(got_tau, torch.tensor(tau, dtype=torch.float64), atol=1e-12, rtol=0)
    torch.testing.assert_close(got_p, torch.tensor(pval, dtype=torch.float64), atol=1e-12, rtol=1e-9)
    assert kendall_rank_corrcoef(p, t, variant=variant).shape == ()
    pm, tm = concat(MULTI)
    want = [_kendall_oracle(pm[:, j].numpy(), tm[:, j].numpy(), variant, alternative) for j in range(3)]
    got_tau, got_p = kendall_rank_corrcoef(pm, tm, variant=variant, t_test=True, alternative=alternative)
    torch.testing.assert_close(got_tau, torch.tensor([w[0] for w in want], dtype=torch.float64), atol=1e-12, rtol=0)
    torch.testing.assert_close(got_p, torch.tensor([w[1] for w in want], dtype=torch.float64), atol=1e-12, rtol=1e-9)


@pytest.mark.parametrize("variant", ["a", "b", "c"])
def test_kendall_module_streams_merges_and_resumes(variant):
    p, t = concat(ONE)
    expected = kendall_rank_corrcoef(p, t, variant, True)
    assert torch.isfinite(expected[0])
    check_metric(partial(KendallRankCorrCoef, variant, True), ONE, expected, max_examples=4, atol=1e-12, rtol=0)
    pm, tm = concat(MULTI)
    check_metric(partial(KendallRankCorrCoef, variant, num_outputs=3), MULTI,
                 kendall_rank_corrcoef(pm, tm, variant), max_examples=3, atol=1e-12, rtol=0)


def test_inversion_count_equals_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(60):
        n, d = int(rng.integers(0, 30)), int(rng.integers(1, 4))
        r = rng.integers(0, int(rng.integers(1, 40)), size=(d, n))
        brute = [sum(int(row[i] > row[j]) for i, j in combinations(range(n), 2)) for row in r]
        np.testing.assert_array_equal(inversions(r), brute)


def _kendall_counts_brute(p, t):
    """The rows of ``kendall_counts`` for one column, over all pairs (and ``np.unique`` for the tie sums)."""
    sp, st_ = np.sign(p[:, None] - p[None, :]), np.sign(t[:, None] - t[None, :])
    upper = np.triu(np.ones((len(p), len(p)), dtype=bool), 1)
    sums = []
    for x in (p, t):
        c = np.unique(x, return_counts=True)[1].astype(np.float64)
        sums.append((len(c), (c * (c - 1) * (c - 2)).sum(), (c * (c - 1) * (2 * c + 5)).sum()))
    return [len(p), (upper & (sp == 0)).sum(), (upper & (st_ == 0)).sum(), (upper & (sp == 0) & (st_ == 0)).sum(),
            (upper & (sp * st_ < 0)).sum(), sums[0][0], sums[1][0], *sums[0][1:], *sums[1][1:]]


def _kendall_path_inputs(rng, kind, n, d):
    """Inputs for each path of ``kendall_counts``: integers (presence table), halves (sorted table), float32
    with repeats (packed sort), float64 that are not float32 (argsort, then a re-sort of tied preds)."""
    if kind == "integers":
        return rng.integers(-4, 5, size=(n, d)).astype(np.float64)
    if kind == "halves":
        return rng.integers(-4, 5, size=(n, d)) + 0.5
    if kind == "float32":
        return rng.choice(rng.normal(size=max(n // 2, 1)).astype(np.float32), size=(n, d))
    return rng.choice(rng.normal(size=max(n // 2, 1)), size=(n, d))


@pytest.mark.parametrize("kind", ["integers", "halves", "float32", "float64"])
@pytest.mark.parametrize("table", [True, False])
@pytest.mark.parametrize("packed_bits", [63, 0])
def test_kendall_counts_of_every_kernel_path_equal_brute_force(monkeypatch, kind, table, packed_bits):
    monkeypatch.setattr(_rank_kernels, "_PACKED_BITS", packed_bits)  # 0: the re-sort of tied preds by argsort
    if not table:
        monkeypatch.setattr(_rank_kernels, "TABLE_DISTINCT", 0)  # no contingency table: the sorting path
    rng = np.random.default_rng(len(kind) + 7 * table)
    for n, d in ((0, 1), (1, 2), (2, 1), (37, 1), (60, 3)):
        p, t = _kendall_path_inputs(rng, kind, n, d), _kendall_path_inputs(rng, kind, n, d)
        got = kendall_counts(torch.from_numpy(p), torch.from_numpy(t))
        if n:
            want = np.array([_kendall_counts_brute(p[:, j], t[:, j]) for j in range(d)], dtype=np.float64).T
        else:
            want = np.zeros((len(_rank_kernels.KENDALL_ROWS), d))
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("values", ["integers", "floats"])
def test_unchecked_nan_gives_nan_tau_and_p_value_as_scipy(values):
    rng = np.random.default_rng(11)
    p = rng.integers(0, 5, size=(40, 2)).astype(np.float64) + (0 if values == "integers" else rng.random((40, 2)))
    t = p + rng.normal(size=(40, 2))
    p[[3, 9], 0] = np.nan  # column 0 only: column 1 keeps its number
    tau, pval = kendall_rank_corrcoef(torch.from_numpy(p), torch.from_numpy(t), t_test=True, validate_args=False)
    want = [st.kendalltau(p[:, j], t[:, j]) for j in range(2)]
    assert np.isnan(want[0][0]) and np.isnan(want[0][1]) and torch.isnan(tau[0]) and torch.isnan(pval[0])
    assert abs(tau[1].item() - want[1][0]) <= 1e-12 and abs(pval[1].item() - want[1][1]) <= 1e-9


@settings(deadline=None, max_examples=25)
@given(hs.lists(hs.tuples(hs.integers(-3, 3), hs.integers(-3, 3)), min_size=3, max_size=30))
def test_kendall_and_spearman_on_heavy_ties_equal_scipy(pairs):
    p = torch.tensor([a for a, _ in pairs], dtype=torch.float64)
    t = torch.tensor([b for _, b in pairs], dtype=torch.float64)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tau_b = st.kendalltau(p.numpy(), t.numpy())[0]
        tau_c = st.kendalltau(p.numpy(), t.numpy(), variant="c")[0]
        rho = st.spearmanr(p.numpy(), t.numpy())[0]
    for got, want in ((kendall_rank_corrcoef(p, t), tau_b), (kendall_rank_corrcoef(p, t, "c"), tau_c),
                      (spearman_corrcoef(p, t), rho)):
        if np.isnan(want):
            assert torch.isnan(got)
        else:
            assert abs(got.item() - want) <= 1e-12
    assert abs(kendall_rank_corrcoef(p, t, "a").item() - _tau_a(p.numpy(), t.numpy())) <= 1e-12


def test_large_offset_targets_keep_every_digit_where_raw_sums_lose_them():
    g = torch.Generator().manual_seed(5)
    base = torch.randn(20000, generator=g, dtype=torch.float64)
    t = 1e6 + base.sign()  # targets 1e6 ± 1
    p = 1e6 + base + 0.5 * torch.randn(20000, generator=g, dtype=torch.float64)
    centred_p, centred_t = (p - 1e6).numpy(), (t - 1e6).numpy()  # exact: the offset is representable
    want_r = st.pearsonr(centred_p, centred_t)[0]
    want_c = _ccc(centred_p, centred_t)
    batches = [(p[i:i + 777], t[i:i + 777]) for i in range(0, 20000, 777)]
    for cls, want in ((PearsonCorrCoef, want_r), (ConcordanceCorrCoef, want_c)):
        m = cls()
        for b in batches:
            m.update(*b)
        assert abs(m.compute().item() - want) <= 1e-12
    # a raw sum of products over the same batches (what the co-moments avoid) is off by far more
    n, sp, st_, spp, stt, spt = 0, 0.0, 0.0, 0.0, 0.0, 0.0
    for bp, bt in batches:
        n, sp, st_ = n + len(bp), sp + bp.sum().item(), st_ + bt.sum().item()
        spp, stt, spt = spp + (bp * bp).sum().item(), stt + (bt * bt).sum().item(), spt + (bp * bt).sum().item()
    raw = (spt - sp * st_ / n) / np.sqrt((spp - sp * sp / n) * (stt - st_ * st_ / n))
    assert abs(raw - want_r) > 1e-9


def test_fold_comoments_merges_parts_as_the_whole_and_empty_parts_are_identities():
    p, t = concat(ONE)
    from torchmetrics_lite.functional.regression.correlation import _comoments

    parts = torch.stack([_comoments(p[:5], t[:5]), _comoments(p[:0], t[:0]), _comoments(p[5:], t[5:])])
    torch.testing.assert_close(fold_comoments(parts), _comoments(p, t), atol=1e-12, rtol=1e-12)
    one = _comoments(p, t)
    torch.testing.assert_close(fold_comoments(torch.stack([_comoments(p[:0], t[:0]), one])), one, atol=0, rtol=0)


def test_empty_single_and_constant_inputs_give_nan_or_the_formula():
    empty = torch.zeros(0)
    for fn in (pearson_corrcoef, spearman_corrcoef, concordance_corrcoef, kendall_rank_corrcoef):
        assert torch.isnan(fn(empty, empty)) and torch.isnan(fn(torch.ones(1), torch.ones(1)))
    const, varying = torch.full((5,), 2.0), torch.arange(5.0)
    for fn in (pearson_corrcoef, spearman_corrcoef, kendall_rank_corrcoef):
        assert torch.isnan(fn(const, varying))
    assert torch.isnan(kendall_rank_corrcoef(const, varying, t_test=True)[1])
    assert kendall_rank_corrcoef(const, varying, "a").item() == 0.0  # tau-a: every pair tied, S = 0
    assert concordance_corrcoef(const, varying).item() == 0.0  # 2 cov / (...) with cov = 0
    assert torch.isnan(concordance_corrcoef(const, const))  # 0 / 0
    assert pearson_corrcoef(torch.zeros(3, 2), torch.zeros(3, 2)).shape == (2,)


def test_integer_and_float32_inputs_are_ranked_exactly():
    p = torch.tensor([3, 1, 2, 2, 5])
    t = torch.tensor([1, 1, 2, 3, 4])
    want = st.spearmanr(p.numpy(), t.numpy())[0]
    assert abs(spearman_corrcoef(p, t).item() - want) <= 1e-12
    assert abs(spearman_corrcoef(p.float(), t.half()).item() - want) <= 1e-12
    assert abs(kendall_rank_corrcoef(p, t).item() - st.kendalltau(p, t)[0]) <= 1e-12


def test_errors_name_the_argument_and_leave_the_state():
    bad_shape = (torch.zeros(3), torch.zeros(4))
    nan = (torch.tensor([1.0, float("nan")]), torch.tensor([1.0, 2.0]))
    for cls in (PearsonCorrCoef, ConcordanceCorrCoef, SpearmanCorrCoef, KendallRankCorrCoef):
        check_rejects(cls, ONE, bad_shape, ValueError, "same shape")
        check_rejects(cls, ONE, nan, ValueError, "NaN")
        check_rejects(partial(cls, num_outputs=3), MULTI, (torch.zeros(4, 2), torch.zeros(4, 2)), ValueError,
                      r"3 output column\(s\)")
        with pytest.raises(ValueError, match="num_outputs"):
            cls(num_outputs=0)
    with pytest.raises(TypeError, match="real, non-bool dtype"):
        pearson_corrcoef(torch.ones(2, dtype=torch.bool), torch.ones(2))
    with pytest.raises(ValueError, match=r"`variant` to be one of \('a', 'b', 'c'\), got 'd'"):
        kendall_rank_corrcoef(torch.ones(2), torch.ones(2), variant="d")
    with pytest.raises(ValueError, match="`alternative` to be one of"):
        KendallRankCorrCoef(t_test=True, alternative="both")
    with pytest.raises(ValueError, match="`alternative` to be one of .* when `t_test=True`, got None"):
        kendall_rank_corrcoef(torch.ones(2), torch.ones(2), t_test=True, alternative=None)
    with pytest.raises(TypeError, match="`t_test` to be a bool, got str"):
        KendallRankCorrCoef(t_test="yes")
    assert repr(KendallRankCorrCoef("c", num_outputs=2)) == "KendallRankCorrCoef(variant='c', num_outputs=2)"


def test_pearson_and_concordance_compile_without_graph_breaks():
    p, t = concat(MULTI)
    check_compiles(partial(concordance_corrcoef, validate_args=False), p, t)  # the co-moments and one formula
    same_shape = _batches((8, 8), d=3)  # one shape: one trace
    check_update_compiles(partial(PearsonCorrCoef, num_outputs=3, validate_args=False), same_shape)


def test_rank_correlations_are_not_compiled_their_ranks_run_on_the_host():
    """Pinned: Spearman and Kendall rank the kept values with numpy kernels at compute (value-dependent pass
    counts, host arrays); ``torch.compile(fullgraph=True)`` refuses them rather than tracing a wrong graph."""
    p, t = concat(ONE)
    for fn in (spearman_corrcoef, kendall_rank_corrcoef):
        torch._dynamo.reset()
        with pytest.raises(Exception):
            torch.compile(partial(fn, validate_args=False), backend="eager", fullgraph=True)(p, t)




def test_numpy_and_torch_co_moments_agree():
    from torchmetrics_lite import _backend

    p, t = concat(MULTI)
    for fn in (pearson_corrcoef, concordance_corrcoef, spearman_corrcoef):
        want = fn(p, t)
        with _backend.force("torch"):
            torch.testing.assert_close(fn(p, t), want, atol=1e-12, rtol=0)


# ------------------------------------------------------------------------------------- torchmetrics port
def _torchmetrics():
    return pytest.importorskip("torchmetrics")


@pytest.mark.parametrize("name", ["pearson", "concordance", "spearman"])
def test_same_numbers_as_torchmetrics(name):
    tm = _torchmetrics()
    tm_cls = {"pearson": tm.PearsonCorrCoef, "concordance": tm.ConcordanceCorrCoef,
              "spearman": tm.SpearmanCorrCoef}[name]
    tm_fn = {"pearson": tm.functional.pearson_corrcoef, "concordance": tm.functional.concordance_corrcoef,
             "spearman": tm.functional.spearman_corrcoef}[name]
    tol = 1e-5 if name == "spearman" else 1e-6  # torchmetrics: float32 states; Spearman adds 1e-6 below
    for batches, d in ((ONE, 1), (MULTI, 3)):
        theirs, ours = tm_cls(num_outputs=d), MODULES[name](num_outputs=d)
        for b in batches:
            if len(b[0]):  # torchmetrics' Pearson and concordance reject an empty batch
                theirs.update(*b)
            ours.update(*b)
        torch.testing.assert_close(ours.compute(), theirs.compute().reshape(ours.compute().shape).double(),
                                   atol=tol, rtol=0)
        p, t = concat(batches)
        want = tm_fn(p, t).double()
        torch.testing.assert_close(FUNCTIONS[name](p, t), want.reshape(-1)[0] if d == 1 else want, atol=tol, rtol=0)


@pytest.mark.parametrize("variant", ["a", "b", "c"])
def test_kendall_same_numbers_as_torchmetrics(variant):
    """tau-b and tau-c with ties; tau-a without ties: with tied pairs torchmetrics' "a" divides by the pairs that
    are concordant or discordant (Goodman and Kruskal's gamma) where Kendall's tau-a divides by every pair."""
    tm = _torchmetrics()
    p, t = concat(ONE) if variant != "a" else concat(_batches((11, 9)))
    for alternative in ("two-sided", "less", "greater"):
        theirs = tm.KendallRankCorrCoef(variant=variant, t_test=True, alternative=alternative)
        theirs.update(p, t)
        ours = KendallRankCorrCoef(variant, True, alternative)
        ours.update(p, t)
        for a, b in zip(ours.compute(), theirs.compute()):
            torch.testing.assert_close(a, b.double(), atol=1e-6, rtol=0)  # torchmetrics' float32 normal cdf
    pm, tm_ = concat(MULTI)
    if variant != "a":
        want = tm.functional.kendall_rank_corrcoef(pm, tm_, variant=variant)
        torch.testing.assert_close(kendall_rank_corrcoef(pm, tm_, variant), want.double(), atol=1e-6, rtol=0)


def test_kendall_tau_a_with_ties_is_kendalls_not_torchmetrics_gamma():
    tm = _torchmetrics()
    p, t = concat(ONE)  # with ties
    pn, tn = p.numpy(), t.numpy()
    pairs = [(np.sign(pn[i] - pn[j]) * np.sign(tn[i] - tn[j])) for i, j in combinations(range(len(pn)), 2)]
    concordant, discordant = sum(x > 0 for x in pairs), sum(x < 0 for x in pairs)
    gamma = (concordant - discordant) / (concordant + discordant)
    theirs = tm.functional.kendall_rank_corrcoef(p, t, variant="a")
    assert abs(theirs.item() - gamma) < 1e-6  # torchmetrics' "a" is gamma on tied data
    assert abs(kendall_rank_corrcoef(p, t, "a").item() - _tau_a(pn, tn)) <= 1e-12
    assert abs(gamma - _tau_a(pn, tn)) > 1e-3
