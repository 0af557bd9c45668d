"""Input validation of the retrieval family (dense blocks with ``mask``, or flat rows with ``indexes``)."""
from __future__ import annotations

import math
from typing import Any, Callable, Optional, Sequence, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks.auroc import check_max_fpr
from torchmetrics_lite._checks.primitives import (
    check_choice,
    check_integer,
    check_ndim,
    check_no_nan,
    check_positive_int,
    check_real,
    check_same_shape,
    check_sample_weight,
    check_tensor,
    upcast,
)
from torchmetrics_lite._dtype import float_dtype

AGGREGATIONS = ("mean", "median", "min", "max")
_TIES, _EMPTY, _REDUCTIONS, _GAINS = ("average", "order"), ("skip", "zero", "one", "error"), ("mean", "none"), \
    ("linear", "exponential")


def check_retrieval_options(*, k: Any = None, ties: Any = "average", empty: Any = "zero",
                            ignore_index: Any = None, reduction: Any = "mean", gain: Any = "linear",
                            max_fpr: Any = None) -> None:
    """The options shared by every retrieval function and module (``max_fpr``: AUROC's, in ``(0, 1]``)."""
    if ((k is None or (type(k) is int and k > 0)) and max_fpr is None and ties in _TIES and empty in _EMPTY
            and reduction in _REDUCTIONS and gain in _GAINS and (ignore_index is None or type(ignore_index) is int)):
        return  # the common case at once; otherwise the checks below raise the first error
    check_positive_int("k", k, allow_none=True)
    check_max_fpr(max_fpr)
    check_choice("ties", ties, _TIES)
    check_choice("empty", empty, _EMPTY)
    check_choice("reduction", reduction, _REDUCTIONS)
    check_choice("gain", gain, _GAINS)
    if ignore_index is not None and (isinstance(ignore_index, bool) or not isinstance(ignore_index, int)):
        raise ValueError(f"Expected `ignore_index` to be an int or None, got {ignore_index!r}")


def check_retrieval_aggregation(aggregation: Any, choices: Sequence[str] = AGGREGATIONS) -> None:
    """A module's ``aggregation``: one of ``choices`` or a callable ``aggregation(values, dim=None)``."""
    if not callable(aggregation):
        check_choice("aggregation", aggregation, choices)


def check_retrieval_aggregated(aggregation: Callable[..., Any], value: Any) -> Tensor:
    """What a callable ``aggregation`` returned: it must be a real scalar (0-dimensional) tensor."""
    expected = (f"Expected `aggregation` ({getattr(aggregation, '__name__', aggregation)!s}) to return a real scalar "
                "tensor (0-dimensional) from the 1-D tensor of per-query values")
    if not isinstance(value, Tensor):
        raise TypeError(f"{expected}, got {type(value).__name__}")
    if value.dim() != 0 or value.is_complex():
        raise ValueError(f"{expected}, got a tensor of shape {tuple(value.shape)} and dtype {value.dtype}")
    return value


def check_module_indexes(preds: Any) -> None:
    """A retrieval module's update without ``indexes``: only ``(queries, items)`` input, one query per row (a
    module gathers the items of many queries over its updates: torchmetrics' ``update(preds, target, indexes)``;
    a 1-D batch read as one query would be a silently different number)."""
    if isinstance(preds, Tensor) and preds.dim() == 1:
        raise TypeError("Expected `indexes` (the query id of each item) with 1-D `preds` and `target` in a "
                        "retrieval module's update, got None: pass update(preds, target, indexes=...), or "
                        "(queries, items) 2-D `preds` and `target` for one query per row")


def check_retrieval_inputs(preds: Any, target: Any, indexes: Any, mask: Any,
                           validate_args: bool) -> Tuple[Tensor, Tensor, Optional[Tensor], Optional[Tensor]]:
    """Dense ``(queries, items)`` (or one query, 1-D) ``preds``/``target`` with an optional bool ``mask``, or
    flat 1-D ``preds``/``target``/``indexes``. Integer scores become float64 (order exact up to 2**53 in
    magnitude; float32, exact up to 2**24, on a device without float64), float16/bfloat16 float32; value checks:
    no NaN score, no NaN or negative target (``ignore_index`` rows are dropped first)."""
    if not (isinstance(preds, Tensor) and isinstance(target, Tensor)) or preds.is_complex() or \
            target.is_complex() or preds.shape != target.shape:  # one test for the common case; the messages:
        _check_pair(preds, target)
    if indexes is None:
        if preds.dim() not in (1, 2):
            check_ndim("preds", preds, (1, 2), "; for (..., items) inputs pass preds.reshape(-1, items) and the "
                       "same for target (one query per row), or flat inputs with `indexes=`")
    elif not (isinstance(indexes, Tensor) and preds.dim() == 1 and indexes.shape == preds.shape
              and not (indexes.is_floating_point() or indexes.is_complex() or indexes.dtype == torch.bool)):
        _check_indexes(preds, indexes)
    if mask is not None and not (isinstance(mask, Tensor) and mask.dtype == torch.bool and mask.shape == preds.shape):
        _check_mask(preds, mask)
    if not preds.is_floating_point():
        preds = preds.to(float_dtype(preds.device))
    elif preds.dtype in (torch.float16, torch.bfloat16):
        preds = upcast(preds)
    return preds, target, indexes, mask


