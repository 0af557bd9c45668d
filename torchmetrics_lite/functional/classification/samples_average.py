"""scikit-learn's ``average="samples"`` of the multilabel scores (precision, recall, F-beta, Jaccard): the score of
each sample over its labels, then the mean of those scores over the samples.

A sample is a row of the (M, L) checked inputs (``(N, L, ...)`` inputs: every position of the extra dimensions
is a sample, as it is a sample of the global counts). Its labels' counts ``tp, fp, tn, fn`` give its score by the
metric's terms (precision ``tp / (tp + fp)``, ...); a 0/0 score (a sample with no predicted label, for precision;
no true label, for recall; neither, for F-beta and Jaccard) is ``zero_division``, as scikit-learn's. The mean is
weighted by ``weight`` (one value per sample); a NaN score (``zero_division=nan``) leaves its sample out of the
mean, as scikit-learn's ``_nanaverage``; ``ignore_index`` leaves entries out of their sample's counts, and a sample
left with no entry is not a sample (out of the mean). A mean over nothing (no sample, or every weight 0) is
``zero_division`` (scikit-learn raises there), the value of the other averages on empty counts.

The statistics of a batch are two sums, ``score_sum`` (the weighted sum of its sample scores) and ``weight_sum``,
so batches merge and ranks sync by addition (a module streams without keeping samples); the value is their
ratio. Streamed over batches it equals the one-shot value up to the float64 rounding of the two sums.
"""
from __future__ import annotations

from typing import Dict, List, Optional

import torch
from torch import Tensor

from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.classification._stat_scores import Terms, _positive, _safe_divide

__all__: List[str] = []  # private helpers of multilabel precision, recall, F-beta and Jaccard


def _samples_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor], cut: float, ignore_index: Optional[int],
                   terms: Terms, zero_division: float) -> Dict[str, Tensor]:
    """``{"score_sum", "weight_sum"}`` (float64 scalars) of checked (M, L) inputs and (M,) ``weight``: one pass of
    four row sums (no Python loop over samples)."""
    dtype = float_dtype(preds.device)
    pos, true = _positive(preds, cut).to(dtype=torch.bool), target == 1
    rows, num_labels = target.shape
    if ignore_index is None:
        total: Tensor = torch.full((rows,), num_labels, dtype=torch.int64, device=target.device)
    else:
        counted = target != ignore_index
        pos, true, total = pos & counted, true & counted, counted.sum(1)
    tp = (pos & true).sum(1)
    fp, fn = pos.sum(1) - tp, true.sum(1) - tp
    num, den = terms(tp, fp, total - tp - fp - fn, fn)
    scores = _safe_divide(num, den, zero_division)
    kept = ~torch.isnan(scores)
    if ignore_index is not None:
        kept &= total > 0
    w = kept.to(dtype=dtype) if weight is None else torch.where(kept, weight.to(dtype=dtype), 0.0)
    return {"score_sum": (w * scores.nan_to_num(0.0)).sum(), "weight_sum": w.sum()}


def _samples_from_stats(state: Dict[str, Tensor], zero_division: float) -> Tensor:
    """The weighted mean of the sample scores, ``score_sum / weight_sum``; ``zero_division`` over no weight."""
    total = state["weight_sum"]
    return torch.where(total == 0, zero_division, state["score_sum"] / total)
