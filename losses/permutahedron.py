r"""Soft sort and soft rank (Blondel, Teboul, Berthet and Djolonga, 2020): projections onto the permutahedron.

The permutahedron ``P(w)`` is the convex hull of the permutations of ``w``. With ``rho = (m, m-1, .., 1)`` over the
``m`` real items of a list and ``eps`` the regularization strength,

* ``soft_rank(theta) = P_Q(theta / eps, rho)`` (``"l2"``) or ``exp P_E(theta / eps, log rho)`` (``"kl"``),
* ``soft_sort(theta) = P_Q(rho / eps, theta)`` (``"l2"``) or ``P_E(rho / eps, theta)`` (``"kl"``),

where ``P_Q(z, w) = z - v_Q(z_sorted, w_sorted)`` is the Euclidean projection of ``z`` onto ``P(w)`` (``P_E`` the
KL one, in log space), and ``v`` solves a *decreasing isotonic regression* whose pooled blocks ``B`` take the
value ``mean(z_B) - mean(w_B)`` (``"l2"``) or ``logsumexp(z_B) - logsumexp(w_B)`` (``"kl"``).

The isotonic regression is solved by pool-adjacent-violators run in parallel rounds: each round pools every run of
adjacent blocks that violates the order (a run of violators is always pooled whole by the sequential algorithm, and
the solution does not depend on the pooling order), so a round is a handful of batch-wide tensor operations
(a cumulative sum and segment sums) and no Python loop runs over lists or items. The rounds stop when no block
violates the order (one host sync per round); their number is the depth of the pooling (a few for typical
scores, at most ``n``). The Jacobian of the solution is block-constant, so the backward pass is one segment sum:
O(n) time and memory per list, no ``(n, n)`` matrix.
"""
from __future__ import annotations

import torch
from torch import Tensor

from torchmetrics_lite.checks import check_choice, check_number, check_positive_int, check_tensor

__all__ = ["soft_rank", "soft_sort", "soft_top_k"]

REGULARIZATIONS = ("l2", "kl")


def _segment_sum(x: Tensor, flat_block: Tensor) -> Tensor:
    """Per-element sums of ``x`` (``(R, n)``) over the element's block (``flat_block``: global block ids)."""
    out = torch.zeros(x.numel(), dtype=x.dtype, device=x.device).index_add_(0, flat_block.reshape(-1), x.reshape(-1))
    return out.gather(0, flat_block.reshape(-1)).reshape(x.shape)


def _segment_lse(x: Tensor, flat_block: Tensor) -> Tensor:
    """Per-element logsumexp of ``x`` over the element's block."""
    flat = flat_block.reshape(-1)
    top = torch.full((x.numel(),), -float("inf"), dtype=x.dtype, device=x.device)
    top = top.scatter_reduce(0, flat, x.reshape(-1), reduce="amax").gather(0, flat).reshape(x.shape)
    return top + torch.log(_segment_sum(torch.exp(x - top), flat_block))


def _block_values(a: Tensor, b: Tensor, flat_block: Tensor, kind: str) -> tuple[Tensor, Tensor, Tensor]:
    """Per element: the block's isotonic value ``v_B`` and the block statistics of ``a`` and ``b`` it is made of
    (means for ``"l2"``, logsumexps for ``"kl"``)."""
    if kind == "l2":
        count = _segment_sum(torch.ones_like(a), flat_block)
        sa, sb = _segment_sum(a, flat_block) / count, _segment_sum(b, flat_block) / count
    else:
        sa, sb = _segment_lse(a, flat_block), _segment_lse(b, flat_block)
    return sa - sb, sa, sb


def _pool(a: Tensor, b: Tensor, real: Tensor, kind: str) -> Tensor:
    """Global block ids ``(R, n)`` of the decreasing isotonic regression of ``(a, b)`` (rows sorted, real items
    first): parallel pool-adjacent-violators rounds until no real block is below its right neighbour."""
    rows, n = a.shape
    start = torch.ones_like(real)
    offset = (torch.arange(rows, device=a.device) * n)[:, None]
    while True:
        flat = torch.cumsum(start, dim=-1) - 1 + offset
        if n < 2:
            return flat
        value = _block_values(a, b, flat, kind)[0]
        violate = start[:, 1:] & real[:, 1:] & (value[:, :-1] < value[:, 1:])
        if not bool(violate.any()):
            return flat
        start = torch.cat([start[:, :1], start[:, 1:] & ~violate], dim=-1)


