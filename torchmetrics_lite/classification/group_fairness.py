"""Group fairness modules: streaming forms of :mod:`torchmetrics_lite.functional.classification.group_fairness`.

The state is one 2x2 confusion matrix per group, ``confmat`` (G, 2, 2), int64 counts (float64 sums of ``weight``
with ``weighted=True``), summed across batches and synced like any count; ``update(preds, target, groups,
weight=None)`` counts a batch in one pass."""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import torch

from torchmetrics_lite._checks import (
    FAIRNESS_TASKS,
    check_choice,
    check_positive_int,
    check_zero_division,
    warn_binary_logits,
)
from torchmetrics_lite.classification._base import _counts_dtype
from torchmetrics_lite.functional.classification._doc_args import fill_doc
from torchmetrics_lite.functional.classification.binary import _binary_config
from torchmetrics_lite.functional.classification.group_fairness import (
    _binary_fairness_from_stats,
    _binary_groups_stat_rates_from_stats,
    _binary_groups_stats,
)
from torchmetrics_lite.metric import Metric

__all__ = ["BinaryGroupStatRates", "BinaryFairness"]


def _groups_options(metric: Any) -> Dict[str, Any]:
    """What both group modules pass to ``_binary_groups_stats`` (``cut``: the threshold on the scale of the scores;
    ``reads_target``: whether the value reads the labels)."""
    return {"num_groups": metric.num_groups, "cut": metric.cut, "from_logits": metric.from_logits,
            "ignore_index": metric.ignore_index, "validate_args": metric.validate_args,
            "reads_target": metric.reads_target, "weighted": metric.weighted}


def _groups_key(metric: Any) -> Tuple[Any, ...]:
    return ("binary_groups", metric.num_groups, metric.cut, metric.from_logits, metric.ignore_index,
            metric.validate_args, metric.weighted, metric.reads_target)


@fill_doc
class BinaryGroupStatRates(Metric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_groups_stat_rates`: per group ``[tp, fp, tn, fn] / n``.

    Args:
        {num_groups}
        {threshold}
        {ignore_index}
        {from_logits}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryGroupStatRates(2)
        >>> m.update(torch.tensor([1, 0, 1]), torch.tensor([1, 0, 0]), torch.tensor([0, 0, 0]))
        >>> m.update(torch.tensor([1, 0, 0]), torch.tensor([1, 1, 0]), torch.tensor([1, 1, 1]))
        >>> m.compute()["group_1"]  # tp, tn, fn: one sample each
        tensor([0.3333, 0.0000, 0.3333, 0.3333], dtype=torch.float64)
    """

    def __init__(self, num_groups: int, threshold: float = 0.5, ignore_index: Optional[int] = None, *,
                 from_logits: bool = False, weighted: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_positive_int("num_groups", num_groups)
        self.cut = _binary_config(threshold, from_logits, ignore_index)
        self.num_groups, self.threshold, self.from_logits = num_groups, threshold, from_logits
        self.ignore_index, self.weighted = ignore_index, weighted
        self.add_state("confmat", torch.zeros(num_groups, 2, 2, dtype=_counts_dtype(weighted)), reduce="sum")
        self.stats_key = _groups_key(self)

    stats_fn = staticmethod(_binary_groups_stats)
    stats_options = _groups_options
    check_accepted = warn_binary_logits
    reads_target = True
    value_fn = staticmethod(_binary_groups_stat_rates_from_stats)


@fill_doc
class BinaryFairness(Metric):
    """Streaming :func:`~torchmetrics_lite.functional.binary_fairness` over ``num_groups`` groups (a group with no
    sample has 0/0 rates, which follow ``zero_division``).

    Args:
        {num_groups}
        {task_fairness}
        {threshold}
        {ignore_index}
        zero_division: the value of a 0/0 rate or ratio (default 0.0, torchmetrics'); with ``float('nan')``
            groups whose rate is undefined are left out of the min and max.
        {from_logits}
        {weighted}
        {kwargs_module}

    Examples:
        >>> m = BinaryFairness(2)
        >>> preds, target = torch.tensor([1, 0, 1, 1, 0, 0]), torch.tensor([1, 0, 0, 1, 1, 0])
        >>> m.update(preds, target, torch.tensor([0, 0, 0, 1, 1, 1]))
        >>> m.compute()
        {'DP_1_0': tensor(0.5000, dtype=torch.float64), 'EO_1_0': tensor(0.5000, dtype=torch.float64)}
    """

    def __init__(self, num_groups: int, task: str = "all", threshold: float = 0.5, ignore_index: Optional[int] = None,
                 *, zero_division: float = 0.0, from_logits: bool = False, weighted: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_choice("task", task, FAIRNESS_TASKS)
        self.task, self.zero_division = task, check_zero_division(zero_division)
        check_positive_int("num_groups", num_groups)
        self.cut = _binary_config(threshold, from_logits, ignore_index)
        self.num_groups, self.threshold, self.from_logits = num_groups, threshold, from_logits
        self.ignore_index, self.weighted = ignore_index, weighted
        self.reads_target = task != "demographic_parity"
        self.add_state("confmat", torch.zeros(num_groups, 2, 2, dtype=_counts_dtype(weighted)), reduce="sum")
        self.stats_key = _groups_key(self)

    stats_fn = staticmethod(_binary_groups_stats)
    stats_options = _groups_options
    check_accepted = warn_binary_logits
    value_fn = staticmethod(_binary_fairness_from_stats)

    def value_options(self) -> Dict[str, Any]:
        return {"task": self.task, "zero_division": self.zero_division}

