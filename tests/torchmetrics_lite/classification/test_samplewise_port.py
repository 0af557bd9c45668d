"""``multidim_average="samplewise"`` on exact match (modules and functions, every task) and on the Hamming and
NPV functions, against torchmetrics 1.9 (same argument, same behaviour in function and module)."""
import pytest
import torch

import torchmetrics_lite as ours
import torchmetrics_lite.functional as ours_f

tm_c = pytest.importorskip("torchmetrics.classification")
tm_f = pytest.importorskip("torchmetrics.functional.classification")

G = torch.Generator().manual_seed(35)
BIN = (torch.randint(0, 2, (5, 7), generator=G), torch.randint(0, 2, (5, 7), generator=G))
MC = (torch.randint(0, 3, (5, 4), generator=G), torch.randint(0, 3, (5, 4), generator=G))
ML = (torch.randint(0, 2, (5, 3, 4), generator=G), torch.randint(0, 2, (5, 3, 4), generator=G))
MC[1][0], ML[1][0] = MC[0][0], ML[0][0]  # one sample entirely right
CASES = [
    ("binary_hamming_distance", BIN, {}), ("binary_negative_predictive_value", BIN, {}),
    ("multiclass_hamming_distance", MC, {"num_classes": 3}),
    ("multiclass_negative_predictive_value", MC, {"num_classes": 3}),
    ("multilabel_negative_predictive_value", ML, {"num_labels": 3}),
    ("multiclass_exact_match", MC, {"num_classes": 3}), ("multilabel_exact_match", ML, {"num_labels": 3}),
]


def _close(mine, theirs):
    assert mine.shape == theirs.shape and mine.dtype == torch.float64
    torch.testing.assert_close(mine.float(), theirs, rtol=0, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("name, data, kw", CASES, ids=[c[0] for c in CASES])
def test_samplewise_functions_are_torchmetrics(name, data, kw):
    averages = [{}] if "binary" in name or "exact" in name else [{"average": a} for a in ("micro", "macro", None)]
    for extra in averages:
        for ignore in ({}, {"ignore_index": 1} if "multiclass" in name else {}):
            args = {**kw, **extra, **ignore, "multidim_average": "samplewise"}
            _close(getattr(ours_f, name)(*data, **args), getattr(tm_f, name)(*data, **args))


@pytest.mark.parametrize("name, data, kw", CASES[-2:], ids=["MulticlassExactMatch", "MultilabelExactMatch"])
def test_samplewise_exact_match_modules_stream_as_torchmetrics(name, data, kw):
    cls = "MulticlassExactMatch" if "multiclass" in name else "MultilabelExactMatch"
    mine, theirs = getattr(ours, cls)(**kw, multidim_average="samplewise"), getattr(tm_c, cls)(**kw,
                                                                                               multidim_average="samplewise")
    for lo, hi in ((0, 2), (2, 5)):
        batch = tuple(t[lo:hi] for t in data)
        _close(mine(*batch), theirs(*batch))
    _close(mine.compute(), theirs.compute())
    assert mine.compute().shape == (5,)
    task = "multiclass" if "multiclass" in name else "multilabel"
    _close(ours.ExactMatch(task=task, **kw, multidim_average="samplewise")(*data), theirs.compute())


def test_samplewise_errors_name_the_argument():
    with pytest.raises(ValueError, match=r"Expected `target` to have at least 2 dimensions with multidim_average="
                                         r"'samplewise'"):
        ours_f.multiclass_exact_match(torch.tensor([0, 1]), torch.tensor([0, 1]), 3, multidim_average="samplewise")
    with pytest.raises(TypeError, match=r"Expected no `weight` with multidim_average='samplewise'"):
        ours_f.multilabel_exact_match(*ML, 3, multidim_average="samplewise", weight=torch.ones(5, 4))
    with pytest.raises(ValueError, match=r"Expected `weighted=False` with multidim_average='samplewise'"):
        ours.MulticlassExactMatch(3, weighted=True, multidim_average="samplewise")
    with pytest.raises(ValueError, match=r"multidim_average"):
        ours.MultilabelExactMatch(3, multidim_average="per-sample")
    m = ours.MulticlassExactMatch(3, multidim_average="samplewise")
    with pytest.raises(ValueError):
        m.update(torch.tensor([0, 1]), torch.tensor([0, 1]))  # 1-D: no extra dimension
    assert m.local_state()["correct"].shape == (0,)  # nothing appended


@pytest.mark.parametrize("name", ["multiclass_precision", "multiclass_recall", "multiclass_f1_score"])
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", None])
def test_a_sample_whose_every_target_is_ignored_is_torchmetrics_value(name, average):
    """macro/weighted over no counted class: torchmetrics' 0 whatever zero_division (it was zero_division)."""
    preds, target = torch.tensor([[0, 1, 2], [1, 1, 0]]), torch.tensor([[0, 1, 1], [-1, -1, -1]])
    for zero_division in (0.0, 1.0):
        args = {"average": average, "multidim_average": "samplewise", "ignore_index": -1,
                "zero_division": zero_division}
        _close(getattr(ours_f, name)(preds, target, 3, **args), getattr(tm_f, name)(preds, target, 3, **args))
    nan = getattr(ours_f, name)(preds, target, 3, average="macro", multidim_average="samplewise", ignore_index=-1,
                                zero_division=float("nan"))
    assert torch.isnan(nan[1])  # nan asks for undefined values
