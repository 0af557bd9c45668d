"""Integer scores on the AUROC family (issue 35): taken as float64, exactly (ranks depend only on order), by the
functions and the modules, as torchmetrics' modules take them; int64 beyond 2**53 is refused (a rounded cast could
tie two scores)."""
import pytest
import torch

import torchmetrics_lite as ours
import torchmetrics_lite.functional as F

G = torch.Generator().manual_seed(35)
N, C = 40, 3
BIN_T = torch.randint(0, 2, (N,), generator=G)
BIN_P = torch.randint(-5, 6, (N,), generator=G)
MC_T = torch.arange(N) % C
MC_P = torch.randint(0, 9, (N, C), generator=G)
ML_T = torch.randint(0, 2, (N, C), generator=G)
ML_P = torch.randint(-3, 4, (N, C), generator=G)
CASES = [
    ("binary_auroc", BIN_P, BIN_T, {}), ("binary_average_precision", BIN_P, BIN_T, {}),
    ("binary_roc", BIN_P, BIN_T, {}), ("binary_precision_recall_curve", BIN_P, BIN_T, {}),
    ("binary_eer", BIN_P, BIN_T, {}), ("binary_logauc", BIN_P, BIN_T, {}),
    ("binary_recall_at_fixed_precision", BIN_P, BIN_T, {"min_precision": 0.5}),
    ("multiclass_auroc", MC_P, MC_T, {"num_classes": C, "from_logits": True}),
    ("multiclass_average_precision", MC_P, MC_T, {"num_classes": C, "from_logits": True}),
    ("multiclass_roc", MC_P, MC_T, {"num_classes": C, "from_logits": True}),
    ("multilabel_auroc", ML_P, ML_T, {"num_labels": C}),
    ("multilabel_average_precision", ML_P, ML_T, {"num_labels": C}),
    ("multilabel_precision_recall_curve", ML_P, ML_T, {"num_labels": C}),
]


def _same(a, b):
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return torch.allclose(a.double(), b.double(), equal_nan=True, atol=0, rtol=0)


@pytest.mark.parametrize("name,preds,target,kwargs", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int8])
def test_integer_scores_equal_their_float64(name, preds, target, kwargs, dtype):
    fn = getattr(F, name)
    assert _same(fn(preds.to(dtype), target, **kwargs), fn(preds.double(), target, **kwargs))


def test_modules_take_integer_scores_as_torchmetrics():  # its multilabel one: without its dtype check
    tm = pytest.importorskip("torchmetrics")
    pairs = [(ours.BinaryAUROC(), tm.classification.BinaryAUROC(), BIN_P.clamp(0, 1)),
             (ours.MultilabelAUROC(num_labels=C), tm.classification.MultilabelAUROC(num_labels=C, validate_args=False),
              ML_P.clamp(0, 1))]
    for mine, theirs, preds in pairs:
        target = BIN_T if preds.dim() == 1 else ML_T
        for half in (slice(0, N // 2), slice(N // 2, N)):
            mine.update(preds[half], target[half])
            theirs.update(preds[half], target[half])
        assert torch.allclose(mine.compute().double(), theirs.compute().double(), atol=1e-6)


def test_int64_keeps_its_order_up_to_2_53_and_is_refused_beyond():
    target = torch.tensor([0, 1, 0, 1])
    big = torch.tensor([2 ** 53 - 1, 2 ** 53, -(2 ** 53), 5])
    assert F.binary_auroc(big, target).item() == F.binary_auroc(torch.tensor([2., 3., 0., 1.]), target).item()
    m = ours.MultilabelAUROC(num_labels=2)
    m.update(torch.tensor([[0, 1], [1, 0]]), torch.tensor([[0, 1], [1, 0]]))
    before = m.compute()
    for bad in ([[2 ** 53 + 1, 0], [0, 1]], [[-(2 ** 53) - 1, 0], [0, 1]]):
        with pytest.raises(ValueError, match=r"integer `preds` to lie in \[-2\*\*53, 2\*\*53\]"):
            m.update(torch.tensor(bad), torch.tensor([[0, 1], [1, 0]]))
        with pytest.raises(ValueError, match=r"integer `preds` to lie in \[-2\*\*53, 2\*\*53\]"):
            F.multilabel_auroc(torch.tensor(bad), torch.tensor([[0, 1], [1, 0]]), num_labels=2)
    assert torch.equal(m.compute(), before)  # the rejected update left the state as it was
