"""The losses against the exact metrics of torchmetrics_lite.functional: limits, LambdaRank's weights, training."""
from functools import partial

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import losses
from torchmetrics_lite.functional import (
    binary_auroc,
    binary_average_precision,
    binary_fbeta_score,
    multilabel_fbeta_score,
    retrieval_normalized_dcg,
)

GEN = torch.Generator().manual_seed(5)


def _lists(batch, n, dtype=torch.float64):
    scores = torch.randn(batch, n, generator=GEN, dtype=dtype)
    rel = torch.randint(0, 4, (batch, n), generator=GEN).to(dtype)
    rel[:, 0] = torch.randint(1, 4, (batch,), generator=GEN).to(dtype)  # every list has a relevant item
    return scores, rel


@pytest.mark.parametrize("k", [None, 1, 5])
@pytest.mark.parametrize("gain", ["exponential", "linear"])
def test_approx_ndcg_at_tiny_temperature_is_exact_ndcg(k, gain):
    scores, rel = _lists(20, 12)
    mask = torch.rand(20, 12, generator=GEN) > 0.2
    mask[:, 0] = True
    loss = losses.approx_ndcg_loss(scores, rel, mask=mask, temperature=1e-4, k=k, gain=gain, reduction="none")
    exact = retrieval_normalized_dcg(scores, rel, mask=mask, k=k, gain=gain, reduction="none")
    assert (loss - (1.0 - exact)).abs().max() < 1e-3


@pytest.mark.parametrize("k", [None, 1, 5])
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("ties", [False, True])  # True: tied scores, whose rows NeuralSort shares evenly
def test_neural_ndcg_at_tiny_temperature_is_exact_ndcg(k, transposed, ties):
    _, rel = _lists(20, 12)
    if ties:
        scores = torch.randint(0, 4, (20, 12), generator=GEN).double()  # many ties: the metric averages their gains
    else:  # distinct scores at least 1 apart (randn has near-ties that a finite temperature still blends)
        scores = torch.argsort(torch.rand(20, 12, generator=GEN), dim=-1).double() * 0.5
    mask = torch.rand(20, 12, generator=GEN) > 0.2
    mask[:, 0] = True
    loss = losses.neural_ndcg_loss(scores, rel, mask=mask, temperature=1e-4, k=k, transposed=transposed,
                                   reduction="none")
    exact = retrieval_normalized_dcg(scores, rel, mask=mask, k=k, ties="average",  # both defaults: linear gain
                                     reduction="none")
    assert (loss - (1.0 - exact)).abs().max() < 1e-6


def test_smooth_ap_at_tiny_temperature_is_exact_average_precision():
    scores = torch.randn(8, 40, generator=GEN, dtype=torch.float64)
    target = torch.rand(8, 40, generator=GEN) < 0.3
    target[:, 0] = True
    mask = torch.rand(8, 40, generator=GEN) > 0.1
    mask[:, 0] = True
    loss = losses.smooth_ap_loss(scores, target, mask=mask, temperature=1e-6, reduction="none")
    exact = torch.stack([binary_average_precision(scores[b][mask[b]], target[b][mask[b]]) for b in range(8)])
    assert (loss - (1.0 - exact)).abs().max() < 1e-9


@pytest.mark.parametrize("max_fpr", [0.1, 0.25, 1.0])
def test_sigmoid_partial_auc_at_tiny_temperature_is_the_normalised_partial_auroc(max_fpr):
    """binary_auroc(max_fpr) is McClish-standardised: 1/2 (1 + (A - m) / (M - m)) with m = max_fpr^2 / 2,
    M = max_fpr; the raw area A divided by max_fpr is the fraction of (positive, top negative) pairs in order."""
    n_neg, n_pos = 200, 60  # max_fpr * n_neg is an integer: the ROC curve has a vertex at max_fpr
    scores = torch.randn(n_neg + n_pos, generator=GEN, dtype=torch.float64)
    target = torch.cat([torch.zeros(n_neg), torch.ones(n_pos)]).long()
    scores[target == 1] += 1.0
    loss = losses.partial_auc_loss(scores, target, max_fpr=max_fpr, surrogate="sigmoid", temperature=1e-7)
    standard = binary_auroc(scores, target, max_fpr=None if max_fpr == 1.0 else max_fpr).item()
    lo, hi = max_fpr ** 2 / 2, max_fpr
    area = lo + (2 * standard - 1) * (hi - lo) if max_fpr < 1.0 else standard
    assert abs((1.0 - loss.item()) - area / max_fpr) < 1e-9


