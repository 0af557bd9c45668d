"""The counting core of the classification metrics: batch statistics, per-class counts, and averaging.

Statistics of one batch (int64 counts, or float64 sums of ``weight`` when samples are weighted; all summed over
batches, all produced by ONE counting pass; every float64 here is ``float_dtype(device)``, float32 on a device
without float64):

* binary: a 2x2 confusion matrix ``[[tn, fp], [fn, tp]]`` (rows: target, columns: prediction);
* multilabel: one 2x2 matrix per label, shape (L, 2, 2);
* multiclass: the (C, C) confusion matrix of one predicted label per sample (with ``top_k=k``: the target when
  it is among the k highest scores, else the highest; torchmetrics' rule).

Counting is one bincount (on CUDA a scatter-add, ``index_add_``, into a fixed number of bins: unlike
``torch.bincount`` there it needs no device-to-host sync to size its output). Samples whose target equals
``ignore_index`` go to one extra bin that is dropped, so ignoring costs no boolean indexing (no sync either).
"""
from __future__ import annotations

import functools
import math
import warnings
from typing import Callable, Dict, Optional, Tuple

import numpy as np
import torch
from torch import Tensor

from torchmetrics_lite._backend import host, use_numpy
from torchmetrics_lite._checks import check_labels, check_no_nan, fused_multiclass_checks
from torchmetrics_lite._dtype import float_dtype

Counts = Tuple[Tensor, Tensor, Tensor, Tensor]  # tp, fp, tn, fn: int64, per class (C,) or scalars
NORMALIZE = (None, "true", "pred", "all")  # confusion-matrix normalisations
Terms = Callable[[Tensor, Tensor, Tensor, Tensor], Tuple[Tensor, Tensor]]  # counts -> (numerator, denominator)


