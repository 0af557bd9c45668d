"""Optional plots: reliability diagram, ROC curve, precision-recall curve (needs ``matplotlib``, the ``plot``
extra).

matplotlib is imported inside each function, never by the package. Figures are built on the Agg canvas
directly (``matplotlib.figure.Figure``, not ``pyplot``), so nothing depends on or changes the global backend,
no window opens, and figures are freed with their last reference. Each function returns the figure and, given
``path``, also saves it there (the format follows the file extension).

The curve functions take the curve's points as tensors (``fpr, tpr`` or ``precision, recall``), from any
source, e.g. the ROC / PR curve functions of :mod:`torchmetrics_lite.functional`.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import torch
from torch import Tensor

from torchmetrics_lite._checks import (
    check_binary_prob_inputs,
    check_multiclass_prob_inputs,
    check_ndim,
    check_positive_int,
    check_same_shape,
    check_tensor,
)
from torchmetrics_lite.functional.calibration import _binary_bin_stats, _multiclass_bin_stats

__all__ = ["plot_reliability_diagram", "plot_roc_curve", "plot_precision_recall_curve"]


def _figure(title: Optional[str]) -> Tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4.8, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    if title:
        ax.set_title(title)
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, 1.0 + 1e-3)
    ax.set_aspect("equal")
    ax.grid(alpha=0.3)
    return fig, ax


def _finish(fig: Any, path: Optional[str]) -> Any:
    if path is not None:
        fig.savefig(path)
    return fig


def _curve(name_x: str, x: Any, name_y: str, y: Any) -> Tuple[Any, Any]:
    for name, t in ((name_x, x), (name_y, y)):
        check_tensor(name, t)
        check_ndim(name, t, (1,))
    check_same_shape(name_x, x, name_y, y)
    return x.detach().cpu().double().numpy(), y.detach().cpu().double().numpy()


def plot_reliability_diagram(preds: Tensor, target: Tensor, *, n_bins: int = 15, path: Optional[str] = None,
                             title: Optional[str] = "Reliability diagram") -> Any:
    """Accuracy against confidence per bin, the same bins as the calibration error.

    ``preds`` ``(N,)`` binary probabilities of the positive class (then "accuracy" is the fraction of positives
    and "confidence" the mean predicted probability, as in the binary calibration error) or ``(N, C)``
    multiclass probabilities (top-1 confidence and accuracy); ``target`` ``(N,)``. Bars show each non-empty
    bin's mean accuracy over its interval ``(i/n, (i+1)/n]``, a dot its mean confidence, the diagonal perfect
    calibration; the legend gives the ECE. Returns the figure (saved to ``path`` when given).

    >>> fig = plot_reliability_diagram(torch.tensor([0.1, 0.4, 0.8, 0.9]), torch.tensor([0, 1, 1, 1]), n_bins=5)
    >>> [(ax.get_xlabel(), ax.get_ylabel()) for ax in fig.axes]
    [('mean predicted probability', 'fraction of positives')]
    """
    check_positive_int("n_bins", n_bins)
    check_tensor("preds", preds)
    multiclass = preds.dim() == 2
    if multiclass:
        stats = _multiclass_bin_stats(*check_multiclass_prob_inputs(preds, target), n_bins)
    else:
        stats = _binary_bin_stats(*check_binary_prob_inputs(preds, target), n_bins)
    count = stats["bin_count"].cpu()
    filled = count > 0
    acc = (stats["bin_accuracy"].cpu() / count.clamp_min(1))[filled].numpy()
    conf = (stats["bin_confidence"].cpu() / count.clamp_min(1))[filled].numpy()
    lefts = (torch.arange(n_bins, dtype=torch.float64) / n_bins)[filled].numpy()
    ece = float((stats["bin_accuracy"] - stats["bin_confidence"]).abs().sum() / count.sum().clamp_min(1))
    fig, ax = _figure(title)
    x_label, y_label = ("confidence", "accuracy") if multiclass else ("mean predicted probability",
                                                                       "fraction of positives")
    ax.bar(lefts, acc, width=1.0 / n_bins, align="edge", edgecolor="black", alpha=0.7, label=y_label)
    ax.plot(conf, acc, "o", color="black", markersize=3, label=x_label)
    ax.plot([0, 1], [0, 1], "--", color="gray", label=f"perfect (ECE = {ece:.4f})")
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    ax.legend(loc="upper left")
    return _finish(fig, path)


def plot_roc_curve(fpr: Tensor, tpr: Tensor, *, auc: Optional[float] = None, path: Optional[str] = None,
                   title: Optional[str] = "ROC curve") -> Any:
    """The ROC curve through the points ``(fpr_i, tpr_i)`` (1-D tensors of the same length, in curve order),
    with the chance diagonal; ``auc`` is shown in the legend when given. Returns the figure.

    >>> fig = plot_roc_curve(torch.tensor([0.0, 0.5, 1.0]), torch.tensor([0.0, 0.8, 1.0]), auc=0.65)
    >>> fig.axes[0].get_legend().get_texts()[0].get_text()
    'ROC (AUC = 0.6500)'
    """
    x, y = _curve("fpr", fpr, "tpr", tpr)
    fig, ax = _figure(title)
    ax.plot(x, y, drawstyle="default", label="ROC" if auc is None else f"ROC (AUC = {auc:.4f})")
    ax.plot([0, 1], [0, 1], "--", color="gray", label="chance")
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate")
    ax.legend(loc="lower right")
    return _finish(fig, path)


def plot_precision_recall_curve(precision: Tensor, recall: Tensor, *, average_precision: Optional[float] = None,
                                path: Optional[str] = None, title: Optional[str] = "Precision-recall curve") -> Any:
    """The precision-recall curve through ``(recall_i, precision_i)`` (1-D tensors of the same length), drawn
    as a step function (the interpolation average precision uses); ``average_precision`` is shown in the
    legend when given. Returns the figure.

    >>> fig = plot_precision_recall_curve(torch.tensor([1.0, 0.5, 0.4]), torch.tensor([0.0, 0.5, 1.0]))
    >>> fig.axes[0].get_xlabel()
    'recall'
    """
    y, x = _curve("precision", precision, "recall", recall)
    label = "PR" if average_precision is None else f"PR (AP = {average_precision:.4f})"
    fig, ax = _figure(title)
    ax.step(x, y, where="post", label=label)
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.legend(loc="lower left")
    return _finish(fig, path)
