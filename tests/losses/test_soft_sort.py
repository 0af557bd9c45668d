"""soft_sort / soft_rank / soft_top_k / soft_spearman_corrcoef against a generic QP solver (the projection onto the
permutahedron, by its subset inequalities), worked examples, both limits, gradients, padding."""
import itertools

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from scipy.stats import rankdata

import losses
from losses.soft_spearman import mid_ranks
from torchmetrics_lite.functional import spearman_corrcoef

REGS = ("l2", "kl")


def _project(z, w, reg):
    """argmin over the permutahedron P(w) of 1/2 |mu - z|^2 (l2) or KL(mu, exp z) (kl), by SLSQP on the subset
    form: sum(mu) = sum(w) and sum_S mu <= sum of the |S| largest w for every proper subset S."""
    n = len(z)
    top = np.cumsum(np.sort(w)[::-1])
    cons = [{"type": "eq", "fun": lambda mu: mu.sum() - w.sum()}]
    for size in range(1, n):
        for subset in itertools.combinations(range(n), size):
            cons.append({"type": "ineq", "fun": lambda mu, s=list(subset), c=top[size - 1]: c - mu[s].sum()})
    if reg == "l2":
        fun, jac = (lambda mu: 0.5 * ((mu - z) ** 2).sum()), (lambda mu: mu - z)
        bounds = None
    else:
        fun, jac = (lambda mu: (mu * (np.log(mu) - z) - mu).sum()), (lambda mu: np.log(mu) - z)
        bounds = [(1e-12, None)] * n
    x0 = np.full(n, w.mean())
    res = minimize(fun, x0, jac=jac, constraints=cons, bounds=bounds, method="SLSQP",
                   options={"ftol": 1e-14, "maxiter": 500})
    return res.x


def _reference_rank(theta, eps, reg):
    rho = np.arange(len(theta), 0, -1).astype(float)
    if reg == "l2":
        return _project(theta / eps, rho, "l2")
    return _project(theta / eps, rho, "kl")  # exp P_E(theta/eps, log rho) = the KL projection onto P(rho)


def _reference_sort_descending(theta, eps, reg):
    rho = np.arange(len(theta), 0, -1).astype(float)
    if reg == "l2":
        return np.sort(_project(rho / eps, theta, "l2"))[::-1]
    return np.sort(np.log(_project(rho / eps, np.exp(theta), "kl")))[::-1]


@pytest.mark.parametrize("reg", REGS)
def test_against_the_qp_projection(reg):
    rng = np.random.default_rng(0)
    for n, eps in [(3, 0.5), (4, 1.0), (5, 2.0), (5, 0.3)]:
        theta = rng.normal(size=n) * 1.5
        x = torch.tensor(theta)
        got = losses.soft_rank(x, regularization=reg, regularization_strength=eps).numpy()
        np.testing.assert_allclose(got, _reference_rank(theta, eps, reg), atol=2e-5)
        got = losses.soft_sort(x, regularization=reg, regularization_strength=eps, descending=True).numpy()
        np.testing.assert_allclose(got, _reference_sort_descending(theta, eps, reg), atol=2e-5)
        # ascending (torchsort's default) is the descending sort of -x, negated
        asc = losses.soft_sort(x, regularization=reg, regularization_strength=eps).numpy()
        np.testing.assert_allclose(asc, -_reference_sort_descending(-theta, eps, reg), atol=2e-5)


