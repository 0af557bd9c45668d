"""Brier score against scikit-learn, binned calibration errors against a hand-written loop over bins."""
import math
from functools import partial

import numpy as np
import pytest
import torch
from sklearn.metrics import brier_score_loss

from tests.helpers.metric_tester import assert_close, check_metric, check_rejects, concat
from torchmetrics_lite import (
    BinaryBrierScore,
    BinaryCalibrationError,
    MetricCollection,
    MulticlassBrierScore,
    MulticlassCalibrationError,
    _backend,
)
from torchmetrics_lite._xp import NUMPY, torch_namespace
from torchmetrics_lite.functional import (
    binary_brier_score,
    binary_calibration_error,
    multiclass_brier_score,
    multiclass_calibration_error,
)
from torchmetrics_lite.functional import calibration as C

GEN = torch.Generator().manual_seed(16)
SIZES = (11, 0, 30, 1, 7, 25)
N_BINS = 10
# confidences exactly on bin boundaries, at 0 and at 1, mixed into random ones
EDGES = torch.tensor([0.0, 0.1, 0.2, 0.5, 0.9, 1.0, 0.3, 0.7], dtype=torch.float64)


def _binary_batches(dtype=torch.float64):
    out = []
    for n in SIZES:
        p = torch.rand(n, generator=GEN, dtype=torch.float64)
        p[: min(n, 4)] = EDGES[torch.randint(0, len(EDGES), (min(n, 4),), generator=GEN)]
        y = (torch.rand(n, generator=GEN, dtype=torch.float64) < p**2).long()  # overconfident on purpose
        out.append((p.to(dtype), y))
    return out


def _multiclass_batches(c):
    out = []
    for n in SIZES:
        p = torch.softmax(2 * torch.randn(n, c, generator=GEN, dtype=torch.float64), dim=1)
        if n >= 2:
            p[0] = torch.full((c,), 1.0 / c, dtype=torch.float64)  # all tied: top-1 is class 0
            p[1] = torch.zeros(c, dtype=torch.float64)
            p[1, 1] = 1.0
        y = torch.randint(0, c, (n,), generator=GEN)
        out.append((p, y))
    return out


BIN = _binary_batches()
BIN32 = _binary_batches(torch.float32)
MC3, MC2 = _multiclass_batches(3), _multiclass_batches(2)


def _np(batches):
    preds, target = concat(batches)
    return preds.double().numpy(), target.numpy()


def binned_error_oracle(conf, correct, n_bins, norm):
    """Textbook loop over the bins (i/n, (i+1)/n], the first one also holding 0."""
    gaps, weights = [], []
    for i in range(n_bins):
        lo, hi = i / n_bins, (i + 1) / n_bins
        members = [k for k, c in enumerate(conf) if (lo < c <= hi) or (i == 0 and c == 0.0)]
        if members:
            acc = sum(correct[k] for k in members) / len(members)
            avg_conf = sum(conf[k] for k in members) / len(members)
            gaps.append(abs(acc - avg_conf))
            weights.append(len(members) / len(conf))
    if not weights:
        return math.nan
    if norm == "l1":
        return sum(g * w for g, w in zip(gaps, weights))
    if norm == "l2":
        return math.sqrt(sum(g * g * w for g, w in zip(gaps, weights)))
    return max(gaps)


def _binary_oracle(batches, norm, n_bins=N_BINS):
    p, y = _np(batches)
    return torch.tensor(binned_error_oracle(p.tolist(), y.tolist(), n_bins, norm), dtype=torch.float64)


def _multiclass_oracle(batches, norm, n_bins=N_BINS):
    p, y = _np(batches)
    top = p.argmax(1)  # numpy: first maximal index, as torch.max
    return torch.tensor(binned_error_oracle(p.max(1).tolist(), (top == y).tolist(), n_bins, norm),
                        dtype=torch.float64)


# ------------------------------------------------------------------------------------------------- Brier
def test_binary_brier_against_sklearn():
    p, y = _np(BIN)
    expected = torch.tensor(brier_score_loss(y, p), dtype=torch.float64)
    assert_close(binary_brier_score(*concat(BIN)), expected)
    check_metric(BinaryBrierScore, BIN, expected, batch_value=binary_brier_score, max_examples=8)
    p32, y32 = _np(BIN32)
    assert_close(binary_brier_score(*concat(BIN32)), torch.tensor(brier_score_loss(y32, p32), dtype=torch.float64))


@pytest.mark.parametrize("batches, c", [(MC3, 3), (MC2, 2)], ids=["3 classes", "2 classes"])
def test_multiclass_brier_against_sklearn(batches, c):
    p, y = _np(batches)
    expected = torch.tensor(brier_score_loss(y, p, labels=list(range(c)), scale_by_half=False), dtype=torch.float64)
    assert_close(multiclass_brier_score(*concat(batches)), expected)
    check_metric(partial(MulticlassBrierScore, num_classes=c), batches, expected,
                 batch_value=multiclass_brier_score, max_examples=8)
    if c >= 3:  # scikit-learn's default for three or more classes is the unscaled sum
        assert_close(expected, torch.tensor(brier_score_loss(y, p, labels=list(range(c))), dtype=torch.float64))


