"""torchmetrics' binned rank metrics (``thresholds=``): one confusion matrix per threshold and column.

With ``thresholds`` (an int ``T``: ``torch.linspace(0, 1, T)``; a list; a 1-D tensor) a sample is predicted
positive at threshold ``t`` when ``score >= t`` (torchmetrics' comparison, in the promoted
dtype of the scores and the thresholds). The state is ``confmat`` ``(T, K, 2, 2)`` int64, ``K`` the columns
(1 for binary, the classes one-vs-rest, the labels), ``confmat[t, k] = [[tn, fp], [fn, tp]]``: a sum state, so
batches and ranks add up. The thresholds are a set of operating points: they are sorted first (ascending, repeats
kept; ``_checks.check_thresholds``), so their order never changes a value, and the curves return them sorted
(torchmetrics, which keeps the order given, computes its areas over unsorted points: the same values as here on
sorted thresholds). It is counted without a loop over thresholds: each score's number of thresholds at or below it
(one ``searchsorted``), one ``bincount`` over (column, label, that number), and suffix sums.

From it, as torchmetrics: precision ``tp / (tp + fp)`` and recall ``tp / (tp + fn)`` per threshold (``nan`` for
0/0), the point ``(1, 0)`` appended (the PR curve); the ROC's ``fpr``, ``tpr`` in reversed threshold order;
AUROC the trapezoidal area under those ROC points (``max_fpr``: McClish-standardised, interpolating at
``max_fpr``); AP ``-sum_i (r_{i+1} - r_i) p_i`` over the PR points (``nan`` taken as 0). Where this library's
rule differs (documented in the README): a column without positives (AUROC: or without negatives) has
undefined AUROC/AP, ``nan`` with a warning (``strict`` raises) and left out of averages, where torchmetrics
returns 0 and averages it in; a ROC rate 0/0 is ``nan`` (torchmetrics: 0).
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_binary_rank_inputs,
    check_binned_scores,
    check_multiclass_rank_inputs,
    check_multilabel_rank_inputs,
    drop_ignored,
    flatten_extra_dims,
)
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.auroc._common import (
    State,
    _average,
    _check_defined,
    _multiclass_positive,
    _undefined,
)

__all__: List[str] = []  # private: the binned mode of the public functions and modules

Curve = Tuple[Tensor, Tensor, Tensor]


def _binned_stats(scores: Tensor, positive: Tensor, valid: Optional[Tensor], thresholds: Tensor) -> State:
    """``confmat`` ``(T, K, 2, 2)`` of scores ``(N, K)`` against ``thresholds`` ``(T,)`` (ascending, as
    :func:`~torchmetrics_lite._checks.check_thresholds` returns them); ``valid`` ``(N, K)`` marks the counted
    elements (``None``: all)."""
    thr = thresholds.to(scores.device)
    dtype = torch.promote_types(scores.dtype, thr.dtype)
    ordered = thr.to(dtype)
    n_thr, n_cols = thr.numel(), scores.shape[1]
    at_or_below = torch.searchsorted(ordered, scores.to(dtype).contiguous(), right=True)  # (N, K) in [0, T]
    column = torch.arange(n_cols, device=scores.device).expand_as(at_or_below)
    code = (column * 2 + positive.long()) * (n_thr + 1) + at_or_below
    if valid is not None:
        code = code[valid]
    hist = torch.bincount(code.reshape(-1), minlength=n_cols * 2 * (n_thr + 1)).view(n_cols, 2, n_thr + 1)
    totals = hist.sum(-1)  # (K, 2): negatives, positives
    # score >= ordered[j]  <=>  at least j + 1 thresholds at or below it: the suffix sum from j + 1
    at_least = hist.flip(-1).cumsum(-1).flip(-1)[..., 1:].permute(2, 0, 1)  # (T, K, 2)
    fp, tp = at_least[..., 0], at_least[..., 1]
    tn, fn = totals[:, 0] - fp, totals[:, 1] - tp
    return {"confmat": torch.stack([torch.stack([tn, fp], -1), torch.stack([fn, tp], -1)], -2)}


def _sigmoid_scores(raw: Any, preds: Tensor, from_logits: bool, validate_args: bool) -> Tensor:
    """Scores to bin: with ``from_logits`` the sigmoid of the checked ``preds`` in the dtype ``raw`` came in (a
    float32 sigmoid for float32 logits: torchmetrics' ``preds.sigmoid()``, so a probability that rounds onto a
    threshold lands on the same side as there; the checks' float32 upcast of float16 is undone exactly); without
    it, probabilities in ``[0, 1]`` (a ``ValueError`` naming ``from_logits=True`` otherwise)."""
    if not from_logits:
        check_binned_scores(preds, validate_args, "sigmoid")
        return preds
    given = raw.dtype if isinstance(raw, Tensor) and raw.is_floating_point() else preds.dtype
    return torch.sigmoid(preds.to(given))


def _binary_binned_stats(preds: Any, target: Any, thresholds: Tensor, ignore_index: Optional[int],
                         validate_args: bool, weight: Any = None, from_logits: bool = False) -> State:
    """Checked binary inputs (any shape; ``ignore_index`` elements dropped; logits through a sigmoid with
    ``from_logits``) as their ``confmat``."""
    _no_weight(weight)
    preds, target, _ = drop_ignored(preds, target, None, ignore_index, rows=False)
    raw = preds
    preds, target = check_binary_rank_inputs(preds, target, validate_args)
    scores = _sigmoid_scores(raw, preds, from_logits, validate_args)
    return _binned_stats(scores.unsqueeze(1), target.bool().unsqueeze(1), None, thresholds)


def _multiclass_binned_stats(preds: Any, target: Any, num_classes: int, thresholds: Tensor,
                             ignore_index: Optional[int], from_logits: bool, validate_args: bool,
                             weight: Any = None) -> State:
    """Checked multiclass inputs (``ignore_index`` rows dropped; logits through a softmax in their own dtype, as
    torchmetrics: the counts at the thresholds are then torchmetrics') as their one-vs-rest ``confmat``."""
    _no_weight(weight)
    preds, target, _ = flatten_extra_dims(preds, target, multilabel=False)
    preds, target, _ = drop_ignored(preds, target, None, ignore_index, rows=True)
    given = preds.dtype if isinstance(preds, Tensor) and preds.is_floating_point() else None
    preds, target = check_multiclass_rank_inputs(preds, target, num_classes, validate_args, from_logits)
    # torchmetrics' softmax is in the scores' own dtype (float16 too: the checks' float32 upcast is undone exactly),
    # compared with the thresholds' (a float32 list): a float64 softmax would put a probability that rounds onto a
    # threshold (1/10 against float32 0.1) on its other side
    scores = torch.softmax(preds.to(given or preds.dtype), dim=1) if from_logits else preds
    return _binned_stats(scores, _multiclass_positive(target, num_classes), None, thresholds)


def _multilabel_binned_stats(preds: Any, target: Any, num_labels: int, thresholds: Tensor,
                             ignore_index: Optional[int], validate_args: bool, weight: Any = None,
                             from_logits: bool = False) -> State:
    """Checked multilabel inputs as their per-label ``confmat`` (logits through a sigmoid with ``from_logits``);
    ``ignore_index`` elements are not counted."""
    _no_weight(weight)
    preds, target, _ = flatten_extra_dims(preds, target, multilabel=True)
    valid = None
    if ignore_index is not None and isinstance(target, Tensor):
        valid = target != ignore_index
        target = torch.where(valid, target, torch.zeros_like(target))
    raw = preds
    preds, target = check_multilabel_rank_inputs(preds, target, num_labels, validate_args)
    return _binned_stats(_sigmoid_scores(raw, preds, from_logits, validate_args), target.bool(), valid, thresholds)


def _no_weight(weight: Any) -> None:
    if weight is not None:
        raise TypeError(f"Expected no `weight` with `thresholds` (integer confusion matrices, as torchmetrics), got "
                        f"{type(weight).__name__}; use the exact mode (thresholds=None) for sample weights")


def _counts(state: State) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    """``(tp, fp, fn, tn)`` ``(T, K)`` in the float dtype of the results."""
    cm = state["confmat"]
    dtype = float_dtype(cm.device)
    return cm[..., 1, 1].to(dtype), cm[..., 0, 1].to(dtype), cm[..., 1, 0].to(dtype), cm[..., 0, 0].to(dtype)


def _pr(state: State) -> Tuple[Tensor, Tensor]:
    """Precision and recall ``(T + 1, K)`` (``nan`` for 0/0), the point ``(1, 0)`` last."""
    tp, fp, fn, _ = _counts(state)
    one = torch.ones_like(tp[:1])
    return torch.cat([tp / (tp + fp), one]), torch.cat([tp / (tp + fn), 0 * one])


def _roc(state: State) -> Tuple[Tensor, Tensor]:
    """``fpr``, ``tpr`` ``(T, K)`` in reversed threshold order (``nan`` for a column without negatives /
    positives)."""
    tp, fp, fn, tn = _counts(state)
    return (fp / (fp + tn)).flip(0), (tp / (tp + fn)).flip(0)


def _no_samples(state: State) -> bool:
    """Whether the (binary) state counted no sample: the first threshold's matrix sums to 0."""
    return int(state["confmat"][0, 0].sum()) == 0


def _positives(state: State) -> Tensor:
    return state["confmat"][0, :, 1].sum(-1)


def _auroc_columns(state: State, max_fpr: Optional[float] = None) -> Tensor:
    """Per-column area under the binned ROC points (``nan`` for a column with one class)."""
    fpr, tpr = _roc(state)
    if max_fpr is None or max_fpr == 1:
        return torch.trapezoid(tpr, fpr, dim=0)
    return torch.stack([_partial(fpr[:, k], tpr[:, k], float(max_fpr)) for k in range(fpr.shape[1])])


def _partial(fpr: Tensor, tpr: Tensor, max_fpr: float) -> Tensor:
    """torchmetrics' binned partial AUROC: the points up to ``max_fpr`` and one interpolated at it, McClish's
    standardisation (no point at or below ``max_fpr``: area 0; ``max_fpr`` beyond the last point, where
    torchmetrics raises an IndexError: the area of all the points)."""
    if bool(torch.isnan(fpr).any() | torch.isnan(tpr).any()):
        return fpr.new_tensor(float("nan"))
    if float(fpr.sum()) == 0 or float(tpr.sum()) == 0:
        return torch.trapezoid(tpr, fpr)
    area = fpr.new_tensor(max_fpr)
    stop = int(torch.bucketize(area, fpr, right=True))
    if stop == 0:  # no point at or below max_fpr: no area there (torchmetrics' value)
        tpr, fpr = tpr[:0], fpr[:0]
    elif stop < fpr.numel():
        weight = (area - fpr[stop - 1]) / (fpr[stop] - fpr[stop - 1])
        tpr = torch.cat([tpr[:stop], torch.lerp(tpr[stop - 1], tpr[stop], weight).view(1)])
        fpr = torch.cat([fpr[:stop], area.view(1)])
    partial = torch.trapezoid(tpr, fpr)
    low = 0.5 * area ** 2
    return 0.5 * (1 + (partial - low) / (area - low))


def _ap_columns(state: State) -> Tensor:
    """Per-column ``-sum (r_{i+1} - r_i) p_i`` (``nan`` read as 0), ``nan`` for a column without positives."""
    precision, recall = (torch.nan_to_num(v, nan=0.0) for v in _pr(state))
    ap = -((recall[1:] - recall[:-1]) * precision[:-1]).sum(0)
    return torch.where(_positives(state) > 0, ap, float("nan"))


def _binned_binary_auroc(state: State, max_fpr: Optional[float] = None, strict: bool = False) -> Tensor:
    value = _auroc_columns(state, max_fpr)[0]
    _check_defined(value, "AUROC", strict, empty=lambda: _no_samples(state))
    return value


def _binned_binary_ap(state: State, strict: bool = False) -> Tensor:
    value = _ap_columns(state)[0]
    _check_defined(value, "average precision", strict, "without positives", empty=lambda: _no_samples(state))
    return value


def _binned_averaged(state: State, what: str, average: str, strict: bool) -> Tensor:
    """AUROC or AP (``what``) per column, averaged (``"micro"``: the columns' matrices summed first)."""
    if average == "micro":
        pooled = {"confmat": state["confmat"].sum(1, keepdim=True)}
        return _binned_binary_auroc(pooled, None, strict) if what == "AUROC" else _binned_binary_ap(pooled, strict)
    values = _auroc_columns(state) if what == "AUROC" else _ap_columns(state)
    return _average(values, _positives(state), average, what, strict)


def _warn_undefined_rates(fpr: Tensor, tpr: Tensor) -> None:
    undefined = (torch.isnan(fpr) | torch.isnan(tpr)).any(0)
    if bool(undefined.any()):
        _undefined("ROC curve", f"for column(s) {torch.nonzero(undefined).view(-1).tolist()} with one class "
                   "present (its rate is 0/0)", False)


def _binned_roc(state: State, thresholds: Tensor, binary: bool) -> Curve:
    """torchmetrics' binned ROC: ``(fpr, tpr, thresholds)`` reversed; ``(T,)`` each for binary, else ``(K, T)``
    rates and ``(T,)`` thresholds."""
    fpr, tpr = _roc(state)
    _warn_undefined_rates(fpr, tpr)
    flipped = thresholds.flip(0)
    return (fpr[:, 0], tpr[:, 0], flipped) if binary else (fpr.T, tpr.T, flipped)


def _binned_pr(state: State, thresholds: Tensor, binary: bool) -> Curve:
    """torchmetrics' binned PR curve: ``(precision, recall, thresholds)``, ``(T + 1,)``, ``(T + 1,)``, ``(T,)`` for
    binary, else ``(K, T + 1)`` per class and the ``(T,)`` thresholds."""
    precision, recall = _pr(state)
    return (precision[:, 0], recall[:, 0], thresholds) if binary else (precision.T, recall.T, thresholds)
