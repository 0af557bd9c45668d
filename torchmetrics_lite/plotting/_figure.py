"""The figure of a plot: the optional matplotlib import and a new axes on the Agg canvas."""
from __future__ import annotations

from typing import Any, Tuple

__all__ = ["new_axes", "require_matplotlib"]

INSTALL = ("plot() needs matplotlib, an optional dependency: pip install matplotlib (or the package's extra: "
           "pip install 'torchmetrics-lite[plot]')")


def require_matplotlib() -> Any:
    """The ``matplotlib`` module, or an ``ImportError`` naming how to install it."""
    try:
        import matplotlib
    except ImportError as err:
        raise ImportError(INSTALL) from err
    return matplotlib


def new_axes(ax: Any = None, ncols: int = 1) -> Tuple[Any, Any]:
    """``(fig, ax)``: ``ax`` and its figure, or a new figure on the Agg canvas with ``ncols`` axes (an array of
    them when ``ncols > 1``)."""
    require_matplotlib()
    if ax is not None:
        return ax.figure, ax
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4 if ncols == 1 else 3.2 * ncols, 4.4), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, ncols, squeeze=True)
    return fig, axes
