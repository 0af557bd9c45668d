"""``ignore_index`` on the calibration error (modules and functions, binary and multiclass), against torchmetrics
1.9: the samples whose target equals it are left out, streamed or not."""
import warnings

import pytest
import torch

import torchmetrics_lite as ours
import torchmetrics_lite.functional as ours_f

tm_c = pytest.importorskip("torchmetrics.classification")


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
def test_ignore_index_is_torchmetrics(norm):
    gen = torch.Generator().manual_seed(35)
    cases = [("Binary", {}, lambda: (torch.rand(30, generator=gen), torch.randint(-1, 2, (30,), generator=gen))),
             ("Multiclass", {"num_classes": 4},
              lambda: (torch.rand(30, 4, generator=gen).softmax(1), torch.randint(-1, 4, (30,), generator=gen)))]
    for task, kw, batch in cases:
        args = {**kw, "n_bins": 7, "norm": norm, "ignore_index": -1}
        theirs = getattr(tm_c, f"{task}CalibrationError")(**args)
        mine = getattr(ours, f"{task}CalibrationError")(**args)
        batches = [batch() for _ in range(3)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for preds, target in batches:
                theirs.update(preds, target)
                mine.update(preds, target)
            torch.testing.assert_close(mine.compute(), theirs.compute().double(), rtol=0, atol=1e-6)
        preds, target = batches[0]
        fn = getattr(ours_f, f"{task.lower()}_calibration_error")
        kept = target != -1
        plain = {k: v for k, v in args.items() if k != "ignore_index"}
        torch.testing.assert_close(fn(preds, target, **args), fn(preds[kept], target[kept], **plain))


def test_bad_ignore_index_is_refused():
    with pytest.raises(ValueError, match=r"Expected `ignore_index` to be an int or None, got 'x'"):
        ours.BinaryCalibrationError(ignore_index="x")
    with pytest.raises(ValueError, match=r"Expected `ignore_index` to be an int or None, got 1.5"):
        ours_f.multiclass_calibration_error(torch.rand(3, 2).softmax(1), torch.tensor([0, 1, 1]), ignore_index=1.5)
