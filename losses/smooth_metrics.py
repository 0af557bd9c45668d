r"""One transformation from an exact ranking metric to a differentiable one: :func:`smooth`.

Each metric of ``torchmetrics_lite.functional`` named in :data:`FORMULAS` is written once, in rank form
(:mod:`losses._rank_forms`); :func:`smooth` evaluates that same formula with the hard ranks (and the hard top-k
cut-off) replaced by smooth ones, by one of :data:`METHODS`:

* ``"approx"``: ``r_i = 1/2 + sum_j sigmoid((s_j - s_i) / T)`` over the real items (ApproxNDCG, Qin et al. 2010);
  cut-off ``sigmoid((k + 1/2 - r) / T)``. Ties: each tied item at its mid-rank. O(n^2) memory.
* ``"bound"``: the step ``[s_j > s_i]`` replaced by its upper bound ``clamp(1 + (s_j - s_i) / T, 0, 1)`` (a hinge
  capped at 1, so that it tends to the step), giving ranks ``>=`` the exact ones: for ``T <= 1`` a lower bound of
  the metrics decreasing in the rank (DCG, NDCG, P@k, R@k, MRR, hit rate), exact once every gap is ``>= T``.
  Ties: each tied item ranked last of its tie group.
  O(n^2) memory.
* ``"soft_rank"``: Blondel et al.'s projection ranks (:func:`losses.soft_rank`, ``regularization`` ``"l2"`` or
  ``"kl"``, strength ``T``); cut-off as ``"approx"``. Ties: mid-ranks. O(n) memory.
* ``"neural_sort"``, ``"softsort"``: the expectation of each rank term under the relaxed permutation matrix
  (:func:`losses.neural_sort_permutation`, :func:`losses.softsort_permutation`), optionally Sinkhorn-scaled;
  the cut-off is exact on the rank axis. Ties: each tied item uniformly over the tie's ranks, the exact tie rule
  (``ties="average"``) of the measures linear in each item's rank (DCG, NDCG, P@k, R@k, R-precision). O(n^2).

``gumbel_scale > 0`` adds ``gumbel_scale`` times standard Gumbel noise to the real scores first (a stochastic
smoothing of any method; pass a ``generator`` for reproducible draws).
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Dict, Optional

import torch
from torch import Tensor

from losses import _rank_forms as forms
from losses._sinkhorn import _Sinkhorn
from losses._utils import check_lists, check_positive, check_validate_args, flatten_lists, masked_scores, reduce
from losses.permutahedron import soft_rank
from losses.relaxed_sort import neural_sort_rows, softsort_rows
from torchmetrics_lite import functional as F
from torchmetrics_lite.checks import check_choice, check_number, check_positive_int

__all__ = ["smooth", "approx_ranks", "bound_ranks", "rank_form_values"]

METHODS = ("approx", "bound", "soft_rank", "neural_sort", "softsort")

#: the exact metric -> its rank-form formula (one formula per metric, shared with the hard path)
FORMULAS: Dict[Callable[..., Tensor], Callable[..., Tensor]] = {
    F.retrieval_normalized_dcg: forms.ndcg,
    F.retrieval_dcg: forms.dcg,
    F.retrieval_average_precision: forms.average_precision,
    F.retrieval_reciprocal_rank: forms.reciprocal_rank,
    F.retrieval_precision: forms.precision,
    F.retrieval_recall: forms.recall,
    F.retrieval_hit_rate: forms.hit_rate,
    F.retrieval_r_precision: forms.r_precision,
    F.binary_auroc: forms.auroc,
    F.binary_average_precision: forms.binary_average_precision,
}


def approx_ranks(s: Tensor, mask: Tensor, temperature: float) -> Tensor:
    """``1/2 + sum_j sigmoid((s_j - s_i) / T)`` over the real ``j`` (``j = i`` included: 1/2), ``(c, n)``."""
    pair = torch.sigmoid((s[:, None, :] - s[:, :, None]) / temperature)
    return (pair * mask[:, None, :]).sum(-1) + 0.5


def bound_ranks(s: Tensor, mask: Tensor, temperature: float) -> Tensor:
    """``1 + sum_{j != i} clamp(1 + (s_j - s_i) / T, 0, 1)`` over the real ``j``: ranks ``>=`` the exact ones."""
    pair = torch.clamp(1.0 + (s[:, None, :] - s[:, :, None]) / temperature, 0.0, 1.0)
    return (pair * mask[:, None, :]).sum(-1)  # the diagonal term is clamp(1) = 1: the "1 +"


class _PointRanks:
    """Ranks as one (smooth) value per item; the cut-off ``[r <= k]`` smoothed by ``cut(r, k)``."""

    def __init__(self, r: Tensor, mask: Tensor, cut: Callable[[Tensor, Any], Tensor]):
        self.r = torch.where(mask, r, torch.ones((), dtype=r.dtype, device=r.device))  # items outside: finite
        self.n_items, self.cut = mask.sum(-1).to(r.dtype), cut

    def _cut(self, value: Tensor, k: forms.Cut) -> Tensor:
        if k is None:
            return value
        # a list with at most k real items has no cut-off to smooth
        return value * torch.where(self.n_items[:, None] > k, self.cut(self.r, k), torch.ones_like(value))

    def expect(self, phi: forms.RankFn, k: forms.Cut) -> Tensor:
        return self._cut(phi.of(self.r), k)

    def total(self, c: Tensor, phi: forms.RankFn, k: forms.Cut) -> Tensor:
        return self._cut(phi.times(c, self.r), k).sum(-1)


class _PermutationRanks:
    """Ranks as a row-stochastic ``(c, ranks, items)`` matrix ``diag(u) p diag(v)`` (``u, v``: Sinkhorn's scaling
    vectors, or None): ``E[phi(r) [r <= k]]_i = sum_r P[r, i] phi(r) [r <= k]``."""

    def __init__(self, p: Tensor, u: Optional[Tensor], v: Optional[Tensor]):
        self.p, self.u, self.v = p, u, v

    def _weights(self, phi: forms.RankFn, k: forms.Cut) -> Tensor:
        n = self.p.shape[-1]
        pos = torch.arange(1, n + 1, dtype=self.p.dtype, device=self.p.device)[None, :]
        w = phi.of(pos)
        return w if k is None else w * (pos <= k).to(w.dtype)

    def expect(self, phi: forms.RankFn, k: forms.Cut) -> Tensor:
        w = self._weights(phi, k).expand(self.p.shape[0], self.p.shape[-1])
        p = self.p if self.u is None or self.v is None else self.u[:, :, None] * self.p * self.v[:, None, :]
        return torch.matmul(w[:, None, :], p)[:, 0, :]

    def total(self, c: Tensor, phi: forms.RankFn, k: forms.Cut) -> Tensor:
        w = self._weights(phi, k)
        if self.u is None or self.v is None:
            return (w * torch.matmul(self.p, c[:, :, None])[:, :, 0]).sum(-1)
        return (self.u * w * torch.matmul(self.p, (self.v * c)[:, :, None])[:, :, 0]).sum(-1)  # u^T diag(w) p diag(c) v


def _sigmoid_cut(temperature: float) -> Callable[[Tensor, Any], Tensor]:
    return lambda r, k: torch.sigmoid((k + 0.5 - r) / temperature)


def _ramp_cut(temperature: float) -> Callable[[Tensor, Any], Tensor]:
    return lambda r, k: torch.clamp((k + 0.5 - r) / temperature + 0.5, 0.0, 1.0)


def _hard_cut(r: Tensor, k: Any) -> Tensor:
    return (r <= k).to(r.dtype)


def _ranks_of(method: str, s: Tensor, mask: Tensor, *, temperature: float, regularization: str,
              sinkhorn_iters: int, transposed: bool = False) -> Any:
    if method == "approx":
        return _PointRanks(approx_ranks(s, mask.to(s.dtype), temperature), mask, _sigmoid_cut(temperature))
    if method == "bound":
        return _PointRanks(bound_ranks(s, mask.to(s.dtype), temperature), mask, _ramp_cut(temperature))
    if method == "soft_rank":
        r = soft_rank(s, regularization=regularization, regularization_strength=temperature, descending=True,
                      mask=mask)
        return _PointRanks(r, mask, _sigmoid_cut(temperature))
    if method == "exact":  # the hard ranks (tests: the formulas against the exact metrics)
        key = torch.where(mask, s.detach(), torch.tensor(-float("inf"), dtype=s.dtype, device=s.device))
        order = torch.sort(key, dim=-1, descending=True, stable=True).indices
        pos = torch.arange(1, s.shape[-1] + 1, dtype=s.dtype, device=s.device).expand_as(s)
        return _PointRanks(torch.empty_like(s).scatter_(-1, order, pos), mask, _hard_cut)
    kernel = neural_sort_rows if method == "neural_sort" else softsort_rows
    p = kernel(s, mask, temperature)
    if not sinkhorn_iters:
        return _PermutationRanks(p, None, None)
    u, v = _Sinkhorn.apply(p, sinkhorn_iters, transposed)
    return _PermutationRanks(p, u, v)


def _evaluate(formula: Callable[..., Tensor], scores: Tensor, target: Tensor, *, mask: Optional[Tensor],
              method: str, temperature: float, regularization: str, sinkhorn_iters: int, gumbel_scale: float,
              generator: Optional[torch.Generator], reduction: str, validate_args: bool,
              options: Dict[str, Any]) -> Tensor:
    scores, rel, mask = check_lists(scores, target, mask, validate_args, target_name="target")
    check_choice("reduction", reduction, ("mean", "sum", "none"))
    for name in ("k",):
        if options.get(name) is not None:
            check_positive_int(name, options[name])
    if "gain" in options:
        check_choice("gain", options["gain"], ("linear", "exponential"))
    batch_shape = scores.shape[:-1]
    s, rel, m = flatten_lists(scores, rel, mask)
    s = masked_scores(s, m)
    if gumbel_scale > 0:
        u = torch.rand(s.shape, dtype=s.dtype, device=s.device, generator=generator)
        tiny = torch.finfo(s.dtype).tiny
        s = torch.where(m, s - gumbel_scale * torch.log(-torch.log(u.clamp(tiny, 1.0 - 1e-7)) + tiny), s)
    values = rank_form_values(formula, s, rel, m, method=method, temperature=temperature,
                              regularization=regularization, sinkhorn_iters=sinkhorn_iters, options=options)
    return reduce(values, reduction, batch_shape)


def rank_form_values(formula: Callable[..., Tensor], s: Tensor, rel: Tensor, m: Tensor, *, method: str,
                     temperature: float, regularization: str = "l2", sinkhorn_iters: int = 0, transposed: bool = False,
                     options: Dict[str, Any]) -> Tensor:
    """``formula``'s value per list of checked ``(lists, n)`` inputs (padded scores finite, padded grades 0) under the
    ranks of ``method``: the one evaluation path of :func:`smooth` and of the losses derived from it."""
    relevant = m & (rel > 0)
    x = forms.Lists(rel, m, relevant.to(s.dtype), m.sum(-1).to(s.dtype), relevant.sum(-1).to(s.dtype))
    make = functools.partial(_ranks_of, method, s, temperature=temperature, regularization=regularization,
                             sinkhorn_iters=sinkhorn_iters, transposed=transposed)
    cache: Dict[str, Any] = {}

    def ranks(view: str) -> Any:
        if view not in cache:
            cache[view] = make(m if view == "all" else relevant)
        return cache[view]

    return formula(x, ranks, **options)


def smooth(metric: Callable[..., Tensor], *, method: str = "approx", temperature: float = 1.0,
           regularization: str = "l2", sinkhorn_iters: int = 0, gumbel_scale: float = 0.0) -> Callable[..., Tensor]:
    r"""The differentiable twin of an exact ranking metric: the same formula with smooth ranks.

    ``smooth(metric, ...)`` returns ``f(scores, target, *, mask=None, reduction="mean", generator=None,
    validate_args=True, **options)``, the metric's value per list (``reduction="none"``: shape
    ``scores.shape[:-1]``), each list on the last dimension, ``options`` those of the metric's rank form
    (``k`` for the cut-off metrics, ``gain`` for DCG/NDCG). A loss is ``1 - f(...)``. ``metric`` is one of
    ``retrieval_normalized_dcg, retrieval_dcg, retrieval_average_precision, retrieval_reciprocal_rank,
    retrieval_precision, retrieval_recall, retrieval_hit_rate, retrieval_r_precision, binary_auroc,
    binary_average_precision`` of ``torchmetrics_lite.functional``. Empty lists (no relevant item) give 0, as the
    metrics' ``empty="zero"``, with a gradient of 0.

    Limits: as ``temperature -> 0`` each method tends to the exact metric on lists without tied scores (tested
    within 1e-6 for every metric x method); ties: see the module (the relaxed permutations follow the exact tie rule
    for DCG, NDCG, P@k, R@k, R-precision; the point-rank methods use mid-ranks, ``"bound"`` the last rank of the
    tie).

    Args:
        metric: the exact metric function (from :data:`FORMULAS`).
        method: one of ``"approx", "bound", "soft_rank", "neural_sort", "softsort"`` (see the module).
        temperature: ``T`` (> 0) of the sigmoid, hinge, relaxed permutation, or the soft rank's regularization
            strength; smaller is closer to the exact metric.
        regularization: ``"l2"`` or ``"kl"``, for ``method="soft_rank"``.
        sinkhorn_iters: Sinkhorn scaling steps of the relaxed permutation (0: none; NeuralNDCG uses 50).
        gumbel_scale: scale (>= 0) of the Gumbel noise added to the scores (0: none).

    Returns:
        The function ``f`` described above.

    Raises:
        ValueError: an unknown metric, method or regularization, or an option out of range.

    Examples:
        >>> from torchmetrics_lite import functional as F
        >>> s = torch.tensor([[3.0, 1.0, 2.0]]); rel = torch.tensor([[1, 0, 2]])
        >>> f = smooth(F.retrieval_normalized_dcg, method="soft_rank", temperature=1e-3)
        >>> round(f(s, rel).item(), 4), round(F.retrieval_normalized_dcg(s, rel).item(), 4)
        (0.8597, 0.8597)
        >>> mrr = smooth(F.retrieval_reciprocal_rank, method="approx", temperature=0.5)
        >>> s = s.requires_grad_(); mrr(s, rel).backward(); bool(s.grad.abs().sum() > 0)
        True
    """
    if metric not in FORMULAS:
        raise ValueError(f"Expected `metric` to be one of the ranking metrics "
                         f"{sorted(f.__name__ for f in FORMULAS)}, got {getattr(metric, '__name__', metric)!r}")
    _check(method=method, temperature=temperature, regularization=regularization, sinkhorn_iters=sinkhorn_iters,
           gumbel_scale=gumbel_scale)
    formula = FORMULAS[metric]
    allowed = [p for p in inspect.signature(formula).parameters.values() if p.kind is p.KEYWORD_ONLY]
    names = tuple(p.name for p in allowed)

    def smoothed(scores: Tensor, target: Tensor, *, mask: Optional[Tensor] = None, reduction: str = "mean",
                 generator: Optional[torch.Generator] = None, validate_args: bool = True, **options: Any) -> Tensor:
        unknown = sorted(set(options) - set(names))
        if unknown:
            raise TypeError(f"smooth({metric.__name__}) got unexpected option(s) {unknown}; it takes {names}")
        check_validate_args(validate_args)
        return _evaluate(formula, scores, target, mask=mask, method=method, temperature=float(temperature),
                         regularization=regularization, sinkhorn_iters=sinkhorn_iters,
                         gumbel_scale=float(gumbel_scale), generator=generator, reduction=reduction,
                         validate_args=validate_args, options=options)

    smoothed.__name__ = f"smooth_{metric.__name__}"
    smoothed.__qualname__ = smoothed.__name__
    return smoothed


def _check(*, method: str, temperature: float, regularization: str, sinkhorn_iters: int, gumbel_scale: float) -> None:
    check_choice("method", method, METHODS + ("exact",))
    check_positive("temperature", temperature)
    check_choice("regularization", regularization, ("l2", "kl"))
    if not (isinstance(sinkhorn_iters, int) and not isinstance(sinkhorn_iters, bool) and sinkhorn_iters >= 0):
        raise ValueError(f"Expected `sinkhorn_iters` to be an int >= 0, got {sinkhorn_iters!r}")
    check_number("gumbel_scale", gumbel_scale, low=0.0)
