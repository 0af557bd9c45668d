"""Group fairness of binary decisions: per-group rates and the demographic-parity and equal-opportunity ratios.

The statistics of a batch are one 2x2 confusion matrix ``[[tn, fp], [fn, tp]]`` per group, shape (G, 2, 2), from ONE
counting pass over ``(group, target, prediction)`` (one bincount into ``4 G`` bins): int64 counts, or float64 sums
of ``weight``; they add across batches and processes like any count. Conventions of the inputs:
:mod:`torchmetrics_lite.functional.classification`.

* **Rates.** Per group: the positivity rate ``(tp + fp) / n`` (demographic parity) and the true positive rate
  ``tp / (tp + fn)`` (equal opportunity). A ratio reports the lowest rate over the highest, keyed
  ``"DP_{low}_{high}"`` / ``"EO_{low}_{high}"`` by the two groups' ids (the first such group on ties, as
  ``torch.argmin``/``argmax``); 1 is parity, lower values mean more disparity.
* **Empty groups.** A 0/0 rate (a group with no sample, or for equal opportunity no positive target) is
  ``zero_division`` (default 0.0, torchmetrics' value, which then reads as full disparity); with ``float('nan')``
  such groups are left out of the min and max. A 0/0 ratio (every rate 0) is ``zero_division`` too. The stat
  rates of a group with no sample are ``nan`` (torchmetrics).
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    FAIRNESS_TASKS,
    check_binary_inputs,
    check_choice,
    check_groups,
    check_positive_int,
    check_tensor,
    check_weighted_update,
    check_zero_division,
)
from torchmetrics_lite._docs import register
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification._stat_scores import (
    _count,
    _counts_2x2,
    _fixed_counts,
    _positive,
    _safe_divide,
)
from torchmetrics_lite.functional.classification.binary import _binary_config

__all__ = ["binary_groups_stat_rates", "binary_fairness", "demographic_parity", "equal_opportunity"]

register(
    groups="groups: integer group ids of ``preds``' shape, one per element, in [0, num_groups - 1].",
    num_groups="num_groups: the number of groups G (the ids are 0, ..., G - 1).",
    task_fairness=("task: ``\"demographic_parity\"`` (positivity rates; ``target`` is not read and may be "
                   "``None``), ``\"equal_opportunity\"`` (true positive rates) or ``\"all\"`` (both, default)."),
    weight_groups=("weight: optional non-negative, finite sample weights, one per element of ``preds`` "
                   "(scikit-learn's ``sample_weight``). Counts become float64 sums of weights."),
)


#: ids larger than this multiple of the batch's elements are compacted (``torch.unique``) before counting
_SPARSE_IDS = 4


def _groups_confmat(preds: Tensor, target: Optional[Tensor], groups: Tensor, num_groups: Optional[int], cut: float,
                    from_logits: bool, ignore_index: Optional[int], validate_args: bool,
                    weight: Optional[Tensor] = None) -> Tuple[Tensor, Optional[Tensor]]:
    """(G, 2, 2) confusion matrices of one batch, and the group ids of their rows (``None``: ``0 .. G - 1``);
    ``target=None`` counts every target as 0 (demographic parity reads only the predictions).
    ``num_groups=None``: the groups present (a host read): G is the largest id + 1 where the ids are dense,
    else (an id beyond ``_SPARSE_IDS`` times the number of elements: 10**12, 2**31 - 1) the ids are compacted,
    so memory follows the number of groups present, never the largest id."""
    if target is None:
        preds = check_tensor("preds", preds)
        target, ignore_index = torch.zeros(preds.shape, dtype=torch.int64, device=preds.device), None
    p, t, w = check_binary_inputs(preds, target, from_logits=from_logits, ignore_index=ignore_index,
                                  validate_args=validate_args, weight=weight)
    g = check_groups(groups, tuple(preds.shape), num_groups, validate_args).to(dtype=torch.int64)
    ids = None
    if num_groups is None:
        lo, hi = (int(v) for v in torch.aminmax(g)) if g.numel() else (0, -1)
        if lo < 0:
            raise ValueError(f"Expected `groups` to hold group ids >= 0, got a minimum of {lo}")
        if hi >= _SPARSE_IDS * g.numel() + 64:
            ids, g = torch.unique(g, return_inverse=True)
            hi = ids.numel() - 1
        num_groups = hi + 1
    size = 4 * num_groups
    index = torch.add(_positive(p, cut), t.to(dtype=torch.int64), alpha=2).add_(g, alpha=4)
    if ignore_index is None:
        return _count(index, size, w).view(num_groups, 2, 2), ids
    index = index.masked_fill(t == ignore_index, size)
    return _count(index, size + 1, w)[:-1].view(num_groups, 2, 2), ids


def _binary_groups_stats(preds: Tensor, target: Optional[Tensor], groups: Tensor, weight: Optional[Tensor] = None, *,
                         num_groups: Optional[int], cut: float, from_logits: bool, ignore_index: Optional[int],
                         validate_args: bool, reads_target: bool = True,
                         weighted: Optional[bool] = None) -> Dict[str, Tensor]:
    """``{"confmat"}``: one batch's (G, 2, 2) per-group counts (``target`` read only with ``reads_target``;
    ``weighted``: a module's fixed choice, see ``_fixed_counts``)."""
    if weighted is not None:
        check_weighted_update(weighted, weight)
    if target is None and reads_target:
        raise TypeError("Expected `target` (0/1 labels of `preds`' shape) for the true positive rates of equal "
                        "opportunity (task='equal_opportunity' or 'all') and for the group stat rates, got None; "
                        "`target=None` is allowed with task='demographic_parity' only")
    confmat, ids = _groups_confmat(preds, target if reads_target else None, groups, num_groups, cut, from_logits,
                                   ignore_index, validate_args, weight)
    stats = _fixed_counts({"confmat": confmat}, weighted)
    return stats if ids is None else {**stats, "ids": ids}


