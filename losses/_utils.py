"""Shared pieces of the losses: input checks, masking, gains and discounts, current ranks, reduction.

Conventions (every loss documents them again):

* Lists lie on the last dimension; every leading dimension is a batch of lists. A boolean ``mask`` of the same
  shape marks real items (``True``); padded items never pair with anything, and their scores are replaced
  by 0 with ``torch.where`` before any arithmetic, so a padded score that is ``inf`` or NaN cannot leak a NaN
  and padded items get a gradient of exactly 0.
* Relevance may be of any real dtype (bool, int, float); it is cast to the scores' floating dtype.
* Gains: ``"exponential"`` is ``2**rel - 1`` (the learning-to-rank default), ``"linear"`` is ``rel``.
  Discount of the 0-based rank ``r``: ``1 / log2(r + 2)``; zero at ranks ``>= k`` when a cut-off is given.
* Reduction over the lists: ``"mean"`` (over all lists, degenerate ones included), ``"sum"`` or ``"none"``
  (a tensor of the leading shape).
* Relevance must be finite and >= 0 on real items: a padding sentinel such as -1 (as other libraries use)
  raises a ``ValueError`` that points to ``mask=``. That value check is the only host sync of a ranking loss;
  ``validate_args=False`` skips it. Binary targets must hold only 0 and 1 (same switch).
* Nothing to learn: a list whose real items all share one relevance grade (no relevant item included), or a
  batch with one class, gives a loss of 0 and a gradient of exactly 0.

Checks of metadata (type, shape, dtype, options) always run and cost nothing.
"""
from __future__ import annotations

import math
from typing import Callable

import torch
from torch import Tensor
from torch.utils.checkpoint import checkpoint

from torchmetrics_lite.checks import (
    check_binary_values,
    check_choice,
    check_number,
    check_positive_int,
    check_real,
    check_same_shape,
    check_tensor,
    upcast,
)

REDUCTIONS = ("mean", "sum", "none")
GAINS = ("exponential", "linear")
# Default size (elements) of one (lists, n, n) block of pairwise terms: 1 MiB per float32 buffer, so that the few
# buffers of a block stay in cache (about twice as fast as whole-batch tensors on a 256 x 100 batch).
PAIR_BLOCK = 1 << 18


def check_lists(scores: Tensor, relevance: Tensor, mask: Tensor | None, validate_args: bool = True,
                target_name: str = "relevance") -> tuple[Tensor, Tensor, Tensor]:
    """Validate ``(scores, relevance, mask)`` of a ranking loss; return them as ``(scores, relevance, mask)`` with
    scores upcast from half precision, relevance in the scores' dtype and an all-True mask when none is given.
    Padded relevance is zeroed. ``validate_args``: relevance on real items must be finite and >= 0 (host sync)."""
    scores, relevance = check_tensor("scores", scores), check_tensor(target_name, relevance)
    if not scores.is_floating_point():
        raise TypeError(f"Expected `scores` to have a floating dtype, got {scores.dtype}")
    if scores.dim() < 1:
        raise ValueError(f"Expected `scores` to have at least 1 dimension (lists on the last), "
                         f"got shape {tuple(scores.shape)}")
    check_real(target_name, relevance)
    check_same_shape("scores", scores, target_name, relevance)
    scores = upcast(scores)
    if mask is None:
        mask = torch.ones(scores.shape, dtype=torch.bool, device=scores.device)
    else:
        check_tensor("mask", mask)
        if mask.dtype != torch.bool:
            raise TypeError(f"Expected `mask` to have dtype torch.bool, got {mask.dtype}")
        check_same_shape("scores", scores, "mask", mask)
    check_validate_args(validate_args)
    if validate_args:
        check_relevance_values(relevance, mask, target_name)
    relevance = torch.where(mask, relevance.to(scores.dtype), torch.zeros((), dtype=scores.dtype, device=scores.device))
    return scores, relevance, mask


def check_validate_args(validate_args: object) -> None:
    if not isinstance(validate_args, bool):
        raise TypeError(f"Expected `validate_args` to be a bool, got {type(validate_args).__name__}")


def check_relevance_values(relevance: Tensor, mask: Tensor, name: str = "relevance") -> None:
    """Value check (one host sync): relevance on real items is finite and >= 0. A padding sentinel such as -1 would
    otherwise be a real item with a negative gain (``2**-1 - 1 = -0.5``) that the loss pushes the wrong way."""
    if relevance.numel() == 0 or relevance.dtype == torch.bool:
        return
    ok = relevance >= 0 if not relevance.is_floating_point() else torch.isfinite(relevance) & (relevance >= 0)
    bad = mask & ~ok
    if bool(bad.any()):
        value = float(relevance[bad][0].item())
        raise ValueError(f"Expected `{name}` to be finite and >= 0 on real items, got {value} (mark padded items "
                         f"with the boolean `mask=` argument instead of a sentinel value, or pass "
                         f"validate_args=False to skip this check)")


def check_binary(preds_name: str, preds: Tensor, target: Tensor, validate_args: bool,
                 target_name: str = "target") -> None:
    """``preds`` a floating tensor, ``target`` a real tensor of the same shape; with ``validate_args`` the target
    holds only 0 and 1 (host sync)."""
    check_tensor(preds_name, preds)
    check_tensor(target_name, target)
    if not preds.is_floating_point():
        raise TypeError(f"Expected `{preds_name}` to have a floating dtype, got {preds.dtype}")
    check_real(target_name, target)
    check_same_shape(preds_name, preds, target_name, target)
    check_validate_args(validate_args)
    if validate_args:
        check_binary_values(target_name, target)


