"""soft_auc_loss against the brute-force pair mean; AUC-M against its hand formula and its saddle point."""
import math
from functools import partial

import numpy as np
import pytest
import torch

import losses
from tests.helpers import loss_oracles as O

GEN = torch.Generator().manual_seed(11)

PAIR_FNS = {
    "sigmoid": lambda d, m, t: O.sigmoid(-d / t),
    "logistic": lambda d, m, t: O.softplus(-d / t),
    "squared_hinge": lambda d, m, t: max(0.0, m - d) ** 2,
    "hinge": lambda d, m, t: max(0.0, m - d),
}


def _data(n, p=0.3, dtype=torch.float64, grid=False):
    if grid:
        scores = torch.randint(-8, 9, (n,), generator=GEN).to(dtype) / 4
    else:
        scores = torch.randn(n, generator=GEN, dtype=dtype)
    return scores, (torch.rand(n, generator=GEN) < p).long()


def _brute(scores, target, surrogate, margin=1.0, temperature=1.0):
    pos = [s for s, t in zip(scores.tolist(), target.tolist()) if t]
    neg = [s for s, t in zip(scores.tolist(), target.tolist()) if not t]
    return O.pair_mean(pos, neg, partial(PAIR_FNS[surrogate], m=margin, t=temperature))


@pytest.mark.parametrize("surrogate", sorted(PAIR_FNS))
@pytest.mark.parametrize("grid", [False, True])  # True: many ties, and pairs exactly on the margin
def test_values_against_brute_force_pair_mean(surrogate, grid):
    scores, target = _data(60, grid=grid)
    for margin, temperature, chunk in [(1.0, 1.0, None), (0.5, 0.3, 4), (0.0, 2.0, 1)]:
        got = losses.soft_auc_loss(scores, target, surrogate=surrogate, margin=margin, temperature=temperature,
                                   chunk_size=chunk)
        assert abs(got.item() - _brute(scores, target, surrogate, margin, temperature)) < 1e-9


