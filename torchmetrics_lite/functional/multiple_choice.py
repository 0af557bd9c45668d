"""Multiple-choice (HellaSwag-style) accuracy from per-choice log-likelihoods (``acc`` / ``acc_norm``)."""
from __future__ import annotations

from typing import Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_choice,
    check_zero_division,
)
from torchmetrics_lite._checks.multiple_choice import _check_multiple_choice

__all__ = ["multiple_choice_accuracy"]



def _multiple_choice_stats(loglik: Tensor, target: Tensor, lengths: Optional[Tensor],
                           normalize: str) -> Dict[str, Tensor]:
    scores = loglik.to(torch.float64)
    if normalize == "length":
        scores = scores / lengths.to(device=scores.device, dtype=torch.float64)  # type: ignore[union-attr]
    n, c = scores.shape
    best = scores.max(dim=1, keepdim=True).values if n else scores[:, :1]
    col = torch.arange(c, device=scores.device).expand(n, c)
    choice = torch.where(scores == best, col, c).min(dim=1).values  # the lowest index among the maxima
    correct = (choice == target.to(choice.device)).sum()
    return {"correct": correct.to(torch.int64), "total": torch.tensor(n, dtype=torch.int64, device=scores.device)}



def _multiple_choice_from_stats(state: Dict[str, Tensor], zero_division: float) -> Tensor:
    total = state["total"]
    if int(total) == 0:
        return torch.tensor(zero_division, dtype=torch.float64, device=total.device)
    return state["correct"].to(torch.float64) / total



def multiple_choice_accuracy(loglik: Tensor, target: Tensor, lengths: Optional[Tensor] = None, *,
                             normalize: str = "none", zero_division: float = 0.0,
                             validate_args: bool = True) -> Tensor:
    """Functional form of :class:`MultipleChoiceAccuracy` (same arguments, same rules).

    >>> loglik = torch.tensor([[-3.0, -4.0], [-6.0, -5.0]])
    >>> multiple_choice_accuracy(loglik, torch.tensor([1, 0]), torch.tensor([[3, 2], [6, 2]]), normalize="length")
    tensor(0.5000, dtype=torch.float64)
    """
    check_choice("normalize", normalize, ("none", "length"))
    zero_division = check_zero_division(zero_division)
    loglik, target, lengths = _check_multiple_choice(loglik, target, lengths, normalize, validate_args)
    return _multiple_choice_from_stats(_multiple_choice_stats(loglik, target, lengths, normalize), zero_division)