def check_options(*, reduction: str, gain: str | None = None, k: int | None = None,
                  chunk_size: int | None = None) -> None:
    check_choice("reduction", reduction, REDUCTIONS)
    if gain is not None:
        check_choice("gain", gain, GAINS)
    check_positive_int("k", k, allow_none=True)
    check_positive_int("chunk_size", chunk_size, allow_none=True)


def check_positive(name: str, value: float) -> None:
    check_number(name, value, low=0.0, low_open=True)


def masked_scores(scores: Tensor, mask: Tensor) -> Tensor:
    """Scores with padded entries replaced by 0 (``where``: their gradient is exactly 0, inf/NaN cannot leak)."""
    return torch.where(mask, scores, torch.zeros((), dtype=scores.dtype, device=scores.device))


def gains(relevance: Tensor, mask: Tensor, kind: str) -> Tensor:
    """``2**rel - 1`` or ``rel``; 0 on padded items."""
    g = torch.expm1(relevance * 0.6931471805599453) if kind == "exponential" else relevance
    return torch.where(mask, g, torch.zeros((), dtype=g.dtype, device=g.device))


def discounts(n: int, k: int | None, *, dtype: torch.dtype, device: torch.device) -> Tensor:
    """``1 / log2(r + 2)`` for the 0-based ranks ``r = 0 .. n-1``, zero at ``r >= k``."""
    d = 1.0 / torch.log2(torch.arange(n, dtype=dtype, device=device) + 2.0)
    if k is not None:
        d[k:] = 0.0
    return d


def ideal_dcg(g: Tensor, mask: Tensor, k: int | None) -> Tensor:
    """DCG@k of the ideal order of each list (gains sorted descending over the real items), shape ``g.shape[:-1]``."""
    n = g.shape[-1]
    neg_inf = torch.tensor(-float("inf"), dtype=g.dtype, device=g.device)
    ideal = torch.sort(torch.where(mask, g, neg_inf), dim=-1, descending=True).values
    ideal = torch.where(torch.isfinite(ideal), ideal, torch.zeros((), dtype=g.dtype, device=g.device))
    return (ideal * discounts(n, k, dtype=g.dtype, device=g.device)).sum(-1)


def safe_inverse(x: Tensor) -> Tensor:
    """``1 / x`` where ``x > 0``, else 0 (lists with no relevant item contribute nothing, without NaN)."""
    pos = x > 0
    return torch.where(pos, 1.0 / torch.where(pos, x, torch.ones((), dtype=x.dtype, device=x.device)),
                       torch.zeros((), dtype=x.dtype, device=x.device))


def current_ranks(scores: Tensor, mask: Tensor) -> Tensor:
    """0-based rank of each item when its list is sorted by score, descending; padded items come last and tied
    scores keep their input order (stable sort). int64, same shape as ``scores``. Not differentiable."""
    key = torch.where(mask, scores.detach(), torch.tensor(-float("inf"), dtype=scores.dtype, device=scores.device))
    order = torch.sort(key, dim=-1, descending=True, stable=True).indices
    pos = torch.arange(scores.shape[-1], device=scores.device).expand_as(order)
    return torch.empty_like(order).scatter_(-1, order, pos)


def flatten_lists(*tensors: Tensor) -> tuple[Tensor, ...]:
    """View every tensor as ``(lists, n)``."""
    return tuple(t.reshape(math.prod(t.shape[:-1]), t.shape[-1]) for t in tensors)


def reduce(per_list: Tensor, reduction: str, batch_shape: torch.Size) -> Tensor:
    """``per_list`` of shape ``(lists,)`` reduced as asked; ``"none"`` gives the leading shape of the input."""
    if reduction == "none":
        return per_list.reshape(batch_shape)
    if reduction == "sum":
        return per_list.sum()
    if per_list.numel() == 0:
        return per_list.sum()  # 0, not the NaN of an empty mean
    return per_list.mean()


def informative(relevance: Tensor, mask: Tensor) -> Tensor:
    """Lists (``(lists, n)`` input, bool ``(lists,)`` output) whose real items hold at least two distinct relevance
    grades: the others have nothing to learn (every order is ideal), and the losses give them 0."""
    inf = torch.tensor(float("inf"), dtype=relevance.dtype, device=relevance.device)
    if relevance.shape[-1] == 0:
        return torch.zeros(relevance.shape[:-1], dtype=torch.bool, device=relevance.device)
    return torch.where(mask, relevance, -inf).amax(-1) > torch.where(mask, relevance, inf).amin(-1)


def zero_where_not(keep: Tensor, per_list: Tensor) -> Tensor:
    """``per_list`` where ``keep``, else 0 (the gradient of a dropped list is exactly 0 when its value is finite)."""
    return torch.where(keep, per_list, torch.zeros((), dtype=per_list.dtype, device=per_list.device))


def checkpointed_blocks(fn: Callable[..., Tensor], block: int, *tensors: Tensor) -> Tensor:
    """``fn(*tensors)`` on blocks of ``block`` lists (rows of the ``(lists, ...)`` tensors), concatenated. With more
    than one block, each block runs under activation checkpointing: the graph keeps only the inputs, and backward
    recomputes one block at a time, so the memory of the ``(block, n, n)`` intermediates stays bounded."""
    lists = tensors[0].shape[0]
    if lists <= block:
        return fn(*tensors)
    parts = [checkpoint(fn, *(t[i:i + block] for t in tensors), use_reentrant=False) for i in range(0, lists, block)]
    return torch.cat(parts)


def lists_per_block(n: int, chunk_size: int | None, budget: int = PAIR_BLOCK) -> int:
    """How many lists go into one ``(lists, n, n)`` block: ``chunk_size`` or, by default, a ~``budget`` block."""
    if chunk_size is not None:
        return chunk_size
    return max(1, budget // max(1, n * n))
