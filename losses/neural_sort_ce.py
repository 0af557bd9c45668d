"""NeuralSort cross-entropy (TF-Ranking's ``NeuralSortCrossEntropyLoss``): the cross-entropy between NeuralSort's
relaxed permutation matrix of the relevance (the target) and that of the scores, row by row (rank by rank)."""
from __future__ import annotations

import functools

import torch
from torch import Tensor, nn

from losses._module import module_of
from losses._utils import (
    PAIR_BLOCK,
    check_lists,
    check_options,
    check_positive,
    checkpointed_blocks,
    flatten_lists,
    informative,
    lists_per_block,
    masked_scores,
    reduce,
    zero_where_not,
)

__all__ = ["NeuralSortCrossEntropyLoss", "neural_sort_cross_entropy_loss"]


def _log_neural_sort(x: Tensor, mask: Tensor, temperature: float) -> Tensor:
    """``log`` of NeuralSort's relaxed permutation matrix ``(c, ranks, items)`` over the ``m`` real items: row ``r``
    (0-based) is ``log_softmax_j(((m + 1 - 2(r + 1)) x_j - sum_k |x_j - x_k|) / T)`` over real ``j``; entries of
    padded columns and of rows ``r >= m`` are 0 (finite, and zeroed again by the caller)."""
    n = x.shape[-1]
    m = mask.sum(-1, keepdim=True).to(x.dtype)
    spread = ((x[:, :, None] - x[:, None, :]).abs() * mask[:, None, :]).sum(-1)
    coef = m + 1.0 - 2.0 * torch.arange(1, n + 1, dtype=x.dtype, device=x.device)
    logits = (coef[:, :, None] * x[:, None, :] - spread[:, None, :]) / temperature
    lowest = torch.tensor(torch.finfo(x.dtype).min, dtype=x.dtype, device=x.device)
    zero = torch.zeros((), dtype=x.dtype, device=x.device)
    log_p = torch.log_softmax(torch.where(mask[:, None, :], logits, lowest), dim=-1)
    rows = torch.arange(n, device=x.device)[None, :] < m
    return torch.where(rows[:, :, None] & mask[:, None, :], log_p, zero)


def _ce_block(s: Tensor, rel: Tensor, mask: Tensor, keep: Tensor, *, temperature: float) -> Tensor:
    target = _log_neural_sort(rel, mask, temperature).exp()
    valid = (torch.arange(s.shape[-1], device=s.device)[None, :] < mask.sum(-1, keepdim=True))[:, :, None] & \
        mask[:, None, :]
    target = target * valid
    per_row = -(target * _log_neural_sort(s, mask, temperature)).sum(-1)  # (c, ranks)
    m = mask.sum(-1).to(s.dtype).clamp_min(1.0)
    return zero_where_not(keep, per_row.sum(-1) / m)


def neural_sort_cross_entropy_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None,
                                   temperature: float = 1.0, reduction: str = "mean", chunk_size: int | None = None,
                                   validate_args: bool = True) -> Tensor:
    r"""NeuralSort cross-entropy: per list, the mean over the ``m`` ranks of the cross-entropy between row ``r`` of
    NeuralSort's relaxed permutation of the relevance and that of the scores,

    .. math:: \hat P(x)_{r,:} = \mathrm{softmax}\!\Big(\frac{(m + 1 - 2r)\, x - A_x \mathbf{1}}{T}\Big),\qquad
       L = -\frac{1}{m} \sum_{r=1}^{m} \sum_j \hat P(rel)_{rj} \log \hat P(s)_{rj},

    over the real items (``(A_x)_{jk} = |x_j - x_k|``). Row ``r`` of ``P(s)`` is a distribution over the items to
    put at rank ``r``; the target (TF-Ranking's choice) is the same relaxation of the relevance at the same
    temperature, so items of tied relevance share their rows evenly. As ``T -> 0`` the target becomes the hard
    sort of the relevance (ties shared evenly) and the loss the cross-entropy of the sorted order.
    Memory: a few ``(chunk_size, n, n)`` buffers (blocks run under activation checkpointing).

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            part and get a gradient of exactly 0.
        temperature: ``T`` (> 0) of both relaxations.
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        chunk_size: lists per block; by default blocks of about 2^20 matrix entries.
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss, >= 0 per list. A list that is all padding, has one real item, or whose real items all share one
        relevance grade has nothing to learn: it gives 0 and a gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        A. Grover, E. Wang, A. Zweig and S. Ermon, "Stochastic Optimization of Sorting Networks via Continuous
        Relaxations", ICLR 2019; TF-Ranking ``NeuralSortCrossEntropyLoss``.

    Examples:
        >>> s, rel = torch.tensor([[2.0, 0.0]]), torch.tensor([[1.0, 0.0]])
        >>> round(neural_sort_cross_entropy_loss(s, rel, temperature=1e-3).item(), 4)  # the right order: 0
        0.0
        >>> round(neural_sort_cross_entropy_loss(-s, rel, temperature=1.0).item(), 4)  # both rows: H(.73, .12)
        1.589
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(temperature=temperature, reduction=reduction, chunk_size=chunk_size)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    if s.shape[-1] == 0:
        return reduce(s.sum(-1), reduction, batch_shape)
    s = masked_scores(s, m)
    fn = functools.partial(_ce_block, temperature=float(temperature))
    block = lists_per_block(s.shape[-1], chunk_size, budget=4 * PAIR_BLOCK)
    per_list = checkpointed_blocks(fn, block, s, rel, m, informative(rel, m))
    return reduce(per_list, reduction, batch_shape)


def _check(*, temperature, reduction, chunk_size, **_) -> None:
    check_options(reduction=reduction, chunk_size=chunk_size)
    check_positive("temperature", temperature)


@module_of(neural_sort_cross_entropy_loss, _check)
class NeuralSortCrossEntropyLoss(nn.Module):
    """Module form of :func:`neural_sort_cross_entropy_loss` (``forward(scores, relevance, mask=None)``).

    Examples:
        >>> NeuralSortCrossEntropyLoss(temperature=0.5)(torch.zeros(1, 3), torch.ones(1, 3))  # one grade: 0
        tensor(0.)
    """
