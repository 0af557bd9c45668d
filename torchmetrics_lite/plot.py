"""Optional plots: reliability diagram, ROC curve, precision-recall curve (needs ``matplotlib``, the ``plot``
extra).

matplotlib is imported inside each function, never by the package. Without ``ax``, a function builds a new
figure on the Agg canvas directly (``matplotlib.figure.Figure``, not ``pyplot``), so nothing depends on or
changes the global backend, no window opens, and figures are freed with their last reference. Every function
takes ``ax=`` (a matplotlib ``Axes``) to draw into an existing plot, so several models overlay on one axes (the
chance or perfect-calibration line is drawn once per axes), and returns the axes (``ax.figure`` is the figure);
given ``path``, it also saves the figure there (the format follows the file extension; :func:`save` does the
same for an overlay built over several calls).

Layout, as scikit-learn's displays: both axes span [-0.01, 1.01] with equal aspect, so a curve along the
border (a perfect ROC, the precision-1 start of a PR curve) stays visible; the legend sits outside the axes,
to the right, where it never covers data.

Every module's torchmetrics-style ``metric.plot(val=None, ax=None)`` (returning ``(fig, ax)``) draws through
:func:`plot_values`, :func:`plot_curve` and :func:`plot_confusion_matrix` (:mod:`torchmetrics_lite.plotting`).

The curve functions take the curve's points as tensors (``fpr, tpr`` or ``precision, recall``), from any
source, e.g. :func:`~torchmetrics_lite.functional.binary_roc` and
:func:`~torchmetrics_lite.functional.binary_precision_recall_curve`.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

from torch import Tensor

from torchmetrics_lite._checks import (
    check_binary_prob_inputs,
    check_multiclass_prob_inputs,
    check_ndim,
    check_number,
    check_positive_int,
    check_same_shape,
    check_tensor,
)
from torchmetrics_lite.functional.calibration import _binary_bin_stats, _multiclass_bin_stats
from torchmetrics_lite.plotting import plot_confusion_matrix, plot_curve, plot_values  # every module's .plot()

__all__ = ["plot_reliability_diagram", "plot_roc_curve", "plot_precision_recall_curve", "save",
           "plot_values", "plot_curve", "plot_confusion_matrix"]

#: axis limits of every plot (scikit-learn's displays use the same padding)
LIMITS = (-0.01, 1.01)
#: ``gid`` of the reference line (chance, perfect calibration) drawn once per axes
REFERENCE_GID = "torchmetrics_lite.reference"
#: ``gid`` of a model's line on a reliability diagram, and of its per-bin count annotations
MODEL_GID, COUNT_GID = "torchmetrics_lite.reliability", "torchmetrics_lite.bin_count"


def _axes(ax: Any, title: Optional[str], x_label: str, y_label: str) -> Any:
    """``ax``, or the axes of a new figure; limits, labels and title set."""
    if ax is None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=(6.4, 4.4), layout="constrained")
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        ax.grid(alpha=0.3)
    if title:
        ax.set_title(title)
    ax.set(xlim=LIMITS, ylim=LIMITS, xlabel=x_label, ylabel=y_label, aspect="equal")
    return ax


def _reference(ax: Any, x: Any, y: Any, label: str, **style: Any) -> None:
    """The reference line, unless this axes already has one."""
    if not any(line.get_gid() == REFERENCE_GID for line in ax.lines):
        ax.plot(x, y, gid=REFERENCE_GID, label=label, **style)


def _finish(ax: Any, path: Optional[str], legend_title: Optional[str] = None) -> Any:
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small",
              title=legend_title, title_fontsize="small")
    if path is not None:
        save(ax, path)
    return ax


def save(ax: Any, path: str) -> None:
    """Save ``ax``'s figure to ``path``, its bounding box fitted to everything drawn (the legend outside the
    axes included)."""
    ax.figure.savefig(path, bbox_inches="tight")


def _curve(name_x: str, x: Any, name_y: str, y: Any) -> Tuple[Any, Any]:
    for name, t in ((name_x, x), (name_y, y)):
        check_tensor(name, t)
        check_ndim(name, t, (1,))
    check_same_shape(name_x, x, name_y, y)
    return x.detach().cpu().double().numpy(), y.detach().cpu().double().numpy()


def _with_value(label: Optional[str], default: str, name: str, value: Optional[float]) -> str:
    text = label if label is not None else default
    return text if value is None else f"{text} ({name} = {value:.4f})"


def _count_spots(border: str) -> list:
    """Candidate offsets (points) and alignments for a count beside its marker, nearest first: above, below,
    beside, diagonal, then above and below on rows 9 points apart."""
    ha = {"left": "left", "right": "right"}.get(border, "center")
    near = [((0, 4), ha, "bottom"), ((0, -4), ha, "top")]
    near += [((dx, dy), "left" if dx > 0 else "right", "center" if dy == 0 else "bottom" if dy > 0 else "top")
             for dx, dy in ((6, 0), (-6, 0), (6, 6), (-6, 6), (6, -6), (-6, -6))]
    return near + [((0, side * (4 + 9 * row)), ha, "bottom" if side > 0 else "top")
                   for row in range(1, 8) for side in (1, -1)]


def _line_points(ax: Any) -> Any:
    """Points every ~2 pixels along the models' lines of ``ax`` (markers included), in display coordinates."""
    import numpy as np

    points = [np.zeros((0, 2))]
    for line in ax.lines:
        if line.get_gid() != MODEL_GID:
            continue
        xy = ax.transData.transform(line.get_xydata())
        points.append(xy)
        for a, b in zip(xy[:-1], xy[1:]):
            steps = max(2, int(np.hypot(*(b - a)) / 2))
            points.append(a + (b - a) * np.linspace(0, 1, steps)[:, None])
    return np.concatenate(points)


