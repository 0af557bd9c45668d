"""Hinge loss, binary and multiclass (Crammer-Singer or one-vs-all): the mean of ``max(0, 1 - margin)`` (squared
with ``squared=True``), the loss of a support vector machine evaluated as a metric.

The statistics of a batch are two floating sums (float64, or ``float_dtype`` of the device): ``measure``, the sum
of the (weighted) per-sample losses (a scalar, or (C,) per class one-vs-all), and ``total``, the number (or weight)
of the samples counted. The value is ``measure / total``; an empty input gives ``nan`` (0/0), as torchmetrics.

**The scale of ``preds``.** torchmetrics reads a batch of floating ``preds`` inside [0, 1] as given and applies a
sigmoid (binary) or softmax (multiclass) to any other batch; scikit-learn's ``hinge_loss`` reads decision values
as given. Here nothing is squashed silently: by default ``preds`` must lie in [0, 1] (both peers then agree with
us); ``from_logits=True`` applies the sigmoid or softmax in float64 (torchmetrics' value on a logit batch);
``margins=True`` reads any real decision values as given (scikit-learn's value).
"""
from __future__ import annotations

from typing import Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    HINGE_MODES,
    check_binary_hinge_inputs,
    check_choice,
    check_hinge_options,
    check_ignore_index,
    check_multiclass_hinge_inputs,
    check_num_classes_hinge,
)
from torchmetrics_lite._docs import register
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import _warn_empty

__all__ = ["binary_hinge_loss", "multiclass_hinge_loss"]

register(
    squared="squared: the squared hinge ``max(0, 1 - margin)²`` (default ``False``).",
    from_logits_hinge=("from_logits: ``preds`` are logits: a sigmoid (binary) or softmax over the class axis "
                       "(multiclass), in float64, comes first (what torchmetrics does to a batch outside [0, 1])."),
    margins=("margins: ``preds`` are real decision values (an SVM's ``decision_function``, scikit-learn's "
             "``pred_decision``), used as given. Without this or ``from_logits``, ``preds`` outside [0, 1] raise."),
    ignore_index_hinge="ignore_index: samples whose target equals it are left out; default ``None``.",
    weight_hinge=("weight: optional non-negative, finite sample weights, one per element of ``target`` "
                  "(scikit-learn's ``sample_weight``): a weighted mean."),
)


def _sums(loss: Tensor, keep: Optional[Tensor], weight: Optional[Tensor]) -> Dict[str, Tensor]:
    """``{"measure", "total"}``: the (weighted) sum of ``loss`` (M,) or (M, C) over the kept samples, and their
    number (or weight)."""
    dtype = loss.dtype
    if weight is None and keep is None:
        return {"measure": loss.sum(dim=0), "total": torch.tensor(float(loss.shape[0]), dtype=dtype,
                                                                  device=loss.device)}
    w = torch.ones(loss.shape[0], dtype=dtype, device=loss.device) if weight is None else weight.to(dtype=dtype)
    if keep is not None:
        w = w.masked_fill(~keep, 0.0)
        loss = loss.masked_fill(~(keep if loss.dim() == 1 else keep[:, None]), 0.0)
    w_col = w if loss.dim() == 1 else w[:, None]
    return {"measure": (w_col * loss).sum(dim=0), "total": w.sum()}


def _hinge(margin: Tensor, squared: bool) -> Tensor:
    loss = torch.clamp(1.0 - margin, min=0.0)
    return loss.square() if squared else loss


def _binary_hinge_loss_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, squared: bool,
                             from_logits: bool, margins: bool, ignore_index: Optional[int],
                             validate_args: bool) -> Dict[str, Tensor]:
    """One batch's sums: margin ``y p`` with ``y = ±1`` from the 0/1 target."""
    preds, target, weight = check_binary_hinge_inputs(preds, target, raw=from_logits or margins,
                                                      ignore_index=ignore_index, validate_args=validate_args,
                                                      weight=weight)
    p = preds.to(float_dtype(preds.device))
    if from_logits:
        p = torch.sigmoid(p)
    positive = target == 1
    loss = _hinge(torch.where(positive, p, -p), squared)
    keep = None if ignore_index is None else target != ignore_index
    return _sums(loss, keep, weight)


def _multiclass_hinge_loss_stats(preds: Tensor, target: Tensor, weight: Optional[Tensor] = None, *, num_classes: int,
                                 squared: bool, multiclass_mode: str, from_logits: bool, margins: bool,
                                 ignore_index: Optional[int], validate_args: bool) -> Dict[str, Tensor]:
    """One batch's sums: Crammer-Singer margin ``p_y - max_{j != y} p_j`` per sample, or one-vs-all margins
    ``±p_c`` per sample and class (a (C,) sum)."""
    preds, target, weight = check_multiclass_hinge_inputs(preds, target, num_classes=num_classes,
                                                          raw=from_logits or margins, ignore_index=ignore_index,
                                                          validate_args=validate_args, weight=weight)
    dtype = float_dtype(preds.device)
    p = torch.softmax(preds.to(dtype=dtype), dim=1) if from_logits else preds
    keep = None if ignore_index is None else target != ignore_index
    t = target.to(dtype=torch.int64)[:, None]
    if keep is not None:
        t = t.masked_fill(~keep[:, None], 0)  # any class; the sample weighs nothing
    if multiclass_mode == "crammer-singer":  # the max and the gather select values: exact in the scores' dtype
        rival = p.scatter(1, t, float("-inf")).amax(dim=1).to(dtype=dtype)
        loss = _hinge(p.gather(1, t).squeeze(1).to(dtype=dtype) - rival, squared)
    else:  # every class's term as another class's, max(0, 1 + p), then each sample's own class's swapped in
        p = p.to(dtype=dtype)
        loss = torch.add(p, 1.0).clamp_(min=0.0)
        loss.scatter_(1, t, torch.clamp(1.0 - p.gather(1, t), min=0.0))
        if squared:
            loss.square_()
    return _sums(loss, keep, weight)


