"""Plots: structure of the produced figures (artists, limits, labels, legend outside the data, per-bin counts),
overlays through ``ax=``, saving, errors, and that the package never imports matplotlib at import time."""
import ast
import pathlib

import pytest
import torch

import torchmetrics_lite

pytest.importorskip("matplotlib")

from matplotlib.axes import Axes  # noqa: E402

from torchmetrics_lite.functional import binary_precision_recall_curve, binary_roc  # noqa: E402
from torchmetrics_lite.plot import (  # noqa: E402
    COUNT_GID,
    MODEL_GID,
    REFERENCE_GID,
    plot_precision_recall_curve,
    plot_reliability_diagram,
    plot_roc_curve,
    save,
)

GEN = torch.Generator().manual_seed(0)


def _legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def _legend_off_the_data(ax):
    """The legend's box lies outside the axes' box (to the right): it covers no data."""
    renderer = ax.figure.canvas.get_renderer()
    ax.figure.draw(renderer)
    legend = ax.get_legend().get_window_extent(renderer)
    return legend.x0 >= ax.get_window_extent(renderer).x1


def _padded(ax):
    lo, hi = ax.get_xlim()
    lo_y, hi_y = ax.get_ylim()
    return lo < 0 and hi > 1 and lo_y < 0 and hi_y > 1


def test_perfect_roc_stays_visible_and_models_overlay(tmp_path):
    target = torch.tensor([0, 0, 1, 1, 0, 1])
    perfect = binary_roc(target.float(), target)[:2]  # runs along the left and top borders
    ax = plot_roc_curve(*perfect, auc=1.0, label="perfect")
    noisy = binary_roc(torch.rand(6, generator=GEN), target)[:2]
    assert plot_roc_curve(*noisy, auc=0.5, label="noisy", ax=ax, path=tmp_path / "roc.png") is ax
    assert isinstance(ax, Axes) and (tmp_path / "roc.png").stat().st_size > 0
    assert _padded(ax) and ax.get_xlim() == (-0.01, 1.01)
    assert _legend_texts(ax) == ["chance", "perfect (AUC = 1.0000)", "noisy (AUC = 0.5000)"]
    assert sum(line.get_gid() == REFERENCE_GID for line in ax.lines) == 1  # the diagonal is drawn once
    xs, ys = ax.lines[1].get_data()
    assert list(xs) == pytest.approx(perfect[0].tolist()) and list(ys) == pytest.approx(perfect[1].tolist())
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("false positive rate", "true positive rate")
    assert _legend_off_the_data(ax)


def test_pr_curve_starts_at_recall_zero_with_the_prevalence_line():
    scores = torch.rand(40, generator=GEN)
    target = (torch.rand(40, generator=GEN) < scores).long()
    precision, recall, _ = binary_precision_recall_curve(scores, target)
    ax = plot_precision_recall_curve(precision, recall, average_precision=0.7, label="model")
    prevalence = target.float().mean().item()
    chance = next(line for line in ax.lines if line.get_gid() == REFERENCE_GID)
    assert list(chance.get_ydata()) == pytest.approx([prevalence, prevalence])
    assert _legend_texts(ax) == [f"chance (prevalence = {prevalence:.4f})", "model (AP = 0.7000)"]
    curve = next(line for line in ax.lines if line.get_gid() != REFERENCE_GID)
    xs, ys = curve.get_data()
    assert min(xs) == 0.0 and ys[list(xs).index(0.0)] == 1.0  # the curve reaches recall 0 at precision 1 ...
    assert _padded(ax)  # ... inside the padded axes, so it is not hidden by the border
    assert _legend_off_the_data(ax)
    explicit = plot_precision_recall_curve(precision, recall, prevalence=0.25)
    assert _legend_texts(explicit)[0] == "chance (prevalence = 0.2500)"
    no_line = plot_precision_recall_curve(torch.tensor([1.0, 0.5]), torch.tensor([0.0, 0.5]))
    assert _legend_texts(no_line) == ["PR"]  # the curve does not start at recall 1: no prevalence to read


