"""The float32 policy of a device without float64 (MPS), emulated on the CPU (``tests/helpers/no_float64.py``):
every public calibration function and module, and both calibrators, run there without making a float64 tensor,
and their float32 values are close to the float64 ones (rtol 1e-5: the inputs are float32, so both runs see the
same numbers). The bins are exactly the float64 bins (:func:`test_float32_bins_equal_the_float64_search`)."""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest
import torch

import torchmetrics_lite.calibration as module_calibration
import torchmetrics_lite.calibrators as calibrators
import torchmetrics_lite.functional.calibration as functional_calibration
from tests.helpers.no_float64 import assert_float32_close, check_float32_policy, float64_less_cpu, weighted_functional
from torchmetrics_lite.calibration import (
    BinaryBrierScore,
    BinaryCalibrationError,
    MulticlassBrierScore,
    MulticlassCalibrationError,
)
from torchmetrics_lite.calibrators import IsotonicCalibrator, PlattScaler
from torchmetrics_lite.functional.calibration import (
    _bin_index_float32,
    binary_brier_score,
    binary_calibration_error,
    multiclass_brier_score,
    multiclass_calibration_error,
)

Batch = Tuple[torch.Tensor, ...]
C = 4


def _batches(kind: str, seed: int) -> List[Batch]:
    """float32 ``(preds, target[, weight])`` batches: binary or multiclass probabilities and labels."""
    g = torch.Generator().manual_seed(seed)
    out: List[Batch] = []
    for i, n in enumerate([60, 0, 45, 38]):  # an empty batch in the middle
        if kind.startswith("multiclass"):
            preds = torch.softmax(2 * torch.randn(n, C, generator=g), dim=1)
            target = torch.randint(0, C, (n,), generator=g)
        else:
            preds = torch.rand(n, generator=g)
            if "edges" in kind:  # every value a float32 bin boundary i/10 rounded, which float32 compares misplace
                preds = (torch.randint(0, 11, (n,), generator=g) / 10).float()
            target = (torch.rand(n, generator=g) < preds).long()
            if "float target" in kind:
                target = target.float()
            if "bfloat16" in kind:
                preds = preds.bfloat16()
        batch: Batch = (preds, target)
        if "weighted" in kind or (kind.endswith("mixed") and i % 2):
            batch += (torch.rand(n, generator=g) * 3,)
        out.append(batch)
    return out


BINS = {"n_bins": 10}
# (id, module, module options, function (None: the stream mixes weighted and unweighted batches), its options, kind)
CASES: List[Tuple[str, type, Dict[str, Any], Optional[Callable[..., torch.Tensor]], Dict[str, Any], str]] = [
    ("brier", BinaryBrierScore, {}, binary_brier_score, {}, "binary"),
    ("brier weighted", BinaryBrierScore, {}, binary_brier_score, {}, "binary weighted"),
    ("brier float target", BinaryBrierScore, {}, binary_brier_score, {}, "binary float target"),
    ("brier bfloat16", BinaryBrierScore, {}, binary_brier_score, {}, "binary bfloat16"),
    ("brier mixed", BinaryBrierScore, {}, None, {}, "binary mixed"),
    ("mc brier", MulticlassBrierScore, {"num_classes": C}, multiclass_brier_score, {}, "multiclass"),
    ("mc brier weighted", MulticlassBrierScore, {"num_classes": C}, multiclass_brier_score, {}, "multiclass weighted"),
    ("ece", BinaryCalibrationError, {}, binary_calibration_error, {}, "binary"),
    ("ece edges", BinaryCalibrationError, BINS, binary_calibration_error, BINS, "binary edges"),
    ("rms edges weighted", BinaryCalibrationError, {**BINS, "norm": "l2"}, binary_calibration_error,
     {**BINS, "norm": "l2"}, "binary edges weighted"),
    ("mce", BinaryCalibrationError, {"norm": "max"}, binary_calibration_error, {"norm": "max"}, "binary"),
    ("ece mixed", BinaryCalibrationError, BINS, None, {}, "binary edges mixed"),
    ("ece bfloat16 float target", BinaryCalibrationError, {}, binary_calibration_error, {},
     "binary bfloat16 float target"),
    ("mc ece", MulticlassCalibrationError, {"num_classes": C}, multiclass_calibration_error, {}, "multiclass"),
    ("mc rms weighted", MulticlassCalibrationError, {"num_classes": C, "norm": "l2"}, multiclass_calibration_error,
     {"norm": "l2"}, "multiclass weighted"),
    ("mc mce 3 bins", MulticlassCalibrationError, {"num_classes": C, "norm": "max", "n_bins": 3},
     multiclass_calibration_error, {"norm": "max", "n_bins": 3}, "multiclass"),
    ("mc ece mixed", MulticlassCalibrationError, {"num_classes": C}, None, {}, "multiclass mixed"),
]


@pytest.mark.parametrize("name, module, options, function, fn_options, kind", CASES, ids=[c[0] for c in CASES])
def test_float32_policy(monkeypatch, name, module, options, function, fn_options, kind):
    functional = None if function is None else weighted_functional(function, **fn_options)
    check_float32_policy(monkeypatch, partial(module, **options), _batches(kind, seed=len(name)), functional)


