"""A confusion matrix as a heat map with the counts written in (torchmetrics' ``plot_confusion_matrix``)."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import torch  # noqa: F401 (the doctests)
from torch import Tensor

from torchmetrics_lite.plotting._figure import new_axes

__all__ = ["plot_confusion_matrix"]


def plot_confusion_matrix(confmat: Tensor, ax: Any = None, *, add_text: bool = True,
                          labels: Optional[Sequence[Any]] = None, cmap: Any = None,
                          name: Optional[str] = None) -> Tuple[Any, Any]:
    """Plot a ``(C, C)`` confusion matrix (rows: target, columns: prediction) or ``(L, 2, 2)`` per-label
    matrices (one axes per label).

    Args:
        confmat: the matrix (counts or normalised rates).
        ax: a matplotlib ``Axes`` to draw into (a single matrix only); ``None`` makes a new figure.
        add_text: write each cell's value in it.
        labels: the class names (default ``0..C-1``).
        cmap: a matplotlib colormap (name or object).
        name: the title.

    Returns:
        ``(fig, ax)``; ``ax`` is an array of axes for ``(L, 2, 2)`` input.

    Raises:
        ValueError: not a square matrix nor ``(L, 2, 2)``, or ``labels`` of another length, or ``ax`` with
            ``(L, 2, 2)`` input.
        ImportError: matplotlib is not installed.

    Examples:
        >>> fig, ax = plot_confusion_matrix(torch.tensor([[3, 1], [0, 2]]))
        >>> [t.get_text() for t in ax.texts]
        ['3', '1', '0', '2']
    """
    cm = confmat.detach().cpu()
    if cm.dim() == 3 and cm.shape[1:] == (2, 2):
        if ax is not None:
            raise ValueError(f"Expected no `ax` for per-label matrices {tuple(cm.shape)} (one axes each)")
        fig, axes = new_axes(None, ncols=cm.shape[0])
        axes_list: List[Any] = list(axes) if cm.shape[0] > 1 else [axes]
        for k, a in enumerate(axes_list):
            _heat_map(a, cm[k], add_text, None, cmap, f"label {k}" if labels is None else str(labels[k]))
        if name:
            fig.suptitle(name)
        return fig, axes
    if cm.dim() != 2 or cm.shape[0] != cm.shape[1]:
        raise ValueError(f"Expected a square confusion matrix or (L, 2, 2) matrices, got shape {tuple(cm.shape)}")
    if labels is not None and len(labels) != cm.shape[0]:
        raise ValueError(f"Expected `labels` to name the {cm.shape[0]} classes, got {len(labels)}")
    fig, ax = new_axes(ax)
    _heat_map(ax, cm, add_text, labels, cmap, name)
    return fig, ax


def _heat_map(ax: Any, cm: Tensor, add_text: bool, labels: Optional[Sequence[Any]], cmap: Any,
              title: Optional[str]) -> None:
    n = cm.shape[0]
    values = cm.double().numpy()
    ax.imshow(values, cmap=cmap)
    ticks = [str(v) for v in (labels if labels is not None else range(n))]
    ax.set_xticks(range(n), ticks)
    ax.set_yticks(range(n), ticks)
    ax.set(xlabel="predicted class", ylabel="true class")
    if title:
        ax.set_title(title)
    if add_text:
        integral = not cm.is_floating_point()
        middle = (values.max() + values.min()) / 2
        for i in range(n):
            for j in range(n):
                text = str(int(values[i, j])) if integral else f"{values[i, j]:.2f}"
                ax.text(j, i, text, ha="center", va="center", color="white" if values[i, j] < middle else "black")