# ----------------------------------------------------------------------------------------------- counting
def _count(index: Tensor, size: int, weight: Optional[Tensor] = None) -> Tensor:
    """``bincount(index, weight, minlength=size)`` for indices known to lie in [0, size), without a host sync.

    Unweighted: int64 counts; weighted: float64 sums of ``weight``. On CPU ``torch.bincount`` itself (one op),
    elsewhere (and under ``torch.compile``, whose bincount needs a data-dependent size) a scatter-add into
    ``size`` bins (CUDA's bincount reads the maximum back to the host to size its output; the torch path on CPU,
    ``_backend.force("torch")``, takes the scatter-add too, so that the sync checks see the CUDA path)."""
    if weight is not None:
        weight = weight.reshape(-1).to(float_dtype(index.device))
        if use_numpy(index) and not torch.compiler.is_compiling():
            return torch.bincount(index, weights=weight, minlength=size)
        return torch.zeros(size, dtype=weight.dtype, device=index.device).index_add_(0, index, weight)
    if use_numpy(index) and not torch.compiler.is_compiling():
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
    no ``dtype`` value lies strictly between the two, so rounded up means ``x >= c``, otherwise ``x > c``. (The
    Python float is rounded to ``dtype`` directly: no float64 tensor, which a float64-less device could not make.)"""
    c = _rounded_to(cut, dtype)
    return c, c > cut


def _rounded_to(x: float, dtype: torch.dtype) -> float:
    """``float(torch.tensor(x, dtype=dtype))`` on the host, without a tensor (a tensor read inside a CUDA step
    looks like a device sync to the sync checks): torch rounds the double to float32 first, then float16 or
    bfloat16 (round to nearest even), and so does this."""
    if dtype not in (torch.float32, torch.float16, torch.bfloat16):
        return float(torch.tensor(x, dtype=dtype))
    with np.errstate(over="ignore"):
        f = np.float32(x)
        if dtype == torch.float16:
            return float(np.float16(f))
    if dtype == torch.float32 or f != f:
        return float(f)
    bits = int(f.view(np.uint32))
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return float(np.uint32(bits).view(np.float32))


def _positive(preds: Tensor, cut: float) -> Tensor:
    """0/1 predictions: float preds are positive when ``preds > cut`` (exactly, whatever their dtype);
    integer/bool preds are labels already."""
    if not preds.is_floating_point():
        return _long(preds)
    if preds.dtype == torch.float64:
        return preds > cut
    if torch.compiler.is_compiling():  # no host-side helper; exact too, as float64 holds every narrower value
        return preds.to(float_dtype(preds.device)) > cut  # (float32 on MPS: the cut rounded to float32 there)
    c, inclusive = _cut_in(preds.dtype, cut)
    return preds >= c if inclusive else preds > c


def _binary_confmat(preds: Tensor, target: Tensor, cut: float, ignore_index: Optional[int],
                    weight: Optional[Tensor] = None) -> Tensor:
    """(2, 2) confusion matrix of flat, checked binary inputs (float64 sums of ``weight`` if given)."""
    index = torch.add(_positive(preds, cut), _long(target), alpha=2)
    if ignore_index is None:
        return _count(index, 4, weight).view(2, 2)
    index = index.masked_fill(target == ignore_index, 4)
    return _count(index, 5, weight)[:4].view(2, 2)


def _multilabel_confmat(preds: Tensor, target: Tensor, cut: float, ignore_index: Optional[int],
                        weight: Optional[Tensor] = None) -> Tensor:
    """(L, 2, 2) per-label confusion matrices of checked (M, L) inputs; ``weight`` (M,) weighs each row."""
    num_labels = preds.shape[1]
    offset = torch.arange(0, 4 * num_labels, 4, device=preds.device)
    index = (torch.add(_positive(preds, cut), _long(target), alpha=2) + offset).reshape(-1)
    if weight is not None:
        weight = weight.reshape(-1, 1).expand(-1, num_labels)
    if ignore_index is None:
        return _count(index, 4 * num_labels, weight).view(num_labels, 2, 2)
    index = index.masked_fill(target.reshape(-1) == ignore_index, 4 * num_labels)
    return _count(index, 4 * num_labels + 1, weight)[:-1].view(num_labels, 2, 2)


# The signed integer type of each float type's width, and the bits of its +inf: read as that integer, floats without
# a sign bit order as the floats do (equal floats have equal bits), +inf above every number and a NaN above +inf.
_BITS = {torch.float64: (torch.int64, 0x7FF0000000000000), torch.float32: (torch.int32, 0x7F800000),
         torch.float16: (torch.int16, 0x7C00), torch.bfloat16: (torch.int16, 0x7F80)}
BITS_ARGMAX_MIN = 1 << 16  # elements: below it the float argmax is cheaper than the extra bounds pass
_SUBNORMAL, _ZERO = 5e-324, 0.0  # compared at run time: equal under torch.set_flush_denormal(True)


def _bits_argmax(preds: Tensor) -> Optional[Tensor]:
    """``preds.argmax(dim=1)`` of (M, C) scores on CPU through their bits, or ``None`` where that does not apply.

    torch's float argmax tests every element for NaN and runs 3-4x slower than its integer argmax. Scores without
    a sign bit (no negative value, no -0.0: probabilities, as a rule) and without NaN order as their bits read as
    signed integers, so the integer argmax (also the first maximum) gives the same labels; one min/max pass over
    the bits checks both. Negative scores (logits) are seen in the first row, as a rule, and skip that pass. Not
    in flush-denormal mode, where the float argmax reads a subnormal score as 0 (a tie) and its bits would not."""
    spec = _BITS.get(preds.dtype)
    if spec is None or preds.numel() < BITS_ARGMAX_MIN or not preds.is_cpu or torch.compiler.is_compiling():
        return None
    if not _SUBNORMAL > _ZERO:  # the CPU's denormals-are-zero flag, as the float argmax will see it
        return None
    bits = preds.view(spec[0])
    if bool((bits[0] < 0).any()):
        return None
    lo, hi = torch.aminmax(bits)
    if lo.item() < 0 or hi.item() > spec[1]:
        return None
    return bits.argmax(dim=1)


def _multiclass_labels(preds: Tensor, target: Tensor, top_k: int, maxima: bool) -> Tuple[Tensor, Optional[Tensor]]:
    """One predicted label per sample, and with ``maxima`` (scores, ``top_k=1``) the row maxima too. Labels are
    used as given; scores predict their first maximum (``argmax``), or with ``top_k=k`` the target when it is
    among the k highest scores (``torch.topk``, whose order among tied scores is torchmetrics' too), else the
    highest one (torchmetrics' rule)."""
    if preds.dim() == 1:
        return _long(preds), None
    if top_k == 1:
        labels = _bits_argmax(preds)
        if labels is not None:  # the same labels, and the bits were seen to hold no NaN
            return labels, None
        if not maxima and not preds.is_cpu:
            return preds.argmax(dim=1), None
        best = preds.max(dim=1)  # the first maximum (a NaN first), as argmax; on CPU 1.3x faster than argmax
        return best.indices, best.values if maxima else None
    top = torch.topk(preds, top_k, dim=1).indices
    hit = (top == target[:, None]).any(dim=1)
    return torch.where(hit, target, top[:, 0]), None


def _multiclass_confmat(preds: Tensor, target: Tensor, num_classes: int, top_k: int, ignore_index: Optional[int],
                        validate_args: bool = True, weight: Optional[Tensor] = None) -> Tensor:
    """(C, C) confusion matrix (rows: target, columns: the predicted label) of checked multiclass inputs."""
    c = num_classes
    target = _long(target)
    fused = validate_args and fused_multiclass_checks(top_k, ignore_index, target, weight)
    if top_k == 1 and ignore_index is None and weight is None and use_numpy(preds, BITS_ARGMAX_MIN - 1):
        return _numpy_confmat(preds, target, c, fused)
    labels, maxima = _multiclass_labels(preds, target, top_k, fused)
    # labels of scores are a new tensor: the index is built in it (no 8-byte-per-sample allocation)
    index = labels.add_(target, alpha=c) if preds.dim() == 2 else torch.add(labels, target, alpha=c)
    if ignore_index is None:
        if weight is not None:
            return _count(index, c * c, weight).view(c, c)
        # a target >= C lands in one extra bin (clamped: a huge target must not size a huge bincount); with
        # validate_args on CPU that bin and the sum of the row maxima (NaN if a score is) are read back (two
        # scalar reads, cheaper there than fusing them) and a failure raises for the caller to report
        # (check_multiclass_inputs)
        counts = _count(index.clamp_(max=c * c), c * c + 1)
        if fused:
            if counts[-1].item() or (maxima is not None and math.isnan(maxima.sum().item())):
                raise IndexError("target out of range or NaN score")
        return counts[:-1].view(c, c)
    index = index.masked_fill(target == ignore_index, c * c)
    return _count(index, c * c + 1, weight)[:-1].view(c, c)


def _numpy_confmat(preds: Tensor, target: Tensor, c: int, fused: bool) -> Tensor:
    """The unweighted top-1 count of :func:`_multiclass_confmat` in numpy, on zero-copy views: a per-step batch
    (below ``BITS_ARGMAX_MIN`` elements) pays numpy's dispatch, a fraction of torch's, for the same counts
    (``argmax`` is the first maximum, a NaN first, in both). A target out of range or (``fused``) a NaN score
    raises IndexError, as the torch count."""
    p, y = host(preds), host(target)
    index = p.argmax(axis=1) if p.ndim == 2 else p.astype(np.int64)
    index += y * c
    np.minimum(index, c * c, out=index)  # a target >= C: the extra bin
    try:
        counts = np.bincount(index, minlength=c * c + 1)
    except ValueError as err:  # a negative target (or label): torch's bincount raises too
        raise IndexError("target out of range") from err
    if fused and (counts[-1] or (p.ndim == 2 and p.size and math.isnan(p.max()))):
        raise IndexError("target out of range or NaN score")
    return torch.from_numpy(counts[:-1].astype(np.int64, copy=False).reshape(c, c))


def _numpy_exact_match(preds: Tensor, target: Tensor, rows: int, num_classes: int,
                       fused: bool) -> Optional[Tuple[Tensor, Tensor]]:
    """int64 ``(correct, total)`` of the unweighted top-1 multiclass exact match of checked ``(M,)`` labels or
    ``(M, C)`` scores against ``(M,)`` targets, ``M`` a multiple of ``rows`` (the samples, each its ``M / rows``
    positions, sample-major), in numpy on zero-copy views for a per-step batch (below ``BITS_ARGMAX_MIN``
    elements), else ``None`` (the torch path). ``argmax`` is the first maximum, a NaN first, as torch's. With
    ``fused`` it checks what the count reads, in the torch path's order and with its messages: the targets'
    range, then NaN scores (one min/max pass and one max, read on the host)."""
    if not use_numpy(preds, BITS_ARGMAX_MIN - 1):
        return None
    p, y = host(preds), host(target)
    if fused and y.size and (y.min() < 0 or y.max() >= num_classes):
        check_labels("target", target, num_classes)  # raises, naming the range
    scores = p.ndim == 2
    if fused and scores and p.size and math.isnan(p.max()):
        check_no_nan("preds", preds)  # raises
    right = (p.argmax(axis=1) if scores else p) == y
    correct = int(right.reshape(rows, -1).all(axis=1).sum()) if rows and right.size != rows else int(right.sum())
    return (torch.from_numpy(np.array(correct, dtype=np.int64)),
            torch.from_numpy(np.array(rows, dtype=np.int64)))


# ------------------------------------------------------------------------------------------------- counts
def _counts_2x2(confmat: Tensor) -> Counts:
    """tp, fp, tn, fn of (..., 2, 2) confusion matrices."""
    return confmat[..., 1, 1], confmat[..., 0, 1], confmat[..., 0, 0], confmat[..., 1, 0]


def _multiclass_counts(confmat: Tensor) -> Counts:
    """Per-class one-vs-rest tp, fp, tn, fn from the (C, C) confusion matrix."""
    tp, predicted, support = confmat.diagonal(dim1=-2, dim2=-1), confmat.sum(dim=-2), confmat.sum(dim=-1)
    fp, fn = predicted - tp, support - tp
    return tp, fp, support.sum(dim=-1, keepdim=True) - tp - fp - fn, fn


def _stat_scores(counts: Counts, average: str) -> Tensor:
    """``[..., 5]``: tp, fp, tn, fn, support. ``"none"``: per class (int64); ``"micro"``: summed over classes
    (int64); ``"macro"``: their mean over all classes, ``"weighted"``: weighted by support (float64; NaN when
    the total support is 0)."""
    tp, fp, tn, fn = counts
    res = torch.stack([tp, fp, tn, fn, tp + fn], dim=-1)
    if average == "none" or res.dim() == 1:
        return res
    if average == "micro":  # (a leading sample dimension, samplewise, is kept by every reduction)
        return res.sum(dim=-2)
    res = res.to(float_dtype(res.device))
    if average == "macro":
        return res.mean(dim=-2)
    weights = res[..., 4]
    return (res * weights[..., None]).sum(dim=-2) / weights.sum(dim=-1, keepdim=True)


# ------------------------------------------------------------------------------------------ score terms
def _precision_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    return tp, tp + fp


def _recall_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    return tp, tp + fn


def _accuracy_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    return tp + tn, tp + fp + tn + fn


def _specificity_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    return tn, tn + fp


def _jaccard_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    return tp, tp + fp + fn


def _hamming_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    return fp + fn, tp + fp + tn + fn


def _npv_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    return tn, tn + fn


def _miss_terms(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor) -> Tuple[Tensor, Tensor]:
    """The miss rate ``fn / (tp + fn)`` (1 - recall): a multiclass class's Hamming distance (torchmetrics)."""
    return fn, tp + fn


def _fbeta_terms_of(tp: Tensor, fp: Tensor, tn: Tensor, fn: Tensor, *, beta2: float) -> Tuple[Tensor, Tensor]:
    dtype = float_dtype(tp.device)
    num = (1.0 + beta2) * tp.to(dtype)
    return num, num + beta2 * fn.to(dtype) + fp.to(dtype)


def _fbeta_terms(beta: float) -> Terms:
    """F-beta from the counts, ``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)``: equal to the harmonic mean of
    precision and recall, and defined (0) when only one of them is 0/0, as scikit-learn. (A partial of a
    module-level function, so that a module holding it pickles.)"""
    return functools.partial(_fbeta_terms_of, beta2=float(beta) ** 2)


# -------------------------------------------------------------------------------------------- averaging
def _safe_divide(num: Tensor, den: Tensor, zero_division: float) -> Tensor:
    dtype = float_dtype(num.device)
    # x / 0 is computed and replaced: five ops, not seven (a per-step call's cost is its ops' dispatch)
    return torch.where(den == 0, zero_division, num.to(dtype) / den.to(dtype))


def _average(counts: Counts, terms: Terms, average: str, zero_division: float,
             present: Optional[Tensor] = None) -> Tensor:
    """Reduce per-class counts to a score (float64, or ``float_dtype`` of the device).

    * ``micro``: ``sum(num) / sum(den)`` over classes;
    * ``none``: the per-class scores ``num / den``;
    * ``macro``: their mean over the classes where ``present`` is true (all classes when it is ``None``);
    * ``weighted``: their mean weighted by support (tp + fn).

    A 0/0 score is ``zero_division``; if that is NaN the class is left out of the macro/weighted mean (as
    scikit-learn). A mean over nothing (no class present, or zero total support) is ``zero_division``; in a
    samplewise reduction (a sample whose every target is ignored) it is torchmetrics' 0 whatever
    ``zero_division`` (``nan`` when that is ``nan``).
    """
    num, den = terms(*counts)  # counts (..., C): every reduction runs over the last dimension (samplewise)
    if num.dim() == 0:
        return _safe_divide(num, den, zero_division)
    if average == "micro":
        return _safe_divide(num.sum(-1), den.sum(-1), zero_division)
    scores = _safe_divide(num, den, zero_division)
    if average == "none":
        return scores
    tp, fp, _, fn = counts
    if average == "weighted":
        weights = (tp + fn).to(scores.dtype)
    elif present is None:
        weights = torch.ones_like(scores)
    else:
        weights = present.to(scores.dtype)
    weights = weights.masked_fill(torch.isnan(scores), 0.0)
    total = weights.sum(-1)
    nothing = math.nan if math.isnan(zero_division) else 0.0 if scores.dim() > 1 else zero_division
    return torch.where(total == 0, nothing, (weights * scores.nan_to_num(0.0)).sum(-1) / total)


def _correct_count(confmat: Tensor) -> Tensor:
    """The number (weight) of samples predicted right: the trace of each (..., C, C) confusion matrix, floating
    (scikit-learn's ``accuracy_score(normalize=False)``)."""
    return confmat.diagonal(dim1=-2, dim2=-1).sum(-1).to(float_dtype(confmat.device))


def _warn_empty(stats: Dict[str, Tensor], target: Tensor) -> Dict[str, Tensor]:
    """A function's one rule for empty input (``target`` of no element): the value of an empty state, as a
    module's ``compute()`` before any ``update()`` (the score of all-zero counts: ``zero_division``, or NaN
    where the formula has no value), with the same UserWarning. Returns ``stats``."""
    if target.numel() == 0:
        warnings.warn("a classification function was called on empty input (`preds` and `target` hold no "
                      "element); the value is that of an empty state", UserWarning, stacklevel=4)
    return stats


def _integer_weighted(confmat: Tensor, weight: Optional[Tensor], normalize: Optional[str]) -> Tensor:
    """A function's unnormalized confusion matrix of integer ``weight`` as int64 sums (scikit-learn's dtype; the
    floating sums of integers are exact up to 2**53), float sums of floating weights as counted."""
    if weight is None or normalize is not None or weight.is_floating_point():
        return confmat
    return confmat.to(torch.int64)


def _normalize(confmat: Tensor, normalize: Optional[str]) -> Tensor:
    """``None``: the counts (int64); ``"true"``: rows sum to 1; ``"pred"``: columns; ``"all"``: the whole
    matrix (per label for multilabel). 0/0 gives 0, as scikit-learn and torchmetrics."""
    if normalize is None:
        return confmat
    cm = confmat.to(float_dtype(confmat.device))
    if normalize == "true":
        den = cm.sum(dim=-1, keepdim=True)
    elif normalize == "pred":
        den = cm.sum(dim=-2, keepdim=True)
    else:
        den = cm.sum(dim=(-2, -1), keepdim=True)
    return _safe_divide(cm, den.expand_as(cm), 0.0)


# ------------------------------------------------------------------------------ multidim_average="samplewise"
MULTIDIM = ("global", "samplewise")


def _sample_rows(rows: int, n: int, device: torch.device) -> Tensor:
    """The sample of each of ``rows`` flattened rows, sample-major (each of the ``n`` samples holds as many)."""
    return torch.arange(rows, device=device) // max(rows // max(n, 1), 1)


def _samplewise_binary(preds: Tensor, target: Tensor, n: int, cut: float, ignore_index: Optional[int]) -> Tensor:
    """(N, 2, 2) per-sample confusion matrices of flattened (sample-major) binary inputs."""
    index = torch.add(_positive(preds, cut), _long(target), alpha=2) + 4 * _sample_rows(target.numel(), n,
                                                                                     target.device)
    if ignore_index is not None:
        index = index.masked_fill(target == ignore_index, 4 * n)
    return _count(index, 4 * n + 1)[:-1].view(n, 2, 2)


def _samplewise_multilabel(preds: Tensor, target: Tensor, n: int, cut: float, ignore_index: Optional[int]) -> Tensor:
    """(N, L, 2, 2) per-sample, per-label confusion matrices of flattened (M, L) inputs."""
    rows, num_labels = target.shape
    offset = torch.arange(0, 4 * num_labels, 4, device=target.device)
    sample = _sample_rows(rows, n, target.device)[:, None] * (4 * num_labels)
    index = (torch.add(_positive(preds, cut), _long(target), alpha=2) + offset + sample).reshape(-1)
    if ignore_index is not None:
        index = index.masked_fill(target.reshape(-1) == ignore_index, 4 * num_labels * n)
    return _count(index, 4 * num_labels * n + 1)[:-1].view(n, num_labels, 2, 2)


def _samplewise_multiclass(preds: Tensor, target: Tensor, n: int, num_classes: int, top_k: int,
                           ignore_index: Optional[int]) -> Tensor:
    """(N, C, C) per-sample confusion matrices (rows: target) of flattened multiclass inputs."""
    c = num_classes
    target = _long(target)
    labels, _ = _multiclass_labels(preds, target, top_k, False)
    index = torch.add(labels, target, alpha=c) + c * c * _sample_rows(target.numel(), n, target.device)
    if ignore_index is not None:
        index = index.masked_fill(target == ignore_index, c * c * n)
    return _count(index.clamp(max=c * c * n), c * c * n + 1)[:-1].view(n, c, c)
def _fixed_counts(stats: Dict[str, Tensor], weighted: Optional[bool]) -> Dict[str, Tensor]:
    """Counts in the dtype a module fixed at construction: ``weighted=None`` (a function) keeps them as counted
    (int64, or float sums of ``weight``); ``True`` makes them floating sums (``float_dtype`` of the device: a
    sample without a weight counts 1.0); ``False`` keeps int64 counts."""
    if not weighted:
        return stats
    return {name: v.to(float_dtype(v.device)) for name, v in stats.items()}