def _box_score(box: tuple, frame: Any, placed: list, points: Any) -> float:
    """1000 per rule broken (outside the axes, overlapping a count already placed), plus the line points covered."""
    x0, y0, x1, y1 = box
    outside = x0 < frame.x0 or x1 > frame.x1 or y0 < frame.y0 or y1 > frame.y1
    clash = sum(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in placed)
    covered = ((points[:, 0] > x0) & (points[:, 0] < x1) & (points[:, 1] > y0) & (points[:, 1] < y1)).sum()
    return 1000.0 * (outside + clash) + min(int(covered), 50)


def _layout_counts(ax: Any) -> None:
    """(Re)place every per-bin count of ``ax`` once the figure's layout is settled: each goes to the nearest spot
    (:func:`_count_spots`) that stays inside the axes, overlaps no other count and covers the fewest points of
    the models' lines. Called after each model is drawn, so that earlier models' counts make room for the new
    line (the first bins of several models share the corner near the origin)."""
    notes = [t for t in ax.texts if t.get_gid() == COUNT_GID]
    if not notes:
        return
    fig = ax.figure
    fig.draw_without_rendering()  # the constrained layout, legend included: the final pixel positions
    renderer = fig.canvas.get_renderer() if hasattr(fig.canvas, "get_renderer") else fig._get_renderer()
    frame, pixels_per_point, points = ax.get_window_extent(renderer), fig.dpi / 72, _line_points(ax)
    placed: list = []
    for note in notes:  # each: its best spot, given the ones placed before it
        note.set(horizontalalignment="left", verticalalignment="bottom")
        note.xyann = (0, 0)
        size = note.get_window_extent(renderer)
        w, h = size.width, size.height
        x, y = ax.transData.transform(note.xy)
        border = "left" if x - frame.x0 < w else "right" if frame.x1 - x < w else "center"
        candidates = []
        for rank, ((dx, dy), ha, va) in enumerate(_count_spots(border)):
            left = x + dx * pixels_per_point - {"left": 0, "center": w / 2, "right": w}[ha]
            bottom = y + dy * pixels_per_point - {"bottom": 0, "center": h / 2, "top": h}[va]
            box = (left - 1, bottom - 1, left + w + 1, bottom + h + 1)
            candidates.append((_box_score(box, frame, placed, points) + 0.5 * rank, rank, (dx, dy), ha, va, box))
        _, _, note.xyann, ha, va, box = min(candidates)
        note.set(horizontalalignment=ha, verticalalignment=va)
        placed.append(box)


