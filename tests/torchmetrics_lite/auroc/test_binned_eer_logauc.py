"""The binned EER (multiclass: per class, micro, macro) and the binned LogAUC (every task), ``thresholds=int | list |
tensor``, against torchmetrics 1.9 on random inputs (functions and streamed modules, ``ignore_index``, logits
through ``from_logits=True``), and the two documented differences pinned: torchmetrics' LogAUC interpolates at
``fpr_range`` after an unstable ``argsort`` of the ROC points, and extrapolates its first binned segment below the
curve's first point, where this library starts the binned curve at ``(0, 0)``."""
import warnings

import pytest
import torch

import torchmetrics_lite as ours
import torchmetrics_lite.functional as ours_f

tm_c = pytest.importorskip("torchmetrics.classification")
tm_f = pytest.importorskip("torchmetrics.functional.classification")

THRESHOLDS = [5, [0.1, 0.5, 0.9], torch.linspace(0, 1, 11), torch.tensor([0.0, 0.3, 0.6, 1.0]), 50]
RANGES = [(0.001, 0.1), (0.1, 0.5), (0.05, 1.0)]


@pytest.fixture
def stable_argsort(monkeypatch):
    """torchmetrics' LogAUC ``interp`` sorts the ROC points with ``torch.argsort`` (unstable): with the stable sort
    its reading at ``fpr_range`` is the one documented here (the highest point of a vertical step)."""
    argsort = torch.argsort
    monkeypatch.setattr(torch, "argsort", lambda x, *a, **k: argsort(x, *a, **dict(k, stable=True)))


def _close(theirs, mine):
    assert mine.shape == theirs.shape
    torch.testing.assert_close(mine.double(), theirs.double(), rtol=0, atol=1e-6, equal_nan=True)


def _streamed(make, preds, target, **kw):
    m = make(**kw)
    half = preds.shape[0] // 2
    m.update(preds[:half], target[:half])
    m.update(preds[half:], target[half:])
    return m.compute()


def _starts_below(roc, lo):
    """Whether some column's binned ROC curve starts right of ``lo`` (torchmetrics extrapolates there)."""
    fpr = roc[0]
    fpr = torch.stack(fpr) if isinstance(fpr, list) else fpr
    return bool((fpr.reshape(-1, fpr.shape[-1])[:, 0] > lo).any())


def _multiclass(i, gen):
    n, c = int(torch.randint(8, 40, (1,), generator=gen)), int(torch.randint(2, 5, (1,), generator=gen))
    logits = torch.randn(n, c, generator=gen) * 2
    target = (torch.arange(n) % c)[torch.randperm(n, generator=gen)]
    kw = {"num_classes": c, "thresholds": THRESHOLDS[i % 5]}
    if i % 2:
        target[::7] = -1
        kw["ignore_index"] = -1
    probs = logits.softmax(1)
    if i % 3 == 0:  # ties, and scores equal to the thresholds
        probs = (probs * 4).round() / 4
    return probs, logits, target, kw