class _Projection(torch.autograd.Function):
    """``P = a - v(a, b)`` of sorted rows (``"l2"``: ``a - mean_B a + mean_B b``; ``"kl"``: ``a - lse_B a + lse_B b``)
    with the block-constant Jacobian: ``dP/da = I - avg_B``, ``dP/db = avg_B`` (``"l2"``: the block mean;
    ``"kl"``: the block's softmax of ``a``, resp. ``b``, times the block sum)."""

    @staticmethod
    def forward(ctx, a: Tensor, b: Tensor, real: Tensor, kind: str) -> Tensor:
        flat = _pool(a, b, real, kind)
        _, sa, sb = _block_values(a, b, flat, kind)
        primal = a - sa + sb
        ctx.kind = kind
        if kind == "kl":
            ctx.save_for_backward(flat, torch.exp(a - sa), torch.exp(b - sb))
        else:
            ctx.save_for_backward(flat, _segment_sum(torch.ones_like(a), flat))
        return primal

    @staticmethod
    def backward(ctx, grad: Tensor):
        if ctx.kind == "kl":
            flat, wa, wb = ctx.saved_tensors
            total = _segment_sum(grad, flat)
            ga, gb = grad - wa * total, wb * total
        else:
            flat, count = ctx.saved_tensors
            gb = _segment_sum(grad, flat) / count
            ga = grad - gb
        return (ga if ctx.needs_input_grad[0] else None), (gb if ctx.needs_input_grad[1] else None), None, None


def _check(values: Tensor, mask: Tensor | None, regularization: str, regularization_strength: float,
           descending: bool) -> Tensor:
    check_tensor("values", values)
    if not values.is_floating_point():
        raise TypeError(f"Expected `values` to have a floating dtype, got {values.dtype}")
    if values.dim() < 1:
        raise ValueError(f"Expected `values` to have at least 1 dimension (lists on the last), got shape "
                         f"{tuple(values.shape)}")
    check_choice("regularization", regularization, REGULARIZATIONS)
    check_number("regularization_strength", regularization_strength, low=0.0, low_open=True)
    if not isinstance(descending, bool):
        raise TypeError(f"Expected `descending` to be a bool, got {type(descending).__name__}")
    if mask is None:
        return torch.ones(values.shape, dtype=torch.bool, device=values.device)
    check_tensor("mask", mask)
    if mask.dtype != torch.bool:
        raise TypeError(f"Expected `mask` to have dtype torch.bool, got {mask.dtype}")
    if mask.shape != values.shape:
        raise ValueError(f"Expected `mask` to have the shape of `values` {tuple(values.shape)}, got "
                         f"{tuple(mask.shape)}")
    return mask


