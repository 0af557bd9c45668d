"""Plots: each returns a matplotlib figure, saves when given a path, and the package never imports matplotlib."""
import ast
import pathlib

import pytest
import torch

import torchmetrics_lite

pytest.importorskip("matplotlib")

from matplotlib.figure import Figure  # noqa: E402

from torchmetrics_lite.plot import plot_precision_recall_curve, plot_reliability_diagram, plot_roc_curve  # noqa: E402


def test_reliability_diagram_binary_and_multiclass(tmp_path):
    g = torch.Generator().manual_seed(0)
    preds = torch.rand(200, generator=g)
    target = (torch.rand(200, generator=g) < preds).long()
    fig = plot_reliability_diagram(preds, target, n_bins=10, path=tmp_path / "binary.png")
    assert isinstance(fig, Figure) and (tmp_path / "binary.png").stat().st_size > 0
    bars = fig.axes[0].patches
    assert len(bars) == int((torch.bincount((preds * 10).ceil().clamp(1, 10).long() - 1, minlength=10) > 0).sum())
    probs = torch.softmax(torch.randn(50, 4, generator=g), dim=1)
    fig = plot_reliability_diagram(probs, torch.randint(0, 4, (50,), generator=g), path=str(tmp_path / "mc.pdf"))
    assert any("ECE = " in t.get_text() for t in fig.axes[0].get_legend().get_texts())
    assert (tmp_path / "mc.pdf").stat().st_size > 0


def test_roc_and_pr_curves(tmp_path):
    fpr, tpr = torch.tensor([0.0, 0.2, 0.6, 1.0]), torch.tensor([0.0, 0.7, 0.9, 1.0])
    fig = plot_roc_curve(fpr, tpr, auc=0.81, path=tmp_path / "roc.svg")
    xs, ys = fig.axes[0].lines[0].get_data()
    assert list(xs) == pytest.approx(fpr.tolist()) and list(ys) == pytest.approx(tpr.tolist())
    assert (tmp_path / "roc.svg").stat().st_size > 0
    fig = plot_precision_recall_curve(torch.tensor([1.0, 0.8, 0.5]), torch.tensor([0.0, 0.6, 1.0]),
                                      average_precision=0.7, path=tmp_path / "pr.png")
    assert fig.axes[0].get_legend().get_texts()[0].get_text() == "PR (AP = 0.7000)"
    assert (tmp_path / "pr.png").stat().st_size > 0
    assert plot_roc_curve(fpr, tpr).axes[0].get_legend().get_texts()[0].get_text() == "ROC"


def test_rejects_bad_inputs():
    with pytest.raises(ValueError, match=r"`fpr` and `tpr` to have the same shape, got \(2,\) and \(3,\)"):
        plot_roc_curve(torch.zeros(2), torch.zeros(3))
    with pytest.raises(ValueError, match=r"`precision` to be 1-D, got shape \(2, 2\)"):
        plot_precision_recall_curve(torch.zeros(2, 2), torch.zeros(2, 2))
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


def test_reliability_axes_name_what_they_show():
    binary = plot_reliability_diagram(torch.tensor([0.2, 0.7]), torch.tensor([0, 1]), n_bins=4)
    multi = plot_reliability_diagram(torch.tensor([[0.8, 0.2], [0.3, 0.7]]), torch.tensor([0, 0]), n_bins=4)
    assert (binary.axes[0].get_xlabel(), binary.axes[0].get_ylabel()) == ("mean predicted probability",
                                                                           "fraction of positives")
    assert (multi.axes[0].get_xlabel(), multi.axes[0].get_ylabel()) == ("confidence", "accuracy")
