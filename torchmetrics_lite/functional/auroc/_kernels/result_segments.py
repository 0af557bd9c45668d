"""The unweighted ROC curve as :class:`Segments` (each point with the point before it), built from a
:class:`~.result_swept.Swept` (:func:`segments`) or by the packed kernel (:mod:`.packed`), and the values read off it:
the equal error rate and the log-scaled area. Static shapes (masked reductions and gathers), so they trace under
``torch.compile``.

The ROC curve of a row is piecewise linear: it starts at ``(fpr, tpr) = (0, 0)`` (threshold ``inf``) and joins
the points of the distinct scores in decreasing order by straight segments (a tie group that holds positives and
negatives is a diagonal segment: tied pairs count 1/2, as in AUROC). :func:`segments` gives, at each point of the
curve, the point before it, so every segment is read at once; the packed kernel (:mod:`.packed`) builds the same
:class:`Segments` on CPU without a sweep (:func:`~._kernels.segments` chooses).
"""
from __future__ import annotations

import math
from typing import NamedTuple, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite._xp import Xp
from torchmetrics_lite.functional.auroc._kernels import result_swept as sw

__all__ = ["Segments", "segments", "eer_rows", "mean_curve_eer", "logauc_rows"]


class Segments(NamedTuple):
    """Per row and position (the sweep's decreasing-score order), the curve's point there and the point before."""

    fpr: Tensor  # (R, n) false-positive rate at scores >= scores[k]
    fnr: Tensor  # (R, n) false-negative rate 1 - tpr, computed as (n_pos - tp) / n_pos
    fpr_prev: Tensor  # (R, n) the previous point's (0 at the curve's start)
    fnr_prev: Tensor  # (R, n) the previous point's (1 at the curve's start)
    valid: Tensor  # bool (R, n): k is a point of the curve (the last position of a tie group of non-zero weight)
    thresholds: Tensor  # (R, n) the scores


def segments(s: sw.Swept) -> Segments:
    """The segments of every row's ROC curve (rates in float64, float32 on a device without float64; ``nan``
    for a row without negatives or positives)."""
    dtype = float_dtype(s.fp.device)
    rows, n = s.fp.shape
    fpr = s.fp.to(dtype) / s.n_neg.to(dtype).unsqueeze(1)
    fnr = (s.n_pos.unsqueeze(1) - s.tp).to(dtype) / s.n_pos.to(dtype).unsqueeze(1)
    valid = sw.points(s)
    index = torch.arange(n, device=fpr.device).expand(rows, n)
    seen = torch.where(valid, index, -1).cummax(1).values
    prev = torch.cat([torch.full((rows, 1), -1, dtype=seen.dtype, device=seen.device), seen[:, :-1]], 1)[:, :n]
    has = prev >= 0
    at = prev.clamp(min=0)
    return Segments(fpr, fnr, torch.where(has, fpr.gather(1, at), 0.0), torch.where(has, fnr.gather(1, at), 1.0),
                    valid, s.scores)


def eer_rows(g: Segments) -> Tuple[Tensor, Tensor]:
    """``(eer, threshold)`` per row: where the curve's ``fpr`` and ``fnr`` cross.

    Along the curve ``fpr - fnr`` rises strictly from ``-1`` (the start) to ``1`` (the last point), so the first
    point ``k`` with ``fpr_k >= fnr_k`` exists, is unique, and the crossing lies on the segment that ends there:
    with ``d = fpr - fnr`` at its start ``p`` and end ``k``, ``eer = fpr_p + (fpr_k - fpr_p) * d_p / (d_p - d_k)``
    (``= fpr_k`` when ``d_k = 0``). The threshold is ``k``'s score. Rows without both classes: ``nan``, ``nan``."""
    crossing = g.valid & (g.fpr >= g.fnr)
    if g.fpr.shape[1] == 0:
        empty = torch.full(g.fpr.shape[:1], math.nan, dtype=g.fpr.dtype, device=g.fpr.device)
        return empty, empty.to(g.thresholds.dtype)
    k = crossing.to(torch.uint8).argmax(1, keepdim=True)
    f0, f1 = g.fpr_prev.gather(1, k), g.fpr.gather(1, k)
    d0, d1 = f0 - g.fnr_prev.gather(1, k), f1 - g.fnr.gather(1, k)
    eer = (f0 + (f1 - f0) * d0 / (d0 - d1)).squeeze(1)
    found = crossing.any(1)
    nan = torch.full_like(eer, math.nan)
    threshold = g.thresholds.gather(1, k).squeeze(1)
    return torch.where(found, eer, nan), torch.where(found, threshold, nan.to(threshold.dtype))


