"""Dense oracles of the stateful X-risk losses: the published update rules written pair by pair (the full
``|P| x |B|`` matrices, autograd for the gradient), keeping their state in plain tensors."""
import math

import torch


def sq_hinge(margin, rows, cols):
    return (margin - (rows[:, None] - cols[None, :])).clamp_min(0.0) ** 2


def soap(s, y, idx, state, gamma=0.9, margin=1.0):
    pos = y != 0
    ids = idx[pos]
    pair = sq_hinge(margin, s[pos], s)
    u_all = (1 - gamma) * state["u_all"][ids] + gamma * pair.mean(1).detach()
    u_pos = (1 - gamma) * state["u_pos"][ids] + gamma * (pair * pos).mean(1).detach()
    state["u_all"][ids], state["u_pos"][ids] = u_all, u_pos
    p = ((u_pos[:, None] - u_all[:, None] * pos) / u_all[:, None] ** 2).detach()
    return (p * pair).mean()


def dro(s, y, idx, state, gamma=0.9, margin=1.0, temperature=1.0):
    pos = y != 0
    ids = idx[pos]
    pair = sq_hinge(margin, s[pos], s[~pos])
    e = torch.exp(pair / temperature).detach()
    u = (1 - gamma) * state["u"][ids] + gamma * e.mean(1)
    state["u"][ids] = u
    return (e / u[:, None] * pair).mean()


def cvar(s, y, idx, state, max_fpr, margin=1.0, eta=0.1):
    pos = y != 0
    ids = idx[pos]
    pair = sq_hinge(margin, s[pos], s[~pos])
    t = state["threshold"][ids]
    p = (pair > t[:, None]).to(s.dtype).detach()
    state["threshold"][ids] = t - eta * (1 - p.sum(1) / (max_fpr * int((~pos).sum())))
    return (p * pair).mean() / max_fpr


def two_way(s, y, idx, state, margin=1.0, temperature=1.0, tau=1.0, gamma=0.9, gamma_w=0.9):
    pos = y != 0
    ids = idx[pos]
    pair = sq_hinge(margin, s[pos], s[~pos])
    e = torch.exp(pair / temperature).detach()
    u = (1 - gamma) * state["u"][ids] + gamma * e.mean(1)
    state["u"][ids] = u
    state["w"] = (1 - gamma_w) * state["w"] + gamma_w * (u ** (temperature / tau)).mean()
    p = (u[:, None] ** (temperature / tau - 1) * e / state["w"]).detach()
    return (p * pair).mean()


def song(s, rel, idx, qidx, n_rel, idcg, state, num_items, k=None, margin=1.0, gamma=0.9, eta=0.01, tau_1=0.01,
         tau_2=1e-4, sigmoid_alpha=2.0):
    """One list at a time (a loop: an oracle)."""
    total = s.new_zeros(())
    new_lam = {}
    for q in range(s.shape[0]):
        pos = rel[q] > 0
        m = float(num_items)
        if k is not None:
            lam = state["threshold"][qidx[q]]
            above = torch.sigmoid((s[q].detach() - lam) / tau_1).mean()
            new_lam[int(qidx[q])] = lam - eta * (k / m + tau_2 * lam - above)
        if not pos.any():
            continue
        g = sq_hinge(margin, s[q][pos], s[q]).mean(1)
        ids = idx[q][pos]
        u = (1 - gamma) * state["u"][ids] + gamma * g.detach()
        state["u"][ids] = u
        grad_f = (2.0 ** rel[q][pos] - 1) * m / (math.log(2) * (1 + m * u) * torch.log2(1 + m * u) ** 2)
        if k is not None:
            grad_f = grad_f * torch.sigmoid(sigmoid_alpha * (s[q][pos].detach() - lam))
        total = total + n_rel[q] / idcg[q] * (grad_f.detach() * g).mean()
    for q, v in new_lam.items():
        state["threshold"][q] = v
    return total / s.shape[0]
