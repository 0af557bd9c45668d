"""``(N, C, ...)`` scores on the multiclass/multilabel AUROC family (issue 35): flattened into samples as torchmetrics
does (``preds.movedim(1, -1).reshape(-1, C)``; the target ``reshape(-1)`` (multiclass) or as the scores
(multilabel)), by the functions and the modules, exact and binned, with ``ignore_index`` and weights."""
import pytest
import torch

import torchmetrics_lite as ours
import torchmetrics_lite.functional as F

G = torch.Generator().manual_seed(351)
C, N, H, W = 3, 6, 4, 2
MC_P = torch.rand(N, C, H, W, generator=G).softmax(1)
MC_T = torch.randint(0, C, (N, H, W), generator=G)
ML_P = torch.rand(N, C, H, W, generator=G)
ML_T = torch.randint(0, 2, (N, C, H, W), generator=G)
MC_T[0, :2], ML_T[0, :, 0] = -1, -1  # dropped with ignore_index=-1
FLAT_MC = (MC_P.movedim(1, -1).reshape(-1, C), MC_T.reshape(-1))
FLAT_ML = (ML_P.movedim(1, -1).reshape(-1, C), ML_T.movedim(1, -1).reshape(-1, C))
NAMES = ["auroc", "average_precision", "roc", "precision_recall_curve", "recall_at_fixed_precision"]
OPTIONS = [{"ignore_index": -1}, {"thresholds": 7, "ignore_index": -1}]


def _same(a, b):
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return torch.allclose(a.double(), b.double(), equal_nan=True, atol=1e-6)


def _extra(name):
    return {"min_precision": 0.5} if name.endswith("fixed_precision") else {}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_functions_flatten_as_torchmetrics(name, options):
    tm_fc = pytest.importorskip("torchmetrics.functional.classification")
    for task, (preds, target), flat, size in (("multiclass", (MC_P, MC_T), FLAT_MC, {"num_classes": C}),
                                              ("multilabel", (ML_P, ML_T), FLAT_ML, {"num_labels": C})):
        kw = {**size, **options, **_extra(name)}
        mine = getattr(F, f"{task}_{name}")(preds, target, **kw)
        assert _same(mine, getattr(F, f"{task}_{name}")(*flat, **kw)), (task, name)
        if name == "auroc":  # torchmetrics' number as well
            assert _same(mine, getattr(tm_fc, f"{task}_{name}")(preds, target, **kw)), (task, name)


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_modules_flatten_as_torchmetrics_streamed(options):
    tm = pytest.importorskip("torchmetrics")
    for cls, (preds, target), size in (("MulticlassAUROC", (MC_P, MC_T), {"num_classes": C}),
                                       ("MultilabelAveragePrecision", (ML_P, ML_T), {"num_labels": C})):
        mine, theirs = getattr(ours, cls)(**size, **options), getattr(tm.classification, cls)(**size, **options)
        for half in (slice(0, N // 2), slice(N // 2, N)):
            mine.update(preds[half], target[half])
            theirs.update(preds[half], target[half])
        assert torch.allclose(mine.compute().double(), theirs.compute().double(), atol=1e-6), cls


def test_weights_of_the_samples_shape_flatten_with_them_and_bad_shapes_still_fail():
    weight = torch.rand(N, H, W, generator=G)
    assert _same(F.multiclass_auroc(MC_P, MC_T, num_classes=C, weight=weight, ignore_index=-1),
                 F.multiclass_auroc(*FLAT_MC, num_classes=C, weight=weight.reshape(-1), ignore_index=-1))
    with pytest.raises(ValueError, match=r"`target` to have shape \(6, 4, 2\) for `preds` of shape \(6, 3, 4, 2\) "
                                         r"\(the extra dimensions are flattened into samples\), got \(6, 2, 2\)"):
        F.multiclass_auroc(MC_P, MC_T[:, :2], num_classes=C)
    with pytest.raises(ValueError, match=r"`target` to have shape \(6, 3, 4, 2\) .*got \(6, 3, 4, 1\)"):
        F.multilabel_auroc(ML_P, ML_T[..., :1], num_labels=C, thresholds=4)
    m = ours.MulticlassAUROC(num_classes=C, ignore_index=-1)
    m.update(MC_P, MC_T)
    before = m.compute()
    with pytest.raises(ValueError, match="flattened into samples"):
        m.update(MC_P, MC_T[:, :2])
    assert torch.equal(m.compute(), before)  # the rejected update left the state as it was
