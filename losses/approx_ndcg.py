"""ApproxNDCG (Qin, Liu and Li, 2010): NDCG with each rank replaced by a smooth, sigmoid-based approximation.

An instance of :func:`losses.smooth`: ``1 - smooth(retrieval_normalized_dcg, method="approx")`` (the same rank form,
evaluated in blocks of lists), 0 on lists with nothing to learn.
"""
from __future__ import annotations

import functools

import torch  # noqa: F401 (the doctests use it)
from torch import Tensor, nn

from losses._module import module_of
from losses._rank_forms import ndcg
from losses._utils import (
    check_lists,
    check_options,
    check_positive,
    checkpointed_blocks,
    flatten_lists,
    informative,
    masked_scores,
    reduce,
    zero_where_not,
)
from losses.smooth_metrics import rank_form_values

__all__ = ["ApproxNDCGLoss", "approx_ndcg_loss"]


def _approx_block(s: Tensor, rel: Tensor, mask: Tensor, keep: Tensor, *, temperature: float, k: int | None,
                  gain: str) -> Tensor:
    # NDCG@k's one rank form (losses._rank_forms.ndcg) under the approximate ranks: smooth(..., method="approx")
    value = rank_form_values(ndcg, s, rel, mask, method="approx", temperature=temperature,
                             options={"k": k, "gain": gain})
    return zero_where_not(keep, 1.0 - value)


def approx_ndcg_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, temperature: float = 1.0,
                     k: int | None = None, gain: str = "linear", reduction: str = "mean",
                     chunk_size: int | None = None, validate_args: bool = True) -> Tensor:
    r"""``1 - ApproxNDCG``: NDCG with the rank of each item replaced by the smooth approximate rank

    .. math:: \hat\pi_i = 1 + \sum_{j \ne i} \sigma\!\left(\frac{s_j - s_i}{T}\right), \qquad
       \mathrm{ApproxNDCG} = \frac{1}{\mathrm{IDCG@k}} \sum_i \frac{G_i}{\log_2(1 + \hat\pi_i)}
       \left[\sigma\!\left(\frac{k + 1/2 - \hat\pi_i}{T}\right)\right]_{\text{if } k},

    over the real items of each list (the cut-off factor only for lists with more than ``k`` real items). As the
    temperature ``T`` goes to 0, ``hat pi`` tends to the exact 1-based rank (a tie counts 1/2, i.e. the
    mid-rank) and the loss to ``1 - NDCG@k``, so it can be checked against the exact metric.

    Memory: without ``chunk_size`` the graph keeps about two ``(lists, n, n)`` tensors of the scores' dtype;
    with it, the inputs plus, transiently, a few ``(chunk_size, n, n)`` blocks.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            part and get a gradient of exactly 0.
        temperature: ``T`` (> 0); smaller is closer to NDCG and has sharper (sparser) gradients.
        k: NDCG cut-off, or ``None`` for the whole list. The ideal DCG uses all real items of the list.
        gain: ``"linear"`` (``rel``, default: the gain of
            :class:`~torchmetrics_lite.RetrievalNormalizedDCG`, trec_eval and scikit-learn, so that the loss trains
            the NDCG you report) or ``"exponential"`` (``2**rel - 1``, LightGBM/allRank's; pass the same to the
            metric).
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        chunk_size: if given, lists are processed in blocks of this size under activation checkpointing: the
            graph then keeps only the inputs and recomputes one block at a time in backward.
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss, in ``[0, 1]`` per list. A list that is all padding, has one real item, or whose real items all
        share one relevance grade (no relevant item included) has nothing to learn: it gives 0 and a gradient of 0
        (every order has NDCG 1, although the approximation would not be exactly 1).

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        T. Qin, T.-Y. Liu and H. Li, "A general approximation framework for direct optimization of information
        retrieval measures", Information Retrieval 13(4), 2010.

    Examples:
        >>> s = torch.tensor([[3.0, 1.0, 2.0]])
        >>> rel = torch.tensor([[1.0, 0.0, 2.0]])
        >>> round(approx_ndcg_loss(s, rel, temperature=1e-3).item(), 4)  # 1 - (1 + 2/log2(3)) / (2 + 1/log2(3))
        0.1403
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(temperature=temperature, k=k, gain=gain, reduction=reduction, chunk_size=chunk_size)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    s = masked_scores(s, m)
    keep = informative(rel, m)  # the others have nothing to learn: 0
    fn = functools.partial(_approx_block, temperature=float(temperature), k=k, gain=gain)
    block = s.shape[0] if chunk_size is None else chunk_size
    per_list = checkpointed_blocks(fn, max(1, block), s, rel, m, keep)
    return reduce(per_list, reduction, batch_shape)


def _check(*, temperature, k, gain, reduction, chunk_size, **_) -> None:
    check_options(reduction=reduction, gain=gain, k=k, chunk_size=chunk_size)
    check_positive("temperature", temperature)


@module_of(approx_ndcg_loss, _check)
class ApproxNDCGLoss(nn.Module):
    """Module form of :func:`approx_ndcg_loss` (same keyword options; ``forward(scores, relevance, mask=None)``).

    Examples:
        >>> loss = ApproxNDCGLoss(temperature=0.1, k=5)
        >>> round(loss(torch.tensor([2.0, 1.0]), torch.tensor([1, 0])).item(), 4)  # right order: close to 0
        0.0
    """
