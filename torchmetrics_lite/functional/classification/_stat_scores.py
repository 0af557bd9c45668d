"""The counting core of the classification metrics: batch statistics, per-class counts, and averaging.

Statistics of one batch (all int64, all summed over batches, all produced by ONE counting pass):

* binary: a 2x2 confusion matrix ``[[tn, fp], [fn, tp]]`` (rows: target, columns: prediction);
* multilabel: one 2x2 matrix per label, shape (L, 2, 2);
* multiclass, ``top_k=1``: the (C, C) confusion matrix;
* multiclass, ``top_k>1``: a (3, C) table: how often each class is among the top k predictions, how often it
  is the target (support), and how often it is the target AND in the top k (true positives).

Counting is one bincount (on CUDA a scatter-add of ones, ``index_add_``, into a fixed number of bins: unlike
``torch.bincount`` there it needs no device-to-host sync to size its output). Samples whose target equals
``ignore_index`` go to one extra bin that is dropped, so ignoring costs no boolean indexing (no sync either).
"""
from __future__ import annotations

import functools
from typing import Callable, Optional, Tuple

import torch
from torch import Tensor

Counts = Tuple[Tensor, Tensor, Tensor, Tensor]  # tp, fp, tn, fn: int64, per class (C,) or scalars
NORMALIZE = (None, "true", "pred", "all")  # confusion-matrix normalisations
Terms = Callable[[Tensor, Tensor, Tensor, Tensor], Tuple[Tensor, Tensor]]  # counts -> (numerator, denominator)


# ----------------------------------------------------------------------------------------------- counting
def _count(index: Tensor, size: int) -> Tensor:
    """``bincount(index, minlength=size)`` for indices known to lie in [0, size), without a host sync: on CPU
    ``torch.bincount`` itself (one op, no sync to speak of), elsewhere a scatter-add of ones into ``size`` bins
    (CUDA's bincount reads the maximum back to the host to size its output)."""
    if index.device.type == "cpu":
        return torch.bincount(index, minlength=size)
    ones = torch.ones((), dtype=torch.int64, device=index.device).expand(index.shape[0])
    return torch.zeros(size, dtype=torch.int64, device=index.device).index_add_(0, index, ones)


def _long(t: Tensor) -> Tensor:
    return t if t.dtype == torch.int64 else t.to(torch.int64)


@functools.lru_cache(maxsize=256)
def _cut_in(dtype: torch.dtype, cut: float) -> Tuple[float, bool]:
    """``(c, inclusive)`` such that, for every value ``x`` of ``dtype``, ``x > cut`` (exactly, in float64) iff
    ``x >= c`` (``inclusive``) or ``x > c``, with ``c`` representable in ``dtype``. A plain ``preds > cut``
    compares in the preds' dtype, i.e. against ``cut`` rounded to it: a float16 0.30005 (> 0.3) or a bfloat16
    0.30078 would be called negative at ``threshold=0.3``. ``c`` is the nearest ``dtype`` value to ``cut``;
    no ``dtype`` value lies strictly between the two, so rounded up means ``x >= c``, otherwise ``x > c``."""
    c = float(torch.tensor(cut, dtype=torch.float64).to(dtype))
    return c, c > cut


def _positive(preds: Tensor, cut: float) -> Tensor:
    """0/1 predictions: float preds are positive when ``preds > cut`` (exactly, whatever their dtype);
    integer/bool preds are labels already."""
    if not preds.is_floating_point():
        return _long(preds)
    if preds.dtype == torch.float64:
        return preds > cut
    c, inclusive = _cut_in(preds.dtype, cut)
    return preds >= c if inclusive else preds > c


def _binary_confmat(preds: Tensor, target: Tensor, cut: float, ignore_index: Optional[int]) -> Tensor:
    """(2, 2) confusion matrix of flat, checked binary inputs."""
    index = torch.add(_positive(preds, cut), _long(target), alpha=2)
    if ignore_index is None:
        return _count(index, 4).view(2, 2)
    index = index.masked_fill(target == ignore_index, 4)
    return _count(index, 5)[:4].view(2, 2)