# ------------------------------------------------------------------------------------- calibration error
@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
def test_binary_calibration_error_against_loop(norm):
    expected = _binary_oracle(BIN, norm)
    assert_close(binary_calibration_error(*concat(BIN), n_bins=N_BINS, norm=norm), expected)
    check_metric(partial(BinaryCalibrationError, n_bins=N_BINS, norm=norm), BIN, expected,
                 batch_value=partial(binary_calibration_error, n_bins=N_BINS, norm=norm), max_examples=8)


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("batches, c", [(MC3, 3), (MC2, 2)], ids=["3 classes", "2 classes"])
def test_multiclass_calibration_error_against_loop(batches, c, norm):
    expected = _multiclass_oracle(batches, norm)
    assert_close(multiclass_calibration_error(*concat(batches), n_bins=N_BINS, norm=norm), expected)
    check_metric(partial(MulticlassCalibrationError, num_classes=c, n_bins=N_BINS, norm=norm), batches, expected,
                 batch_value=partial(multiclass_calibration_error, n_bins=N_BINS, norm=norm), max_examples=8)


def test_bin_edges_are_right_closed_and_zero_in_first_bin():
    # one sample per boundary: 0 and 0.5 go to bin 0 (with n_bins=2), 0.5 + tiny and 1.0 to bin 1
    preds = torch.tensor([0.0, 0.5, 0.5 + 1e-12, 1.0], dtype=torch.float64)
    target = torch.tensor([0, 1, 1, 1])
    # bin 0: conf 0.25, acc 0.5; bin 1: conf ~0.75, acc 1 -> gaps 0.25 each
    assert binary_calibration_error(preds, target, n_bins=2, norm="max").item() == pytest.approx(0.25)
    # were 0.5 in bin 1, bin 0 would hold only the 0 (gap 0) and the max would differ
    assert binary_calibration_error(preds[:2], target[:2], n_bins=2, norm="max").item() == pytest.approx(0.25)
    assert_close(binary_calibration_error(preds, target, n_bins=2), _binary_oracle([(preds, target)], "l1", 2))


def test_float32_confidences_and_default_bins():
    expected = _binary_oracle(BIN32, "l1", 15)
    assert_close(binary_calibration_error(*concat(BIN32)), expected)


def test_perfectly_calibrated_bins_give_zero_and_empty_gives_nan():
    preds = torch.tensor([0.25] * 4 + [0.75] * 4, dtype=torch.float64)
    target = torch.tensor([1, 0, 0, 0, 1, 1, 1, 0])
    for norm in ("l1", "l2", "max"):
        assert binary_calibration_error(preds, target, n_bins=4, norm=norm).item() == 0.0
    assert torch.isnan(BinaryCalibrationError().compute())
    assert torch.isnan(binary_brier_score(torch.empty(0), torch.empty(0, dtype=torch.long)))


def test_collection_shares_bins_across_norms():
    mc = MetricCollection({norm: BinaryCalibrationError(n_bins=N_BINS, norm=norm) for norm in ("l1", "l2", "max")})
    assert len({m.stats_key for m in mc.values()}) == 1
    for b in BIN:
        mc.update(*b)
    for norm, value in mc.compute().items():
        assert_close(value, _binary_oracle(BIN, norm), path=norm)


def test_validate_args_false_skips_value_checks():
    m = BinaryCalibrationError(validate_args=False)
    m.update(torch.tensor([0.2, 0.9]), torch.tensor([0, 2]))  # a target 2 is not checked
    assert m.compute().isfinite()


def _both_paths(fn, *args):
    """``fn(*args)`` on the torch path and on the numpy path (the default one on CPU)."""
    with _backend.force("torch"):
        want = fn(*args)
    with _backend.force("numpy"):
        got = fn(*args)
    return got, want


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("weighted", [False, True])
def test_numpy_and_torch_statistics_agree(dtype, weighted):
    """The CPU path (numpy on zero-copy views) and the path of other devices (torch) give the same bins and
    Brier sums, with the same keys and dtypes; the oracle tests exercise the numpy path, this pins torch to it."""
    preds, target = concat(BIN)
    preds = preds.to(dtype)
    w = torch.rand(preds.shape[0], generator=torch.Generator().manual_seed(3)) if weighted else None
    for bools in (False, True):
        y = target.bool() if bools else target
        for fn, args in ((C._binary_bin_stats, (preds, y, 7, w)), (C._binary_brier_stats, (preds, y, w))):
            got, want = _both_paths(fn, *args)
            assert {k: v.dtype for k, v in got.items()} == {k: v.dtype for k, v in want.items()}
            assert_close(got, want, rtol=1e-13)
    probs, labels = concat(MC3)
    probs = probs.to(dtype)
    w = w[: probs.shape[0]] if weighted else None
    assert_close(*_both_paths(C._multiclass_bin_stats, probs, labels, 7, w), rtol=1e-13)
    assert_close(*_both_paths(C._multiclass_brier_stats, probs, labels, w), rtol=1e-13)


