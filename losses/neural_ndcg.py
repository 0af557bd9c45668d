"""NeuralNDCG (Pobrotyn and Bialobrzeski, 2021): NDCG@k under NeuralSort's relaxed, Sinkhorn-scaled permutation."""
from __future__ import annotations

import functools

from torch import Tensor, nn

from losses._module import module_of
from losses._rank_forms import ndcg
from losses._utils import (
    PAIR_BLOCK,
    check_lists,
    check_options,
    check_positive,
    checkpointed_blocks,
    flatten_lists,
    gains,
    ideal_dcg,
    informative,
    lists_per_block,
    masked_scores,
    reduce,
    zero_where_not,
)
from losses.smooth_metrics import rank_form_values
from torchmetrics_lite.checks import check_positive_int

__all__ = ["NeuralNDCGLoss", "neural_ndcg_loss"]


def _neural_ndcg_block(s: Tensor, rel: Tensor, mask: Tensor, keep: Tensor, *, temperature: float,
                       k: int | None, iters: int, transposed: bool, gain: str) -> Tensor:
    # NDCG@k's one rank form (losses._rank_forms.ndcg) under NeuralSort's Sinkhorn-scaled permutation:
    # u^T diag(d) p diag(g) v, i.e. smooth(..., method="neural_sort", sinkhorn_iters=iters)
    value = rank_form_values(ndcg, s, rel, mask, method="neural_sort", temperature=temperature,
                             sinkhorn_iters=iters, transposed=transposed, options={"k": k, "gain": gain})
    return zero_where_not(keep, 1.0 - value)


def neural_ndcg_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, k: int | None = None,
                     temperature: float = 1.0, transposed: bool = False, gain: str = "linear",
                     sinkhorn_iters: int = 50, reduction: str = "mean", chunk_size: int | None = None,
                     validate_args: bool = True) -> Tensor:
    r"""``1 - NeuralNDCG@k``: NDCG@k with the sorting permutation replaced by NeuralSort's relaxation.

    .. math:: \hat P_{r,:} = \mathrm{softmax}\!\Big(\frac{(m + 1 - 2r)\, s - A_s \mathbf{1}}{T}\Big),\quad
       (A_s)_{jk} = |s_j - s_k|, \qquad
       \mathrm{NeuralNDCG@k} = \frac{1}{\mathrm{IDCG@k}} \sum_{r=1}^{m} d(r)\, \big(\mathcal{S}(\hat P)\, G\big)_r

    over the ``m`` real items of each list, with ``r`` the 1-based rank, ``d(r) = 1/log2(r + 1)`` for ``r <= k``
    (0 beyond), ``G`` the gains and ``S`` Sinkhorn scaling (``sinkhorn_iters`` alternating normalisations of
    rows and columns, no tolerance test, so no host sync). Without ``transposed`` the last normalisation is over
    rows: each rank receives a convex combination of the gains. With ``transposed=True`` (NeuralNDCG^T) it is over
    columns: each item receives a distribution over ranks and its gain is discounted by the expected discount.
    As ``T -> 0`` the rows become one-hot on the items in score order, so with distinct scores the loss reaches
    ``1 - NDCG@k`` exactly; tied scores share their rows evenly, i.e. the gain averaged over the tie, as the exact
    NDCG with ``ties="average"``.

    Memory: lists are processed in blocks (``chunk_size``, by default about 2^20 matrix entries per block); with
    more than one block each runs under activation checkpointing, so the graph keeps the inputs only and backward
    needs a few ``(block, n, n)`` buffers at a time. Sinkhorn works on two scaling vectors, so its iterations add
    O(sinkhorn_iters * n) per list, not a matrix each.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            part and get a gradient of exactly 0.
        k: NDCG cut-off, or ``None`` for the whole list. The ideal DCG uses all real items of the list.
        temperature: ``T`` (> 0) of NeuralSort; smaller is closer to NDCG.
        transposed: use NeuralNDCG^T (see above).
        gain: ``"linear"`` (``rel``, default: the gain of
            :class:`~torchmetrics_lite.RetrievalNormalizedDCG`, trec_eval and scikit-learn, so that the loss trains
            the NDCG you report) or ``"exponential"`` (``2**rel - 1``, LightGBM/allRank's; pass the same to the
            metric).
        sinkhorn_iters: Sinkhorn iterations (a positive int; 50 by default).
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        chunk_size: lists per block.
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss, about ``[0, 1]`` per list. A list that is all padding, has one real item, or whose real items all
        share one relevance grade (no relevant item included) has nothing to learn: it gives 0 and a gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        P. Pobrotyn and R. Bialobrzeski, "NeuralNDCG: Direct Optimisation of a Ranking Metric via Differentiable
        Relaxation of Sorting", arXiv:2102.07831, 2021. A. Grover et al., "Stochastic Optimization of Sorting
        Networks via Continuous Relaxations", ICLR 2019.

    Examples:
        >>> import torch
        >>> s = torch.tensor([[3.0, 1.0, 2.0]])
        >>> rel = torch.tensor([[1.0, 0.0, 2.0]])
        >>> round(neural_ndcg_loss(s, rel, temperature=1e-3).item(), 4)  # 1 - (1 + 2/log2(3)) / (2 + 1/log2(3))
        0.1403
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(k=k, temperature=temperature, transposed=transposed, gain=gain, sinkhorn_iters=sinkhorn_iters,
           reduction=reduction, chunk_size=chunk_size)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    s = masked_scores(s, m)
    keep = informative(rel, m) & (ideal_dcg(gains(rel, m, gain), m, k) > 0)
    fn = functools.partial(_neural_ndcg_block, temperature=float(temperature), k=k, iters=sinkhorn_iters,
                           transposed=transposed, gain=gain)
    if s.shape[-1] == 0:
        return reduce(s.sum(-1), reduction, batch_shape)
    block = lists_per_block(s.shape[-1], chunk_size, budget=4 * PAIR_BLOCK)  # ~ten (block, n, n) buffers
    per_list = checkpointed_blocks(fn, block, s, rel, m, keep)
    return reduce(per_list, reduction, batch_shape)


def _check(*, k, temperature, transposed, gain, sinkhorn_iters, reduction, chunk_size, **_) -> None:
    check_options(reduction=reduction, gain=gain, k=k, chunk_size=chunk_size)
    check_positive("temperature", temperature)
    if not isinstance(transposed, bool):
        raise TypeError(f"Expected `transposed` to be a bool, got {type(transposed).__name__}")
    check_positive_int("sinkhorn_iters", sinkhorn_iters)


@module_of(neural_ndcg_loss, _check)
class NeuralNDCGLoss(nn.Module):
    """Module form of :func:`neural_ndcg_loss` (same keyword options; ``forward(scores, relevance, mask=None)``).

    Examples:
        >>> import torch
        >>> loss = NeuralNDCGLoss(k=5, temperature=0.1)
        >>> round(loss(torch.tensor([2.0, 1.0]), torch.tensor([1, 0])).item(), 4)  # right order: 0
        0.0
    """