@pytest.mark.parametrize("surrogate", ["squared_hinge", "hinge"])
def test_hinge_forms_match_the_pair_matrix_on_thousands_of_scores(surrogate):
    scores, target = _data(3000, p=0.2)
    scores = (scores * 3 + 50).requires_grad_(True)  # offset: prefix sums must not lose digits
    ref = scores.detach().clone().requires_grad_(True)
    pos, neg = target.bool(), ~target.bool()
    h = (1.0 - (ref[pos][:, None] - ref[neg][None, :])).clamp_min(0)
    expected = (h * h if surrogate == "squared_hinge" else h).mean()
    expected.backward()
    got = losses.soft_auc_loss(scores, target, surrogate=surrogate)
    got.backward()
    assert abs(got.item() - expected.item()) < 1e-9 * max(1.0, expected.item())
    torch.testing.assert_close(scores.grad, ref.grad, rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("surrogate", sorted(PAIR_FNS))
def test_gradcheck_float64(surrogate):
    scores, target = _data(14, p=0.4)
    target[:2] = torch.tensor([0, 1])
    scores.requires_grad_(True)
    fn = partial(losses.soft_auc_loss, target=target, surrogate=surrogate, margin=0.7, temperature=0.8, chunk_size=2)
    assert torch.autograd.gradcheck(lambda s: fn(s), (scores,))


@pytest.mark.parametrize("surrogate", sorted(PAIR_FNS))
def test_one_class_or_empty_gives_zero_without_nan(surrogate):
    for target in (torch.ones(5), torch.zeros(5)):
        scores = torch.randn(5, generator=GEN, requires_grad=True)
        out = losses.soft_auc_loss(scores, target, surrogate=surrogate)
        out.backward()
        assert out.item() == 0.0 and (scores.grad == 0).all()
        assert losses.soft_auc_loss(scores, target, surrogate=surrogate, num_pairs=10).item() == 0.0
    assert losses.soft_auc_loss(torch.zeros(0), torch.zeros(0), surrogate=surrogate).item() == 0.0


@pytest.mark.parametrize("surrogate", ["logistic", "squared_hinge", "hinge"])
def test_huge_gaps_in_float32_keep_finite_nonzero_gradients(surrogate):
    scores = torch.tensor([-500.0, 500.0, 0.0], requires_grad=True)  # the positive is ranked last
    out = losses.soft_auc_loss(scores, torch.tensor([1, 0, 0]), surrogate=surrogate)
    out.backward()
    assert torch.isfinite(out) and torch.isfinite(scores.grad).all()
    assert scores.grad[0] < 0 and scores.grad[1] > 0


def test_pair_sampling_is_opt_in_reproducible_and_unbiased():
    scores, target = _data(80, p=0.3)
    exact = losses.soft_auc_loss(scores, target, surrogate="sigmoid").item()
    draw = partial(losses.soft_auc_loss, scores, target, surrogate="sigmoid", num_pairs=200_000)
    a = draw(generator=torch.Generator().manual_seed(3))
    assert a.item() == draw(generator=torch.Generator().manual_seed(3)).item()
    assert abs(a.item() - exact) < 5 * 0.5 / math.sqrt(200_000)  # 5 standard errors of a mean of values in [0, 1]


def test_shapes_dtypes_and_module():
    scores, target = _data(24)
    ref = losses.soft_auc_loss(scores, target, surrogate="logistic")
    torch.testing.assert_close(losses.soft_auc_loss(scores.reshape(4, 6), target.bool().reshape(4, 6),
                                                    surrogate="logistic"), ref)
    torch.testing.assert_close(losses.soft_auc_loss(scores, target.double(), surrogate="logistic"), ref)
    assert losses.soft_auc_loss(scores.float(), target).dtype == torch.float32
    half = scores.bfloat16().requires_grad_(True)
    losses.soft_auc_loss(half, target, surrogate="squared_hinge").backward()
    assert half.grad.dtype == torch.bfloat16
    module = losses.SoftAUCLoss(surrogate="logistic")
    assert module(scores, target).item() == ref.item() and "logistic" in repr(module)


# ------------------------------------------------------------------------------------------------- AUC-M


def _aucm_by_hand(h, y, a, b, alpha, m, p):
    hp, hn = h[y == 1], h[y == 0]
    return p * (1 - p) * (np.mean((hp - a) ** 2) + np.mean((hn - b) ** 2)
                          + 2 * alpha * (m - hp.mean() + hn.mean()) - alpha ** 2)


def test_aucm_value_uses_per_class_means():
    h = torch.rand(40, generator=GEN, dtype=torch.float64)
    y = (torch.rand(40, generator=GEN) < 0.15).long()
    y[:2] = torch.tensor([1, 0])
    args = (torch.tensor(0.6, dtype=torch.float64), torch.tensor(0.2, dtype=torch.float64),
            torch.tensor(0.3, dtype=torch.float64))
    got = losses.aucm_loss(h, y, *args, margin=0.8, imratio=0.05)
    expected = _aucm_by_hand(h.numpy(), y.numpy(), 0.6, 0.2, 0.3, 0.8, 0.05)
    assert abs(got.item() - expected) < 1e-12
    batch_p = y.double().mean().item()
    got = losses.aucm_loss(h, y, *args, margin=0.8)
    assert abs(got.item() - _aucm_by_hand(h.numpy(), y.numpy(), 0.6, 0.2, 0.3, 0.8, batch_p)) < 1e-12


def test_aucm_saddle_point_has_zero_gradient_and_the_closed_form_value():
    h = torch.rand(30, generator=GEN, dtype=torch.float64)
    y = torch.tensor([1] * 6 + [0] * 24)
    hp, hn = h[:6], h[6:]
    a = hp.mean().clone().requires_grad_(True)
    b = hn.mean().clone().requires_grad_(True)
    alpha = (1.0 - hp.mean() + hn.mean()).clamp_min(0).clone().requires_grad_(True)
    out = losses.aucm_loss(h, y, a, b, alpha, imratio=0.2)
    out.backward()
    for t in (a, b, alpha):
        assert abs(t.grad.item()) < 1e-12
    closed = 0.16 * (hp.var(unbiased=False) + hn.var(unbiased=False) + (1 - hp.mean() + hn.mean()).clamp_min(0) ** 2)
    assert abs(out.item() - closed.item()) < 1e-12


def test_aucm_gradcheck_float64():
    h = torch.rand(12, generator=GEN, dtype=torch.float64, requires_grad=True)
    y = torch.tensor([1, 0] * 6)
    params = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (0.5, 0.1, 0.4)]
    assert torch.autograd.gradcheck(lambda *t: losses.aucm_loss(t[0], y, *t[1:], imratio=0.3), (h, *params))