def plot_reliability_diagram(preds: Tensor, target: Tensor, *, n_bins: int = 15, label: Optional[str] = None,
                             ax: Any = None, path: Optional[str] = None, show_counts: bool = True,
                             title: Optional[str] = "Reliability diagram") -> Any:
    """Accuracy against confidence per bin, the bins of the calibration error, with each bin's sample count.

    Each non-empty bin ``(i/n, (i+1)/n]`` is a marker at (mean confidence, accuracy), joined by a line; the
    dotted diagonal is perfect calibration. The legend entry of the model carries its ECE (the binned
    ``norm="l1"`` calibration error over the same bins); ``show_counts`` writes each bin's sample count beside
    its marker, at the nearest spot inside the axes where it overlaps no other count and covers the least of the
    models' lines (overlaid models share crowded bins, e.g. near the origin at 1% positives; every call
    re-places all counts). Call again with the returned ``ax`` to overlay another model.

    Args:
        preds: ``(N,)`` binary probabilities of the positive class (then "accuracy" is the fraction of
            positives and "confidence" the mean predicted probability, as in the binary calibration error) or
            ``(N, C)`` multiclass probabilities (top-1 confidence and accuracy).
        target: ``(N,)`` labels in {0, 1} (binary) or class indices (multiclass).
        n_bins: number of equal-width bins.
        label: the model's legend label (default ``"model"``).
        ax: a matplotlib ``Axes`` to draw into; ``None`` makes a new figure.
        path: save the figure there when given.
        show_counts: write the per-bin sample counts.
        title: axes title (``None`` keeps the current one).

    Returns:
        The matplotlib ``Axes``.

    Raises:
        ValueError, TypeError: as :func:`~torchmetrics_lite.functional.binary_calibration_error` (probabilities
            in [0, 1], labels, shapes) and for a bad ``n_bins``.

    References:
        DeGroot & Fienberg, "The comparison and evaluation of forecasters", 1983; Guo et al., ICML 2017;
        scikit-learn ``CalibrationDisplay``.

    Examples:
        >>> import torch
        >>> ax = plot_reliability_diagram(torch.tensor([0.1, 0.4, 0.8, 0.9]), torch.tensor([0, 1, 1, 1]), n_bins=5)
        >>> ax.get_xlabel(), ax.get_ylabel()
        ('mean predicted probability', 'fraction of positives')
        >>> [t.get_text() for t in ax.get_legend().get_texts()]
        ['perfectly calibrated', 'model (ECE = 0.2500)']
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
    acc = (stats["bin_accuracy"].cpu() / count.clamp_min(1))[filled].tolist()
    conf = (stats["bin_confidence"].cpu() / count.clamp_min(1))[filled].tolist()
    ece = float((stats["bin_accuracy"] - stats["bin_confidence"]).abs().sum() / count.sum().clamp_min(1))
    labels = ("confidence", "accuracy") if multiclass else ("mean predicted probability", "fraction of positives")
    ax = _axes(ax, title, *labels)
    _reference(ax, [0, 1], [0, 1], "perfectly calibrated", linestyle=":", color="black", linewidth=1)
    (line,) = ax.plot(conf, acc, "s-", markersize=4, gid=MODEL_GID, label=_with_value(label, "model", "ECE", ece))
    if show_counts:
        for x, y, n in zip(conf, acc, count[filled].tolist()):
            ax.annotate(str(n), (x, y), xytext=(0, 4), textcoords="offset points", fontsize=7,
                        color=line.get_color(), gid=COUNT_GID)
    _finish(ax, None, "numbers: samples per bin" if show_counts else None)
    _layout_counts(ax)
    if path is not None:
        save(ax, path)
    return ax


def plot_roc_curve(fpr: Tensor, tpr: Tensor, *, auc: Optional[float] = None, label: Optional[str] = None,
                   ax: Any = None, path: Optional[str] = None, title: Optional[str] = "ROC curve") -> Any:
    """The ROC curve through the points ``(fpr_i, tpr_i)``, with the chance diagonal.

    Args:
        fpr: 1-D false positive rates, in curve order (e.g. from
            :func:`~torchmetrics_lite.functional.binary_roc`).
        tpr: 1-D true positive rates, the same length.
        auc: shown in the legend when given.
        label: the model's legend label (default ``"ROC"``).
        ax, path, title: as :func:`plot_reliability_diagram`.

    Returns:
        The matplotlib ``Axes``; call again with it to overlay another model.

    Raises:
        TypeError, ValueError: non-tensor, non-1-D or mismatched inputs.

    References:
        Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27(8), 2006; scikit-learn
        ``RocCurveDisplay``.

    Examples:
        >>> import torch
        >>> ax = plot_roc_curve(torch.tensor([0.0, 0.5, 1.0]), torch.tensor([0.0, 0.8, 1.0]), auc=0.65)
        >>> [t.get_text() for t in ax.get_legend().get_texts()]
        ['chance', 'ROC (AUC = 0.6500)']
        >>> [float(v) for v in ax.get_xlim()]  # padded: a curve along the border stays visible
        [-0.01, 1.01]
    """
    x, y = _curve("fpr", fpr, "tpr", tpr)
    ax = _axes(ax, title, "false positive rate", "true positive rate")
    _reference(ax, [0, 1], [0, 1], "chance", linestyle="--", color="gray", linewidth=1)
    ax.plot(x, y, label=_with_value(label, "ROC", "AUC", auc))
    return _finish(ax, path)


def plot_precision_recall_curve(precision: Tensor, recall: Tensor, *, average_precision: Optional[float] = None,
                                prevalence: Optional[float] = None, label: Optional[str] = None, ax: Any = None,
                                path: Optional[str] = None, title: Optional[str] = "Precision-recall curve") -> Any:
    """The precision-recall curve through ``(recall_i, precision_i)`` as a step function (the interpolation
    average precision uses), with the chance level: a classifier without skill has precision = prevalence.

    Args:
        precision: 1-D precisions (e.g. from :func:`~torchmetrics_lite.functional.binary_precision_recall_curve`,
            whose first point classifies every sample positive).
        recall: 1-D recalls, the same length.
        average_precision: shown in the legend when given.
        prevalence: the fraction of positives, drawn as the horizontal chance line. ``None`` reads it off the
            curve: the precision of its first point when that point has recall 1 (the all-positive threshold of
            :func:`~torchmetrics_lite.functional.binary_precision_recall_curve`); otherwise no line.
        label: the model's legend label (default ``"PR"``).
        ax, path, title: as :func:`plot_reliability_diagram`.

    Returns:
        The matplotlib ``Axes``; call again with it to overlay another model.

    Raises:
        TypeError, ValueError: non-tensor, non-1-D or mismatched inputs, ``prevalence`` outside [0, 1].

    References:
        Saito & Rehmsmeier, "The precision-recall plot is more informative than the ROC plot when evaluating
        binary classifiers on imbalanced datasets", PLoS ONE 10(3), 2015; scikit-learn
        ``PrecisionRecallDisplay``.

    Examples:
        >>> import torch
        >>> ax = plot_precision_recall_curve(torch.tensor([0.4, 0.5, 1.0]), torch.tensor([1.0, 0.5, 0.0]),
        ...                                  average_precision=0.75)
        >>> [t.get_text() for t in ax.get_legend().get_texts()]
        ['chance (prevalence = 0.4000)', 'PR (AP = 0.7500)']
    """
    y, x = _curve("precision", precision, "recall", recall)
    if prevalence is None and x.shape[0] and x[0] == 1.0:
        prevalence = float(y[0])
    if prevalence is not None:
        check_number("prevalence", prevalence, low=0.0, high=1.0)
    ax = _axes(ax, title, "recall", "precision")
    if prevalence is not None:
        _reference(ax, [0, 1], [prevalence, prevalence], f"chance (prevalence = {prevalence:.4f})", linestyle="--",
                   color="gray", linewidth=1)
    ax.step(x, y, where="post", label=_with_value(label, "PR", "AP", average_precision))
    return _finish(ax, path)
