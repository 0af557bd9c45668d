"""Argument checks of the metric wrappers (:mod:`torchmetrics_lite.wrappers`) and of :func:`evaluate`."""
from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence, Sized, Tuple, Union, cast

import torch
from torch import Tensor

from torchmetrics_lite._checks.primitives import check_choice, check_positive_int


def check_wrapped_metric(name: str, metric: Any, metric_class: type) -> None:
    """A wrapper's metric: an instance of ``metric_class`` (the caller's ``Metric``: the checks import nothing of
    the core)."""
    if not isinstance(metric, metric_class):
        raise TypeError(f"Expected `{name}` to be a torchmetrics_lite Metric, got {type(metric).__name__}")


def check_tracked(metric: Any, metric_class: type, collection_class: type) -> Optional[int]:
    """MetricTracker's argument: a Metric (returns None) or a MetricCollection (returns its number of members);
    the classes come from the caller (the checks import nothing of the core)."""
    if isinstance(metric, metric_class):
        return None
    if isinstance(metric, collection_class):
        return len(cast(Sized, metric))
    raise TypeError(f"Expected `metric` to be a Metric or a MetricCollection, got {type(metric).__name__}")


def check_same_running(mine: Any, other: Any) -> None:
    """Two Running metrics merge only with the same window over the same kind of metric."""
    if other.window != mine.window or type(other.metric) is not type(mine.metric):
        raise ValueError(f"Expected `other` to be a Running({type(mine.metric).__name__}, window={mine.window}), "
                         f"got Running({type(other.metric).__name__}, window={other.window})")


def check_bootstrap_values(values: Sequence[Any], metric_name: str) -> None:
    if not all(isinstance(v, Tensor) for v in values):
        raise TypeError(f"Expected {metric_name} to return a tensor to bootstrap, got {type(values[0]).__name__}")


def check_labels_list(labels: Any) -> Optional[List[str]]:
    if labels is None:
        return None
    if not isinstance(labels, (list, tuple)) or not all(isinstance(x, str) for x in labels):
        raise TypeError(f"Expected `labels` to be None or a list of str, got {labels!r}")
    return list(labels)


def check_optional_str(name: str, value: Any) -> None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"Expected `{name}` to be None or a str, got {type(value).__name__}")


def check_classwise_value(value: Any, labels: Optional[Sequence[str]], metric_name: str) -> Tensor:
    """The wrapped metric's result must be one value per class, and as many as ``labels``."""
    if not isinstance(value, Tensor) or value.dim() != 1:
        got = f"shape {tuple(value.shape)}" if isinstance(value, Tensor) else type(value).__name__
        raise ValueError(f"Expected {metric_name} to return a 1-D tensor of per-class values (e.g. average=None), "
                         f"got {got}")
    if labels is not None and len(labels) != value.shape[0]:
        raise ValueError(f"Expected `labels` to name every class: {metric_name} returned {value.shape[0]} values, "
                         f"got {len(labels)} labels")
    return value


def check_maximize(maximize: Any, n_members: Optional[int]) -> Union[bool, List[bool]]:
    """``maximize`` of MetricTracker: a bool, or (for a collection of ``n_members``) a list of bools."""
    if isinstance(maximize, bool):
        return maximize
    if not isinstance(maximize, list) or not all(isinstance(m, bool) for m in maximize):
        raise TypeError(f"Expected `maximize` to be a bool or a list of bool, got {maximize!r}")
    if n_members is None:
        raise ValueError(f"Expected `maximize` to be a single bool when tracking a single Metric, got {maximize!r}")
    if len(maximize) != n_members:
        raise ValueError(f"Expected `maximize` to hold one bool per member of the collection ({n_members}), "
                         f"got {len(maximize)}")
    return maximize


def check_bootstrap_options(num_bootstraps: Any, sampling_strategy: Any, seed: Any,
                            quantile: Any) -> Optional[Tensor]:
    if isinstance(num_bootstraps, bool) or not isinstance(num_bootstraps, int) or num_bootstraps < 2:
        raise ValueError(f"Expected `num_bootstraps` to be an int >= 2 (the std needs two copies), "
                         f"got {num_bootstraps!r}")
    check_choice("sampling_strategy", sampling_strategy, ("poisson", "multinomial"))
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"Expected `seed` to be None or an int, got {type(seed).__name__}")
    if quantile is None:
        return None
    q = torch.as_tensor(quantile, dtype=torch.float64) if isinstance(quantile, (float, int, Tensor)) else None
    if q is None or isinstance(quantile, bool) or q.dim() > 1 or q.isnan().any() or (q < 0).any() or (q > 1).any():
        raise ValueError(f"Expected `quantile` to be None, a float in [0, 1] or a 1-D tensor of them, got {quantile!r}")
    return q


def check_window(window: Any) -> None:
    check_positive_int("window", window)


def resample_size(args: Tuple[Any, ...], kwargs: dict) -> Tuple[int, torch.device]:
    """Rows of the batch BootStrapper resamples: the first dimension of the first tensor argument."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, Tensor) and value.dim() >= 1:
            return value.shape[0], value.device
    raise ValueError("Expected at least one tensor argument with a first (sample) dimension to resample, got none")


def check_max_error_rate(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or not 0 <= value <= 1:
        raise ValueError(f"Expected `max_error_rate` to be a number in [0, 1], got {value!r}")
    return float(value)


def check_scalar_value(value: Any, metric_name: str, wrapper: str) -> Tensor:
    """A wrapper that tracks extremes (``MinMaxMetric``) needs one number from its metric."""
    if not isinstance(value, Tensor) or value.numel() != 1:
        shown = tuple(value.shape) if isinstance(value, Tensor) else type(value).__name__
        raise ValueError(f"Expected {metric_name}'s value to be a single number for {wrapper}, got {shown}")
    return value.reshape(())


def check_output_dim(name: str, args: Tuple[Any, ...], output_dim: int, num_outputs: int) -> None:
    """Every tensor argument of a ``MultioutputWrapper`` update has ``num_outputs`` entries along ``output_dim``."""
    for i, a in enumerate(args):
        if isinstance(a, Tensor) and (a.dim() == 0 or not -a.dim() <= output_dim < a.dim()
                                      or a.shape[output_dim] != num_outputs):
            raise ValueError(f"Expected tensor argument {i} of {name}.update to have {num_outputs} entries "
                             f"(`num_outputs`) along dim {output_dim} (`output_dim`), got shape {tuple(a.shape)}")


def check_task_metrics(task_metrics: Any, classes: Tuple[type, ...]) -> None:
    """``MultitaskWrapper``'s ``task_metrics``: a dict of str to a metric or collection."""
    if not isinstance(task_metrics, dict):
        raise TypeError(f"Expected `task_metrics` to be a dict of task name to metric, "
                        f"got {type(task_metrics).__name__}")
    for task, metric in task_metrics.items():
        if not isinstance(task, str) or not isinstance(metric, classes):
            raise TypeError(f"Expected `task_metrics` to map str to a Metric or MetricCollection, got {task!r}: "
                            f"{type(metric).__name__}")


def check_task_inputs(tasks: Sequence[str], task_preds: Any, task_targets: Any) -> None:
    """Both dicts of a ``MultitaskWrapper`` update have exactly the tasks' keys."""
    for name, given in (("task_preds", task_preds), ("task_targets", task_targets)):
        if not isinstance(given, dict) or set(given) != set(tasks):
            keys = sorted(given) if isinstance(given, dict) else type(given).__name__
            raise ValueError(f"Expected `{name}` to be a dict with the keys {sorted(tasks)} (one per task), got {keys}")