def _sorted_rows(values: Tensor, mask: Tensor, sign: float) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Rows ``(R, n)`` of ``sign * values`` sorted descending with padded items last; the sort's indices, the
    sorted real-item flags and ``rho`` (``m, m-1, .., 1`` on the real items, 1 on padding)."""
    n = values.shape[-1]
    x = values.reshape(-1, n)
    m = mask.reshape(-1, n)
    zero = torch.zeros((), dtype=x.dtype, device=x.device)
    x = torch.where(m, x, zero) * sign
    key = torch.where(m, x.detach(), torch.tensor(-float("inf"), dtype=x.dtype, device=x.device))
    order = torch.sort(key, dim=-1, descending=True, stable=True).indices
    real = m.gather(-1, order)
    count = m.sum(-1, keepdim=True)
    rho = (count - torch.arange(n, device=x.device)).clamp(min=1).to(x.dtype)
    return x.gather(-1, order), order, real, rho


def _unsort(sorted_rows: Tensor, order: Tensor, mask: Tensor) -> Tensor:
    out = torch.empty_like(sorted_rows).scatter(-1, order, sorted_rows)
    out = out.reshape(mask.shape)
    return torch.where(mask, out, torch.zeros((), dtype=out.dtype, device=out.device))


def soft_rank(values: Tensor, *, regularization: str = "l2", regularization_strength: float = 1.0,
              descending: bool = False, mask: Tensor | None = None) -> Tensor:
    r"""Differentiable ranks of each list on the last dimension (1-based, ascending like ``torchsort.soft_rank``).

    .. math:: r_{\varepsilon}(\theta) = P(\theta / \varepsilon, \rho), \qquad \rho = (m, m - 1, \dots, 1),

    the projection of the scaled values onto the permutahedron of ``rho`` (Euclidean for ``"l2"``; for ``"kl"``
    the KL projection, ``exp P_E(theta / eps, log rho)``), over the ``m`` real items of each list. As ``eps -> 0``
    it is the hard rank (1 for the smallest value; ``descending=True``: 1 for the largest); tied values get their
    mid-rank (the average of the ranks they share), by both regularizations. As ``eps -> inf`` every rank tends to
    the mean rank ``(m + 1) / 2``. The ranks of a list always sum to ``m (m + 1) / 2``.

    Cost: one sort plus a few parallel pooling rounds of O(n) batch-wide operations each (see the module); the
    backward pass is one segment sum: time and memory O(n) per list.

    Args:
        values: ``(..., n)`` floating tensor; each slice along the last dimension is one list.
        regularization: ``"l2"`` (quadratic, piecewise linear in the values) or ``"kl"`` (entropic, smooth).
        regularization_strength: ``eps`` (> 0); smaller is closer to the hard ranks.
        descending: rank 1 for the largest value (the retrieval convention) instead of the smallest.
        mask: optional ``(..., n)`` bool, ``True`` on real items; padded items are ranked with nothing, get rank 0
            and a gradient of exactly 0.

    Returns:
        The soft ranks, shape and dtype of ``values`` (half precision is computed in float32).

    Raises:
        TypeError: ``values`` not floating, ``mask`` not bool, ``descending`` not a bool.
        ValueError: ``regularization`` not one of ``("l2", "kl")``, ``regularization_strength <= 0``, a ``mask``
            of another shape.

    References:
        M. Blondel, O. Teboul, Q. Berthet and J. Djolonga, "Fast Differentiable Sorting and Ranking", ICML 2020.

    Examples:
        >>> x = torch.tensor([[8.0, 0.0, 5.0, 3.0, 2.0, 1.0, 6.0, 7.0, 9.0]])
        >>> soft_rank(x, regularization_strength=0.1)
        tensor([[8., 1., 5., 4., 3., 2., 6., 7., 9.]])
        >>> soft_rank(torch.tensor([3.0, 1.0, 2.0]), regularization_strength=2.0)  # one block: x/2 - mean + 2
        tensor([2.5000, 1.5000, 2.0000])
        >>> soft_rank(torch.tensor([1.0, 1.0, 0.0]), regularization_strength=1e-3, descending=True)  # mid-ranks
        tensor([1.5000, 1.5000, 3.0000])
    """
    mask = _check(values, mask, regularization, regularization_strength, descending)
    dtype = values.dtype
    x = values.float() if dtype in (torch.float16, torch.bfloat16) else values
    sign = (-1.0 if descending else 1.0) / float(regularization_strength)
    s, order, real, rho = _sorted_rows(x, mask, sign)
    if regularization == "l2":
        ranks = _Projection.apply(s, rho, real, "l2")
    else:
        ranks = torch.exp(_Projection.apply(s, torch.log(rho), real, "kl"))
    return _unsort(ranks, order, mask).to(dtype)


def soft_sort(values: Tensor, *, regularization: str = "l2", regularization_strength: float = 1.0,
              descending: bool = False, mask: Tensor | None = None) -> Tensor:
    r"""Differentiable sort of each list on the last dimension (ascending like ``torchsort.soft_sort``).

    .. math:: s_{\varepsilon}(\theta) = P(\rho / \varepsilon, \theta), \qquad \rho = (m, m - 1, \dots, 1),

    the projection of ``rho / eps`` onto the permutahedron of the values (Euclidean for ``"l2"``, KL in log space
    for ``"kl"``), over the ``m`` real items of each list. As ``eps -> 0`` it is the hard sort; as
    ``eps -> inf`` every entry tends to the mean of the list (``"l2"``) or to ``log(mean(exp(values)))``
    (``"kl"``). The output of a list always sums to the sum of its values (``"l2"``). Ties need no rule: sorted
    values are the same whichever tied item comes first.

    Args:
        values: ``(..., n)`` floating tensor; each slice along the last dimension is one list.
        regularization: ``"l2"`` or ``"kl"``.
        regularization_strength: ``eps`` (> 0); smaller is closer to the hard sort.
        descending: largest value first instead of smallest first.
        mask: optional ``(..., n)`` bool, ``True`` on real items. The sorted real values fill the first ``m``
            places of each list; the last ``n - m`` hold 0 and padded items get a gradient of exactly 0.

    Returns:
        The softly sorted values, shape and dtype of ``values``.

    Raises:
        TypeError: ``values`` not floating, ``mask`` not bool, ``descending`` not a bool.
        ValueError: ``regularization`` not one of ``("l2", "kl")``, ``regularization_strength <= 0``, a ``mask``
            of another shape.

    References:
        M. Blondel, O. Teboul, Q. Berthet and J. Djolonga, "Fast Differentiable Sorting and Ranking", ICML 2020.

    Examples:
        >>> x = torch.tensor([[8.0, 0.0, 5.0, 3.0, 2.0, 1.0, 6.0, 7.0, 9.0]])
        >>> soft_sort(x, regularization_strength=0.1)
        tensor([[0., 1., 2., 3., 5., 6., 7., 8., 9.]])
        >>> soft_sort(torch.tensor([3.0, 1.0, 2.0]), regularization_strength=10.0)  # one block: mean + (rho - 2)/10
        tensor([1.9000, 2.0000, 2.1000])
    """
    mask = _check(values, mask, regularization, regularization_strength, descending)
    dtype = values.dtype
    x = values.float() if dtype in (torch.float16, torch.bfloat16) else values
    sign = 1.0 if descending else -1.0
    s, _, real, rho = _sorted_rows(x, mask, sign)
    out = _Projection.apply(rho / float(regularization_strength), s, real, regularization) * sign + 0.0  # no -0
    n = values.shape[-1]
    # sorted places: the first m hold the real items; padding (0) after them
    places = torch.arange(n, device=values.device) < mask.reshape(-1, n).sum(-1, keepdim=True)
    out = torch.where(places, out, torch.zeros((), dtype=out.dtype, device=out.device))
    return out.reshape(values.shape).to(dtype)


def soft_top_k(values: Tensor, k: int, *, regularization_strength: float = 1.0, mask: Tensor | None = None) -> Tensor:
    r"""A differentiable top-k mask of each list on the last dimension: weights in ``[0, 1]`` that sum to ``k``.

    .. math:: \mathrm{topk}_{\varepsilon}(\theta) = P_Q(\theta / \varepsilon, (1, \dots, 1, 0, \dots, 0)),

    the Euclidean projection of the scaled values onto the permutahedron of ``k`` ones and ``m - k`` zeros (the
    capped simplex ``{w in [0, 1]^m : sum w = k}``), solved by the isotonic regression of :func:`soft_rank`
    (O(n) memory, the same block-constant backward). As ``eps -> 0`` it is the hard top-k indicator; items tied
    across the boundary share the remaining weight evenly; as ``eps -> inf`` every weight tends to ``k / m``. A list
    with at most ``k`` real items gets all ones. Only the quadratic regularization: the entropic projection onto
    a permutahedron with zeros in ``w`` has weights ``exp(-inf)`` and no finite gradient there.

    Args:
        values: ``(..., n)`` floating tensor; each slice along the last dimension is one list.
        k: how many items to keep (a positive int).
        regularization_strength: ``eps`` (> 0); smaller is closer to the hard mask.
        mask: optional ``(..., n)`` bool of real items; padded items get weight 0 and a gradient of exactly 0.

    Returns:
        The soft mask, shape and dtype of ``values``.

    Raises:
        TypeError: ``values`` not floating, ``mask`` not bool.
        ValueError: ``k`` not a positive int, ``regularization_strength <= 0``, a ``mask`` of another shape.

    Examples:
        >>> soft_top_k(torch.tensor([0.1, 3.0, 2.0, -1.0]), 2, regularization_strength=0.1)
        tensor([0., 1., 1., 0.])
        >>> soft_top_k(torch.tensor([0.1, 3.0, 2.0, -1.0]), 2, regularization_strength=2.0)
        tensor([0.0250, 1.0000, 0.9750, 0.0000])
    """
    mask = _check(values, mask, "l2", regularization_strength, False)
    check_positive_int("k", k)
    dtype = values.dtype
    x = values.float() if dtype in (torch.float16, torch.bfloat16) else values
    s, order, real, rho = _sorted_rows(x, mask, 1.0 / float(regularization_strength))
    w = (torch.arange(s.shape[-1], device=s.device) < k).to(s.dtype).expand_as(s)
    weights = _Projection.apply(s, torch.where(real, w, torch.zeros((), dtype=s.dtype, device=s.device)), real, "l2")
    return _unsort(weights, order, mask).to(dtype)
