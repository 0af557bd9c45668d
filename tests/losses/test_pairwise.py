"""The generic pairwise loss, its hinge / soft zero-one forms and the LambdaLoss weightings: brute force per pair,
the exact metrics they bound or approach, and LambdaRank / RankNet as special cases with identical values."""
import math
from functools import partial

import pytest
import torch

import losses
from tests.helpers import loss_oracles as O
from torchmetrics_lite.functional import binary_auroc

GEN = torch.Generator().manual_seed(11)
PAIR_FNS = {
    "logistic": lambda sigma, margin: (lambda x: O.softplus(-sigma * x)),
    "hinge": lambda sigma, margin: (lambda x: max(0.0, margin - x)),
    "sigmoid": lambda sigma, margin: (lambda x: O.sigmoid(-sigma * x)),
}
WEIGHTINGS = ["uniform", "lambdarank", "ndcgloss1", "ndcgloss2", "ndcgloss2pp", "arp1", "arp2"]


def _lists(batch, n, grades=4):
    scores = torch.randn(batch, n, generator=GEN, dtype=torch.float64)
    rel = torch.randint(0, grades + 1, (batch, n), generator=GEN).double()
    return scores, rel


@pytest.mark.parametrize("weighting", WEIGHTINGS)
@pytest.mark.parametrize("pair_loss", sorted(PAIR_FNS))
def test_values_against_a_loop_over_pairs(pair_loss, weighting):
    scores, rel = _lists(5, 8)
    k = 4 if weighting in ("lambdarank", "ndcgloss1", "ndcgloss2pp") else None
    got = losses.pairwise_loss(scores, rel, pair_loss=pair_loss, weighting=weighting, k=k, sigma=1.7, margin=0.6,
                               mu=2.5, reduction="none")
    f = PAIR_FNS[pair_loss](1.7, 0.6)
    expected = torch.tensor([O.pairwise(scores[b].tolist(), rel[b].tolist(), f=f, weighting=weighting, k=k, mu=2.5)
                             for b in range(5)], dtype=torch.float64)
    torch.testing.assert_close(got, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("weighting", ["lambdarank", "ndcgloss1", "ndcgloss2", "ndcgloss2pp", "arp1", "arp2"])
def test_lambdarank_and_ranknet_are_the_logistic_cases_bit_for_bit(weighting):
    scores, rel = _lists(6, 40)
    mask = torch.rand(6, 40, generator=GEN) > 0.2
    kw = dict(mask=mask, k=7, sigma=1.3, gain="exponential", mu=4.0, reduction="none", chunk_size=4)
    a, b = scores.clone().requires_grad_(), scores.clone().requires_grad_()
    la = losses.lambdarank_loss(a, rel, weighting=weighting, **kw)
    lb = losses.pairwise_loss(b, rel, pair_loss="logistic", weighting=weighting, **kw)
    la.sum().backward()
    lb.sum().backward()
    assert torch.equal(la, lb) and torch.equal(a.grad, b.grad)
    assert torch.equal(losses.ranknet_loss(scores, rel, mask=mask, sigma=0.4),
                       losses.pairwise_loss(scores, rel, mask=mask, sigma=0.4))


def test_callable_pair_loss_and_weighting_match_the_built_ins():
    scores, rel = _lists(4, 9)
    mask = torch.rand(4, 9, generator=GEN) > 0.2
    s1, s2 = scores.clone().requires_grad_(), scores.clone().requires_grad_()
    built_in = losses.pairwise_loss(s1, rel, mask=mask, pair_loss="logistic", weighting="lambdarank", k=5)
    own = losses.pairwise_loss(s2, rel, mask=mask, pair_loss=lambda d: torch.nn.functional.softplus(-d),
                               weighting="lambdarank", k=5)
    built_in.backward()
    own.backward()
    torch.testing.assert_close(own, built_in, rtol=1e-12, atol=1e-14)
    torch.testing.assert_close(s2.grad, s1.grad, rtol=1e-12, atol=1e-14)

    def above(s, r, m):  # every pair with rel_i > rel_j, weight 1: the sum over pairs
        return (r[:, :, None] > r[:, None, :]).to(s.dtype)

    summed = losses.pairwise_loss(scores, rel, mask=mask, pair_loss="hinge", weighting=above, reduction="none")
    expected = torch.tensor([O.pairwise(scores[b][mask[b]].tolist(), rel[b][mask[b]].tolist(),
                                        f=lambda x: max(0.0, 1 - x), weighting="arp2") for b in range(4)])
    unit = torch.tensor([O.pairwise(scores[b][mask[b]].tolist(), rel[b][mask[b]].tolist(),
                                    f=lambda x: max(0.0, 1 - x), weighting="uniform") for b in range(4)])
    pairs = torch.tensor([sum(1 for x in rel[b][mask[b]] for y in rel[b][mask[b]] if x > y) for b in range(4)])
    torch.testing.assert_close(summed, (unit * pairs).double())  # the padded items' pairs are dropped
    assert not torch.allclose(summed, expected.double())  # arp2 weighs by the grade gap: a different loss


def test_soft_zero_one_tends_to_one_minus_auroc_and_the_hinge_bounds_it():
    scores = torch.randint(-6, 7, (12, 30), generator=GEN).double() / 2  # ties, which AUROC counts 1/2
    target = (torch.rand(12, 30, generator=GEN) < 0.4).double()
    target[:, :2] = torch.tensor([1.0, 0.0])
    exact = 1 - torch.stack([binary_auroc(scores[b], target[b].long()) for b in range(12)])
    soft = losses.pairwise_soft_zero_one_loss(scores, target, sigma=1e4, reduction="none")
    torch.testing.assert_close(soft, exact.double(), rtol=0, atol=1e-12)
    hinge = losses.pairwise_hinge_loss(scores, target, reduction="none")
    assert (hinge >= exact - 1e-12).all() and (hinge > exact).any()


def test_arp1_bounds_the_average_relevance_position():
    """ARP = sum_i rel_i rank_i (1-based) <= sum_i rel_i + ARP-Loss1 / ln 2 (each 1[s_j > s_i] <= log2(1 + e^(s_j -
    s_i)))."""
    scores, rel = _lists(20, 12)
    loss = losses.pairwise_loss(scores, rel, weighting="arp1", reduction="none")
    rank = torch.argsort(torch.argsort(-scores, dim=-1), dim=-1) + 1
    arp = (rel * rank).sum(-1)
    assert (arp <= rel.sum(-1) + loss / math.log(2) + 1e-9).all()


def test_ndcgloss1_and_arp1_weigh_pairs_of_equal_grade_but_not_lists_of_one_grade():
    scores = torch.tensor([[0.0, 1.0, 2.0]], requires_grad=True)
    rel = torch.tensor([[1.0, 1.0, 0.0]])
    for weighting in ("ndcgloss1", "arp1"):
        value = losses.pairwise_loss(scores, rel, weighting=weighting)
        (grad,) = torch.autograd.grad(value, scores)
        assert value > 0 and grad[0, 0] < 0  # the tied pair (0, 1) counts: item 0 is pushed up
        flat = losses.pairwise_loss(scores, torch.ones(1, 3), weighting=weighting)
        (grad,) = torch.autograd.grad(flat, scores)
        assert flat.item() == 0.0 and (grad == 0).all()


def test_bad_options_and_callables_raise_clear_errors():
    s, rel = _lists(2, 4)
    with pytest.raises(ValueError, match=r"Expected `pair_loss` to be one of \('logistic', 'hinge', 'sigmoid'\)"):
        losses.pairwise_loss(s, rel, pair_loss="square")
    with pytest.raises(ValueError, match=r"Expected `weighting` to be one of \('uniform', 'lambdarank'"):
        losses.pairwise_loss(s, rel, weighting="ndcg")
    with pytest.raises(ValueError, match=r"Expected `weighting` to be one of \('lambdarank', 'ndcgloss1'"):
        losses.lambdarank_loss(s, rel, weighting="uniform")
    with pytest.raises(ValueError, match="`margin`"):
        losses.PairwiseHingeLoss(margin=0.0)
    with pytest.raises(ValueError, match="`sigma`"):
        losses.pairwise_soft_zero_one_loss(s, rel, sigma=-1.0)
    with pytest.raises(ValueError, match=r"`weighting` callable to return a tensor of shape \(2, 4, 4\), got "):
        losses.pairwise_loss(s, rel, weighting=lambda s, r, m: s)
    with pytest.raises(ValueError, match=r"`pair_loss` callable to return a tensor of the shape of its input"):
        losses.pairwise_loss(s, rel, pair_loss=lambda d: d.sum())


def test_module_forms():
    s, rel = _lists(3, 5)
    mask = torch.rand(3, 5, generator=GEN) > 0.2
    loss = losses.PairwiseLoss(pair_loss="sigmoid", weighting="ndcgloss2", sigma=2.0)
    assert repr(loss) == "PairwiseLoss(pair_loss='sigmoid', weighting='ndcgloss2', sigma=2.0)"
    assert loss(s, rel, mask) == losses.pairwise_loss(s, rel, mask=mask, pair_loss="sigmoid", weighting="ndcgloss2",
                                                      sigma=2.0)
    assert losses.PairwiseHingeLoss(margin=0.3)(s, rel) == losses.pairwise_hinge_loss(s, rel, margin=0.3)
    partial_fn = partial(losses.pairwise_soft_zero_one_loss, sigma=3.0)
    assert losses.PairwiseSoftZeroOneLoss(sigma=3.0)(s, rel, mask) == partial_fn(s, rel, mask=mask)
