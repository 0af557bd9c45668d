"""A curve metric's curve (torchmetrics' ``plot_curve``): ROC, precision-recall, retrieval precision-recall."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import torch
from torch import Tensor

from torchmetrics_lite.plotting._figure import new_axes

__all__ = ["plot_curve"]


def _lines(x: Any, y: Any) -> List[Tuple[Tensor, Tensor]]:
    """``(x, y)`` per line: 1-D tensors (one line), ``(K, T)`` tensors or lists of 1-D tensors (one per class)."""
    if isinstance(x, Tensor) and x.dim() == 1:
        return [(x, y)]
    if isinstance(x, Tensor) and x.dim() != 2:
        raise ValueError(f"Expected the curve's points as 1-D or (K, T) tensors or lists of 1-D tensors, got "
                         f"shape {tuple(x.shape)}")
    return [(xk, yk) for xk, yk in zip(x, y)]


def plot_curve(curve: Sequence[Any], ax: Any = None, *, labels: Tuple[str, str] = ("x", "y"),
               swap: bool = False, score: Optional[Any] = None, name: Optional[str] = None,
               legend: Optional[Sequence[str]] = None) -> Tuple[Any, Any]:
    """Plot a curve ``(a, b, ...)`` as returned by a curve metric: ``b`` against ``a`` (``swap``: ``a`` against
    ``b``, for ``(precision, recall, thresholds)``), one line per class or label.

    Args:
        curve: the curve metric's value: 1-D tensors, ``(K, T)`` tensors or lists of 1-D tensors.
        ax: a matplotlib ``Axes`` to draw into; ``None`` makes a new figure.
        labels: the x and y axis labels.
        swap: plot the first entry on the y axis.
        score: ``True`` adds each line's area (the trapezoid under it) to its legend entry; a tensor gives the
            scores (one per line) to show.
        name: the title.
        legend: the line names (default ``class k`` for several lines).

    Returns:
        ``(fig, ax)``.

    Raises:
        ValueError: points that are neither 1-D nor ``(K, T)`` nor lists.
        ImportError: matplotlib is not installed.

    Examples:
        >>> fig, ax = plot_curve((torch.tensor([0.0, 0.5, 1.0]), torch.tensor([0.0, 1.0, 1.0])), score=True,
        ...                      labels=("False positive rate", "True positive rate"))
        >>> [t.get_text() for t in ax.get_legend().get_texts()]
        ['AUC=0.750']
    """
    x, y = (curve[1], curve[0]) if swap else (curve[0], curve[1])
    lines = _lines(x, y)
    scores: List[Optional[float]] = [None] * len(lines)
    if score is True:
        scores = [abs(float(torch.trapezoid(yk.double(), xk.double()))) for xk, yk in lines]
    elif isinstance(score, Tensor):
        scores = [float(v) for v in score.reshape(-1)] if score.numel() == len(lines) else [float(score.mean())]
    fig, ax = new_axes(ax)
    for k, ((xk, yk), s) in enumerate(zip(lines, scores)):
        label = (legend[k] if legend is not None else f"class {k}") if len(lines) > 1 else None
        if s is not None:
            label = f"AUC={s:.3f}" if label is None else f"{label} AUC={s:.3f}"
        ax.plot(xk.detach().cpu().double().numpy(), yk.detach().cpu().double().numpy(), linestyle="-",
                label=label)
    ax.set(xlabel=labels[0], ylabel=labels[1])
    if name:
        ax.set_title(name)
    ax.grid(alpha=0.3)
    if any(line.get_label() and not line.get_label().startswith("_") for line in ax.lines):
        ax.legend(loc="best", fontsize="small")
    return fig, ax
