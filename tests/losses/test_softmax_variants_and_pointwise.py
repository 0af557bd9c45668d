"""Unique / poly-1 softmax, Gumbel ApproxNDCG, NeuralSort cross-entropy, the pointwise baselines (sigmoid CE, MSE,
ordinal) and InfoNCE against per-list brute force in Python, the anchors' published examples, and the exact
metrics they approach."""
import math
from functools import partial

import pytest
import torch
import torch.nn.functional as F

import losses
from tests.helpers import loss_oracles as O
from torchmetrics_lite.functional import retrieval_normalized_dcg

GEN = torch.Generator().manual_seed(23)


def _lists(batch, n, grades=4):
    return (torch.randn(batch, n, generator=GEN, dtype=torch.float64),
            torch.randint(0, grades + 1, (batch, n), generator=GEN).double())


def unique_softmax(s, r):
    if len(set(r)) < 2:
        return 0.0
    total = 0.0
    for i in range(len(s)):
        rest = sum(math.exp(s[j]) for j in range(len(s)) if r[j] < r[i])
        total += (2 ** r[i] - 1) * -math.log(math.exp(s[i]) / (math.exp(s[i]) + rest))
    return total


def poly1(s, r, eps):
    if len(set(r)) < 2 or sum(r) <= 0:
        return 0.0
    z = sum(math.exp(v) for v in s)
    p = [math.exp(v) / z for v in s]
    t = [v / sum(r) for v in r]
    return -sum(a * math.log(b) for a, b in zip(t, p)) + eps * (1 - sum(a * b for a, b in zip(t, p)))


def neural_sort_rows(x, temperature):
    n = len(x)
    spread = [sum(abs(x[j] - x[k]) for k in range(n)) for j in range(n)]
    rows = []
    for r in range(1, n + 1):
        logits = [((n + 1 - 2 * r) * x[j] - spread[j]) / temperature for j in range(n)]
        top = max(logits)
        e = [math.exp(v - top) for v in logits]
        rows.append([v / sum(e) for v in e])
    return rows


def neural_sort_ce(s, r, temperature):
    if len(set(r)) < 2:
        return 0.0
    p, q = neural_sort_rows(r, temperature), neural_sort_rows(s, temperature)
    return sum(-sum(a * math.log(b) for a, b in zip(pr, qr)) for pr, qr in zip(p, q)) / len(s)


def ordinal(z, r):
    """allRank's formula on probabilities sigmoid(z): the sum over thresholds of BCE, mean over items."""
    total = 0.0
    for zi, ri in zip(z, r):
        for t, v in enumerate(zi, start=1):
            p = O.sigmoid(v)
            total += -(math.log(p) if ri >= t else math.log(1 - p))
    return total / len(r) if r else 0.0