def _binary_groups_stat_rates_from_stats(state: Dict[str, Tensor]) -> Dict[str, Tensor]:
    """``{"group_i": [tp, fp, tn, fn] / n_i}`` for every group (``nan`` for a group with no sample)."""
    confmat = state["confmat"]
    counts = torch.stack(_counts_2x2(confmat), dim=-1).to(float_dtype(confmat.device))
    rates = counts / counts.sum(dim=-1, keepdim=True)
    return {f"group_{i}": rates[i] for i in range(rates.shape[0])}


def _ratio(name: str, num: Tensor, den: Tensor, eligible: Tensor, zero_division: float,
           ids: Optional[Tensor] = None) -> Dict[str, Tensor]:
    """``{"<name>_<low>_<high>": min rate / max rate}`` over the eligible groups whose rate is defined, keyed by
    the groups' ids (``ids[row]``; ``None``: the row numbers)."""
    rate = _safe_divide(num, den, zero_division)
    ok = eligible & ~torch.isnan(rate)
    if not bool(ok.any()):
        return {f"{name}_0_0": torch.full((), zero_division, dtype=rate.dtype, device=rate.device)}
    low = int(torch.where(ok, rate, torch.inf).argmin())
    high = int(torch.where(ok, rate, -torch.inf).argmax())
    key = f"{name}_{low}_{high}" if ids is None else f"{name}_{int(ids[low])}_{int(ids[high])}"
    return {key: _safe_divide(rate[low], rate[high], zero_division)}


def _binary_fairness_from_stats(state: Dict[str, Tensor], *, task: str, zero_division: float = 0.0,
                                present_only: bool = False) -> Dict[str, Tensor]:
    """The ratios of ``task`` from (G, 2, 2) counts (rows of the group ids ``state["ids"]`` where the function
    compacted sparse ids); ``present_only`` leaves groups with no sample out."""
    tp, fp, tn, fn = _counts_2x2(state["confmat"])
    ids = state.get("ids")
    n = tp + fp + tn + fn
    eligible = n > 0 if present_only else torch.ones_like(n, dtype=torch.bool)
    out: Dict[str, Tensor] = {}
    if task in ("demographic_parity", "all"):
        out.update(_ratio("DP", tp + fp, n, eligible, zero_division, ids))
    if task in ("equal_opportunity", "all"):
        out.update(_ratio("EO", tp, tp + fn, eligible, zero_division, ids))
    return out


