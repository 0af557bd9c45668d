"""Aggregation metrics: running sum, mean, max and min of streamed values.

They are the smallest complete metrics (one ``sum``, ``max`` or ``min`` state each) and double as the
demonstration of the base class. Sums accumulate in float64 whatever the input dtype, so a long float32 stream
does not drift; on a device without float64 (Apple MPS) they accumulate in float32, and each update rounds the
running sum to float32 (a relative error of up to 6e-8 per update, growing with the stream). ``higher_is_better``
is ``None`` for all four (they describe data, not quality).

Every class takes the base class's keyword arguments (``validate_args``, ``process_group``,
``sync_on_compute``, ``persistent``; see :class:`~torchmetrics_lite.Metric`) and torchmetrics' ``nan_strategy``:

* ``"error"`` (the default here; torchmetrics' is ``"warn"``): a NaN raises a ``ValueError`` (also a
  ``RuntimeError``, as torchmetrics raises) before any state changes, with ``validate_args=True`` (one host sync);
* ``"warn"`` / ``"ignore"``: values that are NaN (or whose weight is) are left out, with a warning for ``"warn"``
  (with ``validate_args=True``; without it they are left out silently and no host sync is made);
* a float: NaN values are replaced by it (with weight 1);
* ``"disable"``: no check; a NaN propagates into the result.

``update(value)`` takes a number or a real tensor of any shape; a non-tensor raises ``TypeError``, a complex
tensor too. :class:`CatMetric` keeps the values themselves; :class:`RunningMean` and :class:`RunningSum` are the
mean and sum over the last ``window`` updates (torchmetrics' ``window`` semantics, through
:class:`~torchmetrics_lite.wrappers.Running`).
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Union, cast

import torch
from torch import Tensor

from torchmetrics_lite import _lazy
from torchmetrics_lite._checks import (
    apply_nan_strategy,
    check_aggregation_input,
    check_cat_input,
    check_nan_strategy,
)
from torchmetrics_lite._dtype import float_dtype
from torchmetrics_lite.metric import Metric
from torchmetrics_lite.wrappers.running import Running

__all__ = ["SumMetric", "MeanMetric", "MaxMetric", "MinMetric", "CatMetric", "RunningMean", "RunningSum"]

Value = Union[float, Tensor]
NaNStrategy = Union[str, float]

def _checked(nan_strategy: NaNStrategy) -> NaNStrategy:
    check_nan_strategy(nan_strategy)
    return nan_strategy


class SumMetric(Metric):
    """Running sum of every value seen: ``sum_i x_i``, in float64 (torchmetrics' ``SumMetric``).

    Args:
        nan_strategy: ``"error"`` (default), ``"warn"``, ``"ignore"``, ``"disable"`` or a float (see the module
            docstring).
        **kwargs: the base class's options (``validate_args``, ``process_group``, ``sync_on_compute``,
            ``persistent``).

    Returns:
        ``compute()``: a 0-d float64 tensor; 0 when nothing (or only empty tensors) was seen.

    Raises:
        ValueError: ``value`` holds NaN (``nan_strategy="error"``, ``validate_args=True``).
        TypeError: ``value`` is neither a number nor a real tensor.

    Examples:
        >>> m = SumMetric()
        >>> m.update(torch.tensor([1.0, 2.0]))
        >>> m.update(3)
        >>> m.compute()
        tensor(6., dtype=torch.float64)
    """

    def __init__(self, nan_strategy: NaNStrategy = "error", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.nan_strategy = _checked(nan_strategy)
        self.add_state("sum_value", torch.zeros((), dtype=torch.float64), reduce="sum")

    def batch_stats(self, value: Value) -> Dict[str, Tensor]:
        value = check_aggregation_input(value)
        total = value.sum(dtype=float_dtype(value.device))
        clean, _ = apply_nan_strategy(type(self).__name__, self.nan_strategy, value, None, neutral=0.0,
                                      validate_args=self.validate_args, total=total)
        if clean is not value:
            total = clean.sum(dtype=float_dtype(value.device))
        return {"sum_value": total}

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return state["sum_value"]


class MeanMetric(Metric):
    """Running (optionally weighted) mean: ``sum_i w_i x_i / sum_i w_i``, in float64 (torchmetrics' ``MeanMetric``).

    ``update(value, weight=None)``: ``weight`` is a number or a tensor broadcastable to ``value`` (default 1; a
    scalar weight applies to every element of the batch, as scikit-learn's ``sample_weight`` repeated).

    Args:
        nan_strategy: ``"error"`` (default), ``"warn"``, ``"ignore"``, ``"disable"`` or a float (see the module
            docstring).
        **kwargs: the base class's options (``validate_args``, ``process_group``, ``sync_on_compute``,
            ``persistent``).

    Returns:
        ``compute()``: a 0-d float64 tensor; ``nan`` (0/0) when no weight was seen.

    Raises:
        ValueError: ``value`` or ``weight`` holds NaN (``nan_strategy="error"``, ``validate_args=True``), or
            ``weight`` does not broadcast to the shape of ``value``.
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

    def __init__(self, nan_strategy: NaNStrategy = "error", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.nan_strategy = _checked(nan_strategy)
        self.add_state("weighted_sum", torch.zeros((), dtype=torch.float64), reduce="sum")
        self.add_state("weight_total", torch.zeros((), dtype=torch.float64), reduce="sum")

    def batch_stats(self, value: Value, weight: Optional[Value] = None) -> Dict[str, Tensor]:
        value = check_aggregation_input(value)
        value = value.to(float_dtype(value.device))
        if weight is None and value.is_contiguous() and value.numel() <= 2**24:
            # unweighted: the same sums as with unit weights (x * 1 is x; n ones add up to n exactly), one pass
            weighted_sum = value.sum()
            kept_value, kept = apply_nan_strategy(type(self).__name__, self.nan_strategy, value, None, neutral=0.0,
                                                  validate_args=self.validate_args, total=weighted_sum)
            if kept is None:
                return {"weighted_sum": weighted_sum,
                        "weight_total": torch.full((), value.numel(), dtype=value.dtype, device=value.device)}
            return {"weighted_sum": (kept_value * kept).sum(), "weight_total": kept.sum()}  # NaNs left out
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
        total = (value * w).sum() + w.sum()  # NaN if any value or weight is
        value, kept = apply_nan_strategy(type(self).__name__, self.nan_strategy, value, w, neutral=0.0,
                                         validate_args=self.validate_args, total=total)
        w = cast(Tensor, kept)
        return {"weighted_sum": (value * w).sum(), "weight_total": w.sum()}

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return state["weighted_sum"] / state["weight_total"]


class _RunningExtreme(Metric):
    """Running maximum or minimum (a subclass names the reduction, its identity and the state)."""

    _reduce = "max"
    _identity = -float("inf")
    _name = "max_value"

    def __init__(self, nan_strategy: NaNStrategy = "error", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.nan_strategy = _checked(nan_strategy)
        self.add_state(self._name, torch.tensor(self._identity, dtype=torch.float64), reduce=self._reduce)

    def batch_stats(self, value: Value) -> Dict[str, Tensor]:
        value = check_aggregation_input(value)
        probe = None  # the extreme itself is the NaN probe (torch's max and min propagate NaN): one reduction
        if value.numel() and self.validate_args and value.is_floating_point() and \
                self.nan_strategy in ("error", "warn"):
            probe = value.max() if self._reduce == "max" else value.min()
        kept, _ = apply_nan_strategy(type(self).__name__, self.nan_strategy, value, None, neutral=self._identity,
                                     validate_args=self.validate_args, total=probe)
        dtype = float_dtype(value.device)
        if value.numel() == 0:
            return {self._name: torch.tensor(self._identity, dtype=dtype, device=value.device)}
        if probe is not None and kept is value:
            return {self._name: probe.to(dtype=dtype)}  # by keyword: cheaper to parse
        extreme = kept.max() if self._reduce == "max" else kept.min()
        return {self._name: extreme.to(dtype=dtype)}

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return state[self._name]


class MaxMetric(_RunningExtreme):
    """Running maximum of every value seen (torchmetrics' ``MaxMetric``), as float64.

    Args:
        nan_strategy: ``"error"`` (default), ``"warn"``, ``"ignore"``, ``"disable"`` or a float (see the module
            docstring).
        **kwargs: the base class's options (``validate_args``, ``process_group``, ``sync_on_compute``,
            ``persistent``).

    Returns:
        ``compute()``: a 0-d float64 tensor; ``-inf`` before any value.

    Raises:
        ValueError: ``value`` holds NaN (``nan_strategy="error"``, ``validate_args=True``).
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


class CatMetric(Metric):
    """Every value seen, concatenated (torchmetrics' ``CatMetric``), as float64.

    ``update(value)``: a number or a 0-d or 1-D real tensor; NaN values follow ``nan_strategy`` (``"warn"`` and
    ``"ignore"`` drop them). The values are kept in a growable ``cat`` state (gathered across ranks in rank order).

    Args:
        nan_strategy: ``"error"`` (default), ``"warn"``, ``"ignore"``, ``"disable"`` or a float (see the module
            docstring).
        **kwargs: the base class's options (``validate_args``, ``process_group``, ``sync_on_compute``,
            ``persistent``).

    Returns:
        ``compute()``: a 1-D float64 tensor of every value in update order (rank order across ranks); empty (shape
        ``(0,)``) before any value (torchmetrics returns an empty list there).

    Raises:
        ValueError: ``value`` has more than one dimension (torchmetrics concatenates along dimension 0 and keeps
            the others: pass ``value.reshape(-1)`` and reshape the result), or holds NaN
            (``nan_strategy="error"``, ``validate_args=True``).
        TypeError: ``value`` is neither a number nor a real tensor.

    Examples:
        >>> m = CatMetric()
        >>> m.update(torch.tensor([1.0, 2.0]))
        >>> m.update(3)
        >>> m.compute()
        tensor([1., 2., 3.], dtype=torch.float64)
    """

    def __init__(self, nan_strategy: NaNStrategy = "error", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.nan_strategy = _checked(nan_strategy)
        self.add_state("value", torch.zeros((0,), dtype=torch.float64), reduce="cat")

    def batch_stats(self, value: Value) -> Dict[str, Tensor]:
        value = check_cat_input(check_aggregation_input(value))
        value = value.reshape(-1).to(float_dtype(value.device))
        kept, weight = apply_nan_strategy(type(self).__name__, self.nan_strategy, value, None, neutral=0.0,
                                          validate_args=self.validate_args, total=self._clean_probe(value))
        if weight is not None and self.nan_strategy in ("warn", "ignore"):
            kept = kept[weight != 0]  # dropped values leave the sequence (a host sync, as any cat of a filtered batch)
        return {"value": kept}

    def _clean_probe(self, value: Tensor) -> Optional[Tensor]:
        """The sum of ``value`` when its NaN check runs (one scalar read in the clean case), else ``None``."""
        return value.sum() if self.validate_args and self.nan_strategy in ("error", "warn") else None

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        return state["value"]


class RunningMean(Running):
    """The mean of the values of the last ``window`` updates (torchmetrics' ``RunningMean``): a
    :class:`~torchmetrics_lite.wrappers.Running` window over :class:`MeanMetric`.

    Args:
        window: how many of the most recent updates the mean covers (default 5).
        nan_strategy: as :class:`MeanMetric`'s.
        **kwargs: ``validate_args`` and ``persistent`` (of the mean), ``process_group`` and ``sync_on_compute``.

    Returns:
        ``compute()``: a 0-d float64 tensor (``nan`` before any value); ``forward`` returns the batch's mean.

    Raises:
        ValueError: ``window`` is not a positive int, or an unknown ``nan_strategy``.

    Examples:
        >>> m = RunningMean(window=3)
        >>> [m(torch.tensor([float(i)])).item() for i in range(5)]  # forward: the batch value
        [0.0, 1.0, 2.0, 3.0, 4.0]
        >>> m.compute()  # (2 + 3 + 4) / 3
        tensor(3., dtype=torch.float64)
    """

    not_offered = ("metric",)

    def __init__(self, window: int = 5, nan_strategy: NaNStrategy = "error", **kwargs: Any) -> None:
        super().__init__(**_running_args(MeanMetric, window, _checked(nan_strategy), kwargs))
        self.nan_strategy = nan_strategy


def _running_args(base: type, window: int, nan_strategy: NaNStrategy, kwargs: Dict[str, Any]) -> Dict[str, Any]:
    """``Running``'s arguments for a window over ``base``: the input options go to the wrapped metric."""
    own = {k: kwargs.pop(k) for k in ("validate_args", "persistent") if k in kwargs}
    return {"metric": base(nan_strategy=nan_strategy, **own), "window": window, **kwargs}


class RunningSum(Running):
    """The sum of the values of the last ``window`` updates (torchmetrics' ``RunningSum``): a
    :class:`~torchmetrics_lite.wrappers.Running` window over :class:`SumMetric`. Arguments as
    :class:`RunningMean`.

    Examples:
        >>> m = RunningSum(window=2)
        >>> for i in range(4):
        ...     m.update(torch.tensor([float(i), 1.0]))
        >>> m.compute()  # (2 + 1) + (3 + 1)
        tensor(7., dtype=torch.float64)
    """

    not_offered = ("metric",)

    def __init__(self, window: int = 5, nan_strategy: NaNStrategy = "error", **kwargs: Any) -> None:
        super().__init__(**_running_args(SumMetric, window, _checked(nan_strategy), kwargs))
        self.nan_strategy = nan_strategy


# Running is importable from here too, as in torchmetrics; a name this library lacks: the error names the nearest
__getattr__ = _lazy.missing(__name__, globals())
