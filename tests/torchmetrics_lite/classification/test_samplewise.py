"""torchmetrics' ``multidim_average="samplewise"`` on the stat-score metrics (issue 21 item 12): one score per sample of
``(N, ...)`` inputs. Oracles: scikit-learn on each sample's elements, torchmetrics 1.9 on every average and task,
the harness (a ``cat`` state of per-sample confusion matrices: streaming, merge, persistence) and a distributed
case (``tests/helpers/classification/samplewise.py``, spawned by ``test_classification.py``)."""
from functools import partial

import numpy as np
import pytest
import torch
from sklearn.metrics import f1_score, precision_score, recall_score

import torchmetrics_lite as ours
from tests.helpers.classification.samplewise import PB, PL, PM, YB, YL, YM, C, H, N
from tests.helpers.metric_tester import check_metric, check_rejects
from torchmetrics_lite import functional as F

tm = pytest.importorskip("torchmetrics")
import torchmetrics.classification as tmc  # noqa: E402
import torchmetrics.functional.classification as tmf  # noqa: E402

TASKS = {"binary": ((), PB, YB), "multiclass": ((C,), PM, YM), "multilabel": ((C,), PL, YL)}
SCORES = ["stat_scores", "accuracy", "precision", "recall", "f1_score", "specificity"]
CLASSES = {"stat_scores": "StatScores", "accuracy": "Accuracy", "precision": "Precision", "recall": "Recall",
           "f1_score": "F1Score", "specificity": "Specificity"}


def _close(actual, expected):
    torch.testing.assert_close(actual.double(), torch.as_tensor(expected).double(), atol=1e-6, rtol=1e-6,
                               equal_nan=True)


def test_binary_and_multiclass_per_sample_equal_scikit_learn_on_each_sample():
    got = F.binary_f1_score(PB, YB, multidim_average="samplewise")
    expected = [f1_score(YB[i].numpy(), (PB[i] > 0.5).long().numpy(), zero_division=0) for i in range(N)]
    _close(got, expected)
    labels = PM.argmax(1)
    for average, fn in (("macro", precision_score), ("weighted", recall_score)):
        got = getattr(F, f"multiclass_{fn.__name__.split('_')[0]}")(PM, YM, C, average=average,
                                                                    multidim_average="samplewise")
        # scikit-learn's macro runs over the labels present in the sample (as ours and torchmetrics')
        expected = [fn(YM[i].numpy(), labels[i].numpy(), average=average, zero_division=0) for i in range(N)]
        _close(got, expected)


@pytest.mark.parametrize("task", list(TASKS))
@pytest.mark.parametrize("name", SCORES)
def test_functions_equal_torchmetrics(task, name):
    args, preds, target = TASKS[task]
    target = target.clone()
    target.view(-1)[::7] = -1
    averages = [None] if task == "binary" else ["micro", "macro", "weighted", "none"]
    for average in averages:
        if task == "multilabel" and name == "stat_scores" and average == "weighted":
            continue  # torchmetrics' bug there (the next test)
        kwargs = {} if average is None else {"average": average}
        theirs = getattr(tmf, f"{task}_{name}")(preds, target, *args, multidim_average="samplewise", ignore_index=-1,
                                                **kwargs)
        mine = getattr(F, f"{task}_{name}")(preds, target, *args, multidim_average="samplewise", ignore_index=-1,
                                            **kwargs)
        assert mine.shape == theirs.shape
        _close(mine, theirs)


def test_multilabel_weighted_stat_scores_per_sample_here_over_every_sample_there():
    mine = F.multilabel_stat_scores(PL, YL, C, average="weighted", multidim_average="samplewise")
    theirs = tmf.multilabel_stat_scores(PL, YL, C, average="weighted", multidim_average="samplewise")
    per_label = F.multilabel_stat_scores(PL, YL, C, average="none", multidim_average="samplewise").double()
    support = per_label[..., 4]
    expected = (per_label * support[..., None]).sum(1) / support.sum(1, keepdim=True)  # each sample's own mean
    _close(mine, expected)
    _close(theirs, (per_label * support[..., None]).sum(1) / support.sum())  # torchmetrics: over all samples


@pytest.mark.parametrize("task", list(TASKS))
@pytest.mark.parametrize("name", ["stat_scores", "f1_score"])
def test_modules_stream_merge_and_equal_torchmetrics(task, name):
    args, preds, target = TASKS[task]
    kwargs = {} if task == "binary" else {"average": "macro"}
    make = partial(getattr(ours, f"{task.capitalize()}{CLASSES[name]}"), *args, multidim_average="samplewise",
                   **kwargs)
    batches = [(preds[i:i + 3], target[i:i + 3]) for i in range(0, N, 3)]
    expected = getattr(F, f"{task}_{name}")(preds, target, *args, multidim_average="samplewise", **kwargs)
    theirs = getattr(tmc, f"{task.capitalize()}{CLASSES[name]}")(*args, multidim_average="samplewise", **kwargs)
    for b in [(preds[:4], target[:4]), (preds[4:], target[4:])]:  # torchmetrics fails on a 1-sample batch
        theirs.update(*b)
    _close(expected, theirs.compute())
    check_metric(make, batches, expected, max_examples=3)


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="Expected `multidim_average` to be one of"):
        F.binary_accuracy(PB, YB, multidim_average="sample")
    with pytest.raises(ValueError, match="Expected `preds` to have at least 2 dimensions with multidim_average"):
        F.binary_precision(PB[:, 0], YB[:, 0], multidim_average="samplewise")
    with pytest.raises(ValueError, match="Expected `preds` to have at least 3 dimensions"):
        ours.MultilabelRecall(C, multidim_average="samplewise").update(PL[..., 0], YL[..., 0])
    with pytest.raises(ValueError, match="Expected `target` to have at least 2 dimensions"):
        F.multiclass_accuracy(PM[..., 0], YM[:, 0], C, multidim_average="samplewise")
    with pytest.raises(TypeError, match="Expected no `weight` with multidim_average='samplewise'"):
        F.binary_recall(PB, YB, multidim_average="samplewise", weight=torch.ones(N, H))
    with pytest.raises(ValueError, match="Expected `weighted=False` with multidim_average='samplewise'"):
        ours.BinaryAccuracy(weighted=True, multidim_average="samplewise")
    with pytest.raises(TypeError, match="BinaryJaccardIndex.*'multidim_average': this metric has only"):
        ours.BinaryJaccardIndex(multidim_average="samplewise")
    check_rejects(partial(ours.BinaryAccuracy, multidim_average="samplewise"), [(PB[:2], YB[:2])],
                  (PB[:2, 0], YB[:2, 0]), ValueError, "at least 2 dimensions")


def test_global_is_the_default_and_unchanged():
    for task, (args, preds, target) in TASKS.items():
        fn = getattr(F, f"{task}_accuracy")
        _close(fn(preds, target, *args, multidim_average="global"), fn(preds, target, *args))
    assert np.isclose(F.binary_accuracy(PB, YB).item(), ((PB > 0.5).long() == YB).double().mean().item())
