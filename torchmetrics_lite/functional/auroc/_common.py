"""Shared pieces of the AUROC family: the state type, label views, which exact kernel runs (the fast unweighted
counts of :mod:`._ranking`; weighted on CPU, the tie-group weights of
:func:`~torchmetrics_lite._sort.weighted_tie_groups` / :func:`~torchmetrics_lite._sort.weighted_row_buckets`; else
the sweep of :mod:`._sweep`, also the compiled path), per-class averaging, the undefined-value rule
(``nan`` with a warning, or ``ValueError`` with ``strict=True``); the family's shared docstring text is in
:mod:`._doc_args`)."""
from __future__ import annotations

import warnings
from typing import Dict, Optional, Tuple, TypeVar

import torch
from torch import Tensor

from torchmetrics_lite import _backend, _sort
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.auroc import _ranking as rk
from torchmetrics_lite.functional.auroc import _sweep as sw

State = Dict[str, Tensor]
_T = TypeVar("_T")

def _class_dtype(num_classes: int) -> torch.dtype:
    return torch.uint8 if num_classes <= 256 else torch.int16 if num_classes <= 32768 else torch.int64


def _compiling() -> bool:
    return torch.compiler.is_compiling()


def _as_bool(labels: Tensor) -> Tensor:
    """uint8 0/1 labels as a zero-copy bool view (a comparison under ``torch.compile``: inductor's C++ code
    generation fails on a uint8 -> bool view)."""
    return labels.view(torch.bool) if labels.dtype == torch.uint8 and not _compiling() else labels != 0


def _undefined(what: str, where: str, strict: bool) -> None:
    msg = f"{what} is undefined {where}; returning nan"
    if strict:
        raise ValueError(f"Expected both classes in `target` for {what}, but it is undefined {where}")
    warnings.warn(msg, UserWarning, stacklevel=3)


def _check_defined(value: Tensor, what: str, strict: bool, where: str = "with one class present") -> None:
    """Warn (or raise with ``strict``) when a scalar value is ``nan``; nothing under ``torch.compile``."""
    if not _compiling() and bool(torch.isnan(value)):
        _undefined(what, where, strict)


def _state_weight(state: State) -> Optional[Tensor]:
    """The ``weight`` rows of a state, ``None`` when no update was weighted; a state whose merged parts were
    weighted and unweighted raises (its samples would silently count differently)."""
    weight = state.get("weight")
    if weight is None or weight.numel() == 0:
        return None
    if weight.shape[0] != state["preds"].shape[0]:
        raise ValueError(f"Expected every merged state to be weighted or none, got {weight.shape[0]} weights for "
                         f"{state['preds'].shape[0]} samples (a weighted and an unweighted metric were merged)")
    return weight


def _with_weight(state: State, weight: Optional[Tensor]) -> State:
    if weight is not None:
        state["weight"] = weight
    return state


def _columns(preds: Tensor, positive: Tensor) -> Tuple[Tensor, Tensor]:
    """One row per class/label: scores ``(C, N)`` contiguous and the positives mask ``(C, N)``."""
    return preds.t().contiguous(), positive.t().contiguous()


def _binary_swept(scores: Tensor, is_pos: Tensor, weight: Optional[Tensor]) -> sw.Swept:
    """The sweep of 1-D scores: static per position under ``torch.compile``, compressed to tie groups eagerly."""
    if _compiling():
        return sw.sweep(scores.unsqueeze(0), is_pos.unsqueeze(0), weight)
    return sw.sweep_groups(scores, is_pos, weight)


def _binary_auroc_value(scores: Tensor, is_pos: Tensor, weight: Optional[Tensor]) -> Tensor:
    """The kernel choice of binary AUROC: unweighted and eager, the rank counts (numpy on a CPU tensor, torch
    elsewhere: :func:`torchmetrics_lite._backend.use_numpy`, read once); else the sweep."""
    if weight is None and not _compiling():
        rank = rk.rank_binary_numpy if _backend.use_numpy(scores) else rk.rank_binary_torch
        return rk.auroc_from_ranked(rank(scores, is_pos))
    return sw.auroc_from_swept(_binary_swept(scores, is_pos, weight))[0]


def _binary_ap_value(scores: Tensor, is_pos: Tensor, weight: Optional[Tensor]) -> Tensor:
    if weight is None and not _compiling():
        ranked = rk.rank_binary(scores, is_pos)
        return rk.precision_sum(ranked) / ranked.n_pos.to(float_dtype(scores.device))
    return sw.ap_from_swept(_binary_swept(scores, is_pos, weight))[0]


def _rows_swept(scores: Tensor, positive: Tensor, weight: Optional[Tensor]) -> sw.Swept:
    """The per-row sweep; weighted, eager and on CPU, read from the tie-group weights of
    :func:`torchmetrics_lite._sort.weighted_row_buckets` where that counting table applies (no argsort, no
    gather)."""
    if weight is not None and weight.dim() == 1 and not _compiling():
        buckets = _sort.weighted_row_buckets(scores, positive, weight)
        if buckets is not None:
            return sw.sweep_buckets(*buckets)
    return sw.sweep(scores, positive, weight)


def _rows_auroc(scores: Tensor, positive: Tensor, weight: Optional[Tensor]) -> Tuple[Tensor, Tensor]:
    """Per-row AUROC and per-row positive weight (the ``"weighted"`` average's support)."""
    if weight is None and not _compiling():
        ranked = rk.rank_rows(scores, positive)
        return rk.auroc_from_ranked(ranked), ranked.n_pos
    swept = _rows_swept(scores, positive, weight)
    return sw.auroc_from_swept(swept), swept.n_pos


def _rows_ap(scores: Tensor, positive: Tensor, weight: Optional[Tensor]) -> Tuple[Tensor, Tensor]:
    if weight is None and not _compiling():
        ranked = rk.rank_rows(scores, positive)
        return rk.precision_sum(ranked) / ranked.n_pos.to(float_dtype(scores.device)), ranked.n_pos
    swept = _rows_swept(scores, positive, weight)
    return sw.ap_from_swept(swept), swept.n_pos


def _average(values: Tensor, support: Tensor, average: str, what: str, strict: bool) -> Tensor:
    """Per-class values -> ``none`` (as is), ``macro`` (mean) or ``weighted`` (by positive weight); undefined
    (``nan``) classes warn (or raise with ``strict``) and are left out of the means. Static shapes (masked sums),
    so it traces under ``torch.compile``."""
    undefined = torch.isnan(values)
    if not _compiling() and bool(undefined.any()):
        _undefined(what, f"for class(es) {torch.nonzero(undefined).view(-1).tolist()}", strict)
    if average == "none":
        return values
    kept = ~undefined
    weights = kept.to(values.dtype) if average == "macro" else torch.where(kept, support.to(values.dtype), 0.0)
    return (torch.where(kept, values, 0.0) * weights).sum() / weights.sum()


def _multiclass_positive(target: Tensor, num_classes: int) -> Tensor:
    return target.long().unsqueeze(1) == torch.arange(num_classes, device=target.device)


def _multiclass_scores(preds: Tensor, from_logits: bool) -> Tensor:
    """Probabilities as given, or the float64 softmax of logits (float32 on a device without float64)."""
    return torch.softmax(preds.to(float_dtype(preds.device)), dim=1) if from_logits else preds


