"""The ``SWEEP`` kernel of :func:`~._kernels.choose`: the static-shape descending sweep of every row, for
``torch.compile``, the unweighted per-class curves, weighted rows off the counting tables and DeLong.

Every row of ``scores`` ``(R, n)`` is sorted once in decreasing order (:func:`.row_sort.rank_rows` in the namespace
the chooser decided; tie groups read from its keys); the positives' and negatives' weights follow the same order
(``int64`` ones without ``weight``, so the counts stay exact, float64 weights otherwise, float32 on a device without
float64). Group starts and ends come from ``cummax`` / ``cummin`` of the group-boundary indices, so nothing has a
data-dependent shape and the pass traces under ``torch.compile(fullgraph=True)``. The result is a
:class:`~.result_swept.Swept` with one position per sample.

>>> import torch
>>> from torchmetrics_lite._xp import NUMPY
>>> s = sweep(NUMPY, torch.tensor([[0.1, 0.4, 0.9, 0.4]]), torch.tensor([[False, True, True, False]]))
>>> s.order.tolist(), s.tp.tolist(), s.fp.tolist(), s.last.tolist()
([[2, 1, 3, 0]], [[1, 2, 2, 2]], [[0, 1, 1, 2]], [[True, False, True, True]])
"""
from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor

from torchmetrics_lite._xp import Xp
from torchmetrics_lite.functional.auroc._kernels.result_swept import Swept
from torchmetrics_lite.functional.auroc._kernels.row_sort import rank_rows

__all__ = ["sweep"]


def sweep(xp: Xp, scores: Tensor, positive: Tensor, weight: Optional[Tensor] = None) -> Swept:
    """The sweep of every row of ``scores`` ``(R, n)`` with boolean ``positive`` ``(R, n)`` and an optional
    per-column ``weight`` ``(n,)`` (shared by the rows: one sample's weight in every class) or per-element
    ``(R, n)``."""
    rows, n = scores.shape
    order, keys = (xp.tensor(v, scores).to(scores.device) for v in rank_rows(xp, scores, descending=True))
    is_pos = positive.gather(1, order)
    if weight is None:
        pos = is_pos.long()
        neg = 1 - pos
    else:
        w = weight.to(xp.result_dtype(scores))
        w = w.gather(1, order) if w.dim() == 2 else w[order]  # per element (R, n) or per column (n,)
        pos = torch.where(is_pos, w, 0.0)
        neg = w - pos
    new = keys[:, 1:] != keys[:, :-1]
    edge = torch.ones(rows, 1, dtype=torch.bool, device=scores.device)
    last, first = torch.cat([new, edge], 1), torch.cat([edge, new], 1)
    index = torch.arange(n, device=scores.device).expand(rows, n)
    end = torch.where(last, index, n).flip(1).cummin(1).values.flip(1)
    start = torch.where(first, index, 0).cummax(1).values
    tp_inc, fp_inc = pos.cumsum(1), neg.cumsum(1)
    return Swept(order, scores.gather(1, order), pos, neg, tp_inc.gather(1, end), fp_inc.gather(1, end),
                 (tp_inc - pos).gather(1, start), (fp_inc - neg).gather(1, start), last, pos.sum(1), neg.sum(1))
