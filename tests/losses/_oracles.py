"""Brute-force O(n^2) oracles in plain Python for the loss tests (loops over lists, pairs and permutations)."""
from __future__ import annotations

import math
from typing import List, Optional, Sequence


def gain(rel: float, kind: str) -> float:
    return 2.0 ** rel - 1.0 if kind == "exponential" else rel


def ranking(scores: Sequence[float]) -> List[int]:
    """Items in ranked order: score descending, ties in input order."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


def dcg(order: Sequence[int], rel: Sequence[float], k: Optional[int], kind: str) -> float:
    cut = len(order) if k is None else min(k, len(order))
    return sum(gain(rel[item], kind) / math.log2(r + 2) for r, item in enumerate(order[:cut]))


def ndcg(order: Sequence[int], rel: Sequence[float], k: Optional[int], kind: str) -> float:
    ideal = dcg(sorted(range(len(rel)), key=lambda i: -rel[i]), rel, k, kind)
    return dcg(order, rel, k, kind) / ideal if ideal > 0 else 0.0


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def softplus(x: float) -> float:
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def lambdas(scores: Sequence[float], rel: Sequence[float], *, k: Optional[int], sigma: float, kind: str):
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
