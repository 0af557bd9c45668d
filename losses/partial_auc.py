"""One-way partial AUC: the soft-AUC surrogate over the pairs of every positive with the hardest negatives."""
from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from losses._module import module_of
from losses._utils import PAIR_BLOCK, check_binary, check_positive
from losses.soft_auc import all_pairs_auc
from torchmetrics_lite.checks import check_choice, check_number, check_positive_int, upcast

__all__ = ["PartialAUCLoss", "partial_auc_loss"]

SURROGATES = ("squared_hinge", "sigmoid")


def _check(*, max_fpr: float, surrogate: str, margin: float, temperature: float, chunk_size: int | None,
           **_) -> None:
    check_number("max_fpr", max_fpr, low=0.0, high=1.0, low_open=True)
    check_choice("surrogate", surrogate, SURROGATES)
    check_number("margin", margin, low=0.0)
    check_positive("temperature", temperature)
    check_positive_int("chunk_size", chunk_size, allow_none=True)


def partial_auc_loss(scores: Tensor, target: Tensor, *, max_fpr: float, surrogate: str = "squared_hinge",
                     margin: float = 1.0, temperature: float = 1.0, chunk_size: int | None = None,
                     validate_args: bool = True) -> Tensor:
    r"""One-way partial AUC loss: the mean surrogate over the pairs of every positive with the
    ``K = ceil(max_fpr * |N|)`` highest-scored negatives of the batch,

    .. math:: L = \frac{1}{|P| K} \sum_{p \in P} \sum_{n \in N_K} \ell(s_p - s_n), \qquad
       \ell(d) = \max(0, m - d)^2 \;|\; \sigma(-d / T)

    for ``surrogate = "squared_hinge" | "sigmoid"`` (``m`` = ``margin``, ``T`` = ``temperature``). The choice of
    ``N_K`` (the top of the negatives' order) is not differentiated; which of several negatives tied at the cut
    is taken does not change the value. The area under the ROC curve up to ``FPR = K / |N|``, divided by that
    ``FPR``, is the fraction of these pairs ordered correctly; so with ``"sigmoid"``, as ``T -> 0`` and with
    distinct scores, ``1 - L`` reaches the exact normalised partial AUC (when ``max_fpr * |N|`` is an integer:
    otherwise the last negative counts whole). The squared hinge is exact in O(n log n) (sort and prefix sums, as
    :func:`soft_auc_loss`), the sigmoid exact over all ``|P| K`` pairs in blocks of ``chunk_size`` positives.

    Args:
        scores: floating scores of any shape (all entries form one set), e.g. logits.
        target: same shape, 0/1 labels (bool, int or float); 1 is positive.
        max_fpr: the false-positive rate up to which the ROC curve counts, in ``(0, 1]`` (1: all pairs, the
            soft-AUC loss).
        surrogate: ``"squared_hinge"`` (default) or ``"sigmoid"``.
        margin: ``m`` (>= 0) of the squared hinge.
        temperature: ``T`` (> 0) of the sigmoid.
        chunk_size: positives per block of the sigmoid sum; by default about 2^18 pairs per block.
        validate_args: check that ``target`` holds only 0 and 1 (host sync); otherwise nonzero is positive.

    Returns:
        A scalar in the scores' dtype. A batch with one class only (or empty) has no pair: it gives 0 and a
        gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) a target other than 0/1.

    References:
        D. Zhu, G. Li, B. Wang, X. Wu and T. Yang, "When AUC meets DRO: Optimizing Partial AUC for Deep Learning
        with Non-Convex Convergence Guarantee", ICML 2022 (one-way partial AUC over the top negatives);
        H. Narasimhan and S. Agarwal, "A Structural SVM Based Approach for Optimizing Partial AUC", ICML 2013.

    Examples:
        >>> scores = torch.tensor([0.9, 0.2, 0.4, 0.1, 0.5, 0.3])
        >>> target = torch.tensor([1, 0, 1, 0, 0, 0])
        >>> # K = 2 hardest negatives (0.5, 0.3); pairs correct: (0.9, .) twice, (0.4, 0.3): 3 of 4
        >>> round(1 - partial_auc_loss(scores, target, max_fpr=0.5, surrogate="sigmoid",
        ...                            temperature=1e-4).item(), 4)
        0.75
    """
    check_binary("scores", scores, target, validate_args)
    _check(max_fpr=max_fpr, surrogate=surrogate, margin=margin, temperature=temperature, chunk_size=chunk_size)
    scores = upcast(scores).reshape(-1)
    pos = target.reshape(-1) != 0
    neg_idx = torch.nonzero(~pos).flatten()
    k = min(neg_idx.numel(), math.ceil(max_fpr * neg_idx.numel()))
    hardest = neg_idx[torch.topk(scores.detach()[neg_idx], k, sorted=False).indices]
    keep = torch.cat([torch.nonzero(pos).flatten(), hardest])
    block = chunk_size if chunk_size is not None else max(1, PAIR_BLOCK // max(1, k))
    return all_pairs_auc(scores[keep], pos[keep], surrogate=surrogate, margin=float(margin),
                         temperature=float(temperature), block=block)


@module_of(partial_auc_loss, _check)
class PartialAUCLoss(nn.Module):
    """Module form of :func:`partial_auc_loss` (same keyword options; ``forward(scores, target)``).

    Examples:
        >>> loss = PartialAUCLoss(max_fpr=0.5)
        >>> round(loss(torch.tensor([1.0, 0.5, -2.0]), torch.tensor([1, 0, 0])).item(), 4)  # (1 - 0.5)^2
        0.25
    """