@fill_doc
def binary_groups_stat_rates(preds: Tensor, target: Tensor, groups: Tensor, num_groups: int,
                             threshold: float = 0.5, ignore_index: Optional[int] = None, *,
                             from_logits: bool = False, validate_args: bool = True,
                             weight: Optional[Tensor] = None) -> Dict[str, Tensor]:
    """Per group, the rates ``[tp, fp, tn, fn] / n`` of its samples' binary decisions.

    Args:
        {preds_binary}
        {target_binary}
        {groups}
        {num_groups}
        {threshold}
        {ignore_index}
        {from_logits}
        {validate_args}
        {weight_groups}

    Returns:
        ``{"group_0": (4,), ..., "group_{G-1}": (4,)}`` float64 tensors, in group order; a group with no sample
        has ``nan`` rates.

    Raises:
        {raises_value}
        {raises_type}

    References:
        torchmetrics' ``binary_groups_stat_rates``.

    Examples:
        >>> import torch
        >>> preds, target = torch.tensor([1, 0, 1, 1, 0, 0]), torch.tensor([1, 0, 0, 1, 1, 0])
        >>> rates = binary_groups_stat_rates(preds, target, torch.tensor([0, 0, 0, 1, 1, 1]), 2)
        >>> rates["group_0"]  # tp, fp, tn: one sample each
        tensor([0.3333, 0.3333, 0.3333, 0.0000], dtype=torch.float64)
    """
    check_positive_int("num_groups", num_groups)
    cut = _binary_config(threshold, from_logits, ignore_index)
    stats = _binary_groups_stats(preds, target, groups, weight, num_groups=num_groups, cut=cut,
                                 from_logits=from_logits, ignore_index=ignore_index, validate_args=validate_args)
    return _binary_groups_stat_rates_from_stats(stats)


@fill_doc
def binary_fairness(preds: Tensor, target: Optional[Tensor], groups: Tensor, task: str = "all",
                    threshold: float = 0.5, ignore_index: Optional[int] = None, *, num_groups: Optional[int] = None,
                    zero_division: float = 0.0, from_logits: bool = False, validate_args: bool = True,
                    weight: Optional[Tensor] = None) -> Dict[str, Tensor]:
    """Demographic parity ``min_g PR_g / max_g PR_g`` (positivity rates ``(tp + fp) / n``) and equal opportunity
    ``min_g TPR_g / max_g TPR_g`` (true positive rates ``tp / (tp + fn)``) across groups.

    Args:
        {preds_binary}
        target: 0/1 labels of ``preds``' shape; not read (``None`` allowed) for ``"demographic_parity"``.
        {groups}
        {task_fairness}
        {threshold}
        {ignore_index}
        num_groups: the number of groups G; with ``None`` (default, torchmetrics' function) the groups are those
            present in ``groups``, each keyed by its own id (sparse ids such as ``10**12`` cost memory for the
            groups present only).
        zero_division: the value of a 0/0 rate or ratio (default 0.0, torchmetrics'); with ``float('nan')``
            groups whose rate is undefined are left out of the min and max.
        {from_logits}
        {validate_args}
        {weight_groups}

    Returns:
        ``{"DP_{low}_{high}": ratio, "EO_{low}_{high}": ratio}`` (the task's entries, in this order), float64
        scalars keyed by the ids of the groups with the lowest and the highest rate.

    Raises:
        {raises_value}
        {raises_type}

    References:
        M. Hardt, E. Price, N. Srebro (2016), "Equality of opportunity in supervised learning", NeurIPS;
        torchmetrics' ``binary_fairness``.

    Examples:
        Group 0 gets 2 positive calls of 3, group 1 one of 3; group 0 finds its one positive, group 1 one of two:

        >>> import torch
        >>> preds, target = torch.tensor([1, 0, 1, 1, 0, 0]), torch.tensor([1, 0, 0, 1, 1, 0])
        >>> binary_fairness(preds, target, torch.tensor([0, 0, 0, 1, 1, 1]))
        {'DP_1_0': tensor(0.5000, dtype=torch.float64), 'EO_1_0': tensor(0.5000, dtype=torch.float64)}
    """
    check_choice("task", task, FAIRNESS_TASKS)
    check_positive_int("num_groups", num_groups, allow_none=True)
    zd = check_zero_division(zero_division)
    cut = _binary_config(threshold, from_logits, ignore_index)
    stats = _binary_groups_stats(preds, target, groups, weight, num_groups=num_groups, cut=cut,
                                 from_logits=from_logits, ignore_index=ignore_index, validate_args=validate_args,
                                 reads_target=task != "demographic_parity")
    return _binary_fairness_from_stats(stats, task=task, zero_division=zd, present_only=num_groups is None)


