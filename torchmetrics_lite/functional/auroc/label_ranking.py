"""Multilabel ranking metrics, as scikit-learn's ``coverage_error``, ``label_ranking_average_precision_score``
and ``label_ranking_loss``, ties included: each sample ranks its labels by score, and the metric is the mean over
samples of a per-sample value, so the sufficient statistics are a sum and a count.

For sample ``i`` with relevant labels ``R`` (``n_rel = |R|`` of ``L``), ``rank(j) = #{k : s_k >= s_j}`` and
``rank_R(j) = #{k in R : s_k >= s_j}`` (tied labels all take the largest rank, scikit-learn's
``rankdata(-s, "max")``):

* coverage: ``max_{j in R} rank(j)`` (how far down the ranking one must go to cover every relevant label);
  ``0`` for a sample without relevant labels;
* ranking average precision: ``mean_{j in R} rank_R(j) / rank(j)``; ``1`` when ``n_rel`` is 0 or ``L``;
* ranking loss: ``#{(j, k) : j in R, k not in R, s_k >= s_j} / (n_rel (L - n_rel))`` (a tied pair counts as
  misordered); ``0`` when ``n_rel`` is 0 or ``L``.

``weight`` (scikit-learn's ``sample_weight``, one non-negative value per sample) makes the mean a weighted one,
``sum_i w_i v_i / sum_i w_i``, the special rows keeping their values (a weight 0 drops the sample; all weights 0
give ``nan``, where scikit-learn's ``coverage_error`` and ``label_ranking_loss`` raise ``ZeroDivisionError``).

One sort per sample, all samples at once (:mod:`._label_ranking`); coverage needs no sort. Scores are used as given
(any real values: only each row's order counts).

Difference from torchmetrics: its ranking loss breaks tied scores by ``argsort`` position instead of counting the
tied pair as misordered (so with ties it is lower than scikit-learn's, which this follows), and its three metrics
apply a float32 sigmoid to scores outside ``[0, 1]``, which makes logits above about 17 tie.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional

import torch
from torch import Tensor

from torchmetrics_lite import _backend
from torchmetrics_lite._checks import check_multilabel_rank_inputs, check_sample_weight
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.auroc import _label_ranking as lr
from torchmetrics_lite.functional.auroc._doc_args import fill_doc, register

__all__ = ["multilabel_coverage_error", "multilabel_ranking_average_precision", "multilabel_ranking_loss"]

State = Dict[str, Tensor]


def _coverage_values(scores: Tensor, relevant: Tensor) -> Tensor:
    return lr.coverage_per_row(scores, relevant)


def _lrap_values(scores: Tensor, relevant: Tensor) -> Tensor:
    dtype = float_dtype(scores.device)
    n_rel = lr.relevant_counts(relevant)
    trivial = (n_rel == 0) | (n_rel == relevant.shape[1])
    mean = lr.precision_sums(scores, relevant).to(dtype) / n_rel.clamp(min=1).to(dtype)
    return torch.where(trivial, 1.0, mean)


def _ranking_loss_values(scores: Tensor, relevant: Tensor) -> Tensor:
    dtype = float_dtype(scores.device)
    n_rel = lr.relevant_counts(relevant)
    pairs = n_rel * (relevant.shape[1] - n_rel)
    misordered = lr.misordered_pairs(scores, relevant)
    return torch.where(pairs > 0, misordered.to(dtype) / pairs.clamp(min=1).to(dtype), 0.0)


def _ranking_stats(values: Callable[[Tensor, Tensor], Tensor], preds: Tensor, target: Tensor,
                   weight: Optional[Tensor] = None) -> State:
    """The (weighted) sum of the per-sample values (float64, float32 on a device without float64), the sample
    count and the sum of the weights (the count, as a float, without ``weight``)."""
    dtype = float_dtype(preds.device)
    n = preds.shape[0]
    if n == 0:
        zero = torch.zeros((), dtype=dtype, device=preds.device)
        return {"total": zero, "count": torch.zeros((), dtype=torch.int64, device=preds.device), "weight": zero}
    relevant = torch.from_numpy(_backend.host(target) != 0) if _backend.use_numpy(target) else target.bool()
    per_sample = values(preds, relevant).to(dtype)  # (numpy's cast to bool: a tenth of torch's on CPU)
    count = torch.tensor(n, device=preds.device)
    if weight is None:
        return {"total": per_sample.sum(), "count": count, "weight": torch.tensor(float(n), dtype=dtype,
                                                                                  device=preds.device)}
    w = weight.to(device=preds.device, dtype=dtype)
    return {"total": (per_sample * w).sum(), "count": count, "weight": w.sum()}


def _ranking_from_stats(state: State) -> Tensor:
    """The (weighted) mean over samples, ``total / weight``; ``nan`` for no samples or all weights 0 (0 / 0)."""
    return state["total"] / state["weight"].to(state["total"].dtype)


def _multilabel_ranking_stats(preds: Any, target: Any, weight: Any = None, *,
                              values: Callable[[Tensor, Tensor], Tensor], num_labels: int,
                              validate_args: bool) -> State:
    """One checked batch's (weighted) sum of the per-sample ``values``, its size and its weight (see
    :func:`_ranking_stats`); ``weight``: ``None`` or ``(N,)``, checked by
    :func:`~torchmetrics_lite._checks.check_sample_weight`."""
    preds, target = check_multilabel_rank_inputs(preds, target, num_labels, validate_args)
    weight = check_sample_weight(weight, (preds.shape[0],), validate_args=validate_args)
    return _ranking_stats(values, preds, target, weight)


register(
    weight_label_ranking=("weight: optional ``(N,)`` non-negative sample weights (scikit-learn's ``sample_weight``): "
                          "the mean over samples becomes ``sum_i w_i v_i / sum_i w_i``; a weight 0 drops its sample; "
                          "all weights 0 give ``nan``. ``None``: every sample counts 1."),
    preds_label_ranking="preds: ``(N, num_labels)`` floating scores (any real values; only each row's order counts).",
    sections_label_ranking=(
        "Returns:\n"
        "    A float64 scalar: the mean over the ``N`` samples; ``nan`` for empty input.\n"
        "\n"
        "Raises:\n"
        "    ValueError: shapes other than ``(N, num_labels)``, NaN scores, labels other than 0/1, or ``weight`` not\n"
        "        of shape ``(N,)`` or negative or non-finite.\n"
        "    TypeError: non-floating ``preds``, non-integer ``target`` or a bool ``weight``."
    ),
)


@fill_doc
def multilabel_coverage_error(preds: Tensor, target: Tensor, num_labels: int, *, weight: Optional[Tensor] = None,
                              validate_args: bool = True) -> Tensor:
    """Coverage error: the mean over samples of ``max_{j relevant} #{k : s_k >= s_j}``, the number of top-ranked
    labels needed to cover every relevant label (ties counted in full; 0 for a sample without relevant labels).
    One masked minimum and one count per sample, no sort. Lower is better; the best is the mean number of
    relevant labels. {compile}

    Args:
        {preds_label_ranking}
        {target_per_label}
        {num_labels_rank}
        {weight_label_ranking}
        {validate_args}

    {sections_label_ranking}

    References:
        scikit-learn's ``coverage_error``; Tsoumakas, Katakis & Vlahavas (2010), "Mining multi-label data".

    Examples:
        >>> preds = torch.tensor([[0.9, 0.5, 0.1], [0.2, 0.4, 0.4]])
        >>> multilabel_coverage_error(preds, torch.tensor([[1, 0, 1], [0, 1, 0]]), 3)  # (3 + 2) / 2
        tensor(2.5000, dtype=torch.float64)
        >>> multilabel_coverage_error(preds, torch.tensor([[1, 0, 1], [0, 1, 0]]), 3,
        ...                           weight=torch.tensor([1.0, 3.0]))  # (3 + 3 * 2) / 4
        tensor(2.2500, dtype=torch.float64)
    """
    stats = _multilabel_ranking_stats(preds, target, weight, values=_coverage_values, num_labels=num_labels,
                                      validate_args=validate_args)
    return _ranking_from_stats(stats)


@fill_doc
def multilabel_ranking_average_precision(preds: Tensor, target: Tensor, num_labels: int, *,
                                         weight: Optional[Tensor] = None, validate_args: bool = True) -> Tensor:
    """Label ranking average precision: the mean over samples of ``mean_{j relevant} rank_R(j) / rank(j)``, the
    fraction of the labels ranked at or above each relevant label that are relevant (ties take the largest rank;
    1 for a sample with no or only relevant labels). One sort per sample. Higher is better (best 1). {compile}

    Args:
        {preds_label_ranking}
        {target_per_label}
        {num_labels_rank}
        {weight_label_ranking}
        {validate_args}

    {sections_label_ranking}

    References:
        scikit-learn's ``label_ranking_average_precision_score``; torchmetrics'
        ``multilabel_ranking_average_precision``.

    Examples:
        >>> preds = torch.tensor([[0.9, 0.5, 0.1], [0.2, 0.4, 0.4]])
        >>> target = torch.tensor([[1, 0, 1], [0, 1, 0]])
        >>> round(multilabel_ranking_average_precision(preds, target, 3).item(), 6)  # ((1 + 2/3) / 2 + 1/2) / 2
        0.666667
        >>> round(multilabel_ranking_average_precision(preds, target, 3, weight=torch.tensor([1.0, 0.0])).item(), 6)
        0.833333
    """
    stats = _multilabel_ranking_stats(preds, target, weight, values=_lrap_values, num_labels=num_labels,
                                      validate_args=validate_args)
    return _ranking_from_stats(stats)


@fill_doc
def multilabel_ranking_loss(preds: Tensor, target: Tensor, num_labels: int, *, weight: Optional[Tensor] = None,
                            validate_args: bool = True) -> Tensor:
    """Label ranking loss: the mean over samples of the fraction of (relevant, irrelevant) label pairs that are
    misordered, the irrelevant label scored at or above the relevant one (a tie counts as misordered, as
    scikit-learn; 0 for a sample with no or only relevant labels). One sort per sample. Lower is better (best 0).
    {compile}

    Args:
        {preds_label_ranking}
        {target_per_label}
        {num_labels_rank}
        {weight_label_ranking}
        {validate_args}

    {sections_label_ranking}

    References:
        scikit-learn's ``label_ranking_loss``; torchmetrics' ``multilabel_ranking_loss`` (which breaks ties by
        position: see :mod:`torchmetrics_lite.functional.auroc.label_ranking`).

    Examples:
        >>> preds = torch.tensor([[0.9, 0.5, 0.1], [0.2, 0.4, 0.4]])
        >>> multilabel_ranking_loss(preds, torch.tensor([[1, 0, 1], [0, 1, 0]]), 3)  # (1/2 + 1/2) / 2
        tensor(0.5000, dtype=torch.float64)
        >>> multilabel_ranking_loss(preds, torch.tensor([[1, 0, 1], [1, 1, 1]]), 3, weight=torch.tensor([2, 2]))
        tensor(0.2500, dtype=torch.float64)
    """
    stats = _multilabel_ranking_stats(preds, target, weight, values=_ranking_loss_values, num_labels=num_labels,
                                      validate_args=validate_args)
    return _ranking_from_stats(stats)
