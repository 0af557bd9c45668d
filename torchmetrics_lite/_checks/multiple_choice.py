"""Input checks of multiple-choice accuracy: per-choice log-likelihoods, targets, choice lengths."""
from __future__ import annotations

from typing import Any, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks.primitives import (
    check_floating,
    check_integer,
    check_ndim,
    check_no_nan,
    check_range,
    check_same_shape,
    check_tensor,
    upcast,
)


def _check_multiple_choice(loglik: Any, target: Any, lengths: Any, normalize: str,
                           validate_args: bool) -> Tuple[Tensor, Tensor, Optional[Tensor]]:
    loglik, target = check_tensor("loglik", loglik), check_tensor("target", target)
    check_floating("loglik", loglik)
    check_ndim("loglik", loglik, (2,))
    if loglik.shape[1] == 0:
        raise ValueError(f"Expected `loglik` to have at least one choice (column), got shape {tuple(loglik.shape)}")
    check_integer("target", target, allow_bool=False)
    check_ndim("target", target, (1,))
    if target.shape[0] != loglik.shape[0]:
        raise ValueError(f"Expected `target` to have shape ({loglik.shape[0]},), got {tuple(target.shape)}")
    if lengths is None and normalize == "length":
        raise ValueError("Expected `lengths` to be a tensor of shape (N, C) when normalize='length', got None")
    if lengths is not None:
        check_tensor("lengths", lengths)
        check_same_shape("lengths", lengths, "loglik", loglik)
        if lengths.dtype == torch.bool or lengths.is_complex():
            raise TypeError(f"Expected `lengths` to have a real, non-bool dtype, got {lengths.dtype}")
    if validate_args:
        check_no_nan("loglik", loglik)
        check_range("target", target, 0, loglik.shape[1] - 1, hint=f" (C={loglik.shape[1]} choices)")
        if lengths is not None and lengths.numel() and not bool((lengths > 0).all()):
            raise ValueError(f"Expected `lengths` to be positive, got minimum {lengths.min().item()!r}")
    return upcast(loglik), target, lengths