@pytest.mark.parametrize("y", [[0, 0, 0], [1, 1, 1], []])
def test_aucm_batches_without_a_class_give_no_nan(y):
    y = torch.tensor(y, dtype=torch.long)
    h = torch.rand(len(y), generator=GEN, requires_grad=True)
    loss_fn = losses.AUCMLoss(imratio=0.1)
    out = loss_fn(h, y)
    out.backward()
    grads = [h.grad] + [p.grad for p in loss_fn.parameters()]
    assert torch.isfinite(out) and all(g is None or torch.isfinite(g).all() for g in grads)
    assert loss_fn.alpha.grad.item() == 0.0


def test_aucm_module_ascends_on_alpha_projects_it_and_keeps_imratio():
    loss_fn = losses.AUCMLoss(imratio=0.05, margin=1.0)
    h = torch.tensor([0.9, 0.2, 0.1, 0.3], requires_grad=True)
    y = torch.tensor([1, 0, 0, 0])
    loss_fn(h, y).backward()
    # d loss / d alpha = p(1-p) (2 gap - 2 alpha) at alpha = 0 with gap = 1 - 0.9 + 0.2; the module negates it
    assert abs(loss_fn.alpha.grad.item() + 0.05 * 0.95 * 2 * 0.3) < 1e-7
    opt = torch.optim.SGD(loss_fn.parameters(), lr=1.0)
    opt.step()
    assert loss_fn.alpha.item() > 0  # ascent
    with torch.no_grad():
        loss_fn.alpha.fill_(-2.0)
    loss_fn(h, y)
    assert loss_fn.alpha.item() == 0.0 and loss_fn.imratio == 0.05
    assert set(loss_fn.state_dict()) == {"a", "b", "alpha", "n_pos", "n_seen"}


def test_aucm_running_imratio_when_not_given():
    loss_fn = losses.AUCMLoss()
    h, y1, y2 = torch.rand(4, generator=GEN), torch.tensor([1, 0, 0, 0]), torch.tensor([1, 1, 0, 0])
    loss_fn(h, y1)
    out = loss_fn(h, y2)  # running ratio 3/8
    expected = losses.aucm_loss(h, y2, loss_fn.a, loss_fn.b, loss_fn.alpha, imratio=3 / 8)
    assert abs(out.item() - expected.item()) < 1e-7 and loss_fn.imratio is None
    loss_fn.eval()
    loss_fn(h, torch.tensor([1, 1, 1, 0]))
    assert (loss_fn.n_pos.item(), loss_fn.n_seen.item()) == (3, 8)



def test_aucm_rejected_batch_leaves_the_running_imratio():
    """The running counts were updated before the inputs were checked: a rejected batch still moved imratio."""
    loss_fn = losses.AUCMLoss()
    loss_fn(torch.rand(4, generator=GEN), torch.tensor([1, 0, 0, 0]))
    for preds, target in [(torch.rand(4), torch.tensor([0, 2, 1, 1])), (torch.rand(4), torch.tensor([0, 1, 1])),
                          (torch.arange(4), torch.tensor([0, 1, 1, 0]))]:
        with pytest.raises((ValueError, TypeError)):
            loss_fn(preds, target)
        assert (loss_fn.n_pos.item(), loss_fn.n_seen.item()) == (1, 4)


