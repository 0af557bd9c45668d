"""losses.smooth: every ranking metric x every method tends to the exact metric of torchmetrics_lite.functional;
ties, gradients, padding, ragged batches; approx_ndcg_loss and neural_ndcg_loss are instances of it."""
from functools import partial

import pytest
import torch

import losses
from losses.smooth_metrics import FORMULAS, METHODS, approx_ranks, bound_ranks
from torchmetrics_lite import functional as F

#: each metric with the options its limit is checked under (every cut-off metric with and without k)
CASES = [
    (F.retrieval_normalized_dcg, {}), (F.retrieval_normalized_dcg, {"k": 3, "gain": "exponential"}),
    (F.retrieval_dcg, {"k": 4}), (F.retrieval_dcg, {"gain": "exponential"}),
    (F.retrieval_average_precision, {}), (F.retrieval_average_precision, {"k": 3}),
    (F.retrieval_reciprocal_rank, {}), (F.retrieval_reciprocal_rank, {"k": 2}),
    (F.retrieval_precision, {"k": 3}), (F.retrieval_precision, {}),
    (F.retrieval_recall, {"k": 3}), (F.retrieval_hit_rate, {"k": 2}), (F.retrieval_hit_rate, {}),
    (F.retrieval_r_precision, {}), (F.binary_auroc, {}), (F.binary_average_precision, {}),
]
BINARY = (F.binary_auroc, F.binary_average_precision)
#: the smallest temperature of the limit test, per method (scores below are 0.1 apart at least)
LIMIT_T = {"approx": 1e-3, "bound": 1e-3, "soft_rank": 1e-3, "soft_rank_kl": 1e-3, "neural_sort": 1e-3,
           "softsort": 1e-3, "exact": 1.0}
SMOOTH = {"approx": {"method": "approx"}, "bound": {"method": "bound"}, "soft_rank": {"method": "soft_rank"},
          "soft_rank_kl": {"method": "soft_rank", "regularization": "kl"}, "neural_sort": {"method": "neural_sort"},
          "softsort": {"method": "softsort"}, "neural_sort_sinkhorn": {"method": "neural_sort", "sinkhorn_iters": 30}}
LIMIT_T["neural_sort_sinkhorn"] = 1e-3


def _ids(case):
    metric, options = case
    return metric.__name__.replace("retrieval_", "") + "".join(f"-{k}{v}" for k, v in options.items())


def _tie_free(lists=6, n=7, seed=0):
    """Scores 0.1 apart at least (a permutation of 0.1 * 0..n-1 per list), graded targets, a ragged mask."""
    g = torch.Generator().manual_seed(seed)
    s = torch.argsort(torch.rand(lists, n, generator=g), -1).double() * 0.1
    rel = torch.randint(0, 3, (lists, n), generator=g)
    rel[0] = 0  # a list without a relevant item
    rel[1, :] = torch.tensor([0, 1, 0, 0, 2, 0, 0])[:n]
    mask = torch.ones(lists, n, dtype=torch.bool)
    mask[2, 4:] = False
    mask[min(3, lists - 1), 1:] = False  # one item
    return s, rel, mask


def _exact(metric, s, rel, mask, options):
    if metric in BINARY:  # one list at a time: the binary metrics take no mask
        out = []
        for row in range(s.shape[0]):
            t = (rel[row][mask[row]] > 0).long()
            defined = 0 < int(t.sum()) < len(t) if metric is F.binary_auroc else int(t.sum()) > 0  # else 0, as smooth
            out.append(metric(s[row][mask[row]], t) if defined else torch.tensor(0.0, dtype=s.dtype))
        return torch.stack(out).to(s.dtype)
    return metric(s, rel, mask=mask, reduction="none", **options).to(s.dtype)


def limit_differences(temperatures=None):
    """``{(metric case, method): largest |smooth - exact|}`` at the smallest temperature tested (the docs' table)."""
    temperatures = temperatures or LIMIT_T
    s, rel, mask = _tie_free()
    table = {}
    for metric, options in CASES:
        target = (rel > 0).long() if metric in BINARY else rel
        exact = _exact(metric, s, rel, mask, options)
        for name, kw in {**SMOOTH, "exact": {"method": "exact"}}.items():
            f = losses.smooth(metric, temperature=temperatures[name], **kw)
            got = f(s, target, mask=mask, reduction="none", **options)
            table[_ids((metric, options)), name] = float((got - exact).abs().max())
    return table


def test_every_metric_by_every_method_tends_to_the_exact_metric():
    # "exact": the rank form with hard ranks, i.e. the factored formula itself against the library's kernels
    table = limit_differences()
    worst = {key: diff for key, diff in table.items() if not diff <= 1e-6}
    assert not worst, worst
    assert len(table) == len(CASES) * (len(SMOOTH) + 1) and set(FORMULAS) == {m for m, _ in CASES}
    assert set(METHODS) == {kw["method"] for kw in SMOOTH.values()}


