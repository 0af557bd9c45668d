"""Binary rank metrics: exact and binned AUROC, average precision, ROC and precision-recall curves
(conventions in :mod:`torchmetrics_lite.functional.auroc`)."""
from __future__ import annotations

import warnings
from typing import Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_binary_rank_inputs,
    check_max_fpr,
)
from torchmetrics_lite.functional.auroc import _ranking as rk
from torchmetrics_lite.functional.auroc._common import (
    State,
    _as_bool,
    _undefined,
)

__all__ = ["binary_auroc", "binary_average_precision", "binary_roc", "binary_precision_recall_curve"]




def _binary_rank_stats(preds: Tensor, target: Tensor) -> State:
    """Rows to append for one checked binary batch: scores (float32 or wider) and uint8 labels."""
    return {"preds": preds, "target": target}



def _binary_auroc_from_stats(state: State, max_fpr: Optional[float] = None, strict: bool = False) -> Tensor:
    scores, is_pos = state["preds"], _as_bool(state["target"])
    if max_fpr is not None and max_fpr < 1:
        _, tps, fps = rk.curve_counts(scores, is_pos)
        if tps.numel() == 0 or int(tps[0]) == 0 or int(fps[0]) == 0:  # counts at the lowest threshold: totals
            _undefined("AUROC", "with one class present", strict)
            return torch.tensor(float("nan"), dtype=torch.float64, device=scores.device)
        zero = tps.new_zeros(1)
        return rk.partial_auroc(torch.cat([zero, tps.flip(0)]), torch.cat([zero, fps.flip(0)]), max_fpr)
    value = rk.auroc_from_ranked(rk.rank_binary(scores, is_pos))
    if bool(torch.isnan(value)):
        _undefined("AUROC", "with one class present", strict)
    return value



def binary_auroc(preds: Tensor, target: Tensor, *, max_fpr: Optional[float] = None, strict: bool = False,
                 validate_args: bool = True) -> Tensor:
    """Exact area under the ROC curve: the Mann-Whitney ``U / (n_pos * n_neg)``.

    ``AUROC = (#{pos > neg} + #{pos == neg} / 2) / (n_pos * n_neg)`` over all positive/negative pairs, i.e.
    the trapezoidal area under the ROC curve with every distinct threshold (scikit-learn's ``roc_auc_score``).

    Args:
        preds: scores of any shape and floating dtype (probabilities, logits, any real values; order only).
        target: 0/1 labels (int or bool), same shape.
        max_fpr: in ``(0, 1]``: the McClish-standardised partial AUC up to this false-positive rate, as
            scikit-learn (``1`` is the full AUC).
        strict: raise ``ValueError`` instead of returning ``nan`` with a warning when one class is missing.
        validate_args: check values (NaN scores, labels other than 0/1); shapes and dtypes are always checked.

    Returns:
        A float64 scalar. Empty input or one class present: ``nan`` (see ``strict``).

    >>> preds = torch.tensor([0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.4, 0.3])
    >>> target = torch.tensor([1, 1, 0, 1, 0, 1, 0, 0])
    >>> binary_auroc(preds, target).item()  # 13 of the 16 pairs are ordered correctly
    0.8125
    """
    check_max_fpr(max_fpr)
    state = _binary_rank_stats(*check_binary_rank_inputs(preds, target, validate_args))
    return _binary_auroc_from_stats(state, max_fpr, strict)



def _binary_average_precision_from_stats(state: State, strict: bool = False) -> Tensor:
    ranked = rk.rank_binary(state["preds"], _as_bool(state["target"]))
    value = rk.precision_sum(ranked) / ranked.n_pos.double()
    if int(ranked.n_pos) == 0:
        _undefined("average precision", "without positives", strict)
    return value



def binary_average_precision(preds: Tensor, target: Tensor, *, strict: bool = False,
                             validate_args: bool = True) -> Tensor:
    """Average precision, scikit-learn's step-wise ``AP = sum_k (R_k - R_{k-1}) P_k`` (no interpolation).

    ``k`` runs over the distinct scores in decreasing order as thresholds (predict positive when
    ``score >= t``), so tied scores enter together. Equivalently: the mean, over the positives, of the precision
    at the threshold equal to their own score. Exact with ties; float64.

    Args:
        preds, target, strict, validate_args: as :func:`binary_auroc`. Without positives AP is undefined
            (``nan``, warning; ``strict`` raises); without negatives it is 1.

    >>> preds = torch.tensor([0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.4, 0.3])
    >>> target = torch.tensor([1, 1, 0, 1, 0, 1, 0, 0])
    >>> round(binary_average_precision(preds, target).item(), 6)  # (1 + 1 + 3/4 + 4/6) / 4
    0.854167
    """
    state = _binary_rank_stats(*check_binary_rank_inputs(preds, target, validate_args))
    return _binary_average_precision_from_stats(state, strict)



