"""Pairwise ranking losses on one engine: a pair loss ``f`` of the score difference, weighted per pair
(``pairwise_loss``), and its two named cases besides RankNet: the hinge (RankSVM) and the soft zero-one loss."""
from __future__ import annotations

import functools
from typing import Callable, Union

import torch  # noqa: F401  (the doctests use it)
from torch import Tensor, nn

from losses._lambda_weights import WEIGHTINGS, lambda_weights
from losses._module import module_of
from losses._pairwise import PAIR_LOSSES, PairLoss, WeightFn, weighted_pairs
from losses._utils import check_lists, check_options, check_positive, flatten_lists, lists_per_block, reduce
from torchmetrics_lite.checks import check_choice, check_number

__all__ = ["PairwiseHingeLoss", "PairwiseLoss", "PairwiseSoftZeroOneLoss", "pairwise_hinge_loss", "pairwise_loss",
           "pairwise_soft_zero_one_loss"]

Weighting = Union[str, WeightFn]


def _user_weights(fn: Callable[[Tensor, Tensor, Tensor], Tensor], s: Tensor, rel: Tensor, mask: Tensor) -> Tensor:
    w = fn(s, rel, mask)
    if not isinstance(w, Tensor) or w.shape != (*s.shape, s.shape[-1]):
        raise ValueError(f"Expected the `weighting` callable to return a tensor of shape {(*s.shape, s.shape[-1])}, "
                         f"got {getattr(w, 'shape', type(w).__name__)}")
    pairs = mask[:, :, None] & mask[:, None, :]  # padded items never pair, whatever the callable says
    return torch.where(pairs, w.detach().to(s.dtype), torch.zeros((), dtype=s.dtype, device=s.device))


