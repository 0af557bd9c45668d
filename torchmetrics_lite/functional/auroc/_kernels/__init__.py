"""The AUROC family's kernel room, and its one door: the one place that chooses which kernel computes a quantity.

Readers (``binary.py``, ``multiclass.py``, ``curves.py``, ``eer.py``, ...) import this package only: the chooser's
per-quantity functions below, the two result types (:class:`~.result_swept.Swept`,
:class:`~.result_segments.Segments`) and the formulas that read them. The kernels, the results and the row sort are
the package's own files.

:func:`choose` reads four things, once per call: whether ``torch.compile`` is tracing, whether the scores take the
numpy path (the namespace of :func:`torchmetrics_lite._xp.namespace`: a CPU tensor, unless a test forces torch),
whether there are sample weights (and whether they are per sample or per element), and whether the scores are one
row (binary, micro) or one row per class / label. With ``need`` (what the caller reads):

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

The backend is decided once, here: :func:`torchmetrics_lite._xp.namespace` gives the namespace ``xp`` (numpy for a
CPU batch, else torch with the device's floating dtype) and every kernel runs in the ``xp`` it is handed, never
asking the backend again; ``*_NUMPY`` / ``*_TORCH`` name one kernel in either namespace (written once). The kernels,
one file each, give the same numbers on the same input (the tests run every one against scikit-learn on tied,
weighted input): ``RANK_*`` the exact int64 mid-rank counts of :mod:`.ranks`; ``COUNTS_*`` (:mod:`.curve_counts`),
``GROUPS`` (:mod:`.groups`), ``BUCKETS`` (:mod:`.groups` too) and ``GATHER_*`` (:mod:`.gather`) one position per tie
group; ``PACKED`` one packed value sort per row (:mod:`.packed`, the reads only: EER, LogAUC, operating points);
``SWEEP`` the static-shape sweep of :mod:`.static_sweep`. ``GROUPS``, ``BUCKETS`` and ``PACKED`` apply to some data
only (32-bit scores, tables that fit; ``PACKED`` also float64 scores in ``[0, 2)``, e.g. the ``from_logits``
softmax); where they do not, their fallback runs: ``GROUPS`` -> ``GATHER_NUMPY``, ``BUCKETS`` -> ``SWEEP``,
``PACKED`` -> the ``"sweep"`` choice. Every result is a :class:`~.result_swept.Swept`, a
:class:`~.result_segments.Segments` or a value, whichever kernel ran; callers ask the functions below (one per
quantity, through the package's door) and never branch on weights, tracing or the backend themselves.

>>> scores, labels = torch.tensor([0.9, 0.4, 0.4, 0.1]), torch.tensor([True, True, False, False])
>>> choose(scores), choose(scores, torch.ones(4)), choose(scores, need="reads")
('rank-numpy', 'groups', 'packed')
>>> from torchmetrics_lite import _backend
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

from torchmetrics_lite._xp import NUMPY, Xp, namespace
from torchmetrics_lite.functional.auroc._kernels import curve_counts as cc
from torchmetrics_lite.functional.auroc._kernels import gather as ga
from torchmetrics_lite.functional.auroc._kernels import groups as gr
from torchmetrics_lite.functional.auroc._kernels import packed as pk
from torchmetrics_lite.functional.auroc._kernels import ranks as rk
from torchmetrics_lite.functional.auroc._kernels import result_segments as sg
from torchmetrics_lite.functional.auroc._kernels import result_swept as sw
from torchmetrics_lite.functional.auroc._kernels import static_sweep as ss
from torchmetrics_lite.functional.auroc._kernels.result_segments import Segments, logauc_rows
from torchmetrics_lite.functional.auroc._kernels.result_swept import (
    Swept,
    auroc_from_swept,
    pr_points,
    pr_rates,
    roc_points,
    roc_rates,
)

__all__ = ["choose", "auroc", "average_precision", "swept", "partial_auroc", "reads", "segments", "eer", "sweep",
           "mean_curve_eer", "KERNELS", "Segments", "logauc_rows", "Swept", "auroc_from_swept",
           "pr_points", "pr_rates", "roc_points", "roc_rates"]

RANK_NUMPY, RANK_TORCH = "rank-numpy", "rank-torch"
COUNTS_NUMPY, COUNTS_TORCH = "counts-numpy", "counts-torch"
GROUPS, BUCKETS = "groups", "buckets"
GATHER_NUMPY, GATHER_TORCH = "gather-numpy", "gather-torch"
PACKED, SWEEP = "packed", "sweep"
KERNELS = (RANK_NUMPY, RANK_TORCH, COUNTS_NUMPY, COUNTS_TORCH, GROUPS, BUCKETS, GATHER_NUMPY, GATHER_TORCH, PACKED,
           SWEEP)
NEEDS = ("value", "sweep", "reads")

_R = TypeVar("_R")


def choose(scores: Tensor, weight: Optional[Tensor] = None, need: str = "value") -> str:
    """The kernel for ``scores`` (1-D: one row; 2-D: one row per class or label) and ``weight`` (``None``, per
    sample ``(n,)`` or per element); ``need``: ``"value"`` (AUROC, AP), ``"sweep"`` (the tie-aware curve: ROC / PR
    points, partial AUROC) or ``"reads"`` (unweighted reads of the curve: EER, LogAUC, operating points)."""
    return _choose(namespace(scores), scores, weight, need)


def _choose(xp: Xp, scores: Tensor, weight: Optional[Tensor], need: str) -> str:
    """:func:`choose` in the namespace the caller decided for the batch (numpy: the host path)."""
    if torch.compiler.is_compiling():
        return SWEEP
    host = xp is NUMPY
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
    return _value(scores, positive, weight, rk.ap_from_ranked, sw.ap_from_swept)


def _value(scores: Tensor, positive: Tensor, weight: Optional[Tensor], from_ranked: Callable[[rk.Ranked], Tensor],
           from_swept: Callable[[sw.Swept], Tensor]) -> Tuple[Tensor, Tensor]:
    """A per-row value and the positive weight, from the rank counts or from the sweep, whichever kernel runs."""
    xp = namespace(scores)
    kernel = _choose(xp, scores, weight, "value")
    if kernel != RANK_NUMPY and kernel != RANK_TORCH:
        s = _swept(xp, kernel, scores, positive, weight)
        values = from_swept(s)
        return (values[0], s.n_pos[0]) if scores.dim() == 1 else (values, s.n_pos)
    ranked = rk.rank_one_row(xp, scores, positive) if scores.dim() == 1 else rk.rank_rows(xp, scores, positive)
    return from_ranked(ranked), ranked.n_pos

def swept(scores: Tensor, positive: Tensor, weight: Optional[Tensor] = None) -> sw.Swept:
    """The tie-aware sweep (one row for 1-D ``scores``): what the ROC / PR point lists and the partial AUROC read."""
    xp = namespace(scores)
    return _swept(xp, _choose(xp, scores, weight, "sweep"), scores, positive, weight)


def partial_auroc(scores: Tensor, positive: Tensor, weight: Optional[Tensor], max_fpr: float) -> Tuple[Tensor, bool]:
    """The McClish-standardised AUROC of 1-D ``scores`` up to ``fpr = max_fpr``
    (:func:`~.result_swept.standardized_partial_auroc` of the ROC points, from ``(0, 0)``), eager, and whether it
    is defined: ``(nan, False)`` without samples of both classes (float64, float32 on a device without float64)."""
    xp = namespace(scores)
    tps, fps = _counts(xp, scores, positive, weight)
    dtype = xp.result_dtype(scores)
    if tps.numel() == 0 or float(tps[-1]) == 0 or float(fps[-1]) == 0:
        return torch.tensor(float("nan"), dtype=dtype, device=scores.device), False
    zero = tps.new_zeros(1)
    return sw.standardized_partial_auroc(torch.cat([zero, tps]), torch.cat([zero, fps]), max_fpr, dtype), True


def _counts(xp: Xp, scores: Tensor, positive: Tensor, weight: Optional[Tensor]) -> Tuple[Tensor, Tensor]:
    """``(tp, fp)`` of 1-D ``scores``: the positive and negative weight at or above each distinct score, in
    decreasing-score order (int64 counts without weights)."""
    kernel = _choose(xp, scores, weight, "sweep")
    if kernel == COUNTS_NUMPY or kernel == COUNTS_TORCH:
        _, tps, fps = cc.curve_counts(xp, scores, positive)
        return tps.flip(0), fps.flip(0)
    s = _swept(xp, kernel, scores, positive, weight)
    return s.tp[0], s.fp[0]


def sweep(scores: Tensor, positive: Tensor, weight: Optional[Tensor] = None) -> sw.Swept:
    """The static-shape sweep of every row, whatever the data (DeLong reads its per-sample ``order``; the label
    ranking's fallback): :func:`~.static_sweep.sweep` in the batch's namespace."""
    return ss.sweep(namespace(scores), scores, positive, weight)


def reads(scores: Tensor, positive: Tensor) -> sw.Swept:
    """An unweighted sweep for :func:`~.result_swept.roc_rates` / :func:`~.result_swept.pr_rates` (the operating
    points): the packed one where it applies (per position, group ends marked), else :func:`swept`'s."""
    return _read(scores, positive, pk.curve_sweep, lambda s: s)


def segments(scores: Tensor, positive: Tensor, hi: float = 1.0) -> sg.Segments:
    """The unweighted ROC curve's segments of every row (one for 1-D ``scores``), at least up to the first point
    with ``fpr >= hi`` (every point but from the packed kernel)."""
    return _read(scores, positive, lambda xp, s, p: pk.segments(xp, s, p, hi), sg.segments)


def eer(scores: Tensor, positive: Tensor) -> Tuple[Tensor, Tensor]:
    """``(eer, threshold)`` per row (shape ``(1,)`` for 1-D ``scores``), unweighted."""
    return _read(scores, positive, pk.eer, lambda s: sg.eer_rows(sg.segments(s)))


def mean_curve_eer(g: sg.Segments) -> Tensor:
    """The EER of the rows' mean ROC curve (:func:`.result_segments.mean_curve_eer`), its grid sorted in the
    namespace of the curve's tensors."""
    return sg.mean_curve_eer(namespace(g.fpr), g)


def _read(scores: Tensor, positive: Tensor, packed: Callable[[Xp, Tensor, Tensor], Optional[_R]],
          from_swept: Callable[[sw.Swept], _R]) -> _R:
    """An unweighted read of the curve: from the packed kernel where it is chosen and applies, else from the sweep
    of the ``"sweep"`` choice (its fallback)."""
    xp = namespace(scores)
    if _choose(xp, scores, None, "reads") == PACKED:
        found = packed(xp, _rows(scores), _rows(positive))
        if found is not None:
            return found
    return from_swept(_swept(xp, _choose(xp, scores, None, "sweep"), scores, positive, None))


def _rows(t: Tensor) -> Tensor:
    return t.unsqueeze(0) if t.dim() == 1 else t


def _swept(xp: Xp, kernel: str, scores: Tensor, positive: Tensor, weight: Optional[Tensor]) -> sw.Swept:
    """The sweep that ``kernel`` (any but ``RANK_*`` and ``PACKED``) builds in ``xp``; ``GROUPS`` and ``BUCKETS``
    hand over to their fallback where they do not apply."""
    if kernel == BUCKETS:
        found = gr.row_buckets(scores, positive, weight)  # type: ignore[arg-type]
        kernel = SWEEP
    elif kernel == GROUPS:
        found = gr.tie_groups(scores, positive, weight)  # type: ignore[arg-type]
        kernel = GATHER_NUMPY
    else:
        found = None
    if found is not None:
        return found
    if kernel == COUNTS_NUMPY or kernel == COUNTS_TORCH:
        return cc.swept(xp, scores, positive)
    if kernel == SWEEP:
        return ss.sweep(xp, _rows(scores), _rows(positive), weight)
    return ga.gather_groups(xp, scores, positive, weight)  # type: ignore[arg-type]