def test_worked_examples():
    # torchsort's README example: sorted values minus rho decrease (gaps >= 1), so nothing pools: the hard ranks
    x = torch.tensor([[8.0, 0.0, 5.0, 3.0, 2.0, 1.0, 6.0, 7.0, 9.0]])
    assert losses.soft_rank(x).tolist() == [[8.0, 1.0, 5.0, 4.0, 3.0, 2.0, 6.0, 7.0, 9.0]]
    assert losses.soft_sort(x, regularization_strength=0.1).tolist() == [[0.0, 1.0, 2.0, 3.0, 5.0, 6.0, 7.0, 8.0, 9.0]]
    # at strength 1, rho - sorted(x) = (0, 0, 0, 0, 0, 1, 1, 1, 1) increases: one block, v = 4/9, out = rho - 4/9
    torch.testing.assert_close(losses.soft_sort(x, descending=True), torch.arange(9.0, 0.0, -1.0)[None] - 4 / 9)
    # by hand: z = x / 2 = (1.5, .5, 1); z sorted - rho = (-1.5, -1, -.5) increases, so one block, v = -1, r = z + 1
    torch.testing.assert_close(losses.soft_rank(torch.tensor([3.0, 1.0, 2.0]), regularization_strength=2.0),
                               torch.tensor([2.5, 1.5, 2.0]))
    # (3, 1, 2.5) at strength 1: z - rho sorted = (0, .5, -1): the first two pool to .25: ranks 2.75, 1, 2.25
    torch.testing.assert_close(losses.soft_rank(torch.tensor([3.0, 1.0, 2.5])), torch.tensor([2.75, 1.0, 2.25]))
    # top-2 of (0.1, 3, 2, -1) at strength 2: clip(z + tau, 0, 1) summing to 2 gives tau = -0.025
    torch.testing.assert_close(losses.soft_top_k(torch.tensor([0.1, 3.0, 2.0, -1.0]), 2, regularization_strength=2.0),
                               torch.tensor([0.025, 1.0, 0.975, 0.0]))


@pytest.mark.parametrize("reg", REGS)
def test_limits(reg):
    g = torch.Generator().manual_seed(1)
    x = torch.randn(4, 7, generator=g, dtype=torch.float64)
    hard = (torch.argsort(torch.argsort(x, -1), -1) + 1).to(x.dtype)
    torch.testing.assert_close(losses.soft_rank(x, regularization=reg, regularization_strength=1e-6), hard,
                               atol=1e-6, rtol=0)
    torch.testing.assert_close(losses.soft_sort(x, regularization=reg, regularization_strength=1e-6),
                               torch.sort(x).values, atol=1e-6, rtol=0)
    big = losses.soft_rank(x, regularization=reg, regularization_strength=1e9)
    torch.testing.assert_close(big, torch.full_like(x, 4.0), atol=1e-6, rtol=0)
    mean = x.mean(-1, keepdim=True) if reg == "l2" else -torch.log(torch.exp(-x).mean(-1, keepdim=True))
    torch.testing.assert_close(losses.soft_sort(x, regularization=reg, regularization_strength=1e9),
                               mean.expand_as(x), atol=1e-6, rtol=0)
    # ties: the mid-rank, by either regularization
    tied = torch.tensor([[2.0, 1.0, 2.0, 0.0, 2.0]], dtype=torch.float64)
    torch.testing.assert_close(losses.soft_rank(tied, regularization=reg, regularization_strength=1e-6),
                               torch.tensor([[4.0, 2.0, 4.0, 1.0, 4.0]], dtype=torch.float64))
    torch.testing.assert_close(losses.soft_rank(tied, regularization=reg, regularization_strength=1e-6,
                                                descending=True),
                               torch.tensor([[2.0, 4.0, 2.0, 5.0, 2.0]], dtype=torch.float64))


def test_soft_top_k_limits_and_ties():
    x = torch.tensor([[0.3, -1.0, 2.0, 0.9, 0.1]], dtype=torch.float64)
    assert losses.soft_top_k(x, 2, regularization_strength=1e-6).tolist() == [[0.0, 0.0, 1.0, 1.0, 0.0]]
    torch.testing.assert_close(losses.soft_top_k(x, 2, regularization_strength=1e9), torch.full_like(x, 0.4))
    tied = torch.tensor([1.0, 3.0, 1.0, 1.0])
    torch.testing.assert_close(losses.soft_top_k(tied, 2, regularization_strength=1e-4),
                               torch.tensor([1 / 3, 1.0, 1 / 3, 1 / 3]))
    w = losses.soft_top_k(torch.randn(3, 9, dtype=torch.float64), 4, regularization_strength=0.7)
    torch.testing.assert_close(w.sum(-1), torch.full((3,), 4.0, dtype=torch.float64))
    assert bool(((w >= 0) & (w <= 1)).all())
    assert losses.soft_top_k(torch.tensor([0.5, 0.2]), 3).tolist() == [1.0, 1.0]  # k >= m: everything


