"""Shared pieces of the AUROC family: the state type, label views, per-class averaging and the undefined-value
rule (``nan`` with a warning, or ``ValueError`` with ``strict=True``)."""
from __future__ import annotations

import warnings
from typing import Dict, Tuple

import torch
from torch import Tensor

from torchmetrics_lite.functional.auroc import _ranking as rk

State = Dict[str, Tensor]



def _class_dtype(num_classes: int) -> torch.dtype:
    return torch.uint8 if num_classes <= 256 else torch.int16 if num_classes <= 32768 else torch.int64



def _as_bool(labels: Tensor) -> Tensor:
    """uint8 0/1 labels as a zero-copy bool view."""
    return labels.view(torch.bool) if labels.dtype == torch.uint8 else labels.bool()



def _undefined(what: str, where: str, strict: bool) -> None:
    msg = f"{what} is undefined {where}; returning nan"
    if strict:
        raise ValueError(f"Expected both classes in `target` for {what}, but it is undefined {where}")
    warnings.warn(msg, UserWarning, stacklevel=3)



def _columns(preds: Tensor, positive: Tensor) -> Tuple[Tensor, Tensor]:
    """One row per class/label: scores ``(C, N)`` contiguous and the positives mask ``(C, N)``."""
    return preds.t().contiguous(), positive.t().contiguous()



def _average(values: Tensor, support: Tensor, average: str, what: str, strict: bool) -> Tensor:
    """Per-class values -> ``none`` (as is), ``macro`` (mean) or ``weighted`` (by positives); undefined
    (``nan``) classes warn (or raise with ``strict``) and are left out of the means."""
    undefined = torch.isnan(values)
    if bool(undefined.any()):
        _undefined(what, f"for class(es) {torch.nonzero(undefined).view(-1).tolist()}", strict)
    if average == "none":
        return values
    kept, weights = values[~undefined], support[~undefined].double()
    if average == "macro":
        return kept.mean() if kept.numel() else values.new_tensor(float("nan"))
    return (kept * weights).sum() / weights.sum()



def _multi_auroc_from_rows(scores: Tensor, positive: Tensor, average: str, strict: bool) -> Tensor:
    ranked = rk.rank_rows(scores, positive)
    return _average(rk.auroc_from_ranked(ranked), ranked.n_pos, average, "AUROC", strict)



def _multi_ap_from_rows(scores: Tensor, positive: Tensor, average: str, strict: bool) -> Tensor:
    ranked = rk.rank_rows(scores, positive)
    return _average(rk.precision_sum(ranked) / ranked.n_pos.double(), ranked.n_pos, average,
                    "average precision", strict)