def test_binned_multiclass_eer_is_torchmetrics():
    gen = torch.Generator().manual_seed(35)
    for i in range(40):
        probs, logits, target, kw = _multiclass(i, gen)
        for average in (None, "micro", "macro"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = tm_f.multiclass_eer(probs, target, average=average, **kw)
                _close(theirs, ours_f.multiclass_eer(probs, target, average=average, **kw))
                if average != "micro":  # torchmetrics' module crashes in the binned micro mode (a (T, 2, 2) update
                    # added to its (T, C, 2, 2) state)
                    _close(_streamed(tm_c.MulticlassEER, probs, target, average=average, **kw),
                           _streamed(ours.MulticlassEER, probs, target, average=average, **kw))
                _close(_streamed(tm_c.MulticlassEER, logits, target, average=average, **kw) if average != "micro"
                       else theirs if i % 3 else tm_f.multiclass_eer(logits, target, average=average, **kw),
                       _streamed(ours.MulticlassEER, logits, target, average=average, from_logits=True, **kw)
                       if i % 3 else ours_f.multiclass_eer(logits, target, average=average, from_logits=True, **kw))


def test_binned_logauc_is_torchmetrics(stable_argsort):
    gen = torch.Generator().manual_seed(36)
    compared = 0
    for i in range(45):
        lo_hi = RANGES[i % 3]
        probs, logits, target, kw = _multiclass(i, gen)
        n, c = probs.shape
        labels = torch.randint(0, 2, (n, c), generator=gen)
        labels[:2] = torch.tensor([[0] * c, [1] * c])
        scores = torch.rand(n, c, generator=gen)
        if "ignore_index" in kw:
            labels[2:][torch.rand(n - 2, c, generator=gen) < 0.2] = -1
        binary_kw = {k: v for k, v in kw.items() if k != "num_classes"}
        cases = [("binary", scores[:, 0], labels[:, 0], binary_kw, tm_f.binary_roc, "BinaryLogAUC"),
                 ("multiclass", probs, target, kw, tm_f.multiclass_roc, "MulticlassLogAUC"),
                 ("multilabel", scores, labels, dict(binary_kw, num_labels=c), tm_f.multilabel_roc,
                  "MultilabelLogAUC")]
        for task, preds, tgt, args, roc, cls in cases:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if _starts_below(roc(preds, tgt, **args), lo_hi[0]):
                    continue  # the documented difference, pinned below
                averages = [{}] if task == "binary" else [{"average": None}, {"average": "macro"}]
                for avg in averages:
                    fn = getattr(tm_f, f"{task}_logauc")
                    _close(fn(preds, tgt, fpr_range=lo_hi, **args, **avg),
                           getattr(ours_f, f"{task}_logauc")(preds, tgt, fpr_range=lo_hi, **args, **avg))
                    _close(_streamed(getattr(tm_c, cls), preds, tgt, fpr_range=lo_hi, **args, **avg),
                           _streamed(getattr(ours, cls), preds, tgt, fpr_range=lo_hi, **args, **avg))
                    compared += 1
    assert compared >= 100


def test_binned_logauc_curve_starts_at_the_origin():
    """The thresholds [0.1, 0.5, 0.9]: the highest already passes a negative (fpr 1/2 at 0.9), so the binned curve's
    first point is right of fpr_range's lo = 0.05; torchmetrics extrapolates through the zero-width first segment
    (-inf), this library's binned curve starts at (0, 0)."""
    preds, target = torch.tensor([0.95, 0.92, 0.3, 0.6]), torch.tensor([1, 0, 0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = tm_f.binary_logauc(preds, target, fpr_range=(0.05, 1.0), thresholds=[0.1, 0.5, 0.9])
    assert not torch.isfinite(theirs) or theirs < 0
    # ROC points (0, 0), (1/2, 1/2) at 0.9, (1/2, 1) at 0.5, (1, 1) at 0.1: tpr = f on [0.05, 0.5] read on the
    # segment from the origin, the trapezoid in log10: sum over [0.05, 0.5] and [0.5, 1] of the segments
    mine = ours_f.binary_logauc(preds, target, fpr_range=(0.05, 1.0), thresholds=[0.1, 0.5, 0.9])
    log = torch.log10(torch.tensor([0.05, 0.5, 0.5, 1.0], dtype=torch.float64))
    expected = ((log[1] - log[0]) * (0.05 + 0.5) / 2 + (log[3] - log[2]) * 1.0) / (log[3] - log[0])
    torch.testing.assert_close(mine, expected)
    m = ours.BinaryLogAUC(fpr_range=(0.05, 1.0), thresholds=[0.1, 0.5, 0.9])
    m.update(preds[:2], target[:2])
    m.update(preds[2:], target[2:])
    torch.testing.assert_close(m.compute(), expected)


def test_logauc_reads_the_top_of_a_vertical_step():
    """torchmetrics' LogAUC ``interp`` sorts the ROC points with an unstable ``torch.argsort``: where ``fpr_range``
    falls on the segment after a vertical step (several points at one fpr), it may start from any point of the
    step. Here: the highest (a stable sort), which is torchmetrics' value under a stable sort (the comparisons
    above); without it some random inputs differ."""
    gen = torch.Generator().manual_seed(18)
    differ = 0
    for _ in range(40):
        n = int(torch.randint(8, 40, (1,), generator=gen))
        preds, target = torch.rand(n, generator=gen), torch.randint(0, 2, (n,), generator=gen)
        target[:2] = torch.tensor([0, 1])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = tm_f.binary_logauc(preds, target, fpr_range=(0.1, 0.5), thresholds=50)
        mine = ours_f.binary_logauc(preds, target, fpr_range=(0.1, 0.5), thresholds=50)
        differ += not torch.allclose(theirs.double(), mine, atol=1e-6)
    assert differ > 0  # the unstable sort shows; with a stable one every case is equal (test above)


def test_thresholds_none_is_the_exact_mode():
    preds, target = torch.tensor([[0.7, 0.3], [0.2, 0.8], [0.6, 0.4]]), torch.tensor([0, 1, 1])
    for name, args in (("multiclass_eer", (preds, target, 2)), ("multiclass_logauc", (preds, target, 2)),
                       ("binary_logauc", (preds[:, 0], (target == 0).long())),
                       ("multilabel_logauc", (preds, torch.tensor([[0, 1], [1, 0], [1, 1]]), 2))):
        fn = getattr(ours_f, name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.testing.assert_close(fn(*args, thresholds=None), fn(*args))  # torchmetrics' default, written out
    with pytest.raises(ValueError, match=r"Expected `thresholds` to be None, an int >= 2.*got an int below 2"):
        ours_f.multiclass_eer(preds, target, 2, thresholds=1)
    with pytest.raises(ValueError, match=r"Expected `thresholds` to be"):
        ours.MulticlassLogAUC(num_classes=2, thresholds="5")
    m = ours.MulticlassEER(num_classes=2, thresholds=5)
    before = m.local_state()["confmat"].clone()
    with pytest.raises(ValueError):
        m.update(torch.tensor([[0.5, 1.5]]), torch.tensor([0]))  # scores outside [0, 1] without from_logits
    assert torch.equal(m.local_state()["confmat"], before)


def test_multilabel_logauc_ignore_index_exact():
    """Exact mode: an ignored element counts nowhere (it used to be read as a positive)."""
    preds = torch.tensor([[0.9, 0.2], [0.8, 0.7], [0.3, 0.6], [0.1, 0.4], [0.5, 0.1]])
    target = torch.tensor([[1, 0], [-1, 1], [0, 1], [0, -1], [1, 0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = tm_f.multilabel_logauc(preds, target, 2, fpr_range=(0.1, 1.0), average=None, ignore_index=-1)
    _close(theirs, ours_f.multilabel_logauc(preds, target, 2, fpr_range=(0.1, 1.0), average=None, ignore_index=-1))
    m = ours.MultilabelLogAUC(num_labels=2, fpr_range=(0.1, 1.0), ignore_index=-1)
    m.update(preds, target)
    _close(theirs, m.compute())