FUNCTIONS = {
    "rank_l2": lambda x, m: losses.soft_rank(x, regularization_strength=0.7, mask=m),
    "rank_kl": lambda x, m: losses.soft_rank(x, regularization="kl", regularization_strength=0.7, mask=m),
    "rank_desc": lambda x, m: losses.soft_rank(x, regularization_strength=0.7, descending=True, mask=m),
    "sort_l2": lambda x, m: losses.soft_sort(x, regularization_strength=0.7, mask=m),
    "sort_kl": lambda x, m: losses.soft_sort(x, regularization="kl", regularization_strength=0.7, mask=m),
    "top_k": lambda x, m: losses.soft_top_k(x, 2, regularization_strength=0.7, mask=m),
    "spearman": lambda x, m: losses.soft_spearman_corrcoef(x, torch.arange(x.shape[-1]).expand_as(x).flip(-1),
                                                           regularization_strength=0.7, mask=m),
}


@pytest.mark.parametrize("name", FUNCTIONS)
def test_gradcheck_padding_and_ragged_batches(name):
    fn = FUNCTIONS[name]
    g = torch.Generator().manual_seed(2)
    x = torch.randn(3, 6, generator=g, dtype=torch.float64)
    mask = torch.tensor([[True] * 6, [True] * 4 + [False] * 2, [True, False, True, True, False, True]])
    assert torch.autograd.gradcheck(lambda t: fn(t, mask), x.clone().requires_grad_())
    # padded items: any value (NaN too), gradient exactly 0; each list equals the list alone
    xp = x.clone().masked_fill(~mask, float("nan")).requires_grad_()
    out = fn(xp, mask)
    (out * torch.randn(out.shape, generator=g, dtype=torch.float64)).sum().backward()
    assert bool(torch.isfinite(out).all()) and bool((xp.grad[~mask] == 0).all())
    alone = fn(x[1:2, :4], None)
    got = out[1:2] if out.dim() == 1 else out[1:2, :4]
    torch.testing.assert_close(got, alone)
    # any batch shape: the last dimension is the list
    torch.testing.assert_close(fn(x.reshape(3, 1, 6), mask.reshape(3, 1, 6)).reshape(out.shape), out)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_finite_gradients_at_the_extremes(name):
    fn = FUNCTIONS[name]
    for x in (torch.tensor([[1e8, -1e8, 3.0, 1e7]]), torch.zeros(1, 4), torch.tensor([[0.5]])):
        x = x.double().requires_grad_()
        out = fn(x, None)
        out.sum().backward()
        assert bool(torch.isfinite(out).all()) and bool(torch.isfinite(x.grad).all()), x


