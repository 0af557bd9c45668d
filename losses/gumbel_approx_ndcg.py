"""Gumbel ApproxNDCG (Bruch et al., 2020; TF-Ranking's ``GumbelApproxNDCGLoss``): ApproxNDCG averaged over lists of
scores perturbed by Gumbel noise, a stochastic smoothing of the ranking that the model induces."""
from __future__ import annotations

import torch
from torch import Tensor, nn

from losses._module import module_of
from losses._utils import check_lists, check_options, check_positive, masked_scores, reduce
from losses.approx_ndcg import approx_ndcg_loss
from torchmetrics_lite.checks import check_positive_int

__all__ = ["GumbelApproxNDCGLoss", "gumbel_approx_ndcg_loss"]


def _gumbel_noise(shape: tuple[int, ...], *, dtype: torch.dtype, device: torch.device,
                 generator: torch.Generator | None = None) -> Tensor:
    """Standard Gumbel samples ``-log(-log(U))``, ``U`` uniform on ``(0, 1)`` drawn with ``generator`` (kept away
    from 0 and 1 so that the noise is finite)."""
    tiny = torch.finfo(dtype).tiny
    u = torch.rand(shape, generator=generator, dtype=dtype, device=device).clamp_(tiny, 1.0 - torch.finfo(dtype).eps)
    return -torch.log(-torch.log(u))


def gumbel_approx_ndcg_loss(scores: Tensor, relevance: Tensor, *, mask: Tensor | None = None,
                            generator: torch.Generator | None = None, temperature: float = 0.1,
                            gumbel_temperature: float = 1.0, sample_size: int = 8, k: int | None = None,
                            gain: str = "linear", reduction: str = "mean", chunk_size: int | None = None,
                            validate_args: bool = True) -> Tensor:
    r"""``1 - ApproxNDCG`` of Gumbel-perturbed scores, averaged over ``sample_size`` draws:

    .. math:: L = \frac{1}{S} \sum_{t=1}^{S} \Big(1 - \mathrm{ApproxNDCG}_T\big((s + g^{(t)}) / \tau\big)\Big),
       \qquad g^{(t)}_i \sim \mathrm{Gumbel}(0, 1)\ \text{i.i.d.}

    i.e. :func:`~losses.approx_ndcg_loss` (temperature ``T``, cut-off ``k``, ``gain``) on ``S`` noisy copies of
    each list; ``tau`` is ``gumbel_temperature``. Sorting ``s + g`` samples a ranking from the Plackett-Luce model
    of the scores, so the loss is a smoothed expected NDCG of the model's stochastic ranking. TF-Ranking takes a
    ``log_softmax`` of the perturbed scores first; that shifts each list by a constant, which ApproxNDCG ignores.
    The noise comes from ``generator`` (or torch's global generator): pass a seeded ``torch.Generator`` to
    reproduce a value. Memory and time: ``sample_size`` times :func:`~losses.approx_ndcg_loss`'s.

    Args:
        scores: ``(..., n)`` floating scores; each slice along the last dimension is one list.
        relevance: ``(..., n)`` graded relevance of any real dtype, finite and >= 0 on real items.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items (any score, NaN included) take no
            part and get a gradient of exactly 0.
        generator: optional ``torch.Generator`` of the noise (on the scores' device).
        temperature: ApproxNDCG's temperature ``T`` (> 0; 0.1 by default, as TF-Ranking).
        gumbel_temperature: ``tau`` (> 0), dividing the perturbed scores.
        sample_size: ``S``, noisy copies per list (a positive int).
        k: NDCG cut-off, or ``None`` for the whole list.
        gain: ``"linear"`` (``rel``, the metric's default) or ``"exponential"`` (``2**rel - 1``).
        reduction: ``"mean"`` over lists, ``"sum"``, or ``"none"`` (shape ``scores.shape[:-1]``).
        chunk_size: passed to :func:`~losses.approx_ndcg_loss` (lists per checkpointed block).
        validate_args: check relevance values (one host sync); shapes and dtypes are always checked.

    Returns:
        The loss, in ``[0, 1]`` per list. A list that is all padding, has one real item, or whose real items all
        share one relevance grade has nothing to learn: it gives 0 and a gradient of 0.

    Raises:
        TypeError: ``scores`` not floating, ``mask`` not bool, tensors of the wrong type.
        ValueError: mismatched shapes, an option out of range, or (``validate_args``) relevance negative, NaN or
            infinite on a real item (use ``mask=`` for padding).

    References:
        S. Bruch, S. Han, M. Bendersky and M. Najork, "A Stochastic Treatment of Learning to Rank Scoring
        Functions", WSDM 2020; TF-Ranking ``GumbelApproxNDCGLoss``.

    Examples:
        >>> s, rel = torch.tensor([[3.0, 1.0, 2.0]]), torch.tensor([[1.0, 0.0, 2.0]])
        >>> a = gumbel_approx_ndcg_loss(s, rel, generator=torch.Generator().manual_seed(0))
        >>> b = gumbel_approx_ndcg_loss(s, rel, generator=torch.Generator().manual_seed(0))
        >>> bool(a == b) and 0.0 < a.item() < 1.0  # reproducible with a seeded generator
        True
    """
    scores, relevance, mask = check_lists(scores, relevance, mask, validate_args)
    _check(temperature=temperature, gumbel_temperature=gumbel_temperature, sample_size=sample_size, k=k, gain=gain,
           reduction=reduction, chunk_size=chunk_size)
    noise = _gumbel_noise((sample_size, *scores.shape), dtype=scores.dtype, device=scores.device, generator=generator)
    perturbed = (masked_scores(scores, mask) + noise) / gumbel_temperature
    shape = (sample_size, *scores.shape)
    per_sample = approx_ndcg_loss(perturbed, relevance.expand(shape), mask=mask.expand(shape),
                                  temperature=temperature, k=k, gain=gain, reduction="none", chunk_size=chunk_size,
                                  validate_args=False)
    return reduce(per_sample.mean(0).reshape(-1), reduction, scores.shape[:-1])


def _check(*, temperature, gumbel_temperature, sample_size, k, gain, reduction, chunk_size, **_) -> None:
    check_options(reduction=reduction, gain=gain, k=k, chunk_size=chunk_size)
    check_positive("temperature", temperature)
    check_positive("gumbel_temperature", gumbel_temperature)
    check_positive_int("sample_size", sample_size)


@module_of(gumbel_approx_ndcg_loss, _check)
class GumbelApproxNDCGLoss(nn.Module):
    """Module form of :func:`gumbel_approx_ndcg_loss` (``forward(scores, relevance, mask=None, generator=None)``).

    Examples:
        >>> loss = GumbelApproxNDCGLoss(sample_size=4, k=5)
        >>> loss(torch.zeros(2, 3), torch.zeros(2, 3), generator=torch.Generator().manual_seed(1))  # nothing to learn
        tensor(0.)
    """
