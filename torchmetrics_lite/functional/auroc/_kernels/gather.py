"""The ``GATHER`` kernel of :func:`~._kernels.choose` (weighted, one row, the general path: numpy on CPU, where its
gathers are several times faster than torch's, or torch on any device): one row sort
(:func:`.row_sort.rank_rows`), two gathers and cumulative sums, written once over the namespace ``xp`` the chooser
decided. The result is a one-row :class:`~.result_swept.Swept` with one position per tie group (eager: its length
is the number of distinct scores).

>>> import torch
>>> from torchmetrics_lite._xp import NUMPY
>>> s = gather_groups(NUMPY, torch.tensor([0.5, 0.1, 0.5]), torch.tensor([True, False, False]),
...                   torch.tensor([2., 1, 3]))
>>> s.scores.tolist(), s.tp.tolist(), s.fp.tolist()
([[0.5, 0.10000000149011612]], [[2.0, 2.0]], [[3.0, 4.0]])
"""
from __future__ import annotations

from torch import Tensor

from torchmetrics_lite._xp import Xp
from torchmetrics_lite.functional.auroc._kernels.result_swept import Swept, grouped
from torchmetrics_lite.functional.auroc._kernels.row_sort import rank_rows

__all__ = ["gather_groups"]


def gather_groups(xp: Xp, scores: Tensor, is_pos: Tensor, weight: Tensor) -> Swept:
    """The one-row sweep of 1-D ``scores`` (boolean ``is_pos``, ``weight`` one per sample): the weights in
    decreasing-score order (gathered first, the gathered copy widened to ``xp.real``), their cumulative sums read
    at the end of each tie group."""
    order, keys = (v[0] for v in rank_rows(xp, scores.unsqueeze(0), descending=True))
    w_all = xp.floating(xp.asarray(weight)[order])
    w_pos = xp.where(xp.asarray(is_pos)[order], w_all, 0)
    n = order.shape[0]
    starts = xp.run_starts(keys)
    ends = xp.concatenate([starts[1:] - 1, starts[:1] * 0 + n - 1]) if n else starts
    tp, fp = w_pos.cumsum(0)[ends], (w_all - w_pos).cumsum(0)[ends]
    return grouped(*(xp.tensor(v, scores).to(scores.device) for v in (xp.asarray(scores)[order[starts]], tp, fp)))
