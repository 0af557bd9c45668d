"""LambdaRank (exact |delta NDCG@k| pair weights) and the other weightings of the LambdaLoss framework (NDCG-Loss1,
NDCG-Loss2, NDCG-Loss2++, ARP-Loss1, ARP-Loss2), all with the pairwise logistic loss."""
from __future__ import annotations

import functools

import torch  # noqa: F401  (the doctests use it)
from torch import Tensor, nn

from losses._lambda_weights import WEIGHTINGS as ALL_WEIGHTINGS
from losses._lambda_weights import lambda_weights
from losses._module import module_of
from losses._pairwise import weighted_pairs
from losses._utils import check_lists, check_options, check_positive, flatten_lists, lists_per_block, reduce
from torchmetrics_lite.checks import check_choice, check_number

__all__ = ["LambdaRankLoss", "lambdarank_loss"]

WEIGHTINGS = tuple(w for w in ALL_WEIGHTINGS if w != "uniform")  # the LambdaLoss weightings


def lambdarank_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, k: int | None = None,
                    sigma: float = 1.0, gain: str = "linear", weighting: str = "lambdarank", mu: float = 10.0,
                    reduction: str = "mean", chunk_size: int | None = None, validate_args: bool = True) -> Tensor:
    r"""LambdaRank loss: RankNet pairs weighted by the exact change of NDCG@k that swapping the two items causes,

    .. math:: L = \sum_{i,j:\ rel_i > rel_j} |\Delta \mathrm{NDCG@k}_{ij}| \; \mathrm{softplus}(-\sigma (s_i - s_j)),
       \qquad |\Delta \mathrm{NDCG@k}_{ij}| = \frac{|G_i - G_j| \, |d(r_i) - d(r_j)|}{\mathrm{IDCG@k}},

    with ``r_i`` the item's current 0-based rank by score (ties keep input order), ``d(r) = 1/log2(r + 2)`` for
    ``r < k`` and 0 otherwise, ``G`` the gains and IDCG@k the DCG@k of the ideal order. The weights are constants
    (not differentiated), so ``dL/ds`` is exactly LambdaRank's lambdas. Every pair whose swap changes NDCG@k
    counts, including pairs with only one item in the top k (an item just below the cut-off still gets pushed up).

    ``weighting`` picks another weighting of the LambdaLoss framework instead (the weights stay constants):

    * ``"ndcgloss2pp"`` (NDCG-Loss2++): ``|G_i - G_j| / IDCG@k * (|d(r_i) - d(r_j)| + mu * delta_ij)`` with
      ``delta_ij = 1/log2(1 + |r_i - r_j|) - 1/log2(2 + |r_i - r_j|)``; with a cut-off ``k``, the ``delta`` term
      counts pairs with at least one item in the top k;
    * ``"ndcgloss2"`` (NDCG-Loss2): ``|G_i - G_j| / IDCG@k * delta_ij`` alone, same pairs;
    * ``"ndcgloss1"`` (NDCG-Loss1): ``G_i d(r_i) / IDCG@k`` on every ordered pair of distinct real items, whatever
      their grades (the paper's ``j = i`` term is a constant and is left out);
    * ``"arp1"`` (ARP-Loss1, a bound on the average relevance position ``sum_i rel_i r_i``): ``rel_i`` on every
      ordered pair of distinct real items;
    * ``"arp2"`` (ARP-Loss2): ``rel_i - rel_j`` on the pairs with ``rel_i > rel_j``.

    (The paper writes ``log2`` where we write the natural log of ``softplus``: a constant factor ``1 / ln 2``.) The
    same weights with a hinge or sigmoid pair loss: :func:`~losses.pairwise_loss`.

    Memory: the autograd graph keeps one ``(lists, n)`` tensor (the lambdas are formed in the forward pass);
    the forward pass needs about four ``(chunk_size, n, n)`` buffers of the scores' dtype.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) form no
            pair and get a gradient of exactly 0.
        k: NDCG cut-off, or ``None`` for the whole list.
        sigma: slope of the logistic (> 0).
        gain: ``"linear"`` (``rel``, default: the gain of
            :class:`~torchmetrics_lite.RetrievalNormalizedDCG`, trec_eval and scikit-learn, so that the loss trains
            the NDCG you report) or ``"exponential"`` (``2**rel - 1``, LightGBM/allRank's; pass the same to the
            metric).
        weighting: ``"lambdarank"`` (default), ``"ndcgloss2pp"``, ``"ndcgloss2"``, ``"ndcgloss1"``, ``"arp1"`` or
            ``"arp2"`` (see above).
        mu: (>= 0, default 10) the weight of ``"ndcgloss2pp"``'s delta term.
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        chunk_size: lists per ``(lists, n, n)`` block; by default blocks of about 2^18 pairs.
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss. A list that is all padding, has one real item, or whose real items all share one relevance grade
        (no relevant item included: IDCG = 0) has no pair to order: it gives 0 and a gradient of 0 (for every
        weighting, ``"ndcgloss1"`` and ``"arp1"`` included).

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding; a -1 sentinel would be an item of gain -0.5).

    References:
        C. Burges, "From RankNet to LambdaRank to LambdaMART: An Overview", MSR-TR-2010-82;
        X. Wang et al., "The LambdaLoss Framework for Ranking Metric Optimization", CIKM 2018.

    Examples:
        >>> s = torch.tensor([[0.5, 2.0, 1.0]])
        >>> rel = torch.tensor([[2.0, 0.0, 1.0]])
        >>> round(lambdarank_loss(s, rel).item(), 4)  # linear gain, as RetrievalNormalizedDCG
        0.8794
        >>> round(lambdarank_loss(s, rel, gain="exponential").item(), 4)
        0.9066
        >>> round(lambdarank_loss(s, rel, k=1, weighting="ndcgloss2pp", mu=5.0, gain="exponential").item(), 4)
        4.0608
        >>> round(lambdarank_loss(s, rel, weighting="arp2").item(), 4)  # 2 softplus(1.5) + softplus(0.5) + softplus(1)
        5.6902
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(k=k, sigma=sigma, gain=gain, weighting=weighting, mu=mu, reduction=reduction, chunk_size=chunk_size)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    weight_fn = functools.partial(lambda_weights, k=k, gain=gain, weighting=weighting, mu=float(mu))
    per_list = weighted_pairs(s, rel, m, weight_fn, pair_loss="logistic", sigma=float(sigma),
                              block=lists_per_block(s.shape[-1], chunk_size))
    return reduce(per_list, reduction, batch_shape)


def _check(*, k, sigma, gain, weighting, mu, reduction, chunk_size, **_) -> None:
    check_options(reduction=reduction, gain=gain, k=k, chunk_size=chunk_size)
    check_positive("sigma", sigma)
    check_choice("weighting", weighting, WEIGHTINGS)
    check_number("mu", mu, low=0.0)


@module_of(lambdarank_loss, _check)
class LambdaRankLoss(nn.Module):
    """Module form of :func:`lambdarank_loss` (same keyword options; ``forward(scores, relevance, mask=None)``).

    Examples:
        >>> loss = LambdaRankLoss(k=10)
        >>> s = torch.tensor([[0.5, 2.0, 1.0]], requires_grad=True)
        >>> loss(s, torch.tensor([[2, 0, 1]])).backward()
        >>> bool(s.grad[0, 0] < 0)  # the most relevant item is pushed up
        True
    """