def test_reliability_diagram_counts_ece_in_the_model_entry_and_overlay(tmp_path):
    preds = torch.rand(200, generator=GEN)
    target = (torch.rand(200, generator=GEN) < preds).long()
    ax = plot_reliability_diagram(preds, target, n_bins=10, label="a")
    counts = torch.bincount((preds * 10).ceil().clamp(1, 10).long() - 1, minlength=10)
    texts = [t for t in ax.texts if t.get_gid() == COUNT_GID]
    assert sorted(int(t.get_text()) for t in texts) == sorted(c for c in counts.tolist() if c)
    from torchmetrics_lite.functional import binary_calibration_error

    ece = binary_calibration_error(preds, target, n_bins=10).item()
    assert _legend_texts(ax) == ["perfectly calibrated", f"a (ECE = {ece:.4f})"]  # ECE on the model's entry
    assert ax.get_legend().get_title().get_text() == "numbers: samples per bin"
    plot_reliability_diagram(preds.sqrt(), target, n_bins=10, label="b", ax=ax, path=str(tmp_path / "rel.pdf"))
    assert len(_legend_texts(ax)) == 3 and (tmp_path / "rel.pdf").stat().st_size > 0
    assert _padded(ax) and _legend_off_the_data(ax)
    save(ax, str(tmp_path / "rel.png"))
    assert (tmp_path / "rel.png").stat().st_size > 0
    bare = plot_reliability_diagram(preds, target, n_bins=10, show_counts=False)
    assert not bare.texts and bare.get_legend().get_title().get_text() == ""


def test_overlaid_counts_never_overlap_and_stay_inside_the_axes(tmp_path):
    """Three models at 1% positives: each has its first bin (91-99% of the samples) near the origin, and the
    others near each other; in the saved figure no two count texts overlap, none hides a marker, and every one is
    inside the axes."""
    gen = torch.Generator().manual_seed(1)
    target = (torch.rand(20_000, generator=gen) < 0.01).long()
    score = torch.randn(20_000, generator=gen) + 1.5 * target
    ax = None
    for slope in (1.0, 1.5, 2.0):  # 20 filled bins; each model's first holds 91-99% of the samples
        ax = plot_reliability_diagram(torch.sigmoid(slope * score - 5), target, n_bins=10, label=f"{slope}", ax=ax)
    save(ax, str(tmp_path / "crowded.png"))
    renderer = ax.figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    boxes = [t.get_window_extent(renderer) for t in ax.texts if t.get_gid() == COUNT_GID]
    assert len(boxes) == 20  # every filled bin of every model
    lines = [line for line in ax.lines if line.get_gid() == MODEL_GID]
    markers = [xy for line in lines for xy in ax.transData.transform(line.get_xydata())]
    for i, box in enumerate(boxes):
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, i
        assert not [j for j, other in enumerate(boxes[:i]) if box.overlaps(other)], i
        assert not [xy for xy in markers if box.contains(*xy)], i  # no count hides a marker


def test_reliability_axes_name_what_they_show():
    binary = plot_reliability_diagram(torch.tensor([0.2, 0.7]), torch.tensor([0, 1]), n_bins=4)
    multi = plot_reliability_diagram(torch.tensor([[0.8, 0.2], [0.3, 0.7]]), torch.tensor([0, 0]), n_bins=4)
    assert (binary.get_xlabel(), binary.get_ylabel()) == ("mean predicted probability", "fraction of positives")
    assert (multi.get_xlabel(), multi.get_ylabel()) == ("confidence", "accuracy")


def test_rejects_bad_inputs():
    with pytest.raises(ValueError, match=r"`fpr` and `tpr` to have the same shape, got \(2,\) and \(3,\)"):
        plot_roc_curve(torch.zeros(2), torch.zeros(3))
    with pytest.raises(ValueError, match=r"`precision` to be 1-D, got shape \(2, 2\)"):
        plot_precision_recall_curve(torch.zeros(2, 2), torch.zeros(2, 2))
    with pytest.raises(ValueError, match=r"`prevalence` to be a number in \[0.0, 1.0\], got 1.5"):
        plot_precision_recall_curve(torch.zeros(2), torch.zeros(2), prevalence=1.5)
    with pytest.raises(ValueError, match=r"`preds` to lie in \[0.0, 1.0\]"):
        plot_reliability_diagram(torch.tensor([1.5]), torch.tensor([1]))
    with pytest.raises(ValueError, match=r"`n_bins` to be a positive int, got 0"):
        plot_reliability_diagram(torch.tensor([0.5]), torch.tensor([1]), n_bins=0)


def test_matplotlib_is_imported_only_inside_the_functions():
    """Static check (a subprocess import costs seconds): no module-level matplotlib import in the package."""
    root = pathlib.Path(torchmetrics_lite.__file__).parent
    for path in root.rglob("*.py"):
        for node in ast.parse(path.read_text()).body:
            names = [a.name for a in getattr(node, "names", [])] + [getattr(node, "module", None) or ""]
            assert not any(n.split(".")[0] == "matplotlib" for n in names), f"{path} imports matplotlib at import"