@fill_doc
def demographic_parity(preds: Tensor, groups: Tensor, threshold: float = 0.5, ignore_index: Optional[int] = None,
                       validate_args: bool = True) -> Dict[str, Tensor]:
    """Demographic parity ``min_g PR_g / max_g PR_g`` of the positivity rates ``(tp + fp) / n`` across groups:
    :func:`binary_fairness` with ``task="demographic_parity"`` (torchmetrics' function name and arguments).

    Args:
        {preds_binary}
        {groups}
        {threshold}
        {ignore_index}
        {validate_args}

    Returns:
        ``{"DP_{low}_{high}": ratio}``, a float64 scalar keyed by the ids of the groups with the lowest and the
        highest rate (the groups present in ``groups``).

    Raises:
        {raises_value}
        {raises_type}

    References:
        torchmetrics' ``demographic_parity``.

    Examples:
        >>> import torch
        >>> demographic_parity(torch.tensor([1, 0, 1, 1, 0, 0]), torch.tensor([0, 0, 0, 1, 1, 1]))
        {'DP_1_0': tensor(0.5000, dtype=torch.float64)}
    """
    return binary_fairness(preds, None, groups, "demographic_parity", threshold, ignore_index,
                           validate_args=validate_args)


@fill_doc
def equal_opportunity(preds: Tensor, target: Tensor, groups: Tensor, threshold: float = 0.5,
                      ignore_index: Optional[int] = None, validate_args: bool = True) -> Dict[str, Tensor]:
    """Equal opportunity ``min_g TPR_g / max_g TPR_g`` of the true positive rates ``tp / (tp + fn)`` across groups:
    :func:`binary_fairness` with ``task="equal_opportunity"`` (torchmetrics' function name and arguments).

    Args:
        {preds_binary}
        target: 0/1 labels of ``preds``' shape.
        {groups}
        {threshold}
        {ignore_index}
        {validate_args}

    Returns:
        ``{"EO_{low}_{high}": ratio}``, a float64 scalar keyed by the ids of the groups with the lowest and the
        highest rate (the groups present in ``groups``).

    Raises:
        {raises_value}
        {raises_type}

    References:
        M. Hardt, E. Price, N. Srebro (2016), "Equality of opportunity in supervised learning", NeurIPS;
        torchmetrics' ``equal_opportunity``.

    Examples:
        >>> import torch
        >>> equal_opportunity(torch.tensor([1, 0, 1, 1, 0, 0]), torch.tensor([1, 0, 0, 1, 1, 0]),
        ...                   torch.tensor([0, 0, 0, 1, 1, 1]))
        {'EO_1_0': tensor(0.5000, dtype=torch.float64)}
    """
    return binary_fairness(preds, target, groups, "equal_opportunity", threshold, ignore_index,
                           validate_args=validate_args)