def test_aucm_running_imratio_with_half_precision_predictions():
    """The running ratio was formed in the predictions' dtype: float16 counts overflow past 65504 samples, so the
    ratio became 0 (or NaN) and the loss 0."""
    h = torch.rand(70000, generator=GEN)
    y = (torch.rand(70000, generator=GEN) < 0.1).long()
    loss_fn = losses.AUCMLoss()
    with torch.no_grad():
        loss_fn.a.fill_(0.5), loss_fn.alpha.fill_(0.3)
    out = loss_fn(h.half(), y)
    expected = losses.aucm_loss(h.half().float(), y, loss_fn.a, loss_fn.b, loss_fn.alpha,
                                imratio=y.sum().item() / y.numel())
    assert expected.item() > 0.01 and abs(out.item() - expected.item()) < 1e-6


# ------------------------------------------------------------------------------------------ partial AUC


def _brute_partial(scores, target, max_fpr, surrogate, margin=1.0, temperature=1.0):
    pos = [v for v, t in zip(scores.tolist(), target.tolist()) if t]
    neg = sorted((v for v, t in zip(scores.tolist(), target.tolist()) if not t), reverse=True)
    top = neg[: math.ceil(max_fpr * len(neg))]
    return O.pair_mean(pos, top, partial(PAIR_FNS[surrogate], m=margin, t=temperature))


@pytest.mark.parametrize("surrogate", ["squared_hinge", "sigmoid"])
@pytest.mark.parametrize("grid", [False, True])  # True: ties, also at the cut among the negatives
def test_partial_auc_against_brute_force_top_negatives(surrogate, grid):
    scores, target = _data(70, grid=grid)
    for max_fpr, margin, temperature, chunk in [(0.1, 1.0, 1.0, None), (0.33, 0.5, 0.3, 3), (1.0, 0.0, 2.0, 1)]:
        got = losses.partial_auc_loss(scores, target, max_fpr=max_fpr, surrogate=surrogate, margin=margin,
                                      temperature=temperature, chunk_size=chunk)
        assert abs(got.item() - _brute_partial(scores, target, max_fpr, surrogate, margin, temperature)) < 1e-9
    full = losses.soft_auc_loss(scores, target, surrogate=surrogate)
    assert losses.partial_auc_loss(scores, target, max_fpr=1.0, surrogate=surrogate).item() == full.item()


@pytest.mark.parametrize("surrogate", ["squared_hinge", "sigmoid"])
def test_partial_auc_gradcheck_and_only_the_selected_negatives_get_a_gradient(surrogate):
    scores, target = _data(16, p=0.4)
    target[:2] = torch.tensor([0, 1])
    scores.requires_grad_(True)
    fn = partial(losses.partial_auc_loss, target=target, max_fpr=0.3, surrogate=surrogate, temperature=0.7)
    assert torch.autograd.gradcheck(lambda s: fn(s), (scores,))
    fn(scores).backward()
    neg = scores.detach()[target == 0]
    cut = torch.sort(neg, descending=True).values[math.ceil(0.3 * len(neg)) - 1]
    below = (target == 0) & (scores.detach() < cut)
    assert below.any() and (scores.grad[below] == 0).all()


@pytest.mark.parametrize("target", [[1, 1, 1], [0, 0, 0], []])
@pytest.mark.parametrize("surrogate", ["squared_hinge", "sigmoid"])
def test_partial_auc_one_class_or_empty_has_nothing_to_learn(target, surrogate):
    target = torch.tensor(target)
    scores = torch.randn(len(target), generator=GEN, requires_grad=True)
    out = losses.partial_auc_loss(scores, target, max_fpr=0.5, surrogate=surrogate)
    out.backward()
    assert out.item() == 0.0 and (scores.grad == 0).all()


def test_partial_auc_module():
    scores, target = _data(30)
    module = losses.PartialAUCLoss(max_fpr=0.2, surrogate="sigmoid", temperature=0.5)
    expected = losses.partial_auc_loss(scores, target, max_fpr=0.2, surrogate="sigmoid", temperature=0.5)
    assert module(scores, target).item() == expected.item() and "max_fpr=0.2" in repr(module)


