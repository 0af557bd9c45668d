"""Aggregation metrics: running sum, mean, max and min of streamed values.

They are the smallest complete metrics (one ``sum``, ``max`` or ``min`` state each) and double as the
demonstration of the base class. Sums accumulate in float64 whatever the input dtype, so a long float32 stream
does not drift.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Union

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_aggregation_input, check_no_nan
from torchmetrics_lite.metric import Metric

__all__ = ["SumMetric", "MeanMetric", "MaxMetric", "MinMetric"]

Value = Union[float, Tensor]


class SumMetric(Metric):
    """Running sum of every value seen: ``sum_i x_i``, in float64.

    ``update(value)`` takes a number or a real tensor of any shape; NaN values raise (``validate_args=True``).
    Empty input: the sum is 0.

    >>> m = SumMetric()
    >>> m.update(torch.tensor([1.0, 2.0]))
    >>> m.update(3)
    >>> m.compute()
    tensor(6., dtype=torch.float64)
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_state("sum_value", torch.zeros((), dtype=torch.float64), reduce="sum")

    def batch_stats(self, value: Value) -> Dict[str, Tensor]:
        value = check_aggregation_input(value)
        total = value.sum(dtype=torch.float64)
        if self.validate_args:
            check_no_nan("value", value, total=total)
        return {"sum_value": total}

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return state["sum_value"]


class MeanMetric(Metric):
    """Running (optionally weighted) mean: ``sum_i w_i x_i / sum_i w_i``, in float64.

    ``update(value, weight=None)``: ``weight`` is a number or a tensor broadcastable to ``value``
    (default 1). With no weight seen the mean is ``nan`` (0/0).

    >>> m = MeanMetric()
    >>> m.update(torch.tensor([1.0, 2.0, 6.0]))
    >>> m.compute()
    tensor(3., dtype=torch.float64)
    >>> m.update(torch.tensor([10.0]), weight=3.0)  # (1 + 2 + 6 + 3 * 10) / (3 + 3)
    >>> m.compute()
    tensor(6.5000, dtype=torch.float64)
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_state("weighted_sum", torch.zeros((), dtype=torch.float64), reduce="sum")
        self.add_state("weight_total", torch.zeros((), dtype=torch.float64), reduce="sum")

    def batch_stats(self, value: Value, weight: Optional[Value] = None) -> Dict[str, Tensor]:
        value = check_aggregation_input(value).to(torch.float64)
        if weight is None:
            w = torch.ones((), dtype=torch.float64, device=value.device).expand(value.shape)
        else:
            w = check_aggregation_input(weight).to(dtype=torch.float64, device=value.device)
            try:
                w = w.expand(value.shape)
            except RuntimeError:
                raise ValueError(
                    f"Expected `weight` to broadcast to the shape of `value` {tuple(value.shape)}, "
                    f"got shape {tuple(w.shape)}"
                ) from None
        weighted_sum, weight_total = (value * w).sum(), w.sum()
        if self.validate_args:
            check_no_nan("value", value, total=weighted_sum)
            check_no_nan("weight", w, total=weight_total)
        return {"weighted_sum": weighted_sum, "weight_total": weight_total}

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return state["weighted_sum"] / state["weight_total"]


class MaxMetric(Metric):
    """Running maximum of every value seen (``-inf`` before any value).

    >>> m = MaxMetric()
    >>> m.update(torch.tensor([1.0, 5.0])); m.update(-2.0)
    >>> m.compute()
    tensor(5., dtype=torch.float64)
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_state("max_value", torch.tensor(-float("inf"), dtype=torch.float64), reduce="max")

    def batch_stats(self, value: Value) -> Dict[str, Tensor]:
        value = check_aggregation_input(value)
        if self.validate_args:
            check_no_nan("value", value)
        if value.numel() == 0:
            return {"max_value": torch.tensor(-float("inf"), dtype=torch.float64, device=value.device)}
        return {"max_value": value.max().to(torch.float64)}

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return state["max_value"]


class MinMetric(Metric):
    """Running minimum of every value seen (``inf`` before any value).

    >>> m = MinMetric()
    >>> m.update(torch.tensor([1.0, 5.0])); m.update(-2.0)
    >>> m.compute()
    tensor(-2., dtype=torch.float64)
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_state("min_value", torch.tensor(float("inf"), dtype=torch.float64), reduce="min")

    def batch_stats(self, value: Value) -> Dict[str, Tensor]:
        value = check_aggregation_input(value)
        if self.validate_args:
            check_no_nan("value", value)
        if value.numel() == 0:
            return {"min_value": torch.tensor(float("inf"), dtype=torch.float64, device=value.device)}
        return {"min_value": value.min().to(torch.float64)}

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return state["min_value"]