def pairwise_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, pair_loss: PairLoss = "logistic",
                  weighting: Weighting = "uniform", k: int | None = None, sigma: float = 1.0, margin: float = 1.0,
                  gain: str = "linear", mu: float = 10.0, reduction: str = "mean", chunk_size: int | None = None,
                  validate_args: bool = True) -> Tensor:
    r"""The generic pairwise loss: per list, ``sum_ij w_ij f(s_i - s_j)`` with constant pair weights ``w``.

    .. math:: L = \sum_{i \ne j} w_{ij} \, f(s_i - s_j)

    ``pair_loss`` is ``f``: ``"logistic"`` ``softplus(-sigma x)`` (RankNet), ``"hinge"`` ``max(0, margin - x)``
    (RankSVM), ``"sigmoid"`` ``sigmoid(-sigma x)`` (the soft zero-one loss: ``1[s_i < s_j]`` as ``sigma`` grows),
    or an elementwise callable of the ``(lists, n, n)`` differences (differentiated by autograd; first order only).
    ``weighting`` is ``w`` (constants, never differentiated): ``"uniform"`` (1 on each pair with ``rel_i > rel_j``,
    divided by their number: the mean over the ordered pairs, as RankNet), one of the LambdaLoss weightings of
    :func:`~losses.lambdarank_loss` (``"lambdarank"`` ``|delta NDCG@k|``, ``"ndcgloss1"``, ``"ndcgloss2"``,
    ``"ndcgloss2pp"``, ``"arp1"``, ``"arp2"``; they use ``k``, ``gain`` and ``mu``, and sum over the pairs), or a
    callable ``(scores, relevance, mask) -> (lists, n, n)`` of ``(lists, n)`` blocks (padded scores zeroed; its
    output is detached, and pairs with a padded item are zeroed). With ``pair_loss="logistic"`` this is exactly
    :func:`~losses.ranknet_loss` (``"uniform"``) and :func:`~losses.lambdarank_loss` (the others).

    Ties: a pair of equal relevance has weight 0 in every built-in weighting but ``"ndcgloss1"`` and ``"arp1"``
    (they weight every ordered pair); tied scores give ``f(0)`` (and the hinge's subgradient 0 at its kink).
    Memory: the autograd graph keeps one ``(lists, n)`` tensor (the gradient is formed in the forward pass); the
    forward pass needs a few ``(chunk_size, n, n)`` buffers (the callable forms keep one block's graph).

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) form no
            pair and get a gradient of exactly 0.
        pair_loss: ``"logistic"``, ``"hinge"``, ``"sigmoid"`` or a callable (see above).
        weighting: ``"uniform"``, a LambdaLoss weighting name, or a callable (see above).
        k: NDCG cut-off of the NDCG weightings, or ``None`` for the whole list.
        sigma: slope of the logistic and sigmoid pair losses (> 0).
        margin: margin of the hinge (> 0).
        gain: ``"linear"`` (``rel``, the metric's default) or ``"exponential"`` (``2**rel - 1``) in the NDCG
            weightings.
        mu: (>= 0) weight of ``"ndcgloss2pp"``'s NDCG-Loss2 term.
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        chunk_size: lists per ``(lists, n, n)`` block; by default blocks of about 2^18 pairs.
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss. A list that is all padding, has one real item, or whose real items all share one relevance grade
        has no pair to order: it gives 0 and a gradient of 0 (for the built-in weightings).

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, a callable returning the wrong shape, or
            (``validate_args``) relevance negative, NaN or infinite on a real item (use ``mask=`` for padding).

    References:
        Rax ``rax.pairwise_loss`` (the generic form); X. Wang et al., "The LambdaLoss Framework for Ranking Metric
        Optimization", CIKM 2018; R. Herbrich et al., "Large margin rank boundaries for ordinal regression", 2000.

    Examples:
        >>> s = torch.tensor([[1.0, 0.0, 2.0]])
        >>> rel = torch.tensor([[2, 1, 0]])
        >>> round(pairwise_loss(s, rel).item(), 4)  # RankNet: (softplus(-1) + softplus(1) + softplus(2)) / 3
        1.2512
        >>> round(pairwise_loss(s, rel, pair_loss="hinge").item(), 4)  # (0 + 2 + 3) / 3
        1.6667
        >>> round(pairwise_loss(s, rel, pair_loss=lambda d: (1 - d) ** 2).item(), 4)  # (0 + 4 + 9) / 3
        4.3333
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(pair_loss=pair_loss, weighting=weighting, k=k, sigma=sigma, margin=margin, gain=gain, mu=mu,
           reduction=reduction, chunk_size=chunk_size)
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, relevance, mask)
    if callable(weighting):
        weight_fn: WeightFn = functools.partial(_user_weights, weighting)
    else:
        weight_fn = functools.partial(lambda_weights, weighting=weighting, k=k, gain=gain, mu=float(mu))
    per_list = weighted_pairs(s, rel, m, weight_fn, pair_loss=pair_loss, sigma=float(sigma), margin=float(margin),
                              block=lists_per_block(s.shape[-1], chunk_size))
    return reduce(per_list, reduction, batch_shape)


def _check(*, pair_loss, weighting, k, sigma, margin, gain, mu, reduction, chunk_size, **_) -> None:
    check_options(reduction=reduction, gain=gain, k=k, chunk_size=chunk_size)
    if not callable(pair_loss):
        check_choice("pair_loss", pair_loss, PAIR_LOSSES)
    if not callable(weighting):
        check_choice("weighting", weighting, WEIGHTINGS)
    check_positive("sigma", sigma)
    check_positive("margin", margin)
    check_number("mu", mu, low=0.0)


def pairwise_hinge_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None, margin: float = 1.0,
                        reduction: str = "mean", chunk_size: int | None = None, validate_args: bool = True) -> Tensor:
    r"""Pairwise hinge loss (RankSVM): the mean, over the ordered pairs of a list with ``rel_i > rel_j``, of

    .. math:: \ell_{ij} = \max(0,\ \mathrm{margin} - (s_i - s_j)).

    With ``margin = 1`` each pair's hinge is at least its 0-1 loss ``1[s_i <= s_j]``, so on binary relevance the
    loss bounds ``1 - AUROC`` of the list from above. Tied scores cost ``margin``; the subgradient at the kink is 0.
    :func:`~losses.pairwise_loss` with ``pair_loss="hinge"`` (other weightings there).

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) form no
            pair and get a gradient of exactly 0.
        margin: the hinge's margin (> 0).
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        chunk_size: lists per ``(lists, n, n)`` block; by default blocks of about 2^18 pairs.
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss. A list with fewer than two real items, or whose real items all share one relevance grade, has no
        pair: it gives 0 and a gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        R. Herbrich, T. Graepel, K. Obermayer, "Large margin rank boundaries for ordinal regression", 2000;
        Rax ``rax.pairwise_hinge_loss``.

    Examples:
        >>> pairwise_hinge_loss(torch.tensor([0.5, 0.0]), torch.tensor([1.0, 0.0]))  # max(0, 1 - 0.5)
        tensor(0.5000)
    """
    return pairwise_loss(scores, relevance, mask=mask, pair_loss="hinge", margin=margin, reduction=reduction,
                         chunk_size=chunk_size, validate_args=validate_args)


def pairwise_soft_zero_one_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None,
                                sigma: float = 1.0, reduction: str = "mean", chunk_size: int | None = None,
                                validate_args: bool = True) -> Tensor:
    r"""Soft zero-one pairwise loss: the mean, over the ordered pairs of a list with ``rel_i > rel_j``, of

    .. math:: \ell_{ij} = \sigma\big(-\mathrm{sigma}\,(s_i - s_j)\big),

    a smooth count of the misordered pairs: as ``sigma`` grows it tends to ``1[s_i < s_j]`` (a tie counts 1/2),
    so the loss tends to the fraction of misordered pairs, ``1 - AUROC`` of the list on binary relevance.
    Bounded, so an outlier pair cannot dominate (its gradient vanishes far from the boundary).

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) form no
            pair and get a gradient of exactly 0.
        sigma: slope of the sigmoid (> 0).
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        chunk_size: lists per ``(lists, n, n)`` block; by default blocks of about 2^18 pairs.
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss, in ``[0, 1]`` per list. A list with fewer than two real items, or whose real items all share one
        relevance grade, has no pair: it gives 0 and a gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        TF-Ranking ``PairwiseSoftZeroOneLoss`` / Rax ``rax.pairwise_soft_zero_one_loss``.

    Examples:
        >>> round(pairwise_soft_zero_one_loss(torch.tensor([0.0, 1.0]), torch.tensor([1, 0])).item(), 4)
        0.7311
    """
    return pairwise_loss(scores, relevance, mask=mask, pair_loss="sigmoid", sigma=sigma, reduction=reduction,
                         chunk_size=chunk_size, validate_args=validate_args)


def _check_hinge(*, margin, reduction, chunk_size, **_) -> None:
    check_options(reduction=reduction, chunk_size=chunk_size)
    check_positive("margin", margin)


def _check_soft(*, sigma, reduction, chunk_size, **_) -> None:
    check_options(reduction=reduction, chunk_size=chunk_size)
    check_positive("sigma", sigma)


@module_of(pairwise_loss, _check)
class PairwiseLoss(nn.Module):
    """Module form of :func:`pairwise_loss` (same keyword options; ``forward(scores, relevance, mask=None)``).

    Examples:
        >>> loss = PairwiseLoss(pair_loss="hinge", weighting="lambdarank", k=5)
        >>> loss
        PairwiseLoss(pair_loss='hinge', weighting='lambdarank', k=5)
        >>> round(loss(torch.tensor([[0.0, 2.0]]), torch.tensor([[1, 0]])).item(), 4)  # (1 - 1/log2(3)) * max(0, 1 + 2)
        1.1072
    """


@module_of(pairwise_hinge_loss, _check_hinge)
class PairwiseHingeLoss(nn.Module):
    """Module form of :func:`pairwise_hinge_loss` (``forward(scores, relevance, mask=None)``).

    Examples:
        >>> PairwiseHingeLoss(margin=0.5)(torch.tensor([0.25, 0.0]), torch.tensor([1, 0]))  # max(0, 0.5 - 0.25)
        tensor(0.2500)
    """


@module_of(pairwise_soft_zero_one_loss, _check_soft)
class PairwiseSoftZeroOneLoss(nn.Module):
    """Module form of :func:`pairwise_soft_zero_one_loss` (``forward(scores, relevance, mask=None)``).

    Examples:
        >>> round(PairwiseSoftZeroOneLoss(sigma=100.0)(torch.tensor([0.0, 1.0]), torch.tensor([1, 0])).item(), 4)
        1.0
    """
