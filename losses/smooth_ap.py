"""Smooth-AP (Brown et al., ECCV 2020): average precision with each rank replaced by a sum of sigmoids."""
from __future__ import annotations

import functools

import torch
from torch import Tensor, nn

from losses._module import module_of
from losses._pairwise import blockwise
from losses._utils import (
    check_lists,
    check_options,
    check_positive,
    check_validate_args,
    flatten_lists,
    lists_per_block,
    masked_scores,
    reduce,
)
from torchmetrics_lite.checks import check_binary_values

__all__ = ["SmoothAPLoss", "smooth_ap_loss"]


def _smooth_ap_block(s: Tensor, y: Tensor, mask: Tensor, *, temperature: float, need_grad: bool):
    """``1 - SmoothAP`` of a block of lists and its gradient in closed form. With ``c_ij = sig_ij (1 - sig_ij) / T``
    and ``a_i = y_i / |P|``: ``d SmoothAP = sum_ij W_ij (ds_j - ds_i)``,
    ``W_ij = a_i c_ij (y_j / D_i - N_i / D_i^2)``."""
    s = masked_scores(s, mask)
    z = (s[:, None, :] - s[:, :, None]) / temperature  # z_ij = (s_j - s_i) / T
    n = s.shape[-1]
    pair = mask[:, None, :] & ~torch.eye(n, dtype=torch.bool, device=s.device)  # real j != i
    zero = torch.zeros((), dtype=s.dtype, device=s.device)
    sig = torch.where(pair, torch.sigmoid(z), zero)
    num = 1.0 + torch.linalg.vecdot(sig, y[:, None, :])  # 1 + sum over positives j != i
    den = 1.0 + sig.sum(-1)  # 1 + sum over all j != i
    n_pos = y.sum(-1, keepdim=True)
    a = y / n_pos.clamp_min(1.0)  # y is 0 on padded items
    per_list = torch.where(n_pos[:, 0] > 0, 1.0 - (a * num / den).sum(-1), zero)
    if not need_grad:
        return per_list, None
    slope = torch.where(pair, torch.sigmoid(z).mul_(torch.sigmoid(-z)), zero).div_(temperature)
    w = slope.mul_((y[:, None, :] / den[:, :, None] - (num / (den * den))[:, :, None]) * a[:, :, None])
    return per_list, w.sum(-1) - w.sum(-2)  # d(1 - AP): ds_i gets -sum_j W_ij, ds_j gets +sum_i W_ij, negated


def smooth_ap_loss(scores: Tensor, target: Tensor, *, mask: Tensor | None = None, temperature: float = 0.01,
                   reduction: str = "mean", chunk_size: int | None = None, validate_args: bool = True) -> Tensor:
    r"""``1 - SmoothAP``: average precision with each item's rank replaced by a sum of sigmoids,

    .. math:: \mathrm{SmoothAP} = \frac{1}{|P|} \sum_{i \in P}
       \frac{1 + \sum_{j \in P,\, j \ne i} \sigma_{ij}}{1 + \sum_{j \ne i} \sigma_{ij}}, \qquad
       \sigma_{ij} = \mathrm{sigmoid}\!\left(\frac{s_j - s_i}{T}\right),

    per list, over its real items (``P`` its positives; both sums exclude ``i``). As ``T -> 0`` with distinct
    scores the numerator counts the positives ranked at or above ``i`` and the denominator ``i``'s rank, so the
    loss reaches ``1 - binary_average_precision`` exactly. O(n^2) per list, in blocks of lists (``chunk_size``, by
    default about 2^18 pairs per block); the forward pass forms the gradient in closed form, so the autograd
    graph keeps one ``(lists, n)`` tensor.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list (one query).
        target: ``(..., n)`` 0/1 labels (bool, int or float); 1 is positive.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            part and get a gradient of exactly 0.
        temperature: ``T`` (> 0); 0.01 as in the paper (for scores such as cosine similarities in [-1, 1]).
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        chunk_size: lists per ``(lists, n, n)`` block.
        validate_args: check that ``target`` holds only 0 and 1 on real items (host sync).

    Returns:
        The loss, in ``[0, 1]`` per list. A list with no positive (AP undefined) or with no negative (AP is 1
        whatever the scores) has nothing to learn: it gives 0 and a gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) a target other than 0/1.

    References:
        A. Brown, W. Xie, V. Kalogeiton and A. Zisserman, "Smooth-AP: Smoothing the Path Towards Large-Scale
        Image Retrieval", ECCV 2020.

    Examples:
        >>> s = torch.tensor([0.9, 0.8, 0.7, 0.6])
        >>> y = torch.tensor([1, 0, 1, 0])
        >>> round(smooth_ap_loss(s, y, temperature=1e-4).item(), 4)  # 1 - (1/1 + 2/3) / 2
        0.1667
    """
    scores, target, mask = check_lists(scores, target, mask, validate_args=False, target_name="target")
    check_validate_args(validate_args)
    if validate_args:
        check_binary_values("target", target)  # padded entries are 0 by now: anything may pad
    _check(temperature=temperature, reduction=reduction, chunk_size=chunk_size)
    batch_shape = scores.shape[:-1]
    s, y, m = flatten_lists(scores, target, mask)
    y = (y != 0).to(s.dtype)
    fn = functools.partial(_smooth_ap_block, temperature=float(temperature))
    return reduce(blockwise(fn, s, y, m, block=lists_per_block(s.shape[-1], chunk_size)), reduction, batch_shape)


def _check(*, temperature, reduction, chunk_size, **_) -> None:
    check_options(reduction=reduction, chunk_size=chunk_size)
    check_positive("temperature", temperature)


@module_of(smooth_ap_loss, _check)
class SmoothAPLoss(nn.Module):
    """Module form of :func:`smooth_ap_loss` (same keyword options; ``forward(scores, target, mask=None)``).

    Examples:
        >>> loss = SmoothAPLoss(temperature=0.01)
        >>> round(loss(torch.tensor([0.9, 0.1]), torch.tensor([1, 0])).item(), 4)  # the positive is first
        0.0
    """