CONSTANT = (F.retrieval_precision, F.retrieval_hit_rate)  # without a cut-off: n_rel / n and 1


@pytest.mark.parametrize("case", [c for c in CASES if c[1] or c[0] not in CONSTANT], ids=_ids)
def test_the_smooth_value_moves_towards_the_limit(case):
    # the limit test cannot pass trivially: at a larger temperature the value is off the exact one (P and hit rate
    # without a cut-off are constant: n_rel / n and 1)
    metric, options = case
    s, rel, mask = _tie_free(seed=1)
    target = (rel > 0).long() if metric in BINARY else rel
    exact = _exact(metric, s, rel, mask, options)
    for name, kw in SMOOTH.items():
        warm = losses.smooth(metric, temperature=0.3, **kw)(s, target, mask=mask, reduction="none", **options)
        assert float((warm - exact).abs().max()) > 1e-4, name


@pytest.mark.parametrize("name", SMOOTH)
def test_gradcheck_padding_ragged_and_extremes(name):
    kw = SMOOTH[name]
    s, rel, mask = _tie_free(lists=4, n=5, seed=2)
    s = s + 0.01 * torch.randn(s.shape, generator=torch.Generator().manual_seed(5), dtype=s.dtype)
    for metric, options in CASES[::3] + [CASES[-2]]:
        target = (rel > 0).long() if metric in BINARY else rel
        f = partial(losses.smooth(metric, temperature=0.4, **kw), target=target, mask=mask, reduction="none",
                    **options)
        assert torch.autograd.gradcheck(lambda t: f(t), s.clone().requires_grad_()), metric.__name__
        # padding: NaN scores there, gradient exactly 0; a list without a relevant item: value and gradient 0
        x = s.masked_fill(~mask, float("nan")).requires_grad_()
        out = f(x)
        out.sum().backward()
        assert bool(torch.isfinite(out).all()) and bool((x.grad[~mask] == 0).all())
        assert out[0].item() == 0.0 and bool((x.grad[0] == 0).all())
        # a ragged list equals the same list alone
        torch.testing.assert_close(out[2], f(s[2:3, :4], target=target[2:3, :4], mask=None)[0])
        # huge gaps, all-equal scores, one item: finite values and gradients
        for extreme in (s * 1e7, torch.zeros_like(s), s[:, :1]):
            x = extreme.clone().requires_grad_()
            t, m = target[:, :x.shape[1]], mask[:, :x.shape[1]]
            out = f(x, target=t, mask=m)
            out.sum().backward()
            assert bool(torch.isfinite(out).all()) and bool(torch.isfinite(x.grad).all()), (metric, extreme)


def test_ties_each_methods_rule():
    s = torch.tensor([[2.0, 1.0, 2.0, 0.0, 2.0, 1.0]], dtype=torch.float64)
    mask = torch.ones_like(s, dtype=torch.bool)
    mid = torch.tensor([[2.0, 4.5, 2.0, 6.0, 2.0, 4.5]], dtype=torch.float64)
    torch.testing.assert_close(approx_ranks(s, mask.double(), 1e-4), mid)
    torch.testing.assert_close(losses.soft_rank(s, regularization_strength=1e-4, descending=True), mid)
    torch.testing.assert_close(bound_ranks(s, mask.double(), 1e-4),  # last of its tie group
                               torch.tensor([[3.0, 5.0, 3.0, 6.0, 3.0, 5.0]], dtype=torch.float64))
    # the relaxed permutations spread a tie uniformly over its ranks: the exact ties="average" of the measures
    # linear in each item's rank; AP / RR / hit rate multiply two ranks and so cannot follow it exactly
    rel = torch.tensor([[1, 0, 3, 2, 0, 1]])
    for metric, options in [(F.retrieval_normalized_dcg, {"k": 2}), (F.retrieval_dcg, {}),
                            (F.retrieval_precision, {"k": 2}), (F.retrieval_recall, {"k": 4}),
                            (F.retrieval_r_precision, {})]:
        exact = metric(s, rel, reduction="none", **options)
        for method in ("neural_sort", "softsort"):
            got = losses.smooth(metric, method=method, temperature=1e-4)(s, rel, reduction="none", **options)
            torch.testing.assert_close(got, exact.double(), atol=1e-9, rtol=0)
    ap = losses.smooth(F.retrieval_average_precision, method="neural_sort", temperature=1e-4)(s, rel)
    assert abs(ap.item() - F.retrieval_average_precision(s, rel).item()) > 1e-3  # documented: not the tie rule