def _binary_roc_from_stats(state: State) -> Tuple[Tensor, Tensor, Tensor]:
    thresholds, tps, fps = rk.curve_counts(state["preds"], _as_bool(state["target"]))
    zero, inf = tps.new_zeros(1), thresholds.new_full((1,), float("inf"))
    tps, fps = torch.cat([zero, tps.flip(0)]).double(), torch.cat([zero, fps.flip(0)]).double()
    if fps[-1] == 0 or tps[-1] == 0:
        warnings.warn("ROC curve: only one class present in `target`; its rate is nan", UserWarning, stacklevel=3)
    return fps / fps[-1], tps / tps[-1], torch.cat([inf, thresholds.flip(0)])



def binary_roc(preds: Tensor, target: Tensor, *, validate_args: bool = True) -> Tuple[Tensor, Tensor, Tensor]:
    """The ROC curve with every distinct score as a threshold (scikit-learn's ``roc_curve(...,
    drop_intermediate=False)``).

    Returns ``(fpr, tpr, thresholds)``: ``thresholds`` are ``inf`` followed by the distinct scores in
    decreasing order (the scores' dtype); at threshold ``t`` the prediction is positive when ``score >= t``,
    so the curve starts at ``(0, 0)`` and ends at ``(1, 1)``. ``fpr``/``tpr`` are float64. With one class
    only, the missing class's rate is ``nan`` (0/0) and a warning is raised.

    >>> fpr, tpr, thr = binary_roc(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    >>> thr
    tensor([   inf, 0.8000, 0.4000, 0.3500, 0.1000])
    """
    return _binary_roc_from_stats(_binary_rank_stats(*check_binary_rank_inputs(preds, target, validate_args)))



def _binary_precision_recall_curve_from_stats(state: State) -> Tuple[Tensor, Tensor, Tensor]:
    thresholds, tps, fps = rk.curve_counts(state["preds"], _as_bool(state["target"]))
    tps, predicted = tps.double(), (tps + fps).double()
    precision = tps / predicted
    if tps.numel() == 0 or tps[0] == 0:
        warnings.warn("precision-recall curve: no positive in `target`; recall is set to 1", UserWarning,
                      stacklevel=3)
        recall = torch.ones_like(tps)
    else:
        recall = tps / tps[0]
    one, zero = precision.new_ones(1), precision.new_zeros(1)
    return torch.cat([precision, one]), torch.cat([recall, zero]), thresholds



def binary_precision_recall_curve(preds: Tensor, target: Tensor, *,
                                  validate_args: bool = True) -> Tuple[Tensor, Tensor, Tensor]:
    """Precision and recall at every distinct score as a threshold, as scikit-learn's
    ``precision_recall_curve`` (``drop_intermediate=False``).

    Returns ``(precision, recall, thresholds)``: ``thresholds`` are the distinct scores in increasing order;
    ``precision[i]``/``recall[i]`` are those of ``score >= thresholds[i]``, and one last point
    ``(precision 1, recall 0)`` closes the curve (lengths ``T + 1``, ``T + 1``, ``T``). Without positives the
    recall is 1 everywhere, with a warning (as scikit-learn).

    >>> p, r, t = binary_precision_recall_curve(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
    >>> [round(v, 4) for v in p.tolist()], r.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0])
    """
    state = _binary_rank_stats(*check_binary_rank_inputs(preds, target, validate_args))
    return _binary_precision_recall_curve_from_stats(state)



def _binary_auroc_binned_stats(preds: Tensor, target: Tensor, bins: int, lo: float, hi: float) -> State:
    """Histograms ``(2, bins)`` (row 0 negatives, row 1 positives) of the scores binned into ``bins`` equal
    bins of ``[lo, hi]``; scores outside are clamped into the end bins (binning stays monotone)."""
    scaled = (preds.double() - lo) * (bins / (hi - lo))
    index = scaled.clamp_(0, bins - 1).long() + bins * target.long()  # truncation == floor once clamped >= 0
    return {"hist": torch.bincount(index, minlength=2 * bins).view(2, bins)}



def _binned_pairs(hist: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
    """``(2U, shared, pairs)``: twice the Mann-Whitney U of the binned scores, the positive/negative pairs that
    share a bin, and all positive/negative pairs (exact int64)."""
    neg, pos = hist[0], hist[1]
    neg_below = torch.cumsum(neg, 0) - neg
    two_u = (pos * (2 * neg_below + neg)).sum()
    return two_u, (pos * neg).sum(), pos.sum() * neg.sum()



def _binary_auroc_binned_from_stats(state: State, strict: bool = False) -> Tensor:
    two_u, _, pairs = _binned_pairs(state["hist"])
    if int(pairs) == 0:
        _undefined("AUROC", "with one class present", strict)
    return two_u.double() / (2 * pairs).double()



def _binary_auroc_binned_error_bound(state: State) -> Tensor:
    """``shared / (2 * pairs)``: binning preserves the order of pairs in different bins and counts a pair in
    one bin as a tie (1/2) where the exact value counts 0, 1/2 or 1, so ``|binned - exact| <= this``."""
    _, shared, pairs = _binned_pairs(state["hist"])
    return shared.double() / (2 * pairs).double()

