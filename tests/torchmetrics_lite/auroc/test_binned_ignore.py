"""torchmetrics' ``thresholds=`` (binned mode) and ``ignore_index=`` on AUROC, AP, ROC and PR curves of every task
(issue 21 item 12): the binned confusion matrices against a loop over thresholds by hand, every value against
torchmetrics 1.9, ``ignore_index`` against scikit-learn on the kept samples, streaming / merge through the
harness (the distributed cases are in ``tests/helpers/auroc/binned.py``, spawned by ``test_auroc.py``), and the
errors."""
import warnings
from functools import partial

import numpy as np
import pytest
import torch
from sklearn.metrics import average_precision_score, roc_auc_score

import torchmetrics_lite as ours
from tests.helpers.auroc.binned import PB, PM, YB, YL, YM, C, G, N
from tests.helpers.metric_tester import check_metric, check_rejects
from torchmetrics_lite import functional as F
from torchmetrics_lite._checks import check_thresholds
from torchmetrics_lite.functional.auroc.binned import _binned_stats

tm = pytest.importorskip("torchmetrics")
import torchmetrics.classification as tmc  # noqa: E402
import torchmetrics.functional.classification as tmf  # noqa: E402

THRESHOLDS = [5, [0.1, 0.5, 0.3, 0.9], torch.linspace(0, 1, 9, dtype=torch.float64)]
INPUTS = {"binary": ((), PB, YB), "multiclass": ((C,), PM, YM), "multilabel": ((C,), PM, YL)}
NAMES = {"auroc": "AUROC", "average_precision": "AveragePrecision", "roc": "ROC",
         "precision_recall_curve": "PrecisionRecallCurve"}


def _close(a, b):
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _close(x, y)
        return
    torch.testing.assert_close(torch.as_tensor(b).double(), torch.as_tensor(a).double(), atol=1e-6, rtol=1e-6,
                               equal_nan=True)


def _loop_confmat(scores, positive, thresholds):
    """The (T, K, 2, 2) matrices by a loop over thresholds (numpy, float64 comparison)."""
    s, pos = scores.double().numpy(), positive.numpy().astype(bool)
    out = np.zeros((len(thresholds), s.shape[1], 2, 2), dtype=np.int64)
    for i, t in enumerate(np.asarray(thresholds, dtype=np.float64)):
        pred = s >= t
        out[i, :, 0, 0], out[i, :, 0, 1] = (~pos & ~pred).sum(0), (~pos & pred).sum(0)
        out[i, :, 1, 0], out[i, :, 1, 1] = (pos & ~pred).sum(0), (pos & pred).sum(0)
    return out


def test_binned_counts_equal_a_loop_over_thresholds():
    thresholds = check_thresholds(torch.tensor([0.5, 0.0, 0.25, 1.0, 0.25, 0.7], dtype=torch.float64))  # repeated
    assert thresholds.tolist() == [0.0, 0.25, 0.25, 0.5, 0.7, 1.0]  # sorted, repeats kept
    got = _binned_stats(PM.double(), YL.bool(), None, thresholds)["confmat"]
    np.testing.assert_array_equal(got.numpy(), _loop_confmat(PM, YL, thresholds.tolist()))
    valid = torch.rand(N, C, generator=G) < 0.7
    got = _binned_stats(PM.double(), YL.bool(), valid, thresholds)["confmat"]
    assert int(got[0].sum()) == int(valid.sum())  # only the valid elements are counted


@pytest.mark.parametrize("thresholds", THRESHOLDS, ids=["int", "list", "tensor"])
@pytest.mark.parametrize("task", list(INPUTS))
@pytest.mark.parametrize("name", list(NAMES))
def test_binned_functions_equal_torchmetrics(name, task, thresholds):
    args, preds, target = INPUTS[task]
    averages = [None] if task == "binary" or name in ("roc", "precision_recall_curve") else \
        ["macro", "weighted", "none"] + (["micro"] if task == "multilabel" else [])
    for average in averages:
        kwargs = {} if average is None else {"average": average}
        ordered = sorted(thresholds) if isinstance(thresholds, list) else thresholds  # a set of operating points
        theirs = getattr(tmf, f"{task}_{name}")(preds, target, *args, thresholds=ordered, **kwargs)
        mine = getattr(F, f"{task}_{name}")(preds, target, *args, thresholds=thresholds, **kwargs)
        _close(theirs, mine)


@pytest.mark.parametrize("max_fpr", [0.1, 0.5])
def test_binned_partial_auroc_equals_torchmetrics(max_fpr):
    for thresholds in (5, 11, torch.linspace(0, 1, 33)):
        _close(tmf.binary_auroc(PB, YB, max_fpr=max_fpr, thresholds=thresholds),
               F.binary_auroc(PB, YB, max_fpr=max_fpr, thresholds=thresholds))


@pytest.mark.parametrize("task", list(INPUTS))
@pytest.mark.parametrize("name", ["auroc", "average_precision"])
def test_ignore_index_equals_scikit_learn_on_the_kept_samples(task, name):
    args, preds, target = INPUTS[task]
    target = target.clone()
    target[torch.rand(target.shape, generator=G) < 0.25] = -100
    oracle = roc_auc_score if name == "auroc" else average_precision_score
    fn = getattr(F, f"{task}_{name}")
    if task == "binary":
        keep = target != -100
        expected = oracle(target[keep].numpy(), preds[keep].numpy())
        assert fn(preds, target, ignore_index=-100).item() == pytest.approx(expected, abs=1e-12)
        return
    if task == "multiclass":
        keep = target != -100
        onehot = torch.nn.functional.one_hot(target[keep], C).numpy()
        expected = [oracle(onehot[:, c], preds[keep][:, c].numpy()) for c in range(C)]
    else:
        expected = [oracle(target[target[:, c] != -100, c].numpy(), preds[target[:, c] != -100, c].numpy())
                    for c in range(C)]
    got = fn(preds, target, *args, average="none", ignore_index=-100)
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-12)
    theirs = getattr(tmf, f"{task}_{name}")(preds, target, *args, average="none", ignore_index=-100)
    _close(theirs, got)