def test_approx_and_neural_ndcg_losses_are_instances():
    s, rel, mask = _tie_free(seed=3)
    s = s + torch.randn(s.shape, generator=torch.Generator().manual_seed(0), dtype=s.dtype)
    keep = torch.tensor([False, True, True, False, True, True])  # informative lists (two grades at least)
    for k in (None, 3):
        smooth = losses.smooth(F.retrieval_normalized_dcg, method="approx", temperature=0.5)
        loss = losses.approx_ndcg_loss(s, rel, mask=mask, temperature=0.5, k=k, reduction="none")
        torch.testing.assert_close(loss[keep], 1.0 - smooth(s, rel, mask=mask, k=k, reduction="none")[keep],
                                   atol=0, rtol=0)
        assert bool((loss[~keep] == 0).all())
        smooth = losses.smooth(F.retrieval_normalized_dcg, method="neural_sort", temperature=0.5, sinkhorn_iters=50)
        loss = losses.neural_ndcg_loss(s, rel, mask=mask, temperature=0.5, k=k, reduction="none")
        torch.testing.assert_close(loss[keep], 1.0 - smooth(s, rel, mask=mask, k=k, reduction="none")[keep],
                                   atol=0, rtol=0)


def test_gumbel_perturbation():
    s, rel, mask = _tie_free(seed=4)
    plain = losses.smooth(F.retrieval_reciprocal_rank, method="soft_rank", temperature=0.2)
    noisy = losses.smooth(F.retrieval_reciprocal_rank, method="soft_rank", temperature=0.2, gumbel_scale=0.5)
    a = noisy(s, rel, mask=mask, generator=torch.Generator().manual_seed(7), reduction="none")
    b = noisy(s, rel, mask=mask, generator=torch.Generator().manual_seed(7), reduction="none")
    assert torch.equal(a, b) and not torch.equal(a, plain(s, rel, mask=mask, reduction="none"))
    x = s.masked_fill(~mask, float("nan")).requires_grad_()
    noisy(x, rel, mask=mask).backward()
    assert bool(torch.isfinite(x.grad).all()) and bool((x.grad[~mask] == 0).all())


def test_bad_input_is_rejected():
    with pytest.raises(ValueError, match="Expected `metric` to be one of the ranking metrics"):
        losses.smooth(F.binary_accuracy)
    with pytest.raises(ValueError, match=r"Expected `method` to be one of \('approx', 'bound', 'soft_rank'"):
        losses.smooth(F.retrieval_recall, method="sigmoid")
    with pytest.raises(ValueError, match="`temperature`"):
        losses.smooth(F.retrieval_recall, temperature=0.0)
    with pytest.raises(ValueError, match="Expected `sinkhorn_iters` to be an int >= 0, got -1"):
        losses.smooth(F.retrieval_recall, sinkhorn_iters=-1)
    with pytest.raises(ValueError, match="`gumbel_scale`"):
        losses.smooth(F.retrieval_recall, gumbel_scale=-1.0)
    f = losses.smooth(F.retrieval_recall)
    with pytest.raises(TypeError, match=r"smooth\(retrieval_recall\) got unexpected option\(s\) \['gain'\]"):
        f(torch.zeros(3), torch.zeros(3), gain="linear")
    with pytest.raises(ValueError, match="`k`"):
        f(torch.zeros(3), torch.zeros(3), k=0)
    with pytest.raises(ValueError, match="Expected `target` to be finite and >= 0 on real items, got -1.0"):
        f(torch.zeros(3), torch.tensor([1.0, -1.0, 0.0]))


def limit_table() -> str:
    """The docs' limit table (``python -m tests.losses.test_smooth``): per metric x method, the largest difference
    from the exact metric on the tie-free batch above at the smallest temperature tested, and at T = 0.05."""
    small, warm = limit_differences(), limit_differences({name: 0.05 for name in LIMIT_T})
    methods = list(SMOOTH) + ["exact"]
    cases = list(dict.fromkeys(case for case, _ in small))
    lines = ["| metric | " + " | ".join(methods) + " |", "|---|" + "---:|" * len(methods)]
    for case in cases:
        cells = [f"{small[case, m]:.0e} ({warm[case, m]:.0e})" for m in methods]
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(limit_table())


def test_bound_is_a_lower_bound_of_the_metrics_decreasing_in_the_rank():
    # ranks >= the exact ones and a cut-off <= the exact one (T <= 1): a lower bound of DCG, NDCG, P@k, R@k, MRR,
    # hit rate (not of AP or AUROC, whose q_i in the numerator is bounded the other way)
    g = torch.Generator().manual_seed(8)
    s = torch.randn(50, 8, generator=g, dtype=torch.float64)
    rel = torch.randint(0, 3, (50, 8), generator=g)
    for metric, options in [(F.retrieval_normalized_dcg, {"k": 3}), (F.retrieval_dcg, {}),
                            (F.retrieval_precision, {"k": 2}), (F.retrieval_recall, {"k": 4}),
                            (F.retrieval_reciprocal_rank, {"k": 5}), (F.retrieval_hit_rate, {"k": 1})]:
        exact = metric(s, rel, reduction="none", **options).double()
        for t in (0.1, 1.0):
            low = losses.smooth(metric, method="bound", temperature=t)(s, rel, reduction="none", **options)
            assert bool((low <= exact + 1e-12).all()) and bool((low < exact - 1e-3).any()), (metric, t)
