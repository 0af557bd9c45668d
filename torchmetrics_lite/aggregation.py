"""Aggregation metrics: running sum, mean, max and min of streamed values.

They are the smallest complete metrics (one ``sum``, ``max`` or ``min`` state each) and double as the
demonstration of the base class. Sums accumulate in float64 whatever the input dtype, so a long float32 stream
does not drift; on a device without float64 (Apple MPS) they accumulate in float32, and each update rounds the
running sum to float32 (a relative error of up to 6e-8 per update, growing with the stream). ``higher_is_better``
is ``None`` for all four (they describe data, not quality).

Every class takes the base class's keyword arguments (``validate_args``, ``process_group``,
``sync_on_compute``, ``persistent``; see :class:`~torchmetrics_lite.Metric`). ``update(value)`` takes a number
or a real tensor of any shape; with ``validate_args=True`` a NaN raises ``ValueError`` before any state changes;
a non-tensor raises ``TypeError``, a complex tensor too.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Union

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_aggregation_input, check_no_nan
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.metric import Metric

__all__ = ["SumMetric", "MeanMetric", "MaxMetric", "MinMetric"]

Value = Union[float, Tensor]


class SumMetric(Metric):
    """Running sum of every value seen: ``sum_i x_i``, in float64 (torchmetrics' ``SumMetric``).

    Args:
        **kwargs: the base class's options (``validate_args``, ``process_group``, ``sync_on_compute``,
            ``persistent``).

    Returns:
        ``compute()``: a 0-d float64 tensor; 0 when nothing (or only empty tensors) was seen.

    Raises:
        ValueError: ``value`` holds NaN (with ``validate_args=True``).
        TypeError: ``value`` is neither a number nor a real tensor.

    Examples:
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
        total = value.sum(dtype=float_dtype(value.device))
        if self.validate_args:
            check_no_nan("value", value, total=total)
        return {"sum_value": total}

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return state["sum_value"]


class MeanMetric(Metric):
    """Running (optionally weighted) mean: ``sum_i w_i x_i / sum_i w_i``, in float64 (torchmetrics' ``MeanMetric``).

    ``update(value, weight=None)``: ``weight`` is a number or a tensor broadcastable to ``value`` (default 1; a
    scalar weight applies to every element of the batch, as scikit-learn's ``sample_weight`` repeated).

    Args:
        **kwargs: the base class's options (``validate_args``, ``process_group``, ``sync_on_compute``,
            ``persistent``).

    Returns:
        ``compute()``: a 0-d float64 tensor; ``nan`` (0/0) when no weight was seen.

    Raises:
        ValueError: ``value`` or ``weight`` holds NaN (with ``validate_args=True``), or ``weight`` does not
            broadcast to the shape of ``value``.
        TypeError: ``value`` or ``weight`` is neither a number nor a real tensor.

    Examples:
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
        value = check_aggregation_input(value)
        value = value.to(float_dtype(value.device))
        if weight is None:
            w = torch.ones((), dtype=value.dtype, device=value.device).expand(value.shape)
        else:
            w = check_aggregation_input(weight).to(dtype=value.dtype, device=value.device)
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


class _RunningExtreme(Metric):
    """Running maximum or minimum (a subclass names the reduction, its identity and the state)."""

    _reduce = "max"
    _identity = -float("inf")
    _name = "max_value"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_state(self._name, torch.tensor(self._identity, dtype=torch.float64), reduce=self._reduce)

    def batch_stats(self, value: Value) -> Dict[str, Tensor]:
        value = check_aggregation_input(value)
        if self.validate_args:
            check_no_nan("value", value)
        dtype = float_dtype(value.device)
        if value.numel() == 0:
            return {self._name: torch.tensor(self._identity, dtype=dtype, device=value.device)}
        extreme = value.max() if self._reduce == "max" else value.min()
        return {self._name: extreme.to(dtype)}

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return state[self._name]


class MaxMetric(_RunningExtreme):
    """Running maximum of every value seen (torchmetrics' ``MaxMetric``), as float64.

    Args:
        **kwargs: the base class's options (``validate_args``, ``process_group``, ``sync_on_compute``,
            ``persistent``).

    Returns:
        ``compute()``: a 0-d float64 tensor; ``-inf`` before any value.

    Raises:
        ValueError: ``value`` holds NaN (with ``validate_args=True``).
        TypeError: ``value`` is neither a number nor a real tensor.

    Examples:
        >>> m = MaxMetric()
        >>> m.update(torch.tensor([1.0, 5.0])); m.update(-2.0)
        >>> m.compute()
        tensor(5., dtype=torch.float64)
    """


class MinMetric(_RunningExtreme):
    """Running minimum of every value seen (torchmetrics' ``MinMetric``), as float64; ``inf`` before any value.
    Arguments and errors as :class:`MaxMetric`.

    Examples:
        >>> m = MinMetric()
        >>> m.update(torch.tensor([1.0, 5.0])); m.update(-2.0)
        >>> m.compute()
        tensor(-2., dtype=torch.float64)
    """

    _reduce = "min"
    _identity = float("inf")
    _name = "min_value"