@settings(deadline=None, max_examples=60)
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=30),
       st.sampled_from([0.5, 1.0, 2.0]))
def test_soft_fbeta_on_hard_predictions_is_one_minus_the_exact_fbeta(pairs, beta):
    preds = torch.tensor([float(p) for p, _ in pairs], dtype=torch.float64)
    target = torch.tensor([int(t) for _, t in pairs])
    loss = losses.soft_fbeta_loss(preds, target, beta=beta)
    assert abs(loss.item() - (1.0 - binary_fbeta_score(preds, target, beta=beta).item())) < 1e-12


@settings(deadline=None, max_examples=40)
@given(st.integers(1, 12), st.integers(1, 5), st.integers(0, 2 ** 31 - 1), st.sampled_from([0.5, 1.0, 3.0]))
def test_soft_fbeta_multilabel_hard_predictions_is_one_minus_macro_fbeta(n, labels, seed, beta):
    g = torch.Generator().manual_seed(seed)
    preds = (torch.rand(n, labels, generator=g) < 0.5).double()
    target = (torch.rand(n, labels, generator=g) < 0.4).long()
    loss = losses.soft_fbeta_loss(preds, target, beta=beta)
    exact = multilabel_fbeta_score(preds, target, beta, labels, average="macro")
    assert abs(loss.item() - (1.0 - exact.item())) < 1e-12


@pytest.mark.parametrize("k", [None, 3])
def test_lambdarank_weights_are_the_metric_change_of_each_swap(k):
    """The lambdas rebuilt from the exact metric: |NDCG@k(swap i, j) - NDCG@k| for every pair, each swap
    evaluated by retrieval_normalized_dcg."""
    b, n, sigma = 3, 6, 1.0
    scores, rel = _lists(b, n)
    swapped = scores[:, None, None, :].repeat(1, n, n, 1)  # (b, i, j, n): scores with s_i and s_j exchanged
    ii, jj = torch.meshgrid(torch.arange(n), torch.arange(n), indexing="ij")
    bi = torch.arange(b)[:, None, None]
    swapped[bi, ii, jj, ii], swapped[bi, ii, jj, jj] = scores[bi, jj], scores[bi, ii]
    metric = partial(retrieval_normalized_dcg, k=k, ties="order", reduction="none")  # default gains agree
    base = metric(scores, rel)
    swapped_values = metric(swapped.reshape(-1, n), rel.repeat_interleave(n * n, 0)).reshape(b, n, n)
    delta = (swapped_values - base[:, None, None]).abs()
    w = delta * (rel[:, :, None] > rel[:, None, :])
    p = w * torch.sigmoid(-sigma * (scores[:, :, None] - scores[:, None, :]))
    expected = sigma * (p.sum(1) - p.sum(2))
    s = scores.clone().requires_grad_(True)
    losses.lambdarank_loss(s, rel, k=k, sigma=sigma, reduction="sum").backward()
    torch.testing.assert_close(s.grad, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("grid", [False, True])  # True: tied scores, which AUROC counts as 1/2
def test_sigmoid_soft_auc_at_tiny_temperature_is_one_minus_auroc(grid):
    n = 500
    if grid:
        scores = torch.randint(-20, 21, (n,), generator=GEN).double() / 10
    else:
        scores = torch.randn(n, generator=GEN).double()
    target = (torch.rand(n, generator=GEN) < 0.5 * torch.sigmoid(scores)).long()
    loss = losses.soft_auc_loss(scores, target, surrogate="sigmoid", temperature=1e-6)
    assert abs(loss.item() - (1.0 - binary_auroc(scores, target).item())) < 1e-3


# ---------------------------------------------------------------------------------------------- training


def _ltr_set(gen, queries, n=30, features=12):
    w = torch.randn(features, generator=torch.Generator().manual_seed(0))  # the hidden model
    x = torch.randn(queries, n, features, generator=gen)
    y = (x @ w) / w.norm() + 0.5 * torch.randn(queries, n, generator=gen)
    return x, torch.bucketize(y, torch.tensor([0.5, 1.0, 1.5, 2.0])).float()  # grades 0..4


RANKING = {
    "ranknet": losses.ranknet_loss,
    "lambdarank@10": partial(losses.lambdarank_loss, k=10),
    "ndcgloss2pp@10": partial(losses.lambdarank_loss, k=10, weighting="ndcgloss2pp"),
    "approx_ndcg@10": partial(losses.approx_ndcg_loss, k=10),
    "listnet": losses.listnet_loss,
    "neural_ndcg@10": partial(losses.neural_ndcg_loss, k=10, sinkhorn_iters=20),
    "listmle": losses.listmle_loss,
    "softmax": losses.softmax_loss,
}


@pytest.mark.parametrize("name", sorted(RANKING))
def test_training_a_linear_ranker_raises_held_out_ndcg(name):
    gen = torch.Generator().manual_seed(1)
    (x_train, r_train), (x_test, r_test) = _ltr_set(gen, 80), _ltr_set(gen, 60)
    torch.manual_seed(0)
    model = torch.nn.Linear(x_train.shape[-1], 1)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)

    def held_out():
        with torch.no_grad():
            return retrieval_normalized_dcg(model(x_test).squeeze(-1), r_test, k=10).item()

    before = held_out()
    for _ in range(40):
        opt.zero_grad()
        RANKING[name](model(x_train).squeeze(-1), r_train).backward()
        opt.step()
    after = held_out()
    assert after > before + 0.2 and after > 0.75, (before, after)