def _multilabel_confmat(preds: Tensor, target: Tensor, cut: float, ignore_index: Optional[int]) -> Tensor:
    """(L, 2, 2) per-label confusion matrices of checked (M, L) inputs."""
    num_labels = preds.shape[1]
    offset = torch.arange(0, 4 * num_labels, 4, device=preds.device)
    index = (torch.add(_positive(preds, cut), _long(target), alpha=2) + offset).reshape(-1)
    if ignore_index is None:
        return _count(index, 4 * num_labels).view(num_labels, 2, 2)
    index = index.masked_fill(target.reshape(-1) == ignore_index, 4 * num_labels)
    return _count(index, 4 * num_labels + 1)[:-1].view(num_labels, 2, 2)


def _multiclass_table(preds: Tensor, target: Tensor, num_classes: int, top_k: int,
                      ignore_index: Optional[int], validate_args: bool = True) -> Tensor:
    """(C, C) confusion matrix (``top_k=1``) or (3, C) top-k table of checked multiclass inputs."""
    c = num_classes
    target = _long(target)
    if top_k > 1:
        return _topk_table(preds, target, c, top_k, ignore_index)
    labels = preds.max(dim=1).indices if preds.dim() == 2 else _long(preds)  # first maximum, as argmax
    index = torch.add(labels, target, alpha=c)
    if ignore_index is None:
        # a target >= C lands in one extra bin (clamped: a huge target must not size a huge bincount); with
        # validate_args on CPU that bin is read back (a scalar) and raises for the caller to report the label
        counts = _count(index.clamp(max=c * c), c * c + 1)
        if validate_args and index.is_cpu and counts[-1]:
            raise IndexError("target out of range")
        return counts[:-1].view(c, c)
    index = index.masked_fill(target == ignore_index, c * c)
    return _count(index, c * c + 1)[:-1].view(c, c)


def _topk_table(scores: Tensor, target: Tensor, c: int, k: int, ignore_index: Optional[int]) -> Tensor:
    # a stable descending sort: among tied scores the lower class index ranks first (argmax's rule)
    top = torch.sort(scores, dim=1, descending=True, stable=True).indices[:, :k]
    hit = (top == target[:, None]).any(dim=1)
    predicted, support, tp = top.reshape(-1), target + c, torch.where(hit, target + 2 * c, 3 * c)
    if ignore_index is not None:
        drop = target == ignore_index
        predicted = top.masked_fill(drop[:, None], 3 * c).reshape(-1)
        support, tp = support.masked_fill(drop, 3 * c), tp.masked_fill(drop, 3 * c)
    return _count(torch.cat([predicted, support, tp]), 3 * c + 1)[:-1].view(3, c)


# ------------------------------------------------------------------------------------------------- counts
def _counts_2x2(confmat: Tensor) -> Counts:
    """tp, fp, tn, fn of (..., 2, 2) confusion matrices."""
    return confmat[..., 1, 1], confmat[..., 0, 1], confmat[..., 0, 0], confmat[..., 1, 0]


def _multiclass_counts(state: Tensor, top_k: int) -> Counts:
    """Per-class tp, fp, tn, fn (one-vs-rest) from the (C, C) confusion matrix or the (3, C) top-k table."""
    if top_k == 1:
        tp, predicted, support = state.diagonal(), state.sum(dim=0), state.sum(dim=1)
    else:
        predicted, support, tp = state.unbind(0)
    fp, fn = predicted - tp, support - tp
    return tp, fp, support.sum() - tp - fp - fn, fn