def test_backward_is_block_constant():
    # the l2 Jacobian of the pooled block (all 3 items) is I - 1/3 on the rank side
    x = torch.tensor([3.0, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
    jac = torch.autograd.functional.jacobian(lambda t: losses.soft_rank(t, regularization_strength=2.0), x)
    torch.testing.assert_close(jac, (torch.eye(3, dtype=torch.float64) - 1 / 3) / 2.0)


def test_soft_spearman_limit_equals_spearman_corrcoef():
    g = torch.Generator().manual_seed(3)
    for ties in (False, True):
        p = torch.randn(40, generator=g, dtype=torch.float64)
        t = torch.randn(40, generator=g, dtype=torch.float64)
        if ties:
            p, t = (p * 2).round(), (t * 2).round()
        got = losses.soft_spearman_corrcoef(p, t, regularization_strength=1e-7)
        torch.testing.assert_close(got, spearman_corrcoef(p, t), atol=1e-6, rtol=0)
    far = losses.soft_spearman_corrcoef(p, t, regularization_strength=1e4)  # one block: affine in p
    ranks = torch.from_numpy(rankdata(t.numpy()))  # scipy's mid-ranks
    torch.testing.assert_close(far, torch.corrcoef(torch.stack([p, ranks]))[0, 1])
    torch.testing.assert_close(mid_ranks(t, torch.ones_like(t, dtype=torch.bool)), ranks)
    assert losses.soft_spearman_corrcoef(p, torch.zeros_like(t)).item() == 0.0  # no spread: 0, not NaN


def test_bad_input_is_rejected():
    x = torch.randn(2, 3)
    with pytest.raises(ValueError, match=r"Expected `regularization` to be one of \('l2', 'kl'\), got 'l1'"):
        losses.soft_rank(x, regularization="l1")
    with pytest.raises(ValueError, match="`regularization_strength`"):
        losses.soft_sort(x, regularization_strength=0.0)
    with pytest.raises(TypeError, match="Expected `values` to have a floating dtype, got torch.int64"):
        losses.soft_rank(torch.arange(3))
    with pytest.raises(TypeError, match="Expected `mask` to have dtype torch.bool"):
        losses.soft_rank(x, mask=torch.ones(2, 3))
    with pytest.raises(ValueError, match=r"Expected `mask` to have the shape of `values` \(2, 3\), got \(3,\)"):
        losses.soft_sort(x, mask=torch.ones(3, dtype=torch.bool))
    with pytest.raises(TypeError, match="Expected `descending` to be a bool, got int"):
        losses.soft_rank(x, descending=1)
    with pytest.raises(ValueError, match="`k`"):
        losses.soft_top_k(x, 0)
    with pytest.raises(TypeError, match="Expected `preds` to have a floating dtype"):
        losses.soft_spearman_corrcoef(torch.arange(3), torch.arange(3))
    with pytest.raises(ValueError, match="temperature"):
        losses.neural_sort_permutation(x, temperature=-1.0)


def test_relaxed_permutations():
    g = torch.Generator().manual_seed(4)
    x = torch.randn(2, 5, generator=g, dtype=torch.float64)
    mask = torch.tensor([[True] * 5, [True, True, False, True, False]])
    for fn in (losses.neural_sort_permutation, losses.softsort_permutation):
        p = fn(x, temperature=1e-4, mask=mask)
        hard = torch.zeros_like(p)
        for row in range(2):  # the sorting permutation of the real items, by hand
            real = mask[row].nonzero().flatten()
            order = real[torch.argsort(x[row, real], descending=True)]
            hard[row, torch.arange(len(order)), order] = 1.0
        torch.testing.assert_close(p, hard, atol=1e-9, rtol=0)
        soft = fn(x, temperature=0.5, mask=mask)
        torch.testing.assert_close(soft.sum(-1), mask.to(x.dtype).sort(-1, descending=True).values)
        assert torch.autograd.gradcheck(lambda t: fn(t, temperature=0.5, mask=mask), x.clone().requires_grad_())
        tied = fn(torch.tensor([1.0, 1.0, 0.0], dtype=torch.float64), temperature=1e-4)
        torch.testing.assert_close(tied[:2, :2], torch.full((2, 2), 0.5, dtype=torch.float64))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-5, 5), min_size=1, max_size=12), st.floats(0.05, 20.0), st.sampled_from(REGS))
def test_soft_ranks_lie_in_the_permutahedron_and_keep_the_order(values, eps, reg):
    # P(rho): the ranks sum to m(m+1)/2 and the k largest sum to at most the k largest of rho (majorization); a
    # projection onto P(rho) keeps the order of its input (rank-preserving)
    x = torch.tensor(values, dtype=torch.float64)
    r = losses.soft_rank(x, regularization=reg, regularization_strength=eps)
    m = len(values)
    top = torch.cumsum(torch.sort(r, descending=True).values, 0)
    rho = torch.cumsum(torch.arange(m, 0, -1, dtype=torch.float64), 0)
    assert abs(top[-1].item() - m * (m + 1) / 2) < 1e-9 and bool((top <= rho + 1e-9).all())
    order = torch.argsort(x)
    assert bool((torch.diff(r[order]) >= -1e-9).all())
