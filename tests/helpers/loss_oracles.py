"""Brute-force O(n^2) oracles in plain Python for the loss tests (loops over lists, pairs and permutations)."""
from __future__ import annotations

import math
from collections.abc import Sequence


def gain(rel: float, kind: str) -> float:
    return 2.0 ** rel - 1.0 if kind == "exponential" else rel


def ranking(scores: Sequence[float]) -> list[int]:
    """Items in ranked order: score descending, ties in input order."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


def dcg(order: Sequence[int], rel: Sequence[float], k: int | None, kind: str) -> float:
    cut = len(order) if k is None else min(k, len(order))
    return sum(gain(rel[item], kind) / math.log2(r + 2) for r, item in enumerate(order[:cut]))


def ndcg(order: Sequence[int], rel: Sequence[float], k: int | None, kind: str) -> float:
    ideal = dcg(sorted(range(len(rel)), key=lambda i: -rel[i]), rel, k, kind)
    return dcg(order, rel, k, kind) / ideal if ideal > 0 else 0.0


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def softplus(x: float) -> float:
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def lambdas(scores: Sequence[float], rel: Sequence[float], *, k: int | None, sigma: float, kind: str):
    """LambdaRank's loss and lambdas of one list, with |delta NDCG@k| measured by swapping the two items in the
    current ranking and recomputing NDCG@k."""
    order = ranking(scores)
    base = ndcg(order, rel, k, kind)
    pos = {item: r for r, item in enumerate(order)}
    loss, grad = 0.0, [0.0] * len(scores)
    for i in range(len(scores)):
        for j in range(len(scores)):
            if rel[i] <= rel[j]:
                continue
            swapped = list(order)
            swapped[pos[i]], swapped[pos[j]] = j, i
            w = abs(ndcg(swapped, rel, k, kind) - base)
            x = sigma * (scores[i] - scores[j])
            loss += w * softplus(-x)
            lam = sigma * w * sigmoid(-x)
            grad[i] -= lam
            grad[j] += lam
    return loss, grad


def ndcgloss2pp(scores, rel, *, k, sigma, kind, mu):
    """NDCG-Loss2++ of one list, written from the LambdaLoss paper's weights with a loop over pairs."""
    order = ranking(scores)
    rank = {item: r + 1 for r, item in enumerate(order)}  # 1-based
    ideal = dcg(sorted(range(len(rel)), key=lambda i: -rel[i]), rel, k, kind)
    if ideal <= 0:
        return 0.0

    def inv_d(r):
        return 0.0 if (k is not None and r > k) else 1.0 / math.log2(1 + r)

    total = 0.0
    for i in range(len(scores)):
        for j in range(len(scores)):
            if rel[i] <= rel[j]:
                continue
            t = abs(rank[i] - rank[j])
            delta = 1.0 / math.log2(1 + t) - 1.0 / math.log2(2 + t)
            if k is not None and min(rank[i], rank[j]) > k:
                delta = 0.0
            rho = abs(inv_d(rank[i]) - inv_d(rank[j]))
            w = abs(gain(rel[i], kind) - gain(rel[j], kind)) / ideal * (rho + mu * delta)
            total += w * softplus(-sigma * (scores[i] - scores[j]))
    return total


def ranknet(scores, rel, *, sigma):
    terms = [softplus(-sigma * (scores[i] - scores[j]))
             for i in range(len(scores)) for j in range(len(scores)) if rel[i] > rel[j]]
    return sum(terms) / len(terms) if terms else 0.0


def approx_ndcg(scores, rel, *, temperature, k, kind):
    n = len(scores)
    ideal = dcg(sorted(range(n), key=lambda i: -rel[i]), rel, k, kind)
    if ideal <= 0:
        return 0.0
    total = 0.0
    for i in range(n):
        r = 1.0 + sum(sigmoid((scores[j] - scores[i]) / temperature) for j in range(n) if j != i)
        term = gain(rel[i], kind) / math.log2(1 + r)
        if k is not None and n > k:
            term *= sigmoid((k + 0.5 - r) / temperature)
        total += term
    return 1.0 - total / ideal


def listnet(scores, rel):
    if not any(r > 0 for r in rel):
        return 0.0
    zs = sum(math.exp(s - max(scores)) for s in scores)
    zr = sum(math.exp(r - max(rel)) for r in rel)
    return -sum(math.exp(r - max(rel)) / zr * (s - max(scores) - math.log(zs)) for s, r in zip(scores, rel))


def pair_mean(pos: Sequence[float], neg: Sequence[float], fn) -> float:
    if not pos or not neg:
        return 0.0
    return sum(fn(p - q) for p in pos for q in neg) / (len(pos) * len(neg))