def test_float32_bins_by_arithmetic_equal_the_float64_search():
    """float32 confidences are binned as ceil(c n) - 1 (exact, see ``_bin_index``): it must agree with
    the binary search over the float64 boundaries i/n on every float32 at, just above and just below them, in
    both namespaces."""
    rng = np.random.default_rng(0)
    for n in [*range(1, 64), 100, 1000, 1023, 3**9, 10**5]:
        edges = (np.arange(n + 1) / n).astype(np.float32)
        conf = np.concatenate([edges, np.nextafter(edges, np.float32(2)), np.nextafter(edges, np.float32(-1)),
                               rng.random(200, dtype=np.float32)])
        conf = conf[(conf >= 0) & (conf <= 1)]
        want = np.searchsorted(np.arange(1, n) / n, conf.astype(np.float64))
        np.testing.assert_array_equal(C._bin_index(NUMPY, conf, n), want, err_msg=f"n_bins={n}")
        got = C._bin_index(torch_namespace(torch.float64), torch.from_numpy(conf), n).numpy()
        np.testing.assert_array_equal(got, want, err_msg=f"n_bins={n} (torch)")


# ------------------------------------------------------------------------------------------------ errors
BINARY_BAD = [
    ((torch.tensor([0.25, 1.5]), torch.tensor([0, 1])), ValueError,
     r"`preds` to lie in \[0.0, 1.0\], got values in \[0.25, 1.5\] \(probabilities are used as given"),
    ((torch.tensor([0.2, 0.5]), torch.tensor([0, 2])), ValueError, r"`target` to hold only 0 and 1 .*got value 2"),
    ((torch.tensor([0.2, float("nan")]), torch.tensor([0, 1])), ValueError, r"`preds` to contain no NaN, got 1"),
    ((torch.tensor([1, 0]), torch.tensor([0, 1])), TypeError, r"`preds` to have a floating dtype, got torch.int64"),
    ((torch.tensor([0.2, 0.5]), torch.tensor([0.0, 0.5])), ValueError, r"`target` to hold only 0 and 1 .*0.5"),
    ((torch.tensor([0.2, 0.5]), torch.tensor([0, 1, 1])), ValueError, r"same shape, got \(2,\) and \(3,\)"),
    ((torch.rand(2, 2), torch.tensor([0, 1])), ValueError, r"`preds` to be 1-D, got shape \(2, 2\)"),
]


@pytest.mark.parametrize("cls", [BinaryBrierScore, BinaryCalibrationError])
@pytest.mark.parametrize("bad, exc, match", BINARY_BAD)
def test_binary_rejects(cls, bad, exc, match):
    check_rejects(cls, BIN[:3], bad, exc, match)


MULTICLASS_BAD = [
    ((torch.full((2, 3), 0.3), torch.tensor([0, 3])), ValueError,
     r"`target` to lie in \[0, 2\], got values in \[0, 3\] \(class indices\)"),
    ((torch.full((2, 4), 0.25), torch.tensor([0, 1])), ValueError,
     r"`preds` to have 3 columns \(`num_classes`\), got shape \(2, 4\)"),
    ((torch.full((2, 3), 0.3), torch.tensor([0, 1, 2])), ValueError,
     r"`preds` \(N, C\) and `target` \(N,\) to have the same N, got shapes \(2, 3\) and \(3,\)"),
    ((torch.full((2, 3), -0.1), torch.tensor([0, 1])), ValueError, r"`preds` to lie in \[0.0, 1.0\]"),
    ((torch.full((2, 3), 0.3), torch.tensor([True, False])), TypeError, r"`target` to have an integer dtype"),
    ((torch.full((2,), 0.3), torch.tensor([0, 1])), ValueError, r"`preds` to be 2-D, got shape \(2,\)"),
]


@pytest.mark.parametrize("cls", [MulticlassBrierScore, MulticlassCalibrationError])
@pytest.mark.parametrize("bad, exc, match", MULTICLASS_BAD)
def test_multiclass_rejects(cls, bad, exc, match):
    check_rejects(partial(cls, num_classes=3), MC3[:3], bad, exc, match)


def test_rejects_bad_options():
    with pytest.raises(ValueError, match=r"`n_bins` to be a positive int, got 0"):
        BinaryCalibrationError(n_bins=0)
    with pytest.raises(ValueError, match=r"`norm` to be one of \('l1', 'l2', 'max'\), got 'l3'"):
        multiclass_calibration_error(torch.full((1, 2), 0.5), torch.tensor([0]), norm="l3")
    with pytest.raises(ValueError, match=r"`num_classes` to be a positive int, got 0"):
        MulticlassBrierScore(num_classes=0)
    with pytest.raises(ValueError, match=r"`preds` to have at least 2 columns, got shape \(2, 1\)"):
        multiclass_brier_score(torch.full((2, 1), 0.5), torch.tensor([0, 0]))
    assert np.isfinite(multiclass_brier_score(torch.full((2, 2), 0.5), torch.tensor([0, 1]), num_classes=2).item())