# ------------------------------------------------------------------------------------------- soft F-beta


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_soft_fbeta_against_brute_force_soft_counts(beta):
    p = torch.rand(25, 4, generator=GEN, dtype=torch.float64)
    y = (torch.rand(25, 4, generator=GEN) < 0.4).long()
    per_label = [O.soft_fbeta(p[:, j].tolist(), y[:, j].tolist(), beta) for j in range(4)]
    got = losses.soft_fbeta_loss(p, y, beta=beta, reduction="none")
    torch.testing.assert_close(got, torch.tensor(per_label, dtype=torch.float64), rtol=1e-12, atol=1e-14)
    assert abs(losses.soft_fbeta_loss(p, y, beta=beta).item() - sum(per_label) / 4) < 1e-12
    assert abs(losses.soft_fbeta_loss(p, y, beta=beta, reduction="sum").item() - sum(per_label)) < 1e-12
    assert abs(losses.soft_fbeta_loss(p[:, 1], y[:, 1], beta=beta).item() - per_label[1]) < 1e-12


def test_soft_fbeta_gradcheck_float64():
    p = torch.rand(12, 3, generator=GEN, dtype=torch.float64).clamp(0.05, 0.95).requires_grad_(True)
    y = (torch.rand(12, 3, generator=GEN) < 0.5).long()
    y[0] = 1
    assert torch.autograd.gradcheck(lambda q: losses.soft_fbeta_loss(q, y, beta=1.5, reduction="none"), (p,))


def test_soft_fbeta_label_without_positives_has_nothing_to_learn():
    p = torch.tensor([[0.2, 0.7], [0.0, 0.4], [0.9, 0.1]], requires_grad=True)
    y = torch.tensor([[0, 1], [0, 0], [0, 1]])
    out = losses.soft_fbeta_loss(p, y, reduction="none")
    out.sum().backward()
    assert out[0].item() == 1.0 and (p.grad[:, 0] == 0).all() and (p.grad[:, 1] != 0).all()
    zero = torch.zeros(3, requires_grad=True)  # nothing predicted, nothing to find: 0/0 counts as F = 0
    out = losses.soft_fbeta_loss(zero, torch.zeros(3))
    out.backward()
    assert out.item() == 1.0 and (zero.grad == 0).all()


def test_soft_fbeta_module_and_dtypes():
    p = torch.rand(10, 3, generator=GEN)
    y = torch.rand(10, 3, generator=GEN) < 0.5
    module = losses.SoftFBetaLoss(beta=2.0, reduction="sum")
    assert module(p, y).item() == losses.soft_fbeta_loss(p, y.float(), beta=2.0, reduction="sum").item()
    assert "beta=2.0" in repr(module)
    half = p.bfloat16().requires_grad_(True)
    losses.soft_fbeta_loss(half, y).backward()
    assert half.grad.dtype == torch.bfloat16


# ------------------------------------------------------------------------------- one class: nothing to learn


@pytest.mark.parametrize("y", [[0, 0, 0], [1, 1, 1]])
def test_aucm_one_class_batch_gives_zero_and_zero_gradients(y):
    """With one class there is no pair: AUC-M used to pull the predictions towards ``a`` (or ``b``) anyway."""
    h = torch.rand(3, generator=GEN, requires_grad=True)
    loss_fn = losses.AUCMLoss(imratio=0.1)
    with torch.no_grad():
        loss_fn.a.fill_(0.9), loss_fn.b.fill_(0.1), loss_fn.alpha.fill_(0.5)
    out = loss_fn(h, torch.tensor(y))
    out.backward()
    assert out.item() == 0.0 and (h.grad == 0).all()
    assert all(p.grad is None or (p.grad == 0).all() for p in loss_fn.parameters())


