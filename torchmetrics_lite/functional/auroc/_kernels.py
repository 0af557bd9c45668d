"""The one place that chooses which kernel computes a quantity of the AUROC family.

:func:`choose` reads four things, once per call: whether ``torch.compile`` is tracing, whether the scores take
the numpy path (:func:`torchmetrics_lite._backend.use_numpy`: a CPU tensor, unless a test forces torch), whether
there are sample weights (and whether they are per sample or per element), and whether the scores are one row
(binary, micro) or one row per class / label. With ``need`` (what the caller reads):

================================  ===============================  ====================================
situation                         ``need="value"`` (AUROC, AP)     ``"sweep"`` (curves) / ``"reads"``
================================  ===============================  ====================================
tracing (``torch.compile``)       ``SWEEP``                        ``SWEEP``
unweighted, numpy path            ``RANK_NUMPY``                   1-D ``COUNTS_NUMPY``, rows ``SWEEP``;
                                                                   ``"reads"``: ``PACKED``
unweighted, torch path            ``RANK_TORCH``                   1-D ``COUNTS_TORCH``, rows ``SWEEP``
weighted 1-D, numpy path          ``GROUPS``                       ``GROUPS``
weighted 1-D, torch path          ``GATHER_TORCH``                 ``GATHER_TORCH``
weighted rows, numpy path         ``BUCKETS`` (a weight per        ``BUCKETS``
                                  sample), else ``SWEEP``
weighted rows, torch path         ``SWEEP``                        ``SWEEP``
================================  ===============================  ====================================

The kernels, one file each, give the same numbers on the same input (the tests run every one against
scikit-learn on tied, weighted input): ``RANK_*`` the exact int64 mid-rank counts of :mod:`._ranking`;
``COUNTS_*``, ``GROUPS``, ``BUCKETS`` and ``GATHER_*`` one position per tie group (:mod:`._groups`); ``PACKED``
one packed value sort per row (:mod:`._packed`, the reads only: EER, LogAUC, operating points); ``SWEEP`` the
static-shape sweep of :mod:`._sweep`. ``GROUPS``, ``BUCKETS`` and ``PACKED`` apply to some data only (32-bit
scores, tables that fit; ``PACKED`` also float64 scores in ``[0, 2)``, e.g. the ``from_logits`` softmax); where
they do not, their fallback runs: ``GROUPS`` -> ``GATHER_NUMPY``,
``BUCKETS`` -> ``SWEEP``, ``PACKED`` -> the ``"sweep"`` choice. Every result is a :class:`~._sweep.Swept`, a
:class:`~._roc_reads.Segments` or a value, whichever kernel ran; callers ask the functions below (one per
quantity) and never branch on weights, tracing or the backend themselves.

>>> scores, labels = torch.tensor([0.9, 0.4, 0.4, 0.1]), torch.tensor([True, True, False, False])
>>> choose(scores), choose(scores, torch.ones(4)), choose(scores, need="reads")
('rank-numpy', 'groups', 'packed')
>>> with _backend.force("torch"):
...     choose(scores), choose(scores, torch.ones(4)), choose(scores.view(2, 2), need="sweep")
('rank-torch', 'gather-torch', 'sweep')
>>> auroc(scores, labels)[0].item(), auroc(scores, labels, torch.tensor([1., 1, 3, 1]))[0].item()
(0.875, 0.8125)
"""
from __future__ import annotations

from typing import Callable, Optional, Tuple, TypeVar

import torch
from torch import Tensor

from torchmetrics_lite import _backend
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.auroc import _groups as gr
from torchmetrics_lite.functional.auroc import _packed as pk
from torchmetrics_lite.functional.auroc import _ranking as rk
from torchmetrics_lite.functional.auroc import _roc_reads as rr
from torchmetrics_lite.functional.auroc import _sweep as sw

__all__ = ["choose", "auroc", "average_precision", "swept", "counts", "reads", "segments", "eer", "KERNELS"]

RANK_NUMPY, RANK_TORCH = "rank-numpy", "rank-torch"
COUNTS_NUMPY, COUNTS_TORCH = "counts-numpy", "counts-torch"
GROUPS, BUCKETS = "groups", "buckets"
GATHER_NUMPY, GATHER_TORCH = "gather-numpy", "gather-torch"
PACKED, SWEEP = "packed", "sweep"
KERNELS = (RANK_NUMPY, RANK_TORCH, COUNTS_NUMPY, COUNTS_TORCH, GROUPS, BUCKETS, GATHER_NUMPY, GATHER_TORCH, PACKED,
           SWEEP)
NEEDS = ("value", "sweep", "reads")

_R = TypeVar("_R")
_RANK_ONE_ROW = {RANK_NUMPY: rk.rank_binary_numpy, RANK_TORCH: rk.rank_binary_torch}


def choose(scores: Tensor, weight: Optional[Tensor] = None, need: str = "value") -> str:
    """The kernel for ``scores`` (1-D: one row; 2-D: one row per class or label) and ``weight`` (``None``, per
    sample ``(n,)`` or per element); ``need``: ``"value"`` (AUROC, AP), ``"sweep"`` (the tie-aware curve: ROC / PR
    points, partial AUROC) or ``"reads"`` (unweighted reads of the curve: EER, LogAUC, operating points)."""
    if torch.compiler.is_compiling():
        return SWEEP
    host = _backend.use_numpy(scores)
    if weight is not None:
        if scores.dim() == 1:
            return GROUPS if host else GATHER_TORCH
        return BUCKETS if host and weight.dim() == 1 else SWEEP
    if need == "value":
        return RANK_NUMPY if host else RANK_TORCH
    if need == "reads" and host:
        return PACKED
    if scores.dim() == 1:
        return COUNTS_NUMPY if host else COUNTS_TORCH
    return SWEEP


