"""``MultioutputWrapper``: one copy of a single-output metric per output column."""
from __future__ import annotations

import copy
from typing import Any, Dict, List, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import check_bool, check_positive_int
from torchmetrics_lite._checks.wrappers import check_output_dim, check_wrapped_metric
from torchmetrics_lite.metric import Metric
from torchmetrics_lite.wrappers._stacked import declare_stacked, split_copies, stack_copies, state_spec

__all__ = ["MultioutputWrapper"]


class MultioutputWrapper(Metric):
    """A single-output metric evaluated on each of ``num_outputs`` outputs: output ``i`` of every tensor argument
    (index ``i`` along ``output_dim``) goes to copy ``i``, and ``compute()`` stacks the copies' values.

    The copies are stacked states (one row per output, the wrapped metric's reductions), so streaming,
    ``merge_state`` and a sync are exactly the wrapped metric's on each output. With ``remove_nans`` the rows
    (along dim 0) where any argument of output ``i`` is NaN are dropped from copy ``i`` (one host sync per
    output).

    Args:
        base_metric: the metric of one output (torchmetrics' name).
        num_outputs: the number of outputs.
        output_dim: the dimension of the outputs in every tensor argument (default: the last).
        remove_nans: drop, per output, the rows where some argument is NaN.
        squeeze_outputs: remove the output dimension from each output's arguments (``(N, d)`` becomes ``(N,)``).
        kwargs: :class:`~torchmetrics_lite.Metric`'s options (default: the wrapped metric's ``validate_args``).

    Returns:
        ``compute()`` and ``forward``: the ``num_outputs`` values stacked along a new first dimension.

    Raises:
        TypeError: ``base_metric`` is not a Metric, ``remove_nans`` or ``squeeze_outputs`` not a bool.
        ValueError: ``num_outputs`` is not a positive int; an update whose tensor argument has not
            ``num_outputs`` entries along ``output_dim``; bad per-output batches as the wrapped metric (the state
            left unchanged).

    References:
        ``torchmetrics.wrappers.MultioutputWrapper`` (same arguments).

    Examples:
        >>> import torch
        >>> from torchmetrics_lite import R2Score
        >>> r2 = MultioutputWrapper(R2Score(), num_outputs=2)
        >>> preds = torch.tensor([[1.0, 2.0], [2.0, 2.5], [3.0, 5.0]])
        >>> target = torch.tensor([[1.0, 2.0], [2.0, 3.0], [3.0, 4.0]])
        >>> r2.update(preds, target)
        >>> r2.compute()
        tensor([1.0000, 0.3750], dtype=torch.float64)
    """

    def __init__(self, base_metric: Metric, num_outputs: int, output_dim: int = -1, remove_nans: bool = True,
                 squeeze_outputs: bool = True, **kwargs: Any) -> None:
        check_wrapped_metric("base_metric", base_metric, Metric)
        check_positive_int("num_outputs", num_outputs)
        if isinstance(output_dim, bool) or not isinstance(output_dim, int):
            raise TypeError(f"Expected `output_dim` to be an int, got {type(output_dim).__name__}")
        check_bool("remove_nans", remove_nans)
        check_bool("squeeze_outputs", squeeze_outputs)
        kwargs.setdefault("validate_args", base_metric.validate_args)
        super().__init__(**kwargs)
        base = copy.deepcopy(base_metric)
        base.reset()
        self.base_metric = base
        self.higher_is_better = getattr(base, "higher_is_better", None)  # type: ignore[misc]
        self.num_outputs, self.output_dim = num_outputs, output_dim
        self.remove_nans, self.squeeze_outputs = remove_nans, squeeze_outputs
        self._spec = state_spec(base)
        declare_stacked(self, self._spec, num_outputs)

    def _output(self, i: int, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Tuple[List[Any], Dict[str, Any]]:
        names = list(kwargs)
        values = [self._select(v, i) for v in (*args, *kwargs.values())]
        if self.remove_nans:
            tensors = [v for v in values if isinstance(v, Tensor) and v.dim() >= 1 and v.is_floating_point()]
            if tensors:
                bad = torch.zeros(tensors[0].shape[0], dtype=torch.bool, device=tensors[0].device)
                for t in tensors:
                    bad |= torch.isnan(t).flatten(1).any(1) if t.dim() > 1 else torch.isnan(t)
                keep = ~bad
                values = [v[keep] if isinstance(v, Tensor) and v.dim() >= 1 else v for v in values]
        return values[:len(args)], dict(zip(names, values[len(args):]))

    def _select(self, value: Any, i: int) -> Any:
        if not isinstance(value, Tensor):
            return value
        index = torch.tensor([i], device=value.device)
        picked = value.index_select(self.output_dim, index)
        return picked.squeeze(self.output_dim) if self.squeeze_outputs else picked

    def batch_stats(self, *args: Any, **kwargs: Any) -> Dict[str, Tensor]:
        """Each output's statistics (the wrapped metric's checks on each), stacked."""
        check_output_dim("MultioutputWrapper", (*args, *kwargs.values()), self.output_dim, self.num_outputs)
        per_output = []
        for i in range(self.num_outputs):
            a, kw = self._output(i, args, kwargs)
            per_output.append(self.base_metric.settled_stats(self.base_metric.batch_stats(*a, **kw)))
        return stack_copies(self._spec, per_output)

    def compute_from_stats(self, state: Dict[str, Tensor]) -> Tensor:
        """The wrapped metric's value of each output, stacked."""
        parts = split_copies(self._spec, state, self.num_outputs)
        return torch.stack([torch.as_tensor(self.base_metric.compute_from_stats(s)) for s in parts])
