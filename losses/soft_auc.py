"""Soft-AUC: a surrogate of 1 - AUROC averaged over every (positive, negative) pair, computed exactly.

The hinge forms need no pair at all: for one positive ``p`` the negatives inside its margin are a suffix of the
sorted negatives, so with prefix sums of ``s_n`` and ``s_n**2`` each positive's total is O(log n), and the whole
loss and its gradient cost one sort per class (O(n log n), statistics in float64, or float32 on a device without
float64 such as Apple MPS). The sigmoid and logistic forms have no such closed form; they are summed exactly over
all pairs in blocks of positives, and the forward pass forms the gradient at the same time, so memory stays at
one block whatever the number of pairs.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from losses._module import module_of
from losses._utils import PAIR_BLOCK, check_binary, check_positive
from torchmetrics_lite import float_dtype, sorting
from torchmetrics_lite.checks import check_choice, check_number, check_positive_int, upcast

__all__ = ["SoftAUCLoss", "soft_auc_loss"]

SURROGATES = ("sigmoid", "logistic", "squared_hinge", "hinge")


def _surrogate(d: Tensor, surrogate: str, margin: float, temperature: float) -> Tensor:
    """The per-pair loss of the gap ``d = s_pos - s_neg``."""
    if surrogate == "sigmoid":
        return torch.sigmoid(-d / temperature)
    if surrogate == "logistic":
        return F.softplus(-d / temperature)
    hinge = (margin - d).clamp_min(0.0)
    return hinge * hinge if surrogate == "squared_hinge" else hinge


def _suffix(sorted_vals: Tensor, idx: Tensor) -> Tensor:
    """Sums of ``sorted_vals[idx:]`` for every entry of ``idx``."""
    csum = torch.cat([sorted_vals.new_zeros(1), torch.cumsum(sorted_vals, 0)])
    return csum[-1] - csum[idx]


def _hinge_pairs(sp: Tensor, sn: Tensor, margin: float, squared: bool):
    """Sum over all pairs of ``h(s_n - t_p)``, ``t_p = s_p - margin``, ``h = relu`` or ``relu**2``, with the
    gradients wrt ``sp`` and ``sn``; float64, O((P + N) log(P + N))."""
    t = sp - margin
    sn_sorted = sorting.sort(sn)
    idx = sorting.searchsorted(sn_sorted, t, right=True)  # negatives at or below t_p are inactive
    cnt = (sn.shape[0] - idx).to(sp.dtype)
    s1 = _suffix(sn_sorted, idx)
    lin = s1 - cnt * t  # sum over active negatives of (s_n - t_p)
    t_sorted = sorting.sort(t)
    j = sorting.searchsorted(t_sorted, sn, right=False)  # positives with t_p < s_n
    csum_t = torch.cat([t_sorted.new_zeros(1), torch.cumsum(t_sorted, 0)])
    if not squared:
        return lin.sum(), -cnt, j.to(sn.dtype)
    total = (_suffix(sn_sorted * sn_sorted, idx) - 2.0 * t * s1 + cnt * t * t).sum()
    return total, -2.0 * lin, 2.0 * (j.to(sn.dtype) * sn - csum_t[j])


def _smooth_pairs(sp: Tensor, sn: Tensor, surrogate: str, temperature: float, block: int):
    """Exact sum over all pairs of the sigmoid / logistic surrogate with its gradients, blocks of positives."""
    dtype = float_dtype(sp.device)  # the sum in float64 (float32 on a device without float64)
    total = torch.zeros((), dtype=dtype, device=sp.device)
    gp, gn = torch.zeros_like(sp), torch.zeros_like(sn)
    for start in range(0, sp.shape[0], block):
        d = (sp[start:start + block, None] - sn[None, :]) / temperature
        low = torch.sigmoid(-d)
        if surrogate == "sigmoid":
            total += low.sum(dtype=dtype)
            slope = low.mul_(torch.sigmoid(d))  # -d/dd sigmoid(-d) = sigmoid(-d) sigmoid(d)
        else:
            total += F.softplus(-d).sum(dtype=dtype)
            slope = low  # -d/dd softplus(-d) = sigmoid(-d)
        gp[start:start + block] = slope.sum(1).neg_() / temperature
        gn += slope.sum(0) / temperature
    return total, gp, gn


class _AllPairsAUC(torch.autograd.Function):
    @staticmethod
    def forward(ctx, scores: Tensor, pos: Tensor, surrogate: str, margin: float, temperature: float,
                block: int) -> Tensor:
        n_pos = int(pos.sum())
        n_neg = pos.numel() - n_pos
        grad = torch.zeros_like(scores)
        loss = scores.new_zeros(())
        if n_pos and n_neg:
            if surrogate in ("hinge", "squared_hinge"):
                x = scores.to(float_dtype(scores.device))  # float64, or float32 on a device without float64
                x = x - x.mean()  # differences are unchanged; prefix sums lose less to cancellation
                total, gp, gn = _hinge_pairs(x[pos], x[~pos], margin, surrogate == "squared_hinge")
            else:
                total, gp, gn = _smooth_pairs(scores[pos], scores[~pos], surrogate, temperature, block)
            inv = 1.0 / (n_pos * n_neg)
            loss = (total * inv).to(scores.dtype)
            grad[pos] = (gp * inv).to(scores.dtype)
            grad[~pos] = (gn * inv).to(scores.dtype)
        ctx.save_for_backward(grad)
        return loss

    @staticmethod
    def backward(ctx, grad_out: Tensor):
        (grad,) = ctx.saved_tensors
        return grad * grad_out, None, None, None, None, None


def all_pairs_auc(scores: Tensor, pos: Tensor, *, surrogate: str, margin: float, temperature: float,
                  block: int) -> Tensor:
    """The exact mean of the surrogate over all (positive, negative) pairs of the flat ``scores`` (``pos`` marks the
    positives); 0 with a zero gradient when a class is absent."""
    return _AllPairsAUC.apply(scores, pos, surrogate, margin, temperature, block)


def _check(*, surrogate: str, margin: float, temperature: float, num_pairs: int | None, chunk_size: int | None,
           **_) -> None:
    check_choice("surrogate", surrogate, SURROGATES)
    check_number("margin", margin, low=0.0)
    check_positive("temperature", temperature)
    check_positive_int("num_pairs", num_pairs, allow_none=True)
    check_positive_int("chunk_size", chunk_size, allow_none=True)


def soft_auc_loss(scores: Tensor, target: Tensor, *, surrogate: str = "sigmoid", margin: float = 1.0,
                  temperature: float = 1.0, num_pairs: int | None = None,
                  generator: torch.Generator | None = None, chunk_size: int | None = None,
                  validate_args: bool = True) -> Tensor:
    r"""Mean over all (positive, negative) pairs of a surrogate of the mis-ordering indicator:

    .. math:: L = \frac{1}{|P||N|} \sum_{p \in P} \sum_{n \in N} \ell(s_p - s_n), \qquad
       \ell(d) = \sigma(-d/T) \;|\; \log(1 + e^{-d/T}) \;|\; \max(0, m - d)^2 \;|\; \max(0, m - d)

    for ``surrogate = "sigmoid" | "logistic" | "squared_hinge" | "hinge"`` (``T`` = ``temperature``, ``m`` =
    ``margin``). With ``"sigmoid"`` the loss tends to ``1 - AUROC`` as ``T -> 0`` (a tied pair counts 1/2, as in
    the exact AUROC). The hinge forms are exact in O(n log n) (sort + prefix sums, float64); the sigmoid and
    logistic forms are exact over all ``|P| |N|`` pairs, in blocks of ``chunk_size`` positives (by default about
    2^18 pairs per block), which costs ``O(|P| |N|)`` time but only O(n + block) memory.

    Args:
        scores: floating scores of any shape (all entries form one set), e.g. logits.
        target: same shape, 0/1 labels (bool, int or float); 1 is positive.
        surrogate: see above.
        margin: ``m`` (>= 0) of the hinge forms.
        temperature: ``T`` (> 0) of the sigmoid and logistic forms.
        num_pairs: opt-in sampling: average over this many (positive, negative) pairs drawn uniformly with
            replacement instead of all pairs. Any surrogate.
        generator: the ``torch.Generator`` that draws the sampled pairs (for reproducibility).
        chunk_size: positives per block of the exact sigmoid / logistic sum.
        validate_args: check that ``target`` holds only 0 and 1 (a host sync); otherwise nonzero is positive.

    Returns:
        A scalar in the scores' dtype. A batch with one class only (or empty) has no pair, so nothing to learn:
        it gives 0 and a gradient of exactly 0 (sampled pairs included).

    Raises:
        TypeError: ``scores`` not floating, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) a target other than 0/1.

    References:
        L. Yan et al., "Optimizing Classifier Performance via an Approximation to the Wilcoxon-Mann-Whitney
        Statistic", ICML 2003 (sigmoid and polynomial surrogates of the AUC).

    Examples:
        >>> scores = torch.tensor([0.9, 0.2, 0.4, 0.1])
        >>> target = torch.tensor([1, 0, 1, 0])
        >>> round(soft_auc_loss(scores, target, surrogate="hinge").item(), 4)  # pairs: 0.3, 0.2, 0.8, 0.7
        0.5
        >>> round(soft_auc_loss(scores, target, temperature=1e-4).item(), 4)  # 1 - AUROC
        0.0
    """
    check_binary("scores", scores, target, validate_args)
    _check(surrogate=surrogate, margin=margin, temperature=temperature, num_pairs=num_pairs, chunk_size=chunk_size)
    scores = upcast(scores).reshape(-1)
    pos = target.reshape(-1) != 0
    if num_pairs is not None:
        return _sampled(scores, pos, surrogate, float(margin), float(temperature), num_pairs, generator)
    n_neg = max(1, scores.numel() - int(pos.sum()))
    block = chunk_size if chunk_size is not None else max(1, PAIR_BLOCK // n_neg)
    return all_pairs_auc(scores, pos, surrogate=surrogate, margin=float(margin), temperature=float(temperature),
                         block=block)


def _sampled(scores: Tensor, pos: Tensor, surrogate: str, margin: float, temperature: float, num_pairs: int,
             generator: torch.Generator | None) -> Tensor:
    pos_idx, neg_idx = torch.nonzero(pos).flatten(), torch.nonzero(~pos).flatten()
    if pos_idx.numel() == 0 or neg_idx.numel() == 0:
        return (scores * 0.0).sum()
    gen_device = generator.device if generator is not None else scores.device
    i = torch.randint(pos_idx.numel(), (num_pairs,), generator=generator, device=gen_device).to(scores.device)
    j = torch.randint(neg_idx.numel(), (num_pairs,), generator=generator, device=gen_device).to(scores.device)
    return _surrogate(scores[pos_idx[i]] - scores[neg_idx[j]], surrogate, margin, temperature).mean()


@module_of(soft_auc_loss, _check)
class SoftAUCLoss(nn.Module):
    """Module form of :func:`soft_auc_loss` (same keyword options; ``forward(scores, target)``).

    Examples:
        >>> loss = SoftAUCLoss(surrogate="squared_hinge", margin=1.0)
        >>> round(loss(torch.tensor([1.0, 0.5]), torch.tensor([1, 0])).item(), 4)  # (1 - 0.5)^2
        0.25
    """
