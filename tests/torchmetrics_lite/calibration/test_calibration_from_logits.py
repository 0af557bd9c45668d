"""``from_logits=True`` on the binary/multiclass calibration error (issue 35): a sigmoid / softmax in the scores' own
dtype first, torchmetrics' number on logits (which it squashes itself); without it, scores outside [0, 1] raise a
``ValueError`` that names ``from_logits=True``."""
import pytest
import torch

import torchmetrics_lite as ours
import torchmetrics_lite.functional as F

G = torch.Generator().manual_seed(353)
N, C = 50, 4
BIN = (torch.randn(N, generator=G) * 3, torch.randint(0, 2, (N,), generator=G))
MC = (torch.randn(N, C, generator=G) * 3, torch.randint(0, C, (N,), generator=G))


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_from_logits_gives_torchmetrics_number(norm, dtype):
    tm_fc = pytest.importorskip("torchmetrics.functional.classification")
    preds, target = BIN[0].to(dtype), BIN[1]
    mine = F.binary_calibration_error(preds, target, norm=norm, n_bins=10, from_logits=True)
    assert torch.allclose(mine, tm_fc.binary_calibration_error(preds, target, norm=norm, n_bins=10).double(),
                          atol=1e-6)
    assert torch.equal(mine, F.binary_calibration_error(preds.sigmoid(), target, norm=norm, n_bins=10))
    preds, target = MC[0].to(dtype), MC[1]
    mine = F.multiclass_calibration_error(preds, target, num_classes=C, norm=norm, from_logits=True)
    theirs = tm_fc.multiclass_calibration_error(preds, target, num_classes=C, norm=norm)
    assert torch.allclose(mine, theirs.double(), atol=1e-6)
    assert torch.equal(mine, F.multiclass_calibration_error(preds.softmax(1), target, num_classes=C, norm=norm))


def test_modules_stream_from_logits_as_torchmetrics():
    tm = pytest.importorskip("torchmetrics")
    for mine, theirs, (preds, target) in (
            (ours.BinaryCalibrationError(n_bins=8, from_logits=True), tm.classification.BinaryCalibrationError(8),
             BIN),
            (ours.MulticlassCalibrationError(C, from_logits=True, ignore_index=0),
             tm.classification.MulticlassCalibrationError(C, ignore_index=0), MC)):
        for half in (slice(0, N // 2), slice(N // 2, N)):
            mine.update(preds[half], target[half])
            theirs.update(preds[half], target[half])
        assert torch.allclose(mine.compute(), theirs.compute().double(), atol=1e-6)


def test_scores_outside_unit_interval_name_from_logits_and_leave_the_state():
    match = r"`preds` to lie in \[0.0, 1.0\].*pass `from_logits=True` for logits"
    with pytest.raises(ValueError, match=match):
        F.binary_calibration_error(*BIN)
    with pytest.raises(ValueError, match=match):
        F.multiclass_calibration_error(*MC, num_classes=C)
    m = ours.BinaryCalibrationError()
    m.update(BIN[0].sigmoid(), BIN[1])
    before = m.compute()
    with pytest.raises(ValueError, match=match):
        m.update(*BIN)
    assert torch.equal(m.compute(), before)
    with pytest.raises(ValueError, match=r"`preds` to contain no NaN"):  # a NaN logit stays a NaN score
        F.binary_calibration_error(torch.tensor([0.0, float("nan")]), torch.tensor([0, 1]), from_logits=True)
    with pytest.raises(TypeError, match=r"`preds` to have a floating dtype"):
        F.binary_calibration_error(torch.tensor([0, 3]), torch.tensor([0, 1]), from_logits=True)
