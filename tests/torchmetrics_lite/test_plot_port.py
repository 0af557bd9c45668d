"""torchmetrics 1.9's ``.plot()`` docstring examples (113, for the names we export) run with the imports swapped
(the extraction of ``tests/helpers/tm_docstrings.py``), on the Agg backend: each runs to the end and its
``fig_, ax_`` is a matplotlib figure and axes (a list of them for a collection), the only edits being the port
edit its error names (``from_logits=True`` for the multiclass examples that feed ``torch.randn`` logits)
and MSLE's input edit into its domain (``INPUT_EDITS``).
Then the plots themselves: a value over steps, a curve, a confusion matrix, the collection and tracker forms,
the options and errors, and the ImportError without matplotlib."""
import builtins
import collections

import pytest
import torch

from tests.helpers import tm_docstrings as tmd

pytest.importorskip("torchmetrics")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import torchmetrics_lite as ours  # noqa: E402

COUNTS = collections.Counter()
_LOGITS = [("num_classes=3)", "num_classes=3, from_logits=True)")]
# the port edit (an error naming `from_logits=True`): torchmetrics' multiclass examples feed randn logits
PORT_EDITS = {name: _LOGITS for name in ("MulticlassAUROC", "MulticlassAveragePrecision", "MulticlassEER",
                                         "MulticlassLogAUC", "MulticlassHingeLoss")}
# a documented row of the porting page: a value <= -1 in MSLE is a ValueError (torchmetrics: nan); the example feeds
# randn, so it runs on values in MSLE's domain
INPUT_EDITS = {"MeanSquaredLogError": [("randn(10,), randn(10,)", "randn(10,).abs(), randn(10,).abs()")]}
DOCSTRINGS = list(tmd.docstrings(plot=True))


def _figures(value):
    if isinstance(value, list) or isinstance(value[0], tuple):  # one (fig, ax) per member or task
        return all(_figures(v) for v in value)
    fig, ax = value
    axes = list(ax.flat) if hasattr(ax, "flat") else [ax]
    return isinstance(fig, Figure) and all(isinstance(a, Axes) and a.figure is fig for a in axes)


@pytest.mark.parametrize("doc", DOCSTRINGS, ids=[d.name for d in DOCSTRINGS])
def test_torchmetrics_plot_example_runs(doc):
    source = doc.source
    if doc.name in PORT_EDITS:
        errors = [e for e in tmd.run(doc) if e.kind == "error"]
        assert errors and errors[0].want == "ValueError" and "from_logits=True" in errors[0].got, errors
        for old, new in PORT_EDITS[doc.name]:
            assert old in source
            source = source.replace(old, new)
        COUNTS["port edit"] += 1
    if doc.name in INPUT_EDITS:
        errors = [e for e in tmd.run(doc) if e.kind == "error"]
        assert errors and errors[0].want == "ValueError" and "to be > -1.0" in errors[0].got, errors
        for old, new in INPUT_EDITS[doc.name]:
            assert old in source
            source = source.replace(old, new)
        COUNTS["input edit"] += 1
    namespace = {}
    try:
        events = tmd.run(doc, source, namespace)
    finally:
        plt.close("all")
    assert not events, "\n".join(f"{e.source} -> {e.want}: {e.got}" for e in events)
    assert "fig_" in namespace and _figures((namespace["fig_"], namespace["ax_"])), doc.name
    COUNTS["run"] += 1