def _stat_scores(counts: Counts, average: str) -> Tensor:
    """``[..., 5]``: tp, fp, tn, fn, support. ``"none"``: per class (int64); ``"micro"``: summed over classes
    (int64); ``"macro"``: their mean over all classes, ``"weighted"``: weighted by support (float64; NaN when
    the total support is 0)."""
    tp, fp, tn, fn = counts
    res = torch.stack([tp, fp, tn, fn, tp + fn], dim=-1)
    if average == "none" or res.dim() == 1:
        return res
    if average == "micro":
        return res.sum(dim=0)
    res = res.to(torch.float64)
    if average == "macro":
        return res.mean(dim=0)
    weights = res[:, 4]
    return (res * weights[:, None]).sum(dim=0) / weights.sum()


# ------------------------------------------------------------------------------------------ score terms
def _precision_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    return tp, tp + fp


def _recall_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    return tp, tp + fn


def _accuracy_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    return tp + tn, tp + fp + tn + fn


def _hamming_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    return fp + fn, tp + fp + tn + fn


def _fbeta_terms(beta: float) -> Terms:
    """F-beta from the counts, ``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)``: equal to the harmonic mean of
    precision and recall, and defined (0) when only one of them is 0/0, as scikit-learn."""
    b2 = float(beta) ** 2

    def terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
        num = (1.0 + b2) * tp.to(torch.float64)
        return num, num + b2 * fn.to(torch.float64) + fp.to(torch.float64)

    return terms


# -------------------------------------------------------------------------------------------- averaging
def _safe_divide(num: Tensor, den: Tensor, zero_division: float) -> Tensor:
    num, den = num.to(torch.float64), den.to(torch.float64)
    return torch.where(den == 0, torch.full_like(num, zero_division), num / torch.where(den == 0, 1.0, den))


def _average(counts: Counts, terms: Terms, average: str, zero_division: float, *, multilabel: bool) -> Tensor:
    """Reduce per-class counts to a score (float64).

    * ``micro``: ``sum(num) / sum(den)`` over classes;
    * ``none``: the per-class scores ``num / den``;
    * ``macro``: their mean; for multiclass over the classes that occur (tp + fp + fn > 0, i.e. in the targets
      or the predictions: scikit-learn's default labels), for multilabel over all labels;
    * ``weighted``: their mean weighted by support (tp + fn).

    A 0/0 score is ``zero_division``; if that is NaN the class is left out of the macro/weighted mean (as
    scikit-learn). A mean over nothing (no class occurred, or zero total support) is ``zero_division``.
    """
    num, den = terms(*counts)
    if average == "micro" or num.dim() == 0:
        return _safe_divide(num.sum(), den.sum(), zero_division)
    scores = _safe_divide(num, den, zero_division)
    if average == "none":
        return scores
    tp, fp, _, fn = counts
    if average == "weighted":
        weights = (tp + fn).to(torch.float64)
    elif multilabel:
        weights = torch.ones_like(scores)
    else:
        weights = (tp + fp + fn > 0).to(torch.float64)
    weights = weights.masked_fill(torch.isnan(scores), 0.0)
    total = weights.sum()
    mean = (weights * scores.nan_to_num(0.0)).sum() / torch.where(total == 0, 1.0, total)
    return torch.where(total == 0, torch.full_like(mean, zero_division), mean)


def _normalize(confmat: Tensor, normalize: Optional[str]) -> Tensor:
    """``None``: the counts (int64); ``"true"``: rows sum to 1; ``"pred"``: columns; ``"all"``: the whole
    matrix (per label for multilabel). 0/0 gives 0, as scikit-learn and torchmetrics."""
    if normalize is None:
        return confmat
    cm = confmat.to(torch.float64)
    if normalize == "true":
        den = cm.sum(dim=-1, keepdim=True)
    elif normalize == "pred":
        den = cm.sum(dim=-2, keepdim=True)
    else:
        den = cm.sum(dim=(-2, -1), keepdim=True)
    return _safe_divide(cm, den.expand_as(cm), 0.0)