def check_query_weight(weight: Any, preds: Tensor, indexes: Optional[Tensor], reduction: str,
                       validate_args: bool) -> Optional[Tensor]:
    """``weight`` of the weighted NDCG / DCG functions (after :func:`check_retrieval_inputs`): ``None``, or one
    non-negative, finite value per query of dense input (a row of 2-D ``preds``; one for 1-D ``preds``) on
    ``preds``' device, scikit-learn's ``sample_weight`` of ``ndcg_score`` / ``dcg_score``; only with
    ``reduction="mean"`` (per-query values do not depend on weights). Flat input is refused: its queries are the
    ids of ``indexes`` that keep an item after ``mask`` / ``ignore_index``, which a caller cannot align weights
    with before the ranking; the dense form names each query by its row."""
    if weight is None:
        return None
    if indexes is not None:
        raise ValueError("Expected `weight` (one value per query) with dense (queries, items) `preds` and `target` "
                         "and indexes=None, got flat input with `indexes`: pass one query per row (pad shorter "
                         "queries, `mask=False` at the padding) and one weight per row")
    if reduction != "mean":
        raise ValueError(f"Expected reduction='mean' with `weight` (the weighted mean over queries), got "
                         f"reduction={reduction!r}: per-query values do not depend on the weights (drop `weight`, "
                         "or multiply the values by it)")
    n_queries = preds.shape[0] if preds.dim() == 2 else 1
    return check_sample_weight(weight, (n_queries,), validate_args=validate_args, device=preds.device,
                               unit="query (row of `preds`)")


_FLAT_SCORES = (torch.float32, torch.float64)
_FLAT_LABELS = (torch.bool, torch.uint8, torch.int16, torch.int32, torch.int64)
_FLAT_IDS = (torch.int32, torch.int64)


def flat_retrieval_rows(preds: Any, target: Any, indexes: Any,
                        validate_args: bool) -> Optional[Tuple[Tensor, Tensor, Tensor]]:
    """The common flat batch (no ``mask``, no ``ignore_index``) checked in one frame: 1-D float32/float64 scores,
    bool or integer grades and integer query ids of one shape; values: one NaN probe of the scores (``a.dot(a)``)
    and, for integer grades, their minimum. ``None`` for anything else or any suspect value: then
    :func:`check_retrieval_inputs` and :func:`check_retrieval_values` decide, and name what is wrong."""
    if not (isinstance(preds, Tensor) and isinstance(target, Tensor) and isinstance(indexes, Tensor)
            and preds.dtype in _FLAT_SCORES and target.dtype in _FLAT_LABELS and indexes.dtype in _FLAT_IDS
            and preds.dim() == 1 and preds.shape == target.shape == indexes.shape):
        return None
    if validate_args and preds.numel():
        if math.isnan(preds.dot(preds).item()):  # a sum of squares: NaN exactly when a score is NaN
            return None
        if target.dtype != torch.bool and target.min().item() < 0:
            return None
    return preds, target, indexes


def _check_pair(preds: Any, target: Any) -> None:
    """Raise the first error about ``preds``/``target`` themselves (tensors, real, the same shape)."""
    check_tensor("preds", preds)
    check_tensor("target", target)
    check_real("preds", preds)
    check_real("target", target)
    check_same_shape("preds", preds, "target", target)


def _check_indexes(preds: Tensor, indexes: Any) -> None:
    """Raise the first error about flat input's ``indexes`` (a tensor of integer query ids, ``preds``' 1-D shape)."""
    if isinstance(indexes, int) and not isinstance(indexes, bool):
        raise TypeError(f"Expected `indexes` to be a torch.Tensor, got int {indexes}; torchmetrics' third "
                        f"positional argument `top_k` is `k={indexes}` here (by keyword)")
    check_tensor("indexes", indexes)
    check_ndim("preds", preds, (1,), "; with `indexes=` the inputs are flat (torchmetrics flattens them): pass "
               "preds.reshape(-1), target.reshape(-1), indexes=indexes.reshape(-1)")
    check_integer("indexes", indexes, allow_bool=False)
    check_same_shape("indexes", indexes, "preds", preds)


def _check_mask(preds: Tensor, mask: Any) -> None:
    """Raise the first error about ``mask`` (a bool tensor of ``preds``' shape)."""
    check_tensor("mask", mask)
    if mask.dtype != torch.bool:
        raise TypeError(f"Expected `mask` to have dtype torch.bool, got {mask.dtype}")
    check_same_shape("mask", mask, "preds", preds)


def check_retrieval_values(preds: Tensor, target: Tensor, keep: Optional[Tensor] = None) -> None:
    """Value checks (host sync) on the items that remain after mask and ``ignore_index``: all of them, or those
    where the bool ``keep`` (same shape) is True, read in place (no copy of the kept items)."""
    if keep is None:
        check_no_nan("preds", preds, total=preds.sum() if preds.is_floating_point() and preds.numel() else None)
    else:
        _check_kept_no_nan("preds", preds, keep)
    if target.numel() and target.dtype != torch.bool:
        if keep is None:
            check_no_nan("target", target)
            low = target.min().item()
        else:
            _check_kept_no_nan("target", target, keep)
            low = torch.where(keep, target, 0).min().item()  # min over kept items whenever it is negative
        if low < 0:
            raise ValueError(f"Expected `target` to be non-negative (relevance grades), got minimum {low}")


def _check_kept_no_nan(name: str, t: Tensor, keep: Tensor) -> None:
    if t.is_floating_point() and t.numel() and math.isnan(t.sum().item()):
        n_nan = int((torch.isnan(t) & keep).sum())
        if n_nan:
            raise ValueError(f"Expected `{name}` to contain no NaN, got {n_nan} NaN value(s)")