def test_plots_draw_the_values(tmp_path):
    gen = torch.Generator().manual_seed(3)
    acc = ours.BinaryAccuracy()
    steps = [acc(torch.rand(20, generator=gen), torch.randint(0, 2, (20,), generator=gen)) for _ in range(5)]
    fig, ax = acc.plot(steps)
    assert ax.get_xlabel() == "step" and list(ax.lines[0].get_ydata()) == pytest.approx([s.item() for s in steps])
    assert ax.get_title() == "BinaryAccuracy (higher is better)"
    fig.savefig(tmp_path / "steps.png")
    per_class = ours.MulticlassRecall(num_classes=3, average=None)
    fig, ax = per_class.plot(per_class(torch.tensor([0, 1, 2, 2]), torch.tensor([0, 2, 2, 1])))
    assert [list(line.get_ydata()) for line in ax.lines] == [[1.0], [0.0], [0.5]]  # one marker per class
    roc = ours.MulticlassROC(num_classes=3)
    roc.update(torch.rand(30, 3, generator=gen).softmax(1), torch.randint(0, 3, (30,), generator=gen))
    fig, ax = roc.plot(score=True)
    fpr, tpr, _ = roc.compute()
    assert len(ax.lines) == 3 and list(ax.lines[1].get_xdata()) == pytest.approx(fpr[1].tolist())
    area = torch.trapezoid(tpr[0], fpr[0]).item()
    assert ax.get_legend().get_texts()[0].get_text() == f"class 0 AUC={area:.3f}"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("False positive rate", "True positive rate")
    fig.savefig(tmp_path / "roc.png")
    pr = ours.BinaryPrecisionRecallCurve()
    pr.update(torch.rand(30, generator=gen), torch.randint(0, 2, (30,), generator=gen))
    _, ax = pr.plot()
    precision, recall, _ = pr.compute()
    assert list(ax.lines[0].get_xdata()) == pytest.approx(recall.tolist()) and ax.get_xlabel() == "Recall"
    cm = ours.MulticlassConfusionMatrix(num_classes=3)
    cm.update(torch.tensor([0, 1, 2, 2, 1]), torch.tensor([0, 2, 2, 1, 1]))
    fig, ax = cm.plot(labels=["cat", "dog", "fish"])
    assert [t.get_text() for t in ax.texts] == [str(v) for v in cm.compute().reshape(-1).tolist()]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["cat", "dog", "fish"]
    fig.savefig(tmp_path / "confmat.png")
    ml = ours.MultilabelConfusionMatrix(num_labels=2)
    ml.update(torch.tensor([[1, 0], [0, 1]]), torch.tensor([[1, 1], [0, 1]]))
    fig, axes = ml.plot()
    assert len(axes) == 2 and all(a.figure is fig for a in axes)
    with pytest.raises(TypeError, match=r"MulticlassConfusionMatrix.plot\(\) got an unexpected keyword argument "
                                        r"'score'; accepted: val, ax, add_text, labels, cmap"):
        cm.plot(score=True)
    with pytest.raises(TypeError, match=r"Expected a metric value .* to plot, got str"):
        acc.plot("0.5")
    assert all((tmp_path / f).stat().st_size > 0 for f in ("steps.png", "roc.png", "confmat.png"))


def test_collection_tracker_and_given_axes():
    mc = ours.MetricCollection({"acc": ours.BinaryAccuracy(), "f1": ours.BinaryF1Score()})
    mc.update(torch.tensor([0.2, 0.8, 0.6]), torch.tensor([0, 1, 0]))
    plots = mc.plot()
    assert len(plots) == 2 and [ax.get_title() for _, ax in plots] == ["BinaryAccuracy (higher is better)",
                                                                       "BinaryF1Score (higher is better)"]
    fig, ax = mc.plot(together=True)
    assert [line.get_label() for line in ax.lines] == ["acc", "f1"]
    fig = Figure()
    given = fig.subplots(1, 2)
    assert [a for _, a in mc.plot(ax=given)] == list(given)
    tracker = ours.MetricTracker(ours.MeanMetric(), maximize=True)
    for v in (1.0, 3.0, 2.0):
        tracker.increment()
        tracker.update(torch.tensor([v]))
    _, ax = tracker.plot()
    assert list(ax.lines[0].get_ydata()) == [1.0, 3.0, 2.0]


def test_plot_without_matplotlib_names_the_install(monkeypatch):
    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    m = ours.SumMetric()
    m.update(torch.tensor(1.0))
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(ImportError, match=r"plot\(\) needs matplotlib, an optional dependency: pip install "
                                          r"matplotlib \(or the package's extra: pip install "
                                          r"'torchmetrics-lite\[plot\]'\)"):
        m.plot()


def test_zz_counts(capsys):
    with capsys.disabled():
        print(f"\ntorchmetrics .plot() docstrings, imports swapped: {len(DOCSTRINGS)} docstrings, "
              f"{sum(d.statements for d in DOCSTRINGS)} statements; {dict(COUNTS)}")