def mean_curve_eer(xp: Xp, g: Segments) -> Tensor:
    """The EER of the rows' mean ROC curve (vertical averaging, as torchmetrics' macro ROC): ``nan`` when no row
    has both classes; rows without both classes are left out of the mean.

    The mean curve is ``T(f) = mean_c tpr_c(f)`` on every row's exact curve. At an ``f`` where a row's curve is
    vertical (several points share ``f``) it has two values: ``T-(f)`` with each such row at the lowest of its
    points there (the end of the segment arriving at ``f``) and ``T+(f)`` at the highest; elsewhere each row's
    ``tpr_c(f)`` is interpolated linearly on its segment. Between consecutive points ``g' < g`` of the union of
    the rows' ``fpr`` values every row is linear, so the mean curve is the straight segment from ``(g', T+(g'))``
    to ``(g, T-(g))`` followed by the vertical one up to ``(g, T+(g))``. ``D(f) = f - (1 - T(f))`` rises strictly
    along it from ``-1`` to ``1``; a bisection over the sorted union (``log2`` steps, each one batched search per
    row) finds the first ``g`` with ``D+(g) >= 0``: the rates cross on the vertical at ``g`` (``eer = g``) when
    ``D-(g) < 0``, else on the segment before it, interpolated as :func:`eer_rows`."""
    if g.fpr.numel() == 0:
        return torch.full((), math.nan, dtype=g.fpr.dtype, device=g.fpr.device)
    keep = ~(torch.isnan(g.fpr[:, -1]) | torch.isnan(g.fnr[:, -1]))
    fpr = torch.where(g.valid, g.fpr, g.fpr_prev)  # each position's last curve point (0 <= positions)
    fnr = torch.where(g.valid, g.fnr, g.fnr_prev)
    start, end = torch.zeros_like(fpr[:, :1]), torch.ones_like(fpr[:, :1])
    fpr = torch.where(keep.unsqueeze(1), torch.cat([start, fpr, end], 1), 0.0)  # with (0, 1) and (1, 0): the
    fnr = torch.where(keep.unsqueeze(1), torch.cat([end, fnr, start], 1), 0.0)  # ends a cut curve may lack
    weight = keep.to(fpr.dtype) / keep.sum().clamp(min=1)
    flat = fpr.reshape(-1)
    grid = xp.tensor(xp.sort(xp.asarray(flat), stable=True), flat).to(flat.dtype)  # a merge of sorted runs (rows)
    lo = torch.full((1,), -1, dtype=torch.long, device=fpr.device)  # shape (1,): index tensors, no host reads
    hi = torch.full((1,), grid.numel() - 1, dtype=torch.long, device=fpr.device)
    for _ in range(max(1, int(grid.numel()).bit_length())):  # D+(grid[hi]) >= 0 > D+(grid[lo]) (lo = -1: none)
        mid = torch.div(lo + hi, 2, rounding_mode="floor").clamp(min=0)
        up = _mean_d(fpr, fnr, weight, grid[mid], True) >= 0
        move = hi - lo > 1
        hi, lo = torch.where(move & up, mid, hi), torch.where(move & ~up, mid, lo)
    g1, g0 = grid[hi], grid[lo.clamp(min=0)]
    d0, d1 = _mean_d(fpr, fnr, weight, g0, True), _mean_d(fpr, fnr, weight, g1, False)
    eer = torch.where(d1 < 0, g1, g0 + (g1 - g0) * d0 / (d0 - d1))
    return torch.where(keep.any(), eer, math.nan).squeeze(0)


def _mean_d(fpr: Tensor, fnr: Tensor, weight: Tensor, f: Tensor, upper: bool) -> Tensor:
    """``D+(f)`` (``upper``) or ``D-(f)`` of :func:`mean_curve_eer` at one ``f`` of the rows' ``fpr`` values."""
    x = f.reshape(1, 1).expand(fpr.shape[0], 1).contiguous()
    last = fpr.shape[1] - 1
    if upper:  # the last point at or before f and the one after it
        a = (torch.searchsorted(fpr, x, right=True) - 1).clamp(0, last)
        b, at = (a + 1).clamp(max=last), a
    else:  # the first point at or after f and the one before it
        b = torch.searchsorted(fpr, x).clamp(max=last)
        a, at = (b - 1).clamp(min=0), b
    fa, fb, na, nb = fpr.gather(1, a), fpr.gather(1, b), fnr.gather(1, a), fnr.gather(1, b)
    inside = na + (nb - na) * (x - fa) / torch.where(fb > fa, fb - fa, 1.0)
    rate = torch.where(fpr.gather(1, at) == x, fnr.gather(1, at), inside)
    return f - (weight * rate.squeeze(1)).sum()


def logauc_rows(g: Segments, lo: float, hi: float) -> Tensor:
    """``(1 / ln(hi / lo)) * integral_lo^hi tpr(f) d(ln f)`` per row, exact on the piecewise-linear curve.

    On a segment from ``(f0, t0)`` to ``(f1, t1)`` (``f1 > f0``, slope ``m``), clipped to ``[a, b]`` inside
    ``[lo, hi]``: ``integral_a^b (t(a) + m (f - a)) / f df = t(a) ln(b / a) + m a (r - ln(1 + r))`` with
    ``r = (b - a) / a`` (``log1p``, so a short segment loses no digits). Vertical segments add nothing. Rows
    without both classes: ``nan``."""
    f0, f1 = g.fpr_prev, g.fpr
    t0, t1 = 1 - g.fnr_prev, 1 - g.fnr
    a, b = f0.clamp(lo, hi), f1.clamp(lo, hi)
    used = g.valid & (b > a)
    width = torch.where(used, f1 - f0, 1.0)
    slope = torch.where(used, (t1 - t0) / width, 0.0)
    a_safe = torch.where(used, a, 1.0)
    r = torch.where(used, (b - a) / a_safe, 0.0)
    t_a = t0 + slope * (a - f0)
    piece = t_a * torch.log1p(r) + slope * a_safe * (r - torch.log1p(r))
    area = torch.where(used, piece, 0.0).sum(1)
    undefined = torch.isnan(g.fpr[:, -1:]).any(1) | torch.isnan(g.fnr[:, -1:]).any(1) if g.fpr.shape[1] else True
    return torch.where(torch.as_tensor(undefined, device=area.device), math.nan, area / math.log(hi / lo))