def test_multilabel_ignore_index_micro_and_curves_drop_the_elements():
    target = YL.clone()
    target[torch.rand(N, C, generator=G) < 0.3] = -1
    keep = target != -1
    expected = roc_auc_score(target[keep].numpy(), PM[keep].numpy())
    assert F.multilabel_auroc(PM, target, C, average="micro", ignore_index=-1).item() == pytest.approx(expected)
    fpr, tpr, thr = F.multilabel_roc(PM, target, C, ignore_index=-1)
    for c in range(C):
        kept = keep[:, c]
        want = F.binary_roc(PM[kept, c], target[kept, c])
        _close(want, (fpr[c], tpr[c], thr[c]))


@pytest.mark.parametrize("task", list(INPUTS))
@pytest.mark.parametrize("name", list(NAMES))
def test_binned_modules_stream_merge_and_equal_torchmetrics(task, name):
    args, preds, target = INPUTS[task]
    target = target.clone()
    target[::7] = -1
    cls = f"{task.capitalize()}{NAMES[name]}"
    make = partial(getattr(ours, cls), *args, thresholds=7, ignore_index=-1)
    batches = [(preds[i:i + 16], target[i:i + 16]) for i in range(0, N, 16)]
    theirs = getattr(tmc, cls)(*args, thresholds=7, ignore_index=-1)
    for b in batches:
        theirs.update(*b)
    expected = getattr(F, f"{task}_{name}")(preds, target, *args, thresholds=7, ignore_index=-1)
    _close(theirs.compute(), expected)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a batch may hold one class only (the batch value's warning)
        check_metric(make, batches, expected, max_examples=3)


def test_exact_ignore_index_modules_stream_and_merge():
    target = YL.clone()
    target[torch.rand(N, C, generator=G) < 0.2] = -1
    batches = [(PM[i:i + 16], target[i:i + 16]) for i in range(0, N, 16)]
    expected = F.multilabel_average_precision(PM, target, C, average="none", ignore_index=-1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_metric(partial(ours.MultilabelAveragePrecision, C, average="none", ignore_index=-1), batches, expected,
                     max_examples=3)
    yb = YB.clone()
    yb[::3] = 5
    check_metric(partial(ours.BinaryAUROC, ignore_index=5), [(PB[:24], yb[:24]), (PB[24:], yb[24:])],
                 F.binary_auroc(PB[yb != 5], yb[yb != 5]), max_examples=3)


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match=r"Expected `thresholds` to be None, an int >= 2.*got an int below 2 \(1\)"):
        F.binary_auroc(PB, YB, thresholds=1)
    with pytest.raises(ValueError, match=r"Expected `thresholds` .*got a list holding a value that is not a float in"):
        ours.MulticlassAUROC(C, thresholds=[0.1, 2.0])
    with pytest.raises(ValueError, match=r"Expected `thresholds` .*got a tensor that is not 1-D.*shape \(2, 2\)"):
        F.multilabel_roc(PM, YL, C, thresholds=torch.zeros(2, 2))
    with pytest.raises(ValueError, match=r"Expected `preds` to be probabilities in \[0, 1\] with `thresholds`.*"
                                         r"from_logits=True"):
        F.binary_average_precision(PB * 3 - 1, YB, thresholds=5)
    with pytest.raises(TypeError, match="Expected no `weight` with `thresholds`"):
        F.binary_auroc(PB, YB, thresholds=5, weight=torch.ones(N))
    with pytest.raises(ValueError, match="Expected `thresholds` and `ignore_index` to be None when `bins` is set"):
        ours.BinaryAUROC(bins=10, thresholds=5)
    with pytest.raises(ValueError, match="Expected `ignore_index` to be an int or None"):
        F.multiclass_auroc(PM, YM, C, ignore_index=1.5)
    with pytest.raises(TypeError, match="BinaryAUROCCI.*'thresholds'"):
        ours.BinaryAUROCCI(thresholds=5)
    check_rejects(partial(ours.BinaryAUROC, thresholds=5), [(PB[:8], YB[:8])], (PB[:4] + 2, YB[:4]), ValueError,
                  "probabilities")


def test_a_class_without_positives_is_nan_here_zero_in_torchmetrics():
    target = YM.clone()
    target[target == 2] = 0  # class 2 absent
    theirs = tmf.multiclass_auroc(PM, target, C, average="none", thresholds=5)
    with pytest.warns(UserWarning, match="undefined"):
        mine = F.multiclass_auroc(PM, target, C, average="none", thresholds=5)
    assert theirs[2].item() == 0.0 and torch.isnan(mine[2])
    _close(theirs[:2], mine[:2])
    with pytest.warns(UserWarning, match="undefined"):
        macro = F.multiclass_auroc(PM, target, C, thresholds=5)
    assert macro.item() == pytest.approx(mine[:2].mean().item())  # the undefined class is left out
