"""Uneven shards (an empty one among them) of regression and calibration inputs for the two families'
distributed tests (``regression/test_regression_distributed.py``, ``calibration/test_calibration_distributed.py``),
drawn from one generator in one order, with their weighted copies (a third, weight column, zeros included)."""
import torch

GEN = torch.Generator().manual_seed(66)
SIZES = (13, 0, 40, 2, 9, 31, 5)


def _regression(d):
    out = []
    for n in SIZES:
        target = 1e4 + torch.randn(n, d, generator=GEN, dtype=torch.float64)  # large offset: Chan matters
        preds = target + 0.5 * torch.randn(n, d, generator=GEN, dtype=torch.float64)
        out.append((preds.float().squeeze(1), target.float().squeeze(1)) if d == 1 else (preds, target))
    return out


def _binary():
    return [(torch.rand(n, generator=GEN, dtype=torch.float64), torch.randint(0, 2, (n,), generator=GEN))
            for n in SIZES]


def _multiclass(c):
    return [(torch.softmax(torch.randn(n, c, generator=GEN, dtype=torch.float64), 1),
             torch.randint(0, c, (n,), generator=GEN)) for n in SIZES]


def _weighted(batches):
    """The same batches with a third, weight column (zeros included)."""
    return [(*b, torch.rand(b[0].shape[0], generator=GEN, dtype=torch.float64).round(decimals=1)) for b in batches]


R1, R3, BIN, MC = _regression(1), _regression(2), _binary(), _multiclass(4)
W_R1, W_R3, W_BIN, W_MC = _weighted(R1), _weighted(R3), _weighted(BIN), _weighted(MC)
TIGHT = {"atol": 1e-9, "rtol": 1e-9}
