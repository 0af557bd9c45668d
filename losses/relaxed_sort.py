r"""Relaxed permutation matrices: NeuralSort (Grover et al., 2019) and SoftSort (Prillo and Eisenschlos, 2020).

Both give, for each list, a row-stochastic ``(n, n)`` matrix ``P`` whose row ``r`` (the 0-based rank, best
first) is a distribution over the items; as the temperature goes to 0 it tends to the permutation matrix that
sorts the scores in descending order, and tied scores share their rows evenly (each tied item is equally likely
at each of the tie's ranks: the tie rule of ``ties="average"`` for any measure linear in the rank marginals).
Memory O(n^2) per list (the matrix itself).
"""
from __future__ import annotations

import torch
from torch import Tensor

from torchmetrics_lite.checks import check_number, check_tensor

__all__ = ["neural_sort_permutation", "softsort_permutation"]


def neural_sort_rows(s: Tensor, mask: Tensor, temperature: float) -> Tensor:
    """NeuralSort's relaxed permutation matrix over the real items, ``(c, n, n)``: row ``r`` (rank, 0-based) is
    ``softmax_j(((m + 1 - 2(r + 1)) s_j - sum_k |s_j - s_k|) / T)`` over the ``m`` real items ``j``; rows of ranks
    ``>= m`` and columns of padded items are 0. ``s``: ``(c, n)`` scores with padded entries already finite."""
    n = s.shape[-1]
    m = mask.sum(-1, keepdim=True).to(s.dtype)  # (c, 1) real items per list
    spread = ((s[:, :, None] - s[:, None, :]).abs() * mask[:, None, :]).sum(-1)  # (c, n): sum_k |s_j - s_k|
    coef = m + 1.0 - 2.0 * torch.arange(1, n + 1, dtype=s.dtype, device=s.device)  # (c, n) per rank
    logits = (coef[:, :, None] * s[:, None, :] - spread[:, None, :]) / temperature
    rows = torch.arange(n, device=s.device)[None, :] < m  # (c, n): ranks that exist
    valid = rows[:, :, None] & mask[:, None, :]
    zero = torch.zeros((), dtype=s.dtype, device=s.device)
    # padded columns take no mass; rows of missing ranks get finite logits (no NaN) and are zeroed after softmax
    logits = torch.where(mask[:, None, :], logits, torch.tensor(-float("inf"), dtype=s.dtype, device=s.device))
    logits = torch.where(rows[:, :, None], logits, zero)
    return torch.where(valid, torch.softmax(logits, dim=-1), zero)


def softsort_rows(s: Tensor, mask: Tensor, temperature: float) -> Tensor:
    """SoftSort's relaxed permutation matrix, ``(c, n, n)``: row ``r`` is ``softmax_j(-|sorted_r - s_j| / T)`` over
    the real items ``j``, ``sorted_r`` the ``r``-th largest real score; rows ``>= m`` and padded columns are 0."""
    n = s.shape[-1]
    neg_inf = torch.tensor(-float("inf"), dtype=s.dtype, device=s.device)
    zero = torch.zeros((), dtype=s.dtype, device=s.device)
    ordered = torch.sort(torch.where(mask, s, neg_inf), dim=-1, descending=True).values
    rows = torch.arange(n, device=s.device)[None, :] < mask.sum(-1, keepdim=True)
    ordered = torch.where(rows, ordered, zero)
    logits = -(ordered[:, :, None] - s[:, None, :]).abs() / temperature
    logits = torch.where(mask[:, None, :], logits, neg_inf)
    logits = torch.where(rows[:, :, None], logits, zero)
    return torch.where(rows[:, :, None] & mask[:, None, :], torch.softmax(logits, dim=-1), zero)


