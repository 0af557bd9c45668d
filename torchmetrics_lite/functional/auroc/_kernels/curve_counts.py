"""The ``COUNTS`` kernel of :func:`~._kernels.choose` (unweighted, one row, eager): the true and false positive counts
at every distinct score, from two sorts (all the scores, the positives' scores) and one binary search per distinct
score, written once over the namespace ``xp`` the chooser decided.

With ``A`` all the scores sorted ascending, ``P`` the positives' and ``t`` a distinct score (a threshold, predict
positive when ``score >= t``): ``tp(t) = |P| - #{P < t}`` and ``fp(t) = #{A >= t} - tp(t)``, exact int64.

>>> import torch
>>> from torchmetrics_lite._xp import NUMPY
>>> thresholds, tps, fps = curve_counts(NUMPY, torch.tensor([0.9, 0.4, 0.4, 0.1]),
...                                     torch.tensor([True, True, False, False]))
>>> thresholds.tolist(), tps.tolist(), fps.tolist()
([0.10000000149011612, 0.4000000059604645, 0.8999999761581421], [2, 2, 1], [2, 1, 0])
>>> swept(NUMPY, torch.tensor([0.9, 0.4]), torch.tensor([True, False])).tp
tensor([[1, 1]])
"""
from __future__ import annotations

from typing import Tuple

from torch import Tensor

from torchmetrics_lite._xp import Xp
from torchmetrics_lite.functional.auroc._kernels.result_swept import Swept, grouped

__all__ = ["curve_counts", "swept"]


def curve_counts(xp: Xp, scores: Tensor, is_pos: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
    """Every distinct score of 1-D ``scores`` as a threshold, ascending, with the true and false positives at
    ``score >= t``: ``(thresholds, tps, fps)`` tensors (int64 counts; the thresholds keep the scores' dtype, float32
    for float16 / bfloat16 scores in numpy). Empty input: three empty tensors."""
    a = xp.asarray(scores)
    all_sorted = xp.sort(a)
    pos = xp.select_sorted(a, xp.asarray(is_pos))
    starts = xp.run_starts(all_sorted)
    thresholds = all_sorted[starts]
    tps = pos.shape[0] - xp.searchsorted(pos, thresholds)
    fps = (a.shape[0] - starts) - tps
    return xp.tensor(thresholds, scores), xp.tensor(tps, scores), xp.tensor(fps, scores)


def swept(xp: Xp, scores: Tensor, is_pos: Tensor) -> Swept:
    """The one-row :class:`~.result_swept.Swept` of the counts: one position per distinct score, decreasing."""
    thresholds, tp, fp = (v.flip(0) for v in curve_counts(xp, scores, is_pos))
    return grouped(thresholds, tp, fp)
