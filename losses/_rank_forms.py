"""Every ranking metric written once as a function of item ranks: the formulas both the exact (hard ranks) and
the smooth (soft ranks) paths of :func:`losses.smooth` evaluate.

A formula sees a list through :class:`Lists` and its ranks through ``ranks(view)``: ``view`` is ``"all"`` (the
1-based rank of each item among the real items, best first) or ``"relevant"`` (its rank among the relevant items:
``q_i = 1 + #relevant items above i``). A view answers ``expect(phi, k)``: per item, the expectation of
``phi(rank) * [rank <= k]`` under the method's (hard or relaxed) ranks, ``k`` an int, a ``(lists, 1)`` tensor or
``None`` (no cut-off), and ``total(c, phi, k)``: per list, ``sum_i c_i expect(phi, k)_i``. Every metric is a sum
over items of products of such terms:

* ``DCG@k = sum_i gain_i E[d(r_i) [r_i <= k]]``, ``d(r) = 1 / log2(r + 1)``; NDCG@k divides by the ideal DCG@k;
* ``P@k = sum_{i rel} E[r_i <= k] / k``; ``R@k``: over the relevant items; R-precision: ``R@R``, ``R`` relevant;
* ``RR@k = sum_{i rel} E[q_i <= 1] E[[r_i <= k] / r_i]``; hit rate ``sum_{i rel} E[q_i <= 1] E[r_i <= k]``;
* ``AP@k = sum_{i rel} E[q_i] E[[r_i <= k] / r_i] / R`` (the precision ``q_i / r_i`` at each relevant rank);
* ``AUROC = (P N + sum_{i pos} (E q_i - E r_i)) / (P N)`` (the negatives below positive ``i`` are
  ``(n - r_i) - (P - q_i)``: Mann-Whitney by rank sums).

With hard ranks of tie-free scores each formula is the exact metric (tested against ``torchmetrics_lite.functional``).
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional, Union

import torch
from torch import Tensor

from losses._utils import gains, ideal_dcg, safe_inverse

Cut = Optional[Union[int, Tensor]]


class Lists(NamedTuple):
    rel: Tensor  # (L, n) grades in the scores' dtype, 0 on padding
    real: Tensor  # (L, n) bool
    relevant: Tensor  # (L, n) floating 0/1: real items with grade > 0
    n_items: Tensor  # (L,) floating
    n_rel: Tensor  # (L,) floating


class RankFn(NamedTuple):
    """A function of the rank: ``of(r)``, and ``times(c, r) = c * of(r)`` computed as the hand-written losses do
    (a division for the discounts), so that a loss derived from a formula keeps its values bit for bit."""

    of: Callable[[Tensor], Tensor]
    times: Callable[[Tensor, Tensor], Tensor]


# 1 + 0 r: a constant metric (P and hit rate without a cut-off) still has a graph, with a gradient of 0
ONE = RankFn(lambda r: 1.0 + 0.0 * r, lambda c, r: c + 0.0 * r)
IDENTITY = RankFn(lambda r: r, lambda c, r: c * r)
RECIPROCAL = RankFn(lambda r: 1.0 / r, lambda c, r: c / r)
DISCOUNT = RankFn(lambda r: 1.0 / torch.log2(1.0 + r), lambda c, r: c / torch.log2(1.0 + r))  # 1/log2(r + 1)


def dcg(x: Lists, ranks: Callable, *, k: Optional[int] = None, gain: str = "linear") -> Tensor:
    return ranks("all").total(gains(x.rel, x.real, gain), DISCOUNT, k)


def ndcg(x: Lists, ranks: Callable, *, k: Optional[int] = None, gain: str = "linear") -> Tensor:
    g = gains(x.rel, x.real, gain)
    return ranks("all").total(g, DISCOUNT, k) * safe_inverse(ideal_dcg(g, x.real, k))


def _hits(x: Lists, ranks: Callable, k: Cut) -> Tensor:
    return ranks("all").total(x.relevant, ONE, k)


def precision(x: Lists, ranks: Callable, *, k: Optional[int] = None) -> Tensor:
    return _hits(x, ranks, k) * safe_inverse(x.n_items if k is None else torch.full_like(x.n_items, float(k)))


def recall(x: Lists, ranks: Callable, *, k: Optional[int] = None) -> Tensor:
    return _hits(x, ranks, k) * safe_inverse(x.n_rel)


def r_precision(x: Lists, ranks: Callable) -> Tensor:
    return _hits(x, ranks, x.n_rel[:, None]) * safe_inverse(x.n_rel)


def hit_rate(x: Lists, ranks: Callable, *, k: Optional[int] = None) -> Tensor:
    return (x.relevant * ranks("relevant").expect(ONE, 1) * ranks("all").expect(ONE, k)).sum(-1)


def reciprocal_rank(x: Lists, ranks: Callable, *, k: Optional[int] = None) -> Tensor:
    return (x.relevant * ranks("relevant").expect(ONE, 1) * ranks("all").expect(RECIPROCAL, k)).sum(-1)


def average_precision(x: Lists, ranks: Callable, *, k: Optional[int] = None) -> Tensor:
    terms = x.relevant * ranks("relevant").expect(IDENTITY, None) * ranks("all").expect(RECIPROCAL, k)
    return terms.sum(-1) * safe_inverse(x.n_rel)


def binary_average_precision(x: Lists, ranks: Callable) -> Tensor:
    return average_precision(x, ranks)


def auroc(x: Lists, ranks: Callable) -> Tensor:
    pairs = x.n_rel * (x.n_items - x.n_rel)
    shift = (x.relevant * (ranks("relevant").expect(IDENTITY, None) - ranks("all").expect(IDENTITY, None))).sum(-1)
    return (pairs + shift) * safe_inverse(pairs)
