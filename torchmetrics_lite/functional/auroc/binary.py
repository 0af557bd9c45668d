"""Binary rank metrics: exact (optionally weighted) and binned AUROC, and average precision (conventions in
:mod:`torchmetrics_lite.functional.auroc`; the curves are in :mod:`~torchmetrics_lite.functional.auroc.curves`)."""
from __future__ import annotations

from typing import Any, List, Optional, Tuple, Union

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    Weighting,
    check_binary_rank_inputs,
    check_max_fpr,
    check_rank_ignore_index,
    check_rank_weight,
    check_rank_weighting,
    check_thresholds,
    drop_ignored,
    plain_binary_rank_rows,
)
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.auroc import _kernels as kernels
from torchmetrics_lite.functional.auroc._common import (
    NO_SAMPLES,
    State,
    _as_bool,
    _check_defined,
    _compiling,
    _state_weight,
    _undefined,
)
from torchmetrics_lite.functional.auroc._doc_args import fill_doc
from torchmetrics_lite.functional.auroc.binned import _binary_binned_stats, _binned_binary_ap, _binned_binary_auroc

__all__ = ["binary_auroc", "binary_average_precision"]

Thresholds = Optional[Union[int, List[float], Tensor]]


def _binary_rank_stats(preds: Any, target: Any, weight: Any = None, *, validate_args: bool = True,
                       weighting: Optional[Weighting] = None, ignore_index: Optional[int] = None,
                       threshold_values: Optional[Tensor] = None, from_logits: bool = False) -> State:
    """Rows to append for one checked binary batch: scores (float32 or wider), uint8 labels and, when given,
    the weights (of ``target``'s shape). ``weighting``: a module's rows so far (every update weighted or none);
    ``ignore_index``: the elements whose target equals it are dropped first; ``threshold_values``: torchmetrics'
    binned mode (the ``confmat`` counts of ``torchmetrics_lite.functional.auroc.binned`` instead of rows, logits
    through a sigmoid with ``from_logits``; the exact mode ranks the scores as given, which a sigmoid would not
    change)."""
    if threshold_values is not None:
        return _binary_binned_stats(preds, target, threshold_values, ignore_index, validate_args, weight,
                                    from_logits)
    if weight is None and ignore_index is None and (weighting is None or not weighting.weight_rows):
        plain = plain_binary_rank_rows(preds, target, validate_args)  # the common batch in one frame
        if plain is not None:
            return {"preds": plain[0], "target": plain[1]}
    if weighting is not None:
        check_rank_weighting(weighting, weight)
    if ignore_index is not None:
        preds, target, weight = drop_ignored(preds, target, weight, ignore_index, rows=False)
    checked = check_binary_rank_inputs(preds, target, validate_args)
    shape = tuple(target.shape) if isinstance(target, Tensor) else ()
    weight = check_rank_weight(weight, shape, validate_args)
    rows = {"preds": checked[0], "target": checked[1]}
    return rows if weight is None else {**rows, "weight": weight}


def _check_binary(preds: Any, target: Any, weight: Any, validate_args: bool,
                  ignore_index: Optional[int] = None) -> State:
    """Checked inputs of one binary batch as its state rows (the exact mode of :func:`_binary_rank_stats`)."""
    return _binary_rank_stats(preds, target, weight, validate_args=validate_args, ignore_index=ignore_index)


def _partial_auroc(scores: Tensor, is_pos: Tensor, weight: Optional[Tensor], max_fpr: float,
                   strict: bool) -> Tensor:
    value, defined = kernels.partial_auroc(scores, is_pos, weight, max_fpr)
    if not defined:
        _undefined("AUROC", NO_SAMPLES if scores.numel() == 0 else "with one class present", strict)
    return value

def _binary_auroc_from_stats(state: State, max_fpr: Optional[float] = None, strict: bool = False) -> Tensor:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_binary_auroc(state, max_fpr, strict)
    scores, is_pos, weight = state["preds"], _as_bool(state["target"]), _state_weight(state)
    if max_fpr is not None and max_fpr < 1:
        return _partial_auroc(scores, is_pos, weight, max_fpr, strict)
    value = kernels.auroc(scores, is_pos, weight)[0]
    _check_defined(value, "AUROC", strict, empty=lambda: scores.numel() == 0)
    return value