def _imbalanced_breast_cancer(seed):
    from sklearn.datasets import load_breast_cancer

    x, y = load_breast_cancer(return_X_y=True)
    y = 1 - y  # malignant is the (rare) positive class
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    keep = np.concatenate([rng.choice(pos, round(0.05 / 0.95 * len(neg)), replace=False), neg])  # 5% positives
    rng.shuffle(keep)
    x, y = x[keep], y[keep]
    p, n = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    train = np.concatenate([p[: len(p) // 2], n[: len(n) // 2]])
    test = np.setdiff1d(np.arange(len(y)), train)
    mu, sd = x[train].mean(0), x[train].std(0)

    def t(rows):
        return torch.tensor((x[rows] - mu) / sd, dtype=torch.float32), torch.tensor(y[rows])

    return t(train), t(test)


AUC_LOSSES = ["sigmoid", "logistic", "squared_hinge", "hinge", "aucm"]


@pytest.mark.parametrize("name", AUC_LOSSES)
def test_auc_losses_reach_high_held_out_auroc_on_imbalanced_data(name):
    (x_train, y_train), (x_test, y_test) = _imbalanced_breast_cancer(seed=0)
    assert 0.04 < y_train.float().mean().item() < 0.06
    torch.manual_seed(0)
    model = torch.nn.Linear(x_train.shape[1], 1)
    if name == "aucm":
        aucm = losses.AUCMLoss(imratio=y_train.float().mean().item())
        params, lr = list(model.parameters()) + list(aucm.parameters()), 1.0

        def loss_fn(s, y):
            return aucm(torch.sigmoid(s), y)
    else:
        params, lr, loss_fn = list(model.parameters()), 0.1, partial(losses.soft_auc_loss, surrogate=name)
    opt = torch.optim.SGD(params, lr=lr)
    before = binary_auroc(model(x_test).squeeze(-1).detach(), y_test).item()
    for _ in range(200):
        opt.zero_grad()
        loss_fn(model(x_train).squeeze(-1), y_train).backward()
        opt.step()
    after = binary_auroc(model(x_test).squeeze(-1).detach(), y_test).item()
    assert after >= 0.95 and after > before, (before, after)