BAD = [
    (lambda: losses.soft_auc_loss(torch.ones(3), torch.ones(2)), ValueError,
     r"`scores` and `target` to have the same shape, got \(3,\) and \(2,\)"),
    (lambda: losses.soft_auc_loss(torch.ones(2, dtype=torch.int32), torch.ones(2)), TypeError,
     r"`scores` to have a floating dtype, got torch.int32"),
    (lambda: losses.soft_auc_loss(torch.ones(2), [1, 0]), TypeError, r"`target` to be a torch.Tensor, got list"),
    (lambda: losses.soft_auc_loss(torch.ones(2), torch.tensor([2, 0])), ValueError,
     r"`target` to hold only 0 and 1, got value 2"),
    (lambda: losses.soft_auc_loss(torch.ones(2), torch.ones(2, dtype=torch.complex64)), TypeError,
     r"`target` to have a real dtype"),
    (lambda: losses.SoftAUCLoss(surrogate="exp"), ValueError, r"`surrogate` to be one of \('sigmoid', 'logistic'"),
    (lambda: losses.SoftAUCLoss(margin=-1.0), ValueError, r"`margin` to be a number in \[0"),
    (lambda: losses.SoftAUCLoss(temperature=0.0), ValueError, r"`temperature` to be a number in \(0"),
    (lambda: losses.SoftAUCLoss(num_pairs=0), ValueError, r"`num_pairs` to be a positive int or None, got 0"),
    (lambda: losses.SoftAUCLoss(chunk_size=-3), ValueError, r"`chunk_size` to be a positive int or None, got -3"),
    (lambda: losses.AUCMLoss(imratio=1.0), ValueError, r"`imratio` to be a number in \(0.0, 1.0\), got 1.0"),
    (lambda: losses.AUCMLoss(margin=-0.5), ValueError, r"`margin` to be a number in \[0"),
    (lambda: losses.AUCMLoss()(torch.ones(2), torch.tensor([0, 3])), ValueError,
     r"`target` to hold only 0 and 1, got value 3"),
    (lambda: losses.AUCMLoss()(torch.ones(2, dtype=torch.int64), torch.tensor([0, 1])), TypeError,
     r"`preds` to have a floating dtype, got torch.int64"),
    (lambda: losses.aucm_loss(torch.ones(2), torch.ones(3), *torch.zeros(3)), ValueError,
     r"`preds` and `target` to have the same shape"),
    (lambda: losses.partial_auc_loss(torch.ones(2), torch.tensor([0, 1]), max_fpr=0.0), ValueError,
     r"`max_fpr` to be a number in \(0.0, 1.0\], got 0.0"),
    (lambda: losses.PartialAUCLoss(max_fpr=1.5), ValueError, r"`max_fpr` to be a number in \(0.0, 1.0\], got 1.5"),
    (lambda: losses.PartialAUCLoss(max_fpr=0.1, surrogate="hinge"), ValueError,
     r"`surrogate` to be one of \('squared_hinge', 'sigmoid'\), got 'hinge'"),
    (lambda: losses.PartialAUCLoss(max_fpr=0.1, temperature=0), ValueError, r"`temperature` to be a number in \(0"),
    (lambda: losses.partial_auc_loss(torch.ones(2), torch.tensor([0, 5]), max_fpr=0.5), ValueError,
     r"`target` to hold only 0 and 1, got value 5"),
    (lambda: losses.partial_auc_loss(torch.ones(2, dtype=torch.int64), torch.tensor([0, 1]), max_fpr=0.5), TypeError,
     r"`scores` to have a floating dtype, got torch.int64"),
    (lambda: losses.soft_fbeta_loss(torch.tensor([0.5, 1.5]), torch.tensor([0, 1])), ValueError,
     r"`preds` to lie in \[0.0, 1.0\], got values in \[0.5, 1.5\] \(probabilities"),
    (lambda: losses.soft_fbeta_loss(torch.ones(2, 2, 2), torch.ones(2, 2, 2)), ValueError,
     r"`preds` to be 1-D \(binary\) or 2-D \(samples, labels\), got shape \(2, 2, 2\)"),
    (lambda: losses.SoftFBetaLoss(beta=0.0), ValueError, r"`beta` to be a number in \(0.0, inf\), got 0.0"),
    (lambda: losses.soft_fbeta_loss(torch.ones(2), torch.tensor([0, 2])), ValueError,
     r"`target` to hold only 0 and 1, got value 2"),
    (lambda: losses.soft_fbeta_loss(torch.ones(2), torch.ones(3)), ValueError,
     r"`preds` and `target` to have the same shape, got \(2,\) and \(3,\)"),
    (lambda: losses.SoftFBetaLoss(reduction="macro"), ValueError,
     r"`reduction` to be one of \('mean', 'sum', 'none'\)"),
]


@pytest.mark.parametrize("call,exc,match", BAD)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