@pytest.mark.parametrize("n_bins", [1, 3, 7, 10, 15, 100, 12345, 2**16 + 1])
def test_float32_bins_equal_the_float64_search(n_bins):
    """Every float32 boundary ``i / n`` (rounded either way) and its neighbours, random values, 0, the smallest
    subnormal and unchecked values (negative, above 1, inf, NaN) land in the float64 search's bin; comparing
    float32 values with float32 boundaries would not (checked too, so the test can fail)."""
    g = torch.Generator().manual_seed(n_bins % 1000)
    edges32 = (torch.arange(0, n_bins + 1, dtype=torch.float64) / n_bins).float()
    up, down = torch.tensor(2.0), torch.tensor(-1.0)
    special = torch.tensor([0.0, -0.0, 1e-45, 1e-40, 1.0, 1.5, -1.0, float("inf"), float("nan")])
    conf = torch.cat([edges32, edges32.nextafter(up), edges32.nextafter(down), torch.rand(5000, generator=g), special])
    want = torch.bucketize(conf.double(), torch.arange(1, n_bins, dtype=torch.float64) / n_bins)
    assert torch.equal(_bin_index_float32(conf, n_bins), want)
    if n_bins >= 3:
        naive = torch.bucketize(conf, torch.arange(1, n_bins, dtype=torch.float32) / n_bins)
        assert not torch.equal(naive, want)


# ------------------------------------------------------------------------------------------------ calibrators
def _held_out(n: int, seed: int) -> Tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(n, generator=g)
    return 3 * z + 1, (torch.rand(n, generator=g) < torch.sigmoid(z)).long()


def _weight(n: int, weighted: bool) -> Optional[torch.Tensor]:
    """Sample weights in [0, 2) (some exactly 0), float32, or None."""
    if not weighted:
        return None
    w = torch.rand(n, generator=torch.Generator().manual_seed(n)) * 2
    w[::7] = 0.0
    return w


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("target_smoothing", [True, False])
@pytest.mark.parametrize("n", [50, 3000])
def test_platt_fits_and_predicts_in_float32(monkeypatch, target_smoothing, n, weighted):
    """Platt fits on the device in float32; the coefficients agree with the float64 fit to a few float32 ulps
    (the Newton steps the float32 likelihood cannot judge are taken while they shrink the gradient)."""
    scores, target = _held_out(n, seed=n)
    weight = _weight(n, weighted)
    queries = torch.linspace(-6, 6, 101)
    ref = PlattScaler(target_smoothing=target_smoothing).fit(scores, target, weight)
    with float64_less_cpu(monkeypatch):
        platt = PlattScaler(target_smoothing=target_smoothing).fit(scores, target, weight)
        got = platt.predict_proba(queries)
        from_int = platt.predict_proba(torch.tensor([-3, 0, 2]))
    assert_float32_close([platt.coef_, platt.intercept_], [ref.coef_, ref.intercept_], rtol=2e-6)
    assert_float32_close(got, ref.predict_proba(queries), rtol=1e-6)
    assert from_int.dtype == torch.float32  # integer scores: float_dtype, not float64


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("increasing", [True, False])
def test_isotonic_fits_on_the_host_and_hands_back_float32(monkeypatch, increasing, weighted):
    """The isotonic fit runs in float64 numpy on the host: its points are the float64 fit's, rounded to float32."""
    scores, target = _held_out(400, seed=1)
    weight = _weight(400, weighted)
    scores = torch.sigmoid(scores).mul(100).round().div(100)  # many exact ties
    queries = torch.linspace(-0.2, 1.2, 141)
    ref = IsotonicCalibrator(increasing=increasing).fit(scores, target, weight)
    with float64_less_cpu(monkeypatch):
        iso = IsotonicCalibrator(increasing=increasing).fit(scores, target, weight)
        got = iso.predict_proba(queries)
    assert iso.X_thresholds_.dtype == iso.y_thresholds_.dtype == iso.X_min_.dtype == torch.float32
    assert torch.equal(iso.X_thresholds_, ref.X_thresholds_.float())
    assert torch.equal(iso.y_thresholds_, ref.y_thresholds_.float())
    assert_float32_close(got, ref.predict_proba(queries))


@pytest.mark.parametrize("make", [PlattScaler, IsotonicCalibrator])
def test_calibrators_move_between_devices(monkeypatch, make):
    """Fitted with float64 parameters, predicting on the device without float64 (float32, no float64 made there);
    fitted there, predicting on a float64 device (upcast: float64 results)."""
    scores, target = _held_out(300, seed=2)
    queries = torch.linspace(-6, 6, 61, dtype=torch.float64)
    host_fit = make().fit(scores, target)
    want = host_fit.predict_proba(queries)
    with float64_less_cpu(monkeypatch):
        got = host_fit.predict_proba(queries.float())
        device_fit = make().fit(scores, target)
    assert_float32_close(got, want)
    back = device_fit.predict_proba(queries)
    assert back.dtype == torch.float64
    torch.testing.assert_close(back, want, rtol=1e-5, atol=1e-6)


def test_every_public_name_is_covered():
    covered = {c[1].__name__ for c in CASES} | {c[3].__name__ for c in CASES if c[3] is not None}
    covered |= {PlattScaler.__name__, IsotonicCalibrator.__name__}  # the calibrator tests above
    public = [*functional_calibration.__all__, *module_calibration.__all__, *calibrators.__all__]
    assert set(public) - covered == set()
