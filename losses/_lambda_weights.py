"""Pair weights of the LambdaLoss framework (Wang et al., CIKM 2018) for the pairwise engine of ``_pairwise.py``.

Each weight function maps a block ``(scores (c, n) with padding zeroed, relevance (c, n), mask (c, n))`` to
constant ``(c, n, n)`` weights ``w_ij`` (0 on every pair with a padded item and on the diagonal). Ranks ``r`` are
0-based current ranks by score (ties in input order), ``d(r) = 1/log2(r + 2)`` for ``r < k`` else 0, ``G`` the
gains divided by IDCG@k. Names follow the paper (allRank's ``weighing_scheme`` names in brackets):

* ``"uniform"`` (``rankNet_scheme``): 1 on pairs with ``rel_i > rel_j``, divided by their number (RankNet's mean);
* ``"lambdarank"`` (``lambdaRank_scheme``): ``|G_i - G_j| |d(r_i) - d(r_j)|`` on pairs with ``rel_i > rel_j``;
* ``"ndcgloss1"`` (``ndcgLoss1_scheme``): ``G_i d(r_i)`` on every ordered pair of distinct real items;
* ``"ndcgloss2"`` (``ndcgLoss2_scheme``): ``|G_i - G_j| delta(|r_i - r_j|)`` on pairs with ``rel_i > rel_j``,
  ``delta(t) = 1/log2(1 + t) - 1/log2(2 + t)``; with ``k``, pairs with at least one item in the top k;
* ``"ndcgloss2pp"`` (``ndcgLoss2PP_scheme``): ``"lambdarank" + mu * "ndcgloss2"``;
* ``"arp1"`` (ARP-Loss1): ``rel_i`` on every ordered pair of distinct real items;
* ``"arp2"`` (ARP-Loss2, ``rankNetWeightedByGTDiff_scheme``): ``rel_i - rel_j`` on pairs with ``rel_i > rel_j``.

Lists with nothing to learn (one relevance grade) get weight 0 everywhere.
"""
from __future__ import annotations

import torch
from torch import Tensor

from losses._pairwise import clamp_gap, pair_order_bounds
from losses._utils import current_ranks, discounts, gains, ideal_dcg, informative, safe_inverse

WEIGHTINGS = ("uniform", "lambdarank", "ndcgloss1", "ndcgloss2", "ndcgloss2pp", "arp1", "arp2")


def delta_table(n: int, dtype: torch.dtype, device: torch.device) -> Tensor:
    """NDCG-Loss2's ``delta(t) = 1/log2(1 + t) - 1/log2(2 + t)`` for rank gaps ``t = 0 .. n-1`` (``delta(0) = 0``)."""
    t = torch.arange(n, dtype=dtype, device=device)
    table = 1.0 / torch.log2(1.0 + t) - 1.0 / torch.log2(2.0 + t)
    table[0] = 0.0
    return table


def uniform_weights(s: Tensor, rel: Tensor, mask: Tensor) -> Tensor:
    u, v = pair_order_bounds(rel, mask)
    w = (u[:, :, None] > v[:, None, :]).to(s.dtype)
    return w.mul_(safe_inverse(w.sum((-1, -2)))[:, None, None])


def _distinct_real_pairs(mask: Tensor, dtype: torch.dtype) -> Tensor:
    n = mask.shape[-1]
    pairs = mask[:, :, None] & mask[:, None, :] & ~torch.eye(n, dtype=torch.bool, device=mask.device)
    return pairs.to(dtype)


def lambda_weights(s: Tensor, rel: Tensor, mask: Tensor, *, weighting: str, k: int | None = None,
                   gain: str = "linear", mu: float = 10.0) -> Tensor:
    """The weights of ``weighting`` (one of ``WEIGHTINGS``) for one block; see the module docstring."""
    if weighting == "uniform":
        return uniform_weights(s, rel, mask)
    if weighting in ("arp1", "arp2"):
        if weighting == "arp2":
            return clamp_gap(*pair_order_bounds(rel, mask))
        keep = informative(rel, mask).to(s.dtype)[:, None, None]
        return _distinct_real_pairs(mask, s.dtype).mul_(rel[:, :, None]).mul_(keep)
    n = s.shape[-1]
    g = gains(rel, mask, gain) * safe_inverse(ideal_dcg(gains(rel, mask, gain), mask, k))[:, None]  # G / IDCG@k
    ranks = current_ranks(s, mask)
    d = discounts(n, k, dtype=s.dtype, device=s.device)[ranks]
    if weighting == "ndcgloss1":
        keep = informative(rel, mask).to(s.dtype)[:, None, None]
        return _distinct_real_pairs(mask, s.dtype).mul_((g * d)[:, :, None]).mul_(keep)
    w = clamp_gap(*pair_order_bounds(g, mask))  # |G_i - G_j| / IDCG@k on pairs with rel_i > rel_j, else 0
    if weighting == "lambdarank":
        return w.mul_((d[:, :, None] - d[:, None, :]).abs_())
    extra = delta_table(n, s.dtype, s.device)[(ranks[:, :, None] - ranks[:, None, :]).abs_()]
    if k is not None:
        extra.mul_(torch.minimum(ranks[:, :, None], ranks[:, None, :]) < k)
    if weighting == "ndcgloss2":
        return w.mul_(extra)
    dd = (d[:, :, None] - d[:, None, :]).abs_()  # ndcgloss2pp
    return w.mul_(dd.add_(extra, alpha=mu))
