"""Shared pieces of the AUROC family: the state type, label views, per-class averaging and the undefined-value
rule (``nan`` with a warning, or ``ValueError`` with ``strict=True``). Which kernel computes a value or a curve is
chosen in :mod:`._kernels`; the family's shared docstring text is in :mod:`._doc_args`."""
from __future__ import annotations

import warnings
from typing import Callable, Dict, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._dtype import float_dtype

State = Dict[str, Tensor]


def _class_dtype(num_classes: int) -> torch.dtype:
    return torch.uint8 if num_classes <= 256 else torch.int16 if num_classes <= 32768 else torch.int64


def _compiling() -> bool:
    return torch.compiler.is_compiling()


def _as_bool(labels: Tensor) -> Tensor:
    """uint8 0/1 labels as a zero-copy bool view (a comparison under ``torch.compile``: inductor's C++ code
    generation fails on a uint8 -> bool view)."""
    return labels.view(torch.bool) if labels.dtype == torch.uint8 and not _compiling() else labels != 0


NO_SAMPLES = "with no samples"  # an empty batch (or state): not "one class present", no class is


def _undefined(what: str, where: str, strict: bool) -> None:
    msg = f"{what} is undefined {where}; returning nan"
    if strict:
        raise ValueError(f"Expected both classes in `target` for {what}, but it is undefined {where}")
    warnings.warn(msg, UserWarning, stacklevel=3)


def _check_defined(value: Tensor, what: str, strict: bool, where: str = "with one class present",
                   empty: Optional[Callable[[], bool]] = None) -> None:
    """Warn (or raise with ``strict``) when a scalar value is ``nan``; nothing under ``torch.compile``. ``empty``
    (called only then) tells whether there was no sample at all: the message then says "with no samples"."""
    if not _compiling() and bool(torch.isnan(value)):
        _undefined(what, NO_SAMPLES if empty is not None and empty() else where, strict)


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