CASES = {
    "unique_softmax": (losses.unique_softmax_loss, unique_softmax),
    "unique_softmax_linear": (partial(losses.unique_softmax_loss, gain="linear"),
                              lambda s, r: unique_softmax(s, [math.log2(1 + v) for v in r])),
    "poly1": (partial(losses.poly1_softmax_loss, epsilon=2.0), partial(poly1, eps=2.0)),
    "neural_sort_ce": (partial(losses.neural_sort_cross_entropy_loss, temperature=0.7),
                       partial(neural_sort_ce, temperature=0.7)),
    "mse": (losses.mean_squared_loss, lambda s, r: sum((a - b) ** 2 for a, b in zip(s, r)) / len(s) if s else 0.0),
    "sigmoid_ce": (lambda s, r, **kw: losses.sigmoid_cross_entropy_loss(s, r / 4, **kw),
                   lambda s, r: sum(-(b / 4 * math.log(O.sigmoid(a)) + (1 - b / 4) * math.log(1 - O.sigmoid(a)))
                                    for a, b in zip(s, r)) / len(s) if s else 0.0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_with_padding_against_brute_force(name):
    fn, oracle = CASES[name]
    scores, rel = _lists(6, 8)
    mask = torch.rand(6, 8, generator=GEN) > 0.25
    mask[:, 0] = True
    mask[5] = False  # an empty list
    padded = scores.clone()
    padded[~mask] = float("nan")
    x = padded.clone().requires_grad_()
    got = fn(x, rel, mask=mask, reduction="none")
    got.sum().backward()
    expected = torch.tensor([oracle(scores[b][mask[b]].tolist(), rel[b][mask[b]].tolist()) for b in range(6)],
                            dtype=torch.float64)
    torch.testing.assert_close(got, expected, rtol=1e-9, atol=1e-12)
    torch.testing.assert_close(fn(scores, rel, mask=mask), expected.mean(), rtol=1e-9, atol=1e-12)
    assert torch.isfinite(x.grad).all() and (x.grad[~mask] == 0).all()
    assert torch.autograd.gradcheck(lambda t: fn(t, rel, mask=mask, reduction="none"),
                                    (scores.clone().requires_grad_(),))


def test_anchor_examples():
    """TF-Ranking's documented values: UniqueSoftmaxLoss [[1, 0]] / [[0.6, 0.8]] is 0.7981389; on binary relevance
    with one relevant item unique softmax is the softmax loss times (2 - 1)."""
    assert abs(losses.unique_softmax_loss(torch.tensor([[0.6, 0.8]]), torch.tensor([[1.0, 0.0]])).item()
               - 0.7981389) < 1e-6
    s, y = torch.randn(5, 7, generator=GEN, dtype=torch.float64), torch.zeros(5, 7, dtype=torch.float64)
    y[:, 2] = 1
    torch.testing.assert_close(losses.unique_softmax_loss(s, y), losses.softmax_loss(s, y))
    torch.testing.assert_close(losses.poly1_softmax_loss(s, y, epsilon=0.0), losses.softmax_loss(s, y))


def test_neural_sort_ce_of_the_right_order_vanishes_at_tiny_temperature():
    rel = torch.argsort(torch.rand(4, 6, generator=GEN), dim=-1).double()  # distinct grades
    good = losses.neural_sort_cross_entropy_loss(rel * 2.0, rel, temperature=1e-3, reduction="none")
    bad = losses.neural_sort_cross_entropy_loss(-rel * 2.0, rel, temperature=1e-3, reduction="none")
    assert good.abs().max() < 1e-9 and (bad > 100).all()


def test_gumbel_approx_ndcg_is_approx_ndcg_of_the_perturbed_scores():
    scores, rel = _lists(4, 7)
    mask = torch.rand(4, 7, generator=GEN) > 0.2
    mask[:, :2] = True
    got = losses.gumbel_approx_ndcg_loss(scores, rel, mask=mask, sample_size=3, temperature=0.5, gumbel_temperature=2.0,
                                         reduction="none", generator=torch.Generator().manual_seed(4))
    u = torch.rand((3, 4, 7), generator=torch.Generator().manual_seed(4), dtype=torch.float64)
    g = -torch.log(-torch.log(u))
    approx = partial(O.approx_ndcg, temperature=0.5, k=None, kind="linear")
    expected = torch.tensor([sum(approx(((scores[b] + g[t, b]) / 2.0)[mask[b]].tolist(), rel[b][mask[b]].tolist())
                                 for t in range(3)) / 3 for b in range(4)], dtype=torch.float64)
    torch.testing.assert_close(got, expected, rtol=1e-9, atol=1e-12)


def test_gumbel_approx_ndcg_with_little_noise_and_tiny_temperature_is_exact_ndcg():
    scores = torch.argsort(torch.rand(6, 9, generator=GEN), dim=-1).double()  # distinct, 1 apart
    rel = torch.randint(0, 4, (6, 9), generator=GEN).double()
    rel[:, 0] = 3
    loss = losses.gumbel_approx_ndcg_loss(scores * 1e3, rel, temperature=1e-3, gumbel_temperature=1.0, k=5,
                                          reduction="none", generator=torch.Generator().manual_seed(0))
    exact = retrieval_normalized_dcg(scores, rel, k=5, reduction="none")
    assert (loss - (1 - exact)).abs().max() < 1e-6


def test_ordinal_against_the_formula_and_bad_grades():
    z = torch.randn(3, 5, 4, generator=GEN, dtype=torch.float64)
    rel = torch.randint(0, 5, (3, 5), generator=GEN).double()
    mask = torch.rand(3, 5, generator=GEN) > 0.3
    mask[:, 0] = True
    got = losses.ordinal_loss(z, rel, mask=mask, reduction="none")
    expected = torch.tensor([ordinal(z[b][mask[b]].tolist(), rel[b][mask[b]].tolist()) for b in range(3)],
                            dtype=torch.float64)
    torch.testing.assert_close(got, expected, rtol=1e-10, atol=1e-12)
    zz = z.clone().requires_grad_()
    losses.OrdinalLoss()(zz, rel, mask).backward()
    assert (zz.grad[~mask] == 0).all()
    assert torch.autograd.gradcheck(lambda t: losses.ordinal_loss(t, rel, mask=mask), (z.clone().requires_grad_(),))
    with pytest.raises(ValueError, match=r"integer grades in 0\.\.4 .* got 5\.0"):
        losses.ordinal_loss(z, torch.full((3, 5), 5.0))
    with pytest.raises(ValueError, match=r"`relevance` to have shape \(3, 5\)"):
        losses.ordinal_loss(z, rel[:, :4])
    with pytest.raises(ValueError, match=r"shape \(\.\.\., n, T\)"):
        losses.ordinal_loss(torch.zeros(4), torch.zeros(4))


def test_pointwise_losses_learn_from_lists_of_one_grade_and_check_their_targets():
    s = torch.tensor([[0.3, 2.0]], requires_grad=True)
    losses.mean_squared_loss(s, torch.ones(1, 2)).backward()
    assert (s.grad != 0).all()
    with pytest.raises(ValueError, match=r"`relevance` to lie in \[0, 1\] on real items .*got 3\.0"):
        losses.sigmoid_cross_entropy_loss(s, torch.tensor([[3.0, 0.0]]))
    with pytest.raises(ValueError, match=r"`relevance` to be finite and >= 0 on real items, got -1\.0"):
        losses.mean_squared_loss(s, torch.tensor([[-1.0, 0.0]]))


def test_info_nce_is_softmax_cross_entropy_over_the_similarity_matrix():
    q = torch.randn(6, 5, generator=GEN, dtype=torch.float64)
    d = torch.randn(9, 5, generator=GEN, dtype=torch.float64)  # 6 positives + 3 hard negatives
    sim = F.normalize(q, dim=-1) @ F.normalize(d, dim=-1).T
    ce = F.cross_entropy(sim / 0.1, torch.arange(6), reduction="none")
    torch.testing.assert_close(losses.info_nce_loss(q, d, temperature=0.1, reduction="none"), ce)
    torch.testing.assert_close(losses.info_nce_loss(sim, temperature=0.1), ce.mean())
    brute = torch.tensor([-math.log(math.exp(sim[i, i] / 0.1) / sum(math.exp(v / 0.1) for v in sim[i].tolist()))
                          for i in range(6)], dtype=torch.float64)
    torch.testing.assert_close(ce, brute)
    raw = q @ d.T
    torch.testing.assert_close(losses.InfoNCELoss(temperature=2.0, normalize=False)(q, d),
                               F.cross_entropy(raw / 2.0, torch.arange(6)))
    square = sim[:, :6]
    sym = losses.info_nce_loss(square, temperature=0.1, symmetric=True)
    torch.testing.assert_close(sym, 0.5 * (F.cross_entropy(square / 0.1, torch.arange(6))
                                           + F.cross_entropy(square.T / 0.1, torch.arange(6))))
    assert torch.autograd.gradcheck(lambda a, b: losses.info_nce_loss(a, b, temperature=0.5),
                                    (q.clone().requires_grad_(), d.clone().requires_grad_()))


def test_info_nce_mask_drops_false_negatives_with_zero_gradient_and_bad_inputs_raise():
    sim = torch.randn(4, 6, generator=GEN, dtype=torch.float64)
    mask = torch.ones(4, 6, dtype=torch.bool)
    mask[0, 3] = mask[2, 5] = False
    x = sim.clone().requires_grad_()
    out = losses.info_nce_loss(x, mask=mask, temperature=1.0, reduction="none")
    out.sum().backward()
    keep = [sim[i][mask[i]] for i in range(4)]
    pos = [int(mask[i, :i].sum()) for i in range(4)]
    expected = torch.stack([F.cross_entropy(keep[i][None], torch.tensor([pos[i]])) for i in range(4)])
    torch.testing.assert_close(out, expected)
    assert x.grad[0, 3] == 0 and x.grad[2, 5] == 0
    with pytest.raises(ValueError, match=r"`mask` to keep every positive"):
        losses.info_nce_loss(sim, mask=~torch.eye(4, 6, dtype=torch.bool))
    with pytest.raises(ValueError, match=r"`queries` \(B, d\) and `documents` \(D, d\) with D >= B"):
        losses.info_nce_loss(torch.zeros(4, 3), torch.zeros(2, 3))
    with pytest.raises(ValueError, match=r"similarity matrix `queries` of shape \(B, D\) with D >= B"):
        losses.info_nce_loss(torch.zeros(4, 3))
    with pytest.raises(TypeError, match=r"`queries` to have a floating dtype"):
        losses.info_nce_loss(torch.zeros(2, 2, dtype=torch.long))
    with pytest.raises(ValueError, match="`temperature`"):
        losses.InfoNCELoss(temperature=0.0)
    assert losses.info_nce_loss(torch.zeros(0, 3)).item() == 0.0
