"""torchmetrics' ``.plot()`` for every module: ``metric.plot(val=None, ax=None)`` returns ``(fig, ax)``.

matplotlib is optional (the ``plot`` extra) and imported on the first plot, never by the package; without it
``plot()`` raises an ``ImportError`` that names ``pip install matplotlib``. A new figure is drawn on the Agg
canvas directly (``matplotlib.figure.Figure``, not ``pyplot``): no backend is touched, no window opens, and the
figure is freed with its last reference (as :mod:`torchmetrics_lite.plot`'s functions).

What is drawn follows the value: a scalar is one marker, a per-class vector or a dict one marker per entry, a
sequence of values (e.g. the ``forward`` values of several steps) a line over the steps (one per class or key);
the curve metrics (ROC, precision-recall, retrieval precision-recall) draw the curve (one line per class or label,
``score=True`` adds the area to the legend); the confusion matrices a heat map with the counts written in.
"""
from torchmetrics_lite.plotting._figure import require_matplotlib
from torchmetrics_lite.plotting.confusion import plot_confusion_matrix
from torchmetrics_lite.plotting.curves import plot_curve
from torchmetrics_lite.plotting.dispatch import plot_metric
from torchmetrics_lite.plotting.values import plot_values

__all__ = ["plot_confusion_matrix", "plot_curve", "plot_metric", "plot_values", "require_matplotlib"]
