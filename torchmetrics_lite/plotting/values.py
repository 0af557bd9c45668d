"""A metric's value, or a sequence of them, as markers or lines (torchmetrics' ``plot_single_or_multi_val``)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite.plotting._figure import new_axes

__all__ = ["plot_values"]


def _as_tensor(value: Any) -> Tensor:
    """A value as a float tensor: tensors and numbers as given, a tuple by its first entry (an operating
    point's value, a test's statistic)."""
    if isinstance(value, tuple) and value:
        value = value[0]
    if isinstance(value, Tensor):
        return value.detach().cpu().double()
    if isinstance(value, (int, float)):
        return torch.tensor(float(value), dtype=torch.float64)
    raise TypeError(f"Expected a metric value (a tensor, a number, a dict or a tuple of them) to plot, "
                    f"got {type(value).__name__}")


def _series(values: Dict[str, Tensor]) -> Dict[str, Tensor]:
    """Named 1-D series: a vector ``(K,)`` entry becomes ``K`` entries ``name_k``."""
    out: Dict[str, Tensor] = {}
    for name, v in values.items():
        flat = v.reshape(-1) if v.dim() else v.reshape(1)
        if flat.numel() == 1:
            out[name] = flat
        else:
            out.update((f"{name}_{k}" if name else str(k), flat[k:k + 1]) for k in range(flat.numel()))
    return out


def _entries(value: Any) -> Dict[str, Tensor]:
    if isinstance(value, dict):
        return _series({str(k): _as_tensor(v) for k, v in value.items()})
    return _series({"": _as_tensor(value)})


def plot_values(val: Any, ax: Any = None, *, name: Optional[str] = None, higher_is_better: Optional[bool] = None,
                bounds: Tuple[Optional[float], Optional[float]] = (None, None)) -> Tuple[Any, Any]:
    """Plot one value (a scalar: one marker; a vector or a dict: one marker per entry) or a sequence of values
    (a line over the steps, one per entry).

    Args:
        val: a value as ``compute()``/``forward`` return it (a tensor, a number, a dict of them, a tuple whose
            first entry is plotted: an operating point's value, a test's statistic), or a list of such values, one
            per step.
        ax: a matplotlib ``Axes`` to draw into; ``None`` makes a new figure.
        name: the title (the metric's class name).
        higher_is_better: shown in the title when known.
        bounds: ``(lower, upper)`` y-limits (``None``: matplotlib's).

    Returns:
        ``(fig, ax)``.

    Raises:
        TypeError: a value that is not a tensor, a number, a dict or a tuple of them.
        ImportError: matplotlib is not installed.

    Examples:
        >>> fig, ax = plot_values([torch.tensor(0.5), torch.tensor(0.75)], name="BinaryAccuracy")
        >>> ax.get_xlabel(), [[float(y) for y in line.get_ydata()] for line in ax.lines]
        ('step', [[0.5, 0.75]])
    """
    fig, ax = new_axes(ax)
    if isinstance(val, list):
        per_step: List[Dict[str, Tensor]] = [_entries(v) for v in val]
        for key in per_step[0]:
            ys = [float(step[key]) for step in per_step if key in step]
            ax.plot(range(len(ys)), ys, marker="o", label=key or name)
        ax.set_xlabel("step")
        ax.set_xticks(range(len(per_step)))
    else:
        entries = _entries(val)
        for i, (key, v) in enumerate(entries.items()):
            ax.plot([i], [float(v)], marker="o", markersize=10, linestyle="", label=key or name)
        ax.set_xticks(range(len(entries)), [k for k in entries] if len(entries) > 1 else [""])
    _decorate(ax, name, higher_is_better, bounds, legend=len(ax.lines) > 1)
    return fig, ax


def _decorate(ax: Any, name: Optional[str], higher_is_better: Optional[bool],
              bounds: Tuple[Optional[float], Optional[float]], legend: bool) -> None:
    if name:
        better = "" if higher_is_better is None else (" (higher is better)" if higher_is_better
                                                      else " (lower is better)")
        ax.set_title(name + better)
    lo, hi = bounds
    if lo is not None or hi is not None:
        ax.set_ylim(lo, hi)
    ax.grid(alpha=0.3)
    if legend:
        ax.legend(loc="best", fontsize="small")