def _hinge_loss_from_stats(state: Dict[str, Tensor]) -> Tensor:
    return state["measure"] / state["total"]


@fill_doc
def binary_hinge_loss(preds: Tensor, target: Tensor, squared: bool = False, ignore_index: Optional[int] = None, *,
                      from_logits: bool = False, margins: bool = False, validate_args: bool = True,
                      weight: Optional[Tensor] = None) -> Tensor:
    """Mean hinge loss ``max(0, 1 - y p)`` with ``y = 2 target - 1`` in {-1, +1}.

    Args:
        preds: floating scores, any shape: probabilities in [0, 1], logits (``from_logits``) or decision values
            (``margins``).
        {target_binary}
        {squared}
        {ignore_index_hinge}
        {from_logits_hinge}
        {margins}
        {validate_args}
        {weight_hinge}

    Returns:
        A float64 scalar; ``nan`` for an empty input.

    Raises:
        {raises_value}
        {raises_type}

    References:
        scikit-learn's ``hinge_loss``; torchmetrics' ``binary_hinge_loss``.

    Examples:
        >>> import torch
        >>> binary_hinge_loss(torch.tensor([0.9, 0.2, 0.6]), torch.tensor([1, 0, 0]))  # (0.1 + 1.2 + 1.6) / 3
        tensor(0.9667, dtype=torch.float64)
        >>> binary_hinge_loss(torch.tensor([2.5, -1.0]), torch.tensor([1, 1]), margins=True)  # (0 + 2) / 2
        tensor(1., dtype=torch.float64)
    """
    check_hinge_options(squared, from_logits, margins)
    check_ignore_index(ignore_index)
    stats = _binary_hinge_loss_stats(preds, target, weight, squared=squared, from_logits=from_logits, margins=margins,
                                     ignore_index=ignore_index, validate_args=validate_args)
    _warn_empty(stats, target)
    return _hinge_loss_from_stats(stats)


@fill_doc
def multiclass_hinge_loss(preds: Tensor, target: Tensor, num_classes: int, squared: bool = False,
                          multiclass_mode: str = "crammer-singer", ignore_index: Optional[int] = None, *,
                          from_logits: bool = False, margins: bool = False, validate_args: bool = True,
                          weight: Optional[Tensor] = None) -> Tensor:
    """Mean multiclass hinge loss. ``"crammer-singer"`` (default): ``max(0, 1 - p_y + max_{j != y} p_j)`` per
    sample; ``"one-vs-all"``: per class c, ``max(0, 1 - s p_c)`` with ``s = +1`` for the samples of class c and
    ``-1`` for the others, averaged over samples (one value per class).

    Args:
        preds: (N, C, ...) floating scores (the class axis 1): probabilities in [0, 1], logits
            (``from_logits``) or decision values (``margins``).
        {target_multiclass}
        num_classes: the number of classes C (at least 2).
        {squared}
        multiclass_mode: ``"crammer-singer"`` or ``"one-vs-all"``.
        {ignore_index_hinge}
        {from_logits_hinge}
        {margins}
        {validate_args}
        {weight_hinge}

    Returns:
        float64: a scalar (Crammer-Singer) or (C,) (one-vs-all); ``nan`` for an empty input.

    Raises:
        {raises_value}
        {raises_type}

    References:
        K. Crammer and Y. Singer (2001), "On the algorithmic implementation of multiclass kernel-based vector
        machines", JMLR 2; scikit-learn's ``hinge_loss`` (Crammer-Singer); torchmetrics' ``multiclass_hinge_loss``.

    Examples:
        >>> import torch
        >>> preds = torch.tensor([[0.7, 0.2, 0.1], [0.3, 0.3, 0.4]])
        >>> multiclass_hinge_loss(preds, torch.tensor([0, 1]), 3)  # (1 - 0.7 + 0.2, 1 - 0.3 + 0.4) / 2
        tensor(0.8000, dtype=torch.float64)
        >>> multiclass_hinge_loss(preds, torch.tensor([0, 1]), 3, multiclass_mode="one-vs-all")
        tensor([0.8000, 0.9500, 1.2500], dtype=torch.float64)
    """
    check_num_classes_hinge(num_classes)
    check_hinge_options(squared, from_logits, margins)
    check_choice("multiclass_mode", multiclass_mode, HINGE_MODES)
    check_ignore_index(ignore_index)
    stats = _multiclass_hinge_loss_stats(preds, target, weight, num_classes=num_classes, squared=squared,
                                         multiclass_mode=multiclass_mode, from_logits=from_logits, margins=margins,
                                         ignore_index=ignore_index, validate_args=validate_args)
    _warn_empty(stats, target)
    return _hinge_loss_from_stats(stats)
