"""Multiple-choice (HellaSwag-style) accuracy from per-choice log-likelihoods (``acc`` / ``acc_norm``)."""
from __future__ import annotations

from typing import Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite import _compat
from torchmetrics_lite._checks import (
    check_choice,
    check_zero_division,
)
from torchmetrics_lite._checks.multiple_choice import _check_multiple_choice
from torchmetrics_lite._dtype import float_dtype

__all__ = ["multiple_choice_accuracy"]


def _multiple_choice_stats(loglik: Tensor, target: Tensor, lengths: Optional[Tensor],
                           normalize: str) -> Dict[str, Tensor]:
    scores = loglik.to(float_dtype(loglik.device))
    if normalize == "length":
        scores = scores / lengths.to(device=scores.device, dtype=scores.dtype)  # type: ignore[union-attr]
    n, c = scores.shape
    best = scores.max(dim=1, keepdim=True).values if n else scores[:, :1]
    col = torch.arange(c, device=scores.device).expand(n, c)
    choice = torch.where(scores == best, col, c).min(dim=1).values  # the lowest index among the maxima
    correct = (choice == target.to(choice.device)).sum()
    return {"correct": correct.to(torch.int64), "total": torch.tensor(n, dtype=torch.int64, device=scores.device)}


def _multiple_choice_accuracy_stats(loglik: Tensor, target: Tensor, lengths: Optional[Tensor] = None, *,
                                    normalize: str = "none", validate_args: bool = True) -> Dict[str, Tensor]:
    """Checked ``{"correct", "total"}`` of one batch (the function's and the module's first step)."""
    loglik, target, lengths = _check_multiple_choice(loglik, target, lengths, normalize, validate_args)
    return _multiple_choice_stats(loglik, target, lengths, normalize)


def _multiple_choice_from_stats(state: Dict[str, Tensor], *, zero_division: float = 0.0) -> Tensor:
    total = state["total"]
    dtype = float_dtype(total.device)
    value = state["correct"].to(dtype) / total.clamp(min=1).to(dtype)
    return torch.where(total == 0, torch.full_like(value, zero_division), value)  # no host sync: compiles


def multiple_choice_accuracy(loglik: Tensor, target: Tensor, lengths: Optional[Tensor] = None, *,
                             normalize: str = "none", zero_division: float = 0.0,
                             validate_args: bool = True) -> Tensor:
    r"""Accuracy of picking the most likely of ``C`` candidate answers (lm-eval's ``acc``/``acc_norm``).

    .. math:: \mathrm{acc} = \frac{1}{N} \sum_i [\arg\max_c s_{ic} = y_i], \qquad
       s_{ic} = \ell_{ic} \ \text{(normalize="none")} \quad\text{or}\quad \ell_{ic} / L_{ic}
       \ \text{(normalize="length")}.

    Ties: among equal scores the lowest choice index wins (a row of all ``-inf`` picks choice 0). Empty input
    (N = 0): ``zero_division``. The functional form of :class:`~torchmetrics_lite.MultipleChoiceAccuracy`; both
    share the same statistics.

    Args:
        loglik: (N, C) floating, the summed log-likelihood of each candidate
            (:func:`~torchmetrics_lite.score_choices`); ``-inf`` allowed, NaN not.
        target: (N,) integer, the index of the correct choice, in ``[0, C)``.
        lengths: (N, C) positive candidate lengths; required when ``normalize="length"``, checked and ignored
            otherwise.
        normalize: ``"none"`` (``acc``) or ``"length"`` (``acc_norm``: log-likelihood over length, in float64;
            float32 on a device without float64, where near-equal normalized scores may compare differently).
        zero_division: the value for N = 0 (default 0.0; ``float('nan')`` allowed).
        validate_args: run the value checks (NaN, target range, positive lengths), which sync with the host.

    Returns:
        A float64 0-dim tensor in [0, 1] (float32 on a device without float64).

    Raises:
        ValueError: an unknown ``normalize``, shapes not as above, ``target`` out of range, NaN ``loglik``,
            missing or non-positive ``lengths`` with ``normalize="length"``.
        TypeError: a non-tensor input, floating ``target``, integer ``loglik``, bool ``lengths``.

    References:
        Zellers et al., "HellaSwag", ACL 2019; EleutherAI lm-evaluation-harness (``acc``, ``acc_norm``).

    Examples:
        >>> loglik = torch.tensor([[-3.0, -4.0], [-6.0, -5.0]])
        >>> multiple_choice_accuracy(loglik, torch.tensor([1, 0]), torch.tensor([[3, 2], [6, 2]]), normalize="length")
        tensor(0.5000, dtype=torch.float64)
    """
    check_choice("normalize", normalize, ("none", "length"))
    zero_division = check_zero_division(zero_division)
    stats = _multiple_choice_accuracy_stats(loglik, target, lengths, normalize=normalize, validate_args=validate_args)
    return _multiple_choice_from_stats(stats, zero_division=zero_division)


_compat.advise_exports(globals())  # torchmetrics' arguments get the classes' advice (see _compat.advise)