@fill_doc
def binary_auroc(preds: Tensor, target: Tensor, *, max_fpr: Optional[float] = None, weight: Optional[Tensor] = None,
                 from_logits: bool = False, thresholds: Thresholds = None, ignore_index: Optional[int] = None,
                 strict: bool = False, validate_args: bool = True) -> Tensor:
    """Exact area under the ROC curve: the (weighted) Mann-Whitney statistic ``U / (n_pos * n_neg)``.

    ``AUROC = sum_{i pos, j neg} w_i w_j ([s_i > s_j] + [s_i == s_j] / 2) / (W_pos * W_neg)``: the fraction of
    positive/negative pairs ranked correctly, a tied pair counting 1/2 (mid-ranks), which is the trapezoidal
    area under the ROC curve with every distinct score as a threshold (scikit-learn's ``roc_auc_score``). One sort,
    O(n log n); without weights the pair counts are exact int64 and the result one float64 rounding of the exact
    rational. Rank only: any real scores (probabilities, logits, negative values) give the same value as their
    sigmoid. {compile}

    Args:
        preds: floating scores of any shape (float16/bfloat16 go up to float32, float64 is kept).
        target: 0/1 labels (bool, integer, or floating holding exactly 0.0/1.0) of the same shape.
        max_fpr: in ``(0, 1]``: the McClish-standardised partial AUC up to this false-positive rate, as
            scikit-learn (``1`` is the full AUC); eager only (not for ``torch.compile``).
        {weight_rank} Shape: ``target``'s.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {strict}
        {validate_args}

    Returns:
        A float64 scalar. Empty input, one class present or zero total weight of a class: ``nan`` and a
        ``UserWarning`` (see ``strict``).

    Raises:
        ValueError: shapes differ, NaN scores, labels other than 0/1, negative or non-finite weights,
            ``max_fpr`` outside ``(0, 1]``, or one class present with ``strict=True``.
        TypeError: non-floating ``preds``, non-integer ``target`` or a bool/complex ``weight``.

    References:
        Hanley & McNeil (1982), "The meaning and use of the area under a receiver operating characteristic (ROC)
        curve", Radiology 143; Mann & Whitney (1947); McClish (1989) for the partial AUC.

    Examples:
        >>> preds = torch.tensor([0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.4, 0.3])
        >>> target = torch.tensor([1, 1, 0, 1, 0, 1, 0, 0])
        >>> binary_auroc(preds, target).item()  # 13 of the 16 pairs are ordered correctly
        0.8125
        >>> binary_auroc(preds, target, weight=torch.tensor([1., 1, 1, 1, 1, 1, 1, 3])).item()  # 21 / 24
        0.875
    """
    check_max_fpr(max_fpr)
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _binary_rank_stats(preds, target, weight, validate_args=validate_args, ignore_index=ignore_index,
                               threshold_values=thr, from_logits=from_logits)
    return _binary_auroc_from_stats(state, max_fpr, strict)


def _binary_average_precision_from_stats(state: State, strict: bool = False) -> Tensor:
    if "confmat" in state:  # the binned mode (thresholds=)
        return _binned_binary_ap(state, strict)
    value = kernels.average_precision(state["preds"], _as_bool(state["target"]), _state_weight(state))[0]
    _check_defined(value, "average precision", strict, "without positives", empty=lambda: state["preds"].numel() == 0)
    return value


@fill_doc
def binary_average_precision(preds: Tensor, target: Tensor, *, weight: Optional[Tensor] = None,
                             from_logits: bool = False, thresholds: Thresholds = None,
                             ignore_index: Optional[int] = None, strict: bool = False,
                             validate_args: bool = True) -> Tensor:
    """Average precision, scikit-learn's step-wise ``AP = sum_k (R_k - R_{k-1}) P_k`` (no interpolation).

    ``k`` runs over the distinct scores in decreasing order as thresholds (predict positive when
    ``score >= t``), so tied scores enter together: the (weighted) mean, over the positives, of the precision at
    the threshold equal to their own score. Exact with ties; float64. {compile}

    Args:
        preds: floating scores of any shape.
        target: 0/1 labels of the same shape.
        {weight_rank} Shape: ``target``'s.
        {thresholds}
        {from_logits_bin}
        {ignore_index_rank}
        {strict}
        {validate_args}

    Returns:
        A float64 scalar. Without positives (or zero positive weight) AP is undefined: ``nan`` and a warning
        (``strict`` raises); without negatives it is 1.

    Raises:
        ValueError, TypeError: as :func:`binary_auroc`.

    References:
        scikit-learn's ``average_precision_score``; Manning, Raghavan & Schütze (2008), "Introduction to
        Information Retrieval", section 8.4.

    Examples:
        >>> preds = torch.tensor([0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.4, 0.3])
        >>> target = torch.tensor([1, 1, 0, 1, 0, 1, 0, 0])
        >>> round(binary_average_precision(preds, target).item(), 6)  # (1 + 1 + 3/4 + 4/6) / 4
        0.854167
    """
    thr, ignore_index = check_thresholds(thresholds), check_rank_ignore_index(ignore_index)
    state = _binary_rank_stats(preds, target, weight, validate_args=validate_args, ignore_index=ignore_index,
                               threshold_values=thr, from_logits=from_logits)
    return _binary_average_precision_from_stats(state, strict)


def _binary_auroc_binned_stats(preds: Tensor, target: Tensor, bins: int, lo: float, hi: float) -> State:
    """Histograms ``(2, bins)`` (row 0 negatives, row 1 positives) of the scores binned into ``bins`` equal
    bins of ``[lo, hi]``; scores outside are clamped into the end bins (binning stays monotone)."""
    scaled = (preds.to(float_dtype(preds.device)) - lo) * (bins / (hi - lo))
    index = scaled.clamp_(0, bins - 1).long() + bins * target.long()  # truncation == floor once clamped >= 0
    if _compiling():  # bincount's output length is data-dependent for the tracer; scatter_add's is static
        hist = torch.zeros(2 * bins, dtype=torch.int64, device=index.device).scatter_add_(0, index,
                                                                                         torch.ones_like(index))
    else:
        hist = torch.bincount(index, minlength=2 * bins)
    return {"hist": hist.view(2, bins)}



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
        _undefined("AUROC", NO_SAMPLES if int(state["hist"].sum()) == 0 else "with one class present", strict)
    dtype = float_dtype(two_u.device)
    return two_u.to(dtype) / (2 * pairs).to(dtype)



def _binary_auroc_binned_error_bound(state: State) -> Tensor:
    """``shared / (2 * pairs)``: binning preserves the order of pairs in different bins and counts a pair in
    one bin as a tie (1/2) where the exact value counts 0, 1/2 or 1, so ``|binned - exact| <= this``."""
    _, shared, pairs = _binned_pairs(state["hist"])
    dtype = float_dtype(shared.device)
    return shared.to(dtype) / (2 * pairs).to(dtype)