def neural_ndcg(scores, rel, *, temperature, k, kind, iters, transposed):
    """NeuralNDCG of one list from the paper's definitions: NeuralSort's matrix row by row, then Sinkhorn with
    explicit row and column sums (ending with rows, or with columns for the transposed variant)."""
    n = len(scores)
    ideal = dcg(sorted(range(n), key=lambda i: -rel[i]), rel, k, kind)
    if ideal <= 0 or len(set(rel)) < 2:
        return 0.0
    spread = [sum(abs(scores[j] - scores[m]) for m in range(n)) for j in range(n)]
    p = []
    for r in range(1, n + 1):
        logits = [((n + 1 - 2 * r) * scores[j] - spread[j]) / temperature for j in range(n)]
        top = max(logits)
        e = [math.exp(v - top) for v in logits]
        p.append([v / sum(e) for v in e])

    def rows(mat):
        return [[v / sum(row) for v in row] for row in mat]

    def cols(mat):
        sums = [sum(mat[r][j] for r in range(n)) for j in range(n)]
        return [[mat[r][j] / sums[j] for j in range(n)] for r in range(n)]

    for _ in range(iters):
        p = cols(rows(p)) if transposed else rows(cols(p))
    cut = n if k is None else min(k, n)
    total = sum(sum(p[r][j] * gain(rel[j], kind) for j in range(n)) / math.log2(r + 2) for r in range(cut))
    return 1.0 - total / ideal


def listmle(scores, rel):
    """-log of the Plackett-Luce probability of the order sorting by relevance (ties in input order), with the
    probability formed as a product of choice probabilities."""
    if len(set(rel)) < 2:
        return 0.0
    order = sorted(range(len(rel)), key=lambda i: (-rel[i], i))
    prob = 1.0
    for i in range(len(order)):
        rest = [math.exp(scores[j]) for j in order[i:]]
        prob *= math.exp(scores[order[i]]) / sum(rest)
    return -math.log(prob)


def softmax_ce(scores, rel):
    if len(set(rel)) < 2 or sum(rel) <= 0:
        return 0.0
    z = sum(math.exp(s) for s in scores)
    return -sum(r / sum(rel) * math.log(math.exp(s) / z) for s, r in zip(scores, rel))


def smooth_ap(scores, target, *, temperature):
    pos = [i for i, t in enumerate(target) if t]
    if not pos:
        return 0.0
    total = 0.0
    for i in pos:
        sig = {j: sigmoid((scores[j] - scores[i]) / temperature) for j in range(len(scores)) if j != i}
        total += (1 + sum(v for j, v in sig.items() if target[j])) / (1 + sum(sig.values()))
    return 1.0 - total / len(pos)


def soft_fbeta(p, y, beta):
    tp = sum(a * b for a, b in zip(p, y))
    fp = sum(a * (1 - b) for a, b in zip(p, y))
    fn = sum((1 - a) * b for a, b in zip(p, y))
    den = (1 + beta ** 2) * tp + beta ** 2 * fn + fp
    return 1.0 - ((1 + beta ** 2) * tp / den if den > 0 else 0.0)


def lambda_loss_weight(scores, rel, i, j, *, weighting, k, kind, mu):
    """The LambdaLoss weight of the ordered pair (i, j) of one list, from the paper's definitions (1-based ranks by
    score, D(r) = log2(1 + r), G normalised by the ideal DCG@k); None where the pair does not count."""
    order = ranking(scores)
    rank = {item: r + 1 for r, item in enumerate(order)}
    if len(set(rel)) < 2 or i == j:
        return None
    if weighting == "arp1":
        return rel[i]
    if weighting == "arp2":
        return rel[i] - rel[j] if rel[i] > rel[j] else None
    if weighting == "uniform":
        pairs = sum(1 for a in range(len(rel)) for b in range(len(rel)) if rel[a] > rel[b])
        return 1.0 / pairs if rel[i] > rel[j] else None
    ideal = dcg(sorted(range(len(rel)), key=lambda a: -rel[a]), rel, k, kind)
    big_g = [gain(r, kind) / ideal for r in rel]

    def inv_d(r):
        return 0.0 if (k is not None and r > k) else 1.0 / math.log2(1 + r)

    if weighting == "ndcgloss1":
        return big_g[i] * inv_d(rank[i])
    if rel[i] <= rel[j]:
        return None
    t = abs(rank[i] - rank[j])
    delta = 1.0 / math.log2(1 + t) - 1.0 / math.log2(2 + t)
    if k is not None and min(rank[i], rank[j]) > k:
        delta = 0.0
    rho = abs(inv_d(rank[i]) - inv_d(rank[j]))
    factor = {"lambdarank": rho, "ndcgloss2": delta, "ndcgloss2pp": rho + mu * delta}[weighting]
    return abs(big_g[i] - big_g[j]) * factor


def pairwise(scores, rel, *, f, weighting, k=None, kind="linear", mu=10.0):
    """sum over ordered pairs of w_ij f(s_i - s_j) of one list, with a loop over pairs."""
    total = 0.0
    for i in range(len(scores)):
        for j in range(len(scores)):
            w = lambda_loss_weight(scores, rel, i, j, weighting=weighting, k=k, kind=kind, mu=mu)
            if w is not None:
                total += w * f(scores[i] - scores[j])
    return total
