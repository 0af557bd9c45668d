"""Sample weights for Brier scores (against scikit-learn's ``sample_weight``) and calibration errors (against a
weighted loop over the bins; integer weights equal repeated rows), through the harness, and their errors."""
import math
from functools import partial

import pytest
import torch
from sklearn.metrics import brier_score_loss

from tests.helpers.metric_tester import assert_close, check_metric, check_rejects, concat
from torchmetrics_lite import BinaryBrierScore, BinaryCalibrationError, MulticlassBrierScore, MulticlassCalibrationError
from torchmetrics_lite.functional import (
    binary_brier_score,
    binary_calibration_error,
    multiclass_brier_score,
    multiclass_calibration_error,
)

GEN = torch.Generator().manual_seed(90)
SIZES = (11, 0, 30, 1, 7, 25)
N_BINS = 10


def _weight(n):
    w = torch.rand(n, generator=GEN, dtype=torch.float64) * 2
    w[:1] = 0.0
    return w


def _binary(dtype=torch.float64):
    out = []
    for n in SIZES:
        p = torch.rand(n, generator=GEN, dtype=torch.float64)
        p[: min(n, 3)] = torch.tensor([0.0, 0.5, 1.0], dtype=torch.float64)[: min(n, 3)]  # on bin edges
        out.append((p.to(dtype), (torch.rand(n, generator=GEN, dtype=torch.float64) < p**2).long(), _weight(n)))
    return out


def _multiclass(c):
    return [(torch.softmax(2 * torch.randn(n, c, generator=GEN, dtype=torch.float64), dim=1),
             torch.randint(0, c, (n,), generator=GEN), _weight(n)) for n in SIZES]


BIN, BIN32, MC3 = _binary(), _binary(torch.float32), _multiclass(3)


def weighted_binned_error(conf, correct, weight, n_bins, norm):
    """Textbook loop over the bins (i/n, (i+1)/n], the first one also holding 0, each sample counted w times."""
    total = sum(weight)
    gaps, shares = [], []
    for i in range(n_bins):
        lo, hi = i / n_bins, (i + 1) / n_bins
        members = [k for k, c in enumerate(conf) if (lo < c <= hi) or (i == 0 and c == 0.0)]
        w_bin = sum(weight[k] for k in members)
        if w_bin > 0:
            acc = sum(weight[k] * correct[k] for k in members) / w_bin
            avg_conf = sum(weight[k] * conf[k] for k in members) / w_bin
            gaps.append(abs(acc - avg_conf))
            shares.append(w_bin / total)
    if not shares:
        return math.nan
    if norm == "l1":
        return sum(g * s for g, s in zip(gaps, shares))
    if norm == "l2":
        return math.sqrt(sum(g * g * s for g, s in zip(gaps, shares)))
    return max(gaps)


def _weighted(fn, **options):
    return lambda preds, target, weight: fn(preds, target, weight=weight, **options)


def test_weighted_binary_brier_against_sklearn():
    for batches in (BIN, BIN32):
        p, y, w = concat(batches)
        expected = torch.tensor(brier_score_loss(y.numpy(), p.double().numpy(), sample_weight=w.numpy()))
        assert_close(binary_brier_score(p, y, weight=w), expected)
    check_metric(BinaryBrierScore, BIN, binary_brier_score(*concat(BIN)[:2], weight=concat(BIN)[2]),
                 batch_value=_weighted(binary_brier_score), max_examples=6)


def test_weighted_multiclass_brier_against_sklearn():
    p, y, w = concat(MC3)
    expected = torch.tensor(brier_score_loss(y.numpy(), p.numpy(), sample_weight=w.numpy(), labels=[0, 1, 2],
                                             scale_by_half=False))
    assert_close(multiclass_brier_score(p, y, weight=w), expected)
    check_metric(partial(MulticlassBrierScore, num_classes=3), MC3, expected,
                 batch_value=_weighted(multiclass_brier_score), max_examples=6)


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
def test_weighted_binary_calibration_error_against_loop(norm):
    p, y, w = concat(BIN)
    expected = torch.tensor(weighted_binned_error(p.tolist(), y.tolist(), w.tolist(), N_BINS, norm))
    assert_close(binary_calibration_error(p, y, n_bins=N_BINS, norm=norm, weight=w), expected)
    check_metric(partial(BinaryCalibrationError, n_bins=N_BINS, norm=norm), BIN, expected,
                 batch_value=_weighted(binary_calibration_error, n_bins=N_BINS, norm=norm), max_examples=6)
    p32, y32, w32 = concat(BIN32)
    expected32 = weighted_binned_error(p32.double().tolist(), y32.tolist(), w32.tolist(), N_BINS, norm)
    assert_close(binary_calibration_error(p32, y32, n_bins=N_BINS, norm=norm, weight=w32), torch.tensor(expected32))


@pytest.mark.parametrize("norm", ["l1", "max"])
def test_weighted_multiclass_calibration_error_against_loop(norm):
    p, y, w = concat(MC3)
    correct = (p.argmax(1) == y).long().tolist()
    expected = torch.tensor(weighted_binned_error(p.max(1).values.tolist(), correct, w.tolist(), N_BINS, norm))
    assert_close(multiclass_calibration_error(p, y, n_bins=N_BINS, norm=norm, weight=w), expected)
    check_metric(partial(MulticlassCalibrationError, num_classes=3, n_bins=N_BINS, norm=norm), MC3, expected,
                 batch_value=_weighted(multiclass_calibration_error, n_bins=N_BINS, norm=norm), max_examples=6)


def test_integer_weights_equal_repeated_rows_and_mixed_streams():
    p, y, _ = concat(BIN)
    counts = torch.randint(0, 4, (p.shape[0],), generator=GEN)
    for norm in ("l1", "l2", "max"):
        assert_close(binary_calibration_error(p, y, weight=counts, norm=norm),
                     binary_calibration_error(p.repeat_interleave(counts), y.repeat_interleave(counts), norm=norm))
    assert_close(binary_brier_score(p, y, weight=counts),
                 binary_brier_score(p.repeat_interleave(counts), y.repeat_interleave(counts)))
    m = BinaryCalibrationError(n_bins=N_BINS)  # unweighted batches weigh one each
    m.update(*BIN[0][:2])
    m.update(*BIN[2])
    ones = torch.ones(BIN[0][0].shape[0], dtype=torch.float64)
    p2, y2, w2 = (torch.cat([a, b]) for a, b in zip((BIN[0][0], BIN[0][1], ones), BIN[2]))
    assert_close(m.compute(), binary_calibration_error(p2, y2, n_bins=N_BINS, weight=w2))


@pytest.mark.parametrize("cls", [BinaryBrierScore, BinaryCalibrationError])
@pytest.mark.parametrize("weight, exc, match", [
    (torch.tensor([1.0, -2.0]), ValueError, r"`weight` to be non-negative and finite, got value -2.0"),
    (torch.ones(5), ValueError, r"`weight` to hold one value per sample, shape \(2,\), got shape \(5,\)"),
    (torch.ones(2, dtype=torch.complex64), TypeError, r"`weight` to have a real \(integer or floating\), non-bool"),
])
def test_rejects_bad_weights(cls, weight, exc, match):
    check_rejects(cls, BIN[:2], (torch.tensor([0.2, 0.7], dtype=torch.float64), torch.tensor([0, 1]), weight), exc,
                  match)