def auroc(scores: Tensor, positive: Tensor, weight: Optional[Tensor] = None) -> Tuple[Tensor, Tensor]:
    """``(AUROC, positive weight)``: scalars for 1-D ``scores``, ``(R,)`` for rows (float64, float32 on a device
    without float64; ``nan`` where a row lacks a class)."""
    return _value(scores, positive, weight, rk.auroc_from_ranked, sw.auroc_from_swept)


def average_precision(scores: Tensor, positive: Tensor, weight: Optional[Tensor] = None) -> Tuple[Tensor, Tensor]:
    """``(average precision, positive weight)``, shaped as :func:`auroc` (``nan`` without positive weight)."""
    return _value(scores, positive, weight, _ap_from_ranked, sw.ap_from_swept)


def _ap_from_ranked(ranked: rk.Ranked) -> Tensor:
    return rk.precision_sum(ranked) / ranked.n_pos.to(float_dtype(ranked.n_pos.device))


def _value(scores: Tensor, positive: Tensor, weight: Optional[Tensor], from_ranked: Callable[[rk.Ranked], Tensor],
           from_swept: Callable[[sw.Swept], Tensor]) -> Tuple[Tensor, Tensor]:
    """A per-row value and the positive weight, from the rank counts or from the sweep, whichever kernel runs."""
    kernel = choose(scores, weight)
    if kernel == RANK_NUMPY or kernel == RANK_TORCH:
        ranked = _RANK_ONE_ROW[kernel](scores, positive) if scores.dim() == 1 else rk.rank_rows(scores, positive)
        return from_ranked(ranked), ranked.n_pos
    s = _swept(kernel, scores, positive, weight)
    values = from_swept(s)
    return (values[0], s.n_pos[0]) if scores.dim() == 1 else (values, s.n_pos)


def swept(scores: Tensor, positive: Tensor, weight: Optional[Tensor] = None) -> sw.Swept:
    """The tie-aware sweep (one row for 1-D ``scores``): what the ROC / PR point lists and the partial AUROC read."""
    return _swept(choose(scores, weight, "sweep"), scores, positive, weight)


def counts(scores: Tensor, positive: Tensor, weight: Optional[Tensor] = None) -> Tuple[Tensor, Tensor]:
    """``(tp, fp)`` of 1-D ``scores``: the positive and negative weight at or above each distinct score, in
    decreasing-score order (the partial AUROC's ROC points; int64 counts without weights), eager."""
    kernel = choose(scores, weight, "sweep")
    if kernel == COUNTS_NUMPY or kernel == COUNTS_TORCH:
        _, tps, fps = (rk.curve_counts_numpy if kernel == COUNTS_NUMPY else rk.curve_counts_torch)(scores, positive)
        return tps.flip(0), fps.flip(0)
    s = _swept(kernel, scores, positive, weight)
    return s.tp[0], s.fp[0]


def reads(scores: Tensor, positive: Tensor) -> sw.Swept:
    """An unweighted sweep for :func:`._sweep.roc_rates` / :func:`._sweep.pr_rates` (the operating points): the
    packed one where it applies (per position, group ends marked), else :func:`swept`'s."""
    return _read(scores, positive, pk.curve_sweep, lambda s: s)


def segments(scores: Tensor, positive: Tensor, hi: float = 1.0) -> rr.Segments:
    """The unweighted ROC curve's segments of every row (one for 1-D ``scores``), at least up to the first point
    with ``fpr >= hi`` (every point but from the packed kernel)."""
    return _read(scores, positive, lambda s, p: pk.segments(s, p, hi), rr.segments)


def eer(scores: Tensor, positive: Tensor) -> Tuple[Tensor, Tensor]:
    """``(eer, threshold)`` per row (shape ``(1,)`` for 1-D ``scores``), unweighted."""
    return _read(scores, positive, pk.eer, lambda s: rr.eer_rows(rr.segments(s)))


def _read(scores: Tensor, positive: Tensor, packed: Callable[[Tensor, Tensor], Optional[_R]],
          from_swept: Callable[[sw.Swept], _R]) -> _R:
    """An unweighted read of the curve: from the packed kernel where it is chosen and applies, else from the sweep
    of the ``"sweep"`` choice (its fallback)."""
    if choose(scores, None, "reads") == PACKED:
        found = packed(_rows(scores), _rows(positive))
        if found is not None:
            return found
    return from_swept(_swept(choose(scores, None, "sweep"), scores, positive, None))


def _rows(t: Tensor) -> Tensor:
    return t.unsqueeze(0) if t.dim() == 1 else t


def _swept(kernel: str, scores: Tensor, positive: Tensor, weight: Optional[Tensor]) -> sw.Swept:
    """The sweep that ``kernel`` (any but ``RANK_*`` and ``PACKED``) builds; ``GROUPS`` and ``BUCKETS`` hand
    over to their fallback where they do not apply."""
    if kernel == GROUPS:
        found = gr.tie_groups(scores, positive, weight)  # type: ignore[arg-type]
        kernel = GATHER_NUMPY
    elif kernel == BUCKETS:
        found = gr.row_buckets(scores, positive, weight)  # type: ignore[arg-type]
        kernel = SWEEP
    else:
        found = None
    if found is not None:
        return found
    if kernel == COUNTS_NUMPY:
        return gr.from_counts(rk.curve_counts_numpy(scores, positive))
    if kernel == COUNTS_TORCH:
        return gr.from_counts(rk.curve_counts_torch(scores, positive))
    if kernel == GATHER_NUMPY or kernel == GATHER_TORCH:
        return gr.gather_groups(scores, positive, weight, kernel == GATHER_NUMPY)  # type: ignore[arg-type]
    return sw.sweep(_rows(scores), _rows(positive), weight)
