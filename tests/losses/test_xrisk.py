"""The stateful X-risk losses against the dense update rules written pair by pair (values, gradients, state over
several steps), their exact resume from ``state_dict()``, their index checks, and the optimizers of losses.optim
against their update rules by hand."""
import copy
import math

import pytest
import torch

import losses
from losses._xrisk import row_squared_hinge
from losses.optim import PDSCA, PESG
from tests.helpers import xrisk_oracles as O

N = 60  # training-set size (range of index)


def _batches(steps=4, size=24, p=0.35, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(steps):
        idx = torch.randperm(N, generator=g)[:size]  # ids repeat across steps, never within one
        y = (torch.rand(size, generator=g) < p).long()
        y[0], y[1] = 1, 0
        s = torch.rand(size, generator=g, dtype=torch.float64)
        out.append((s, y, idx))
    return out


CASES = {  # name: (module factory, oracle, oracle's initial state)
    "soap": (lambda: losses.SOAPLoss(N, gamma=0.7), lambda s, y, i, st: O.soap(s, y, i, st, gamma=0.7),
             lambda: {"u_all": torch.zeros(N, dtype=torch.float64), "u_pos": torch.zeros(N, dtype=torch.float64)}),
    "soap_margin": (lambda: losses.SOAPLoss(N, margin=0.4), lambda s, y, i, st: O.soap(s, y, i, st, margin=0.4),
                    lambda: {"u_all": torch.zeros(N, dtype=torch.float64),
                             "u_pos": torch.zeros(N, dtype=torch.float64)}),
    "dro": (lambda: losses.PartialAUCDROLoss(N, temperature=0.5, gamma=0.8),
            lambda s, y, i, st: O.dro(s, y, i, st, gamma=0.8, temperature=0.5),
            lambda: {"u": torch.zeros(N, dtype=torch.float64)}),
    "cvar": (lambda: losses.PartialAUCCVaRLoss(N, max_fpr=0.3, eta=0.5),
             lambda s, y, i, st: O.cvar(s, y, i, st, max_fpr=0.3, eta=0.5),
             lambda: {"threshold": torch.zeros(N, dtype=torch.float64)}),
    "two_way": (lambda: losses.TwoWayPartialAUCLoss(N, tau=0.5, temperature=2.0, gamma_w=0.6),
                lambda s, y, i, st: O.two_way(s, y, i, st, tau=0.5, temperature=2.0, gamma_w=0.6),
                lambda: {"u": torch.zeros(N, dtype=torch.float64), "w": torch.zeros((), dtype=torch.float64)}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_gradients_and_state_follow_the_dense_update_rule(name):
    make, oracle, init = CASES[name]
    loss_fn, state = make().double(), init()
    for s, y, idx in _batches():
        s1, s2 = s.clone().requires_grad_(), s.clone().requires_grad_()
        got, want = loss_fn(s1, y, idx), oracle(s2, y, idx, state)
        got.backward()
        want.backward()
        torch.testing.assert_close(got, want, rtol=1e-9, atol=1e-12)
        torch.testing.assert_close(s1.grad, s2.grad, rtol=1e-9, atol=1e-12)
        for key, value in state.items():
            torch.testing.assert_close(getattr(loss_fn, key), value, rtol=1e-12, atol=1e-12)
    assert any(float(v.abs().sum()) > 0 for v in state.values())  # the state did move


@pytest.mark.parametrize("k", [None, 3])
def test_song_and_k_song_follow_the_update_rule_list_by_list(k):
    g = torch.Generator().manual_seed(5)
    loss_fn = losses.SONGNDCGLoss(40, 8, num_items=30, k=k, eta=0.3).double()
    state = {"u": torch.zeros(40, dtype=torch.float64), "threshold": torch.zeros(8, dtype=torch.float64)}
    for _ in range(3):
        rel = torch.randint(0, 3, (5, 7), generator=g)
        rel[-1] = 0  # a list without a relevant item
        q = torch.randperm(8, generator=g)[:5]
        idx = q[:, None] * 5 + torch.arange(7)[None, :].clamp_max(4)
        s = torch.rand(5, 7, generator=g, dtype=torch.float64)
        n_rel, idcg = torch.randint(1, 6, (5,), generator=g), torch.rand(5, generator=g, dtype=torch.float64) + 1
        idx = torch.where(rel > 0, idx, torch.zeros_like(idx))
        uniq = torch.unique(idx[rel > 0])
        if uniq.numel() != int((rel > 0).sum()):
            idx[rel > 0] = torch.arange(int((rel > 0).sum())) + 0  # distinct ids
        s1, s2 = s.clone().requires_grad_(), s.clone().requires_grad_()
        got = loss_fn(s1, rel, idx, q, n_rel, idcg)
        want = O.song(s2, rel, idx, q, n_rel, idcg, state, num_items=30, k=k, eta=0.3)
        got.backward()
        want.backward()
        torch.testing.assert_close(got, want, rtol=1e-9, atol=1e-12)
        torch.testing.assert_close(s1.grad, s2.grad, rtol=1e-9, atol=1e-12)
        torch.testing.assert_close(loss_fn.u, state["u"], rtol=1e-12, atol=1e-12)
        torch.testing.assert_close(loss_fn.threshold, state["threshold"], rtol=1e-12, atol=1e-12)
    assert float(loss_fn.u.abs().sum()) > 0 and (k is None) == (float(loss_fn.threshold.abs().sum()) == 0)


def test_row_squared_hinge_gradcheck_and_brute_force():
    g = torch.Generator().manual_seed(2)
    r = torch.randn(9, generator=g, dtype=torch.float64, requires_grad=True)
    c = torch.randn(13, generator=g, dtype=torch.float64, requires_grad=True)
    shift = torch.rand(9, generator=g, dtype=torch.float64)
    assert torch.autograd.gradcheck(lambda r, c: row_squared_hinge(r, c, 0.7, shift)[0], (r, c))
    total, count = row_squared_hinge(r + 100.0, c + 100.0, 0.7, shift)  # offset: prefix sums keep their digits
    d = 0.7 - (r[:, None] - c[None, :])
    active = d > shift[:, None]
    torch.testing.assert_close(total, (active * d.clamp_min(0) ** 2).sum(1), rtol=1e-9, atol=1e-9)
    assert torch.equal(count, active.sum(1).to(count.dtype))


def test_multilabel_aucm_equals_aucm_per_label_and_gradcheck():
    g = torch.Generator().manual_seed(4)
    h = torch.rand(30, 3, generator=g, dtype=torch.float64, requires_grad=True)
    y = (torch.rand(30, 3, generator=g) < 0.3).long()
    y[:, 2] = 0  # one class in label 2: contributes 0, counts in the mean
    a, b, alpha = (torch.rand(3, generator=g, dtype=torch.float64, requires_grad=True) for _ in range(3))
    got = losses.multilabel_aucm_loss(h, y, a, b, alpha, margin=0.8)
    want = sum(losses.aucm_loss(h[:, j], y[:, j], a[j], b[j], alpha[j], margin=0.8) for j in range(3)) / 3
    torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-14)
    assert torch.autograd.gradcheck(lambda h, a, b, al: losses.multilabel_aucm_loss(h, y, a, b, al), (h, a, b, alpha))
    ratio = torch.tensor([0.2, 0.3, 0.4], dtype=torch.float64)
    want = sum(losses.aucm_loss(h[:, j], y[:, j], a[j], b[j], alpha[j], imratio=float(ratio[j])) for j in range(3))
    torch.testing.assert_close(losses.multilabel_aucm_loss(h, y, a, b, alpha, imratio=ratio), want / 3)
    module = losses.MultiLabelAUCMLoss(3, imratio=[0.2, 0.3, 0.4]).double()
    out = module(h, y)
    out.backward()
    assert module.alpha.grad is not None and float(module.alpha.grad.abs().sum()) > 0


def test_compositional_alternates_cross_entropy_and_aucm():
    loss_fn = losses.CompositionalAUCLoss(k=2, margin=0.5)
    h, y = torch.tensor([0.9, 0.2, 0.6, 0.4]), torch.tensor([1, 0, 1, 0])
    ce = torch.nn.functional.binary_cross_entropy(h, y.float())
    aucm = losses.aucm_loss(h, y, loss_fn.a, loss_fn.b, loss_fn.alpha, margin=0.5)
    got = [loss_fn(h, y) for _ in range(5)]
    for value, want in zip(got, [ce, ce, aucm, aucm, ce]):
        torch.testing.assert_close(value, want)
    loss_fn.eval()
    torch.testing.assert_close(loss_fn(h, y), aucm)
    assert loss_fn.steps == 5


def _train(loss_name, steps, resume_at=None):
    """Train a tiny model with a stateful loss for ``steps`` steps; with ``resume_at``, save everything at that
    step and continue in fresh objects loaded from the saved state."""
    torch.manual_seed(0)
    x = torch.randn(N, 5)
    y = (x[:, 0] + 0.3 * torch.randn(N) > 0.8).long()
    make = {
        "soap": lambda: losses.SOAPLoss(N),
        "dro": lambda: losses.PartialAUCDROLoss(N),
        "cvar": lambda: losses.PartialAUCCVaRLoss(N, max_fpr=0.3),
        "two_way": lambda: losses.TwoWayPartialAUCLoss(N, tau=0.5),
        "compositional": lambda: losses.CompositionalAUCLoss(k=2),
        "aucm_pesg": lambda: losses.AUCMLoss(),
    }[loss_name]

    def fresh():
        torch.manual_seed(1)
        model, loss_fn = torch.nn.Sequential(torch.nn.Linear(5, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1)), make()
        params = list(model.parameters()) + list(loss_fn.parameters())
        if loss_name == "compositional":
            opt = PDSCA(params, loss_fn, lr=0.1)
        elif loss_name == "aucm_pesg":
            opt = PESG(params, lr=0.1)
        else:
            opt = torch.optim.Adam(params, lr=0.01)
        return model, loss_fn, opt

    model, loss_fn, opt = fresh()
    order = torch.Generator().manual_seed(2)
    for step in range(steps):
        if step == resume_at:
            saved = copy.deepcopy([model.state_dict(), loss_fn.state_dict(), opt.state_dict()])
            model, loss_fn, opt = fresh()
            for obj, sd in zip((model, loss_fn, opt), saved):
                obj.load_state_dict(sd)
        if step == 3 and hasattr(opt, "update_regularizer"):
            opt.update_regularizer(decay_factor=2.0)
        idx = torch.randperm(N, generator=order)[:20]
        opt.zero_grad()
        s = torch.sigmoid(model(x[idx]).squeeze(-1))
        if loss_name in ("compositional", "aucm_pesg"):
            loss = loss_fn(s, y[idx])
        else:
            loss = loss_fn(s, y[idx], idx)
        loss.backward()
        opt.step()
    return [p.detach().clone() for p in model.parameters()] + [b.clone() for b in loss_fn.buffers()]


@pytest.mark.parametrize("name", ["soap", "dro", "cvar", "two_way", "compositional", "aucm_pesg"])
def test_resume_from_state_dict_is_exact(name):
    straight, resumed = _train(name, 7), _train(name, 7, resume_at=4)
    assert len(straight) == len(resumed)
    for a, b in zip(straight, resumed):
        assert torch.equal(a, b)


def test_state_lives_in_buffers_that_follow_to_and_eval_mode_does_not_move_it():
    loss_fn = losses.SOAPLoss(N)
    assert {n for n, _ in loss_fn.named_buffers()} == {"u_all", "u_pos"}
    assert set(loss_fn.state_dict()) == {"u_all", "u_pos"}
    loss_fn = loss_fn.to(torch.float64)
    assert loss_fn.u_all.dtype == torch.float64
    s, y, idx = _batches(1)[0]
    loss_fn.eval()
    value = loss_fn(s, y, idx)
    assert float(loss_fn.u_all.abs().sum()) == 0 and float(value) != 0  # read, not written
    loss_fn.train()
    loss_fn(s, y, idx)
    assert float(loss_fn.u_all.abs().sum()) > 0
    assert set(losses.SONGNDCGLoss(3, 2, num_items=5).state_dict()) == {"u", "threshold"}
    assert set(losses.TwoWayPartialAUCLoss(3).state_dict()) == {"u", "w"}
    assert "_extra_state" in losses.CompositionalAUCLoss().state_dict()


@pytest.mark.parametrize("make", [lambda: losses.SOAPLoss(N), lambda: losses.PartialAUCDROLoss(N),
                                  lambda: losses.PartialAUCCVaRLoss(N, max_fpr=0.2),
                                  lambda: losses.TwoWayPartialAUCLoss(N)])
def test_bad_index_raises_before_any_state_changes(make):
    loss_fn = make()
    s, y, idx = _batches(1)[0]
    loss_fn(s, y, idx)
    before = copy.deepcopy(loss_fn.state_dict())
    bad = idx.clone()
    bad[3] = N
    with pytest.raises(ValueError, match=rf"Expected `index` to hold ids in \[0, {N}\).*got {N}"):
        loss_fn(s, y, bad)
    bad[3] = -1
    with pytest.raises(ValueError, match=r"`index` to hold ids .* got -1"):
        loss_fn(s, y, bad)
    with pytest.raises(TypeError, match=r"Expected `index` to have an integer dtype, got torch.float32"):
        loss_fn(s, y, idx.float())
    with pytest.raises(ValueError, match=r"Expected `index` to have the shape \(24,\) of the scores"):
        loss_fn(s, y, idx[:5])
    with pytest.raises(ValueError, match="`target`"):
        loss_fn(s, y + 2, idx)
    after = loss_fn.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)


def test_one_class_batches_give_zero_and_change_nothing():
    for loss_fn in (losses.SOAPLoss(N), losses.PartialAUCDROLoss(N), losses.PartialAUCCVaRLoss(N, max_fpr=0.5),
                    losses.TwoWayPartialAUCLoss(N)):
        s = torch.rand(6, requires_grad=True)
        for y in (torch.zeros(6, dtype=torch.long), torch.ones(6, dtype=torch.long)):
            if isinstance(loss_fn, losses.SOAPLoss) and int(y.sum()) == 6:
                continue  # all positives: SOAP has pairs (its columns are every item)
            value = loss_fn(s, y, torch.arange(6))
            value.backward()
            assert float(value.detach()) == 0 and float(s.grad.abs().sum()) == 0
        assert all(float(b.abs().sum()) == 0 for b in loss_fn.buffers())


def test_bad_options_raise_clear_errors():
    with pytest.raises(ValueError, match="`num_samples`"):
        losses.SOAPLoss(0)
    with pytest.raises(ValueError, match="`gamma`"):
        losses.SOAPLoss(5, gamma=1.5)
    with pytest.raises(ValueError, match="`max_fpr`"):
        losses.PartialAUCCVaRLoss(5, max_fpr=0.0)
    with pytest.raises(ValueError, match="`temperature`"):
        losses.PartialAUCDROLoss(5, temperature=0.0)
    with pytest.raises(ValueError, match="`tau`"):
        losses.TwoWayPartialAUCLoss(5, tau=-1.0)
    with pytest.raises(ValueError, match="`k`"):
        losses.SONGNDCGLoss(5, 2, num_items=4, k=0)
    with pytest.raises(ValueError, match=r"Expected `imratio` to hold 3 ratios \(one per label\), got 2"):
        losses.MultiLabelAUCMLoss(3, imratio=[0.1, 0.2])
    with pytest.raises(ValueError, match=r"Expected `a` to have shape \(2,\) \(one per label\), got \(3,\)"):
        losses.multilabel_aucm_loss(torch.rand(4, 2), torch.zeros(4, 2), torch.zeros(3), torch.zeros(2),
                                    torch.zeros(2))
    with pytest.raises(ValueError, match=r"Expected `query_index` to have shape \(1,\)"):
        losses.SONGNDCGLoss(5, 2, num_items=4)(torch.rand(1, 3), torch.tensor([[1, 0, 0]]), torch.zeros(1, 3).long(),
                                               torch.tensor([0, 1]), torch.tensor([1]), torch.tensor([1.0]))
    with pytest.raises(ValueError, match=r"Expected `index` to hold ids in \[0, 5\)"):
        losses.SONGNDCGLoss(5, 2, num_items=4)(torch.rand(1, 3), torch.tensor([[1, 0, 0]]),
                                               torch.tensor([[7, 0, 0]]), torch.tensor([0]), torch.tensor([1]),
                                               torch.tensor([1.0]))
    with pytest.raises(ValueError, match="`momentum`"):
        PESG([torch.nn.Parameter(torch.zeros(1))], momentum=2.0)
    with pytest.raises(TypeError, match="Expected `loss_fn` to be a CompositionalAUCLoss, got AUCMLoss"):
        PDSCA([torch.nn.Parameter(torch.zeros(1))], losses.AUCMLoss())


def test_pesg_follows_its_update_rule_by_hand():
    w = torch.nn.Parameter(torch.tensor([0.5, -1.0, 2.0]))
    opt = PESG([w], lr=0.2, momentum=0.7, weight_decay=0.01, epoch_decay=0.1, clip_value=0.5)
    ref, acc, count, buf, cur = w.detach().clone(), torch.zeros(3), 0, None, w.detach().clone()
    grads = [torch.tensor([0.3, -2.0, 0.1]), torch.tensor([1.0, 0.2, -0.4]), torch.tensor([-0.1, 0.6, 0.0]),
             torch.tensor([0.2, 0.2, 0.2])]
    for t, grad in enumerate(grads):
        if t == 2:
            opt.update_regularizer(decay_factor=4.0)
            ref, acc, count = acc / count, torch.zeros(3), 0
        lr = 0.2 if t < 2 else 0.05
        w.grad = grad.clone()
        opt.step()
        d = grad.clamp(-0.5, 0.5) + 0.01 * cur + 0.1 * (cur - ref)
        buf = d if buf is None else 0.3 * buf + 0.7 * d
        cur = cur - lr * buf
        acc, count = acc + cur, count + 1
        torch.testing.assert_close(w.detach(), cur)


def test_pdsca_follows_its_update_rule_by_hand():
    loss_fn = losses.CompositionalAUCLoss(k=1)
    w = torch.nn.Parameter(torch.tensor([0.3, -0.2]))
    opt = PDSCA([w], loss_fn, lr=0.1, lr0=0.4, beta1=0.6, beta2=0.5, weight_decay=0.0, epoch_decay=0.05,
                clip_value=10.0)
    ref, cur, wbuf, mbuf = w.detach().clone(), w.detach().clone(), None, None
    x, y = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.7]]), torch.tensor([1, 0, 0])
    for t in range(4):
        opt.zero_grad()
        loss_fn(torch.sigmoid(x @ w), y).backward()
        grad = w.grad.detach().clone()
        opt.step()
        d = grad + 0.05 * (cur - ref)
        if t % 2 == 0:  # cross-entropy step
            cur = cur - 0.4 * d
            wbuf = cur.clone() if wbuf is None else 0.4 * wbuf + 0.6 * cur
            cur = wbuf.clone()
        else:
            mbuf = d if mbuf is None else 0.5 * mbuf + 0.5 * d
            cur = cur - 0.1 * mbuf
        torch.testing.assert_close(w.detach(), cur)
    assert math.isfinite(float(loss_fn.alpha.detach()))


def test_kl_pair_pass_blocks_of_rows_give_the_one_block_result():
    from losses._xrisk import _KLPairPass

    g = torch.Generator().manual_seed(8)
    r = torch.rand(7, generator=g, dtype=torch.float64)
    c = torch.rand(11, generator=g, dtype=torch.float64)
    u = torch.rand(7, generator=g, dtype=torch.float64)
    out = []
    for block in (2, 3, 7):
        rr, cc = r.clone().requires_grad_(), c.clone().requires_grad_()
        total, u_new = _KLPairPass.apply(rr, cc, 0.8, 0.5, u, 0.6, -1.0, block)
        total.backward()
        out.append((total.detach(), u_new, rr.grad, cc.grad))
    e = torch.exp(O.sq_hinge(0.8, r, c) / 0.5)
    want_u = 0.4 * u + 0.6 * e.mean(1)
    torch.testing.assert_close(out[-1][1], want_u)
    torch.testing.assert_close(out[-1][0], (e / want_u[:, None] * O.sq_hinge(0.8, r, c)).sum())
    for got in out[:-1]:
        for a, b in zip(got, out[-1]):
            torch.testing.assert_close(a, b, rtol=1e-12, atol=1e-14)