def _relaxed(kernel, scores: Tensor, temperature: float, mask: Tensor | None) -> Tensor:
    check_tensor("scores", scores)
    if not scores.is_floating_point():
        raise TypeError(f"Expected `scores` to have a floating dtype, got {scores.dtype}")
    if scores.dim() < 1:
        raise ValueError(f"Expected `scores` to have at least 1 dimension, got shape {tuple(scores.shape)}")
    check_number("temperature", temperature, low=0.0, low_open=True)
    if mask is None:
        mask = torch.ones(scores.shape, dtype=torch.bool, device=scores.device)
    else:
        check_tensor("mask", mask)
        if mask.dtype != torch.bool or mask.shape != scores.shape:
            raise ValueError(f"Expected `mask` to be a bool tensor of shape {tuple(scores.shape)}, got "
                             f"{mask.dtype} of shape {tuple(mask.shape)}")
    n = scores.shape[-1]
    s, m = scores.reshape(-1, n), mask.reshape(-1, n)
    s = torch.where(m, s, torch.zeros((), dtype=s.dtype, device=s.device))
    return kernel(s, m, float(temperature)).reshape(*scores.shape, n)


def neural_sort_permutation(scores: Tensor, *, temperature: float = 1.0, mask: Tensor | None = None) -> Tensor:
    r"""NeuralSort's relaxed sorting permutation of each list on the last dimension (descending).

    .. math:: \hat P_{r,:} = \mathrm{softmax}\!\Big(\frac{(m + 1 - 2r)\, s - A_s \mathbf{1}}{T}\Big),\quad
       (A_s)_{jk} = |s_j - s_k|,

    ``r = 1 .. m`` over the ``m`` real items. Rows sum to 1 (rows of ranks beyond ``m`` are 0); columns do not,
    in general (Sinkhorn scaling makes them, as :func:`~losses.neural_ndcg_loss` does).

    Args:
        scores: ``(..., n)`` floating scores.
        temperature: ``T`` (> 0); smaller is closer to the hard permutation.
        mask: optional ``(..., n)`` bool of real items; padded columns are 0 and get a gradient of exactly 0.

    Returns:
        ``(..., n, n)``: ``[..., r, j]`` the weight of item ``j`` at rank ``r`` (0-based, best first).

    Raises:
        TypeError: ``scores`` not floating.
        ValueError: ``temperature <= 0``, a ``mask`` that is not bool of the scores' shape.

    References:
        A. Grover, E. Wang, A. Zweig and S. Ermon, "Stochastic Optimization of Sorting Networks via Continuous
        Relaxations", ICLR 2019.

    Examples:
        >>> neural_sort_permutation(torch.tensor([0.0, 2.0, 1.0]), temperature=1e-3)
        tensor([[0., 1., 0.],
                [0., 0., 1.],
                [1., 0., 0.]])
    """
    return _relaxed(neural_sort_rows, scores, temperature, mask)


def softsort_permutation(scores: Tensor, *, temperature: float = 1.0, mask: Tensor | None = None) -> Tensor:
    r"""SoftSort's relaxed sorting permutation of each list on the last dimension (descending).

    .. math:: \hat P_{r,j} = \mathrm{softmax}_j\!\Big(-\frac{|s_{[r]} - s_j|}{T}\Big),

    ``s_[r]`` the ``r``-th largest real score (the hard sort: its gradient flows through ``s_j`` and the sorted
    values). Rows sum to 1 (rows of ranks beyond the real items are 0).

    Args:
        scores: ``(..., n)`` floating scores.
        temperature: ``T`` (> 0); smaller is closer to the hard permutation.
        mask: optional ``(..., n)`` bool of real items; padded columns are 0 and get a gradient of exactly 0.

    Returns:
        ``(..., n, n)``: ``[..., r, j]`` the weight of item ``j`` at rank ``r`` (0-based, best first).

    Raises:
        TypeError: ``scores`` not floating.
        ValueError: ``temperature <= 0``, a ``mask`` that is not bool of the scores' shape.

    References:
        S. Prillo and J. Eisenschlos, "SoftSort: A Continuous Relaxation for the argsort Operator", ICML 2020.

    Examples:
        >>> softsort_permutation(torch.tensor([0.0, 2.0, 1.0]), temperature=1e-3)
        tensor([[0., 1., 0.],
                [0., 0., 1.],
                [1., 0., 0.]])
    """
    return _relaxed(softsort_rows, scores, temperature, mask)
