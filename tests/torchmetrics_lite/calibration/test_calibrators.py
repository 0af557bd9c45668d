"""PlattScaler against an unpenalised logistic regression and a scipy optimum; IsotonicCalibrator against
scikit-learn's IsotonicRegression(out_of_bounds="clip"), also on scores closer than float64's resolution; both must
lower ECE on held-out miscalibrated data."""
import numpy as np
import pytest
import torch
from scipy.optimize import minimize
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression

from torchmetrics_lite import IsotonicCalibrator, PlattScaler
from torchmetrics_lite.functional import binary_calibration_error


def _data(n, seed, *, decimals=None):
    """True probability sigmoid(z); the model's scores are sigmoid(3 z + 1): overconfident and biased."""
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(n, generator=g, dtype=torch.float64)
    target = (torch.rand(n, generator=g, dtype=torch.float64) < torch.sigmoid(z)).long()
    scores = torch.sigmoid(3 * z + 1)
    if decimals is not None:
        scores = scores.round(decimals=decimals)  # many exact ties
    return scores, target


# ----------------------------------------------------------------------------------------------- isotonic
@pytest.mark.parametrize("n, decimals", [(7, 1), (300, 2), (5000, None)])
@pytest.mark.parametrize("increasing", [True, False])
@pytest.mark.parametrize("max_rounds", [0, 2, 16], ids=["sequential", "mixed", "vectorised"])
def test_isotonic_matches_sklearn(n, decimals, increasing, max_rounds, monkeypatch):
    monkeypatch.setattr(IsotonicCalibrator, "max_rounds", max_rounds)
    scores, target = _data(n, n, decimals=decimals)
    if not increasing:
        scores = -scores
    ours = IsotonicCalibrator(increasing=increasing).fit(scores, target)
    ref = IsotonicRegression(out_of_bounds="clip", increasing=increasing).fit(scores.numpy(), target.numpy())
    np.testing.assert_allclose(ours.X_thresholds_.numpy(), ref.X_thresholds_, rtol=0, atol=0)
    np.testing.assert_allclose(ours.y_thresholds_.numpy(), ref.y_thresholds_, rtol=1e-12, atol=1e-12)
    g = torch.Generator().manual_seed(1)
    outside_too = torch.rand(500, generator=g, dtype=torch.float64) * 1.4 - 0.2
    queries = torch.cat([scores, outside_too if increasing else -outside_too])
    np.testing.assert_allclose(ours.predict_proba(queries).numpy(), ref.predict(queries.numpy()), rtol=0, atol=1e-12)


def test_isotonic_real_targets_and_ties_match_sklearn():
    g = torch.Generator().manual_seed(3)
    x = torch.randint(0, 40, (400,), generator=g).double() / 4
    y = torch.sin(x) + x / 3 + torch.randn(400, generator=g, dtype=torch.float64)
    ours = IsotonicCalibrator().fit(x, y)
    ref = IsotonicRegression(out_of_bounds="clip").fit(x.numpy(), y.numpy())
    q = torch.linspace(-1, 12, 301, dtype=torch.float64)
    np.testing.assert_allclose(ours.predict_proba(q).numpy(), ref.predict(q.numpy()), rtol=0, atol=1e-12)


def test_isotonic_single_point_is_constant_and_dtype_follows_scores():
    iso = IsotonicCalibrator().fit(torch.tensor([0.3, 0.3, 0.3]), torch.tensor([1, 0, 1]))
    out = iso.predict_proba(torch.tensor([0.0, 0.3, 1.0]))
    assert out.dtype == torch.float32
    assert out.tolist() == pytest.approx([2 / 3] * 3)
    assert iso.predict_proba(torch.tensor([1, 2])).dtype == torch.float64


# -------------------------------------------------------------------------------------------------- Platt
def test_platt_without_smoothing_is_logistic_regression():
    scores, target = _data(2000, 5)
    logit = torch.logit(scores)
    ours = PlattScaler(target_smoothing=False).fit(logit, target)
    ref = LogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(logit.numpy()[:, None], target.numpy())
    assert ours.coef_.item() == pytest.approx(ref.coef_[0, 0], abs=1e-6)
    assert ours.intercept_.item() == pytest.approx(ref.intercept_[0], abs=1e-6)
    # the data were made with logit(scores) = 3 z + 1 and true logit z: a = 1/3, b = -1/3 (up to noise)
    assert ours.coef_.item() == pytest.approx(1 / 3, abs=0.05)


def test_platt_with_smoothing_matches_scipy_optimum():
    scores, target = _data(500, 6)
    s, y = scores.numpy(), target.numpy()
    n_pos, n_neg = y.sum(), len(y) - y.sum()
    t = np.where(y == 1, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))

    def nll(theta):
        z = theta[0] * s + theta[1]
        return np.sum(np.logaddexp(0, z) - t * z)

    ref = minimize(nll, np.zeros(2), method="BFGS", options={"gtol": 1e-10}).x
    ours = PlattScaler().fit(scores, target)
    assert [ours.coef_.item(), ours.intercept_.item()] == pytest.approx(list(ref), abs=1e-5)


def test_platt_separable_data_stays_finite_with_smoothing():
    scores = torch.tensor([0.1, 0.2, 0.8, 0.9], dtype=torch.float64)
    ours = PlattScaler().fit(scores, torch.tensor([0, 0, 1, 1]))
    p = ours.predict_proba(scores)
    assert torch.isfinite(ours.coef_) and (p[:2] < 0.5).all() and (p[2:] > 0.5).all()
    assert ours.predict_proba(scores.float()).dtype == torch.float32


# ------------------------------------------------------------------------------- held-out calibration
@pytest.mark.parametrize("calibrator", [PlattScaler(), IsotonicCalibrator()], ids=["platt", "isotonic"])
def test_fitting_on_one_split_lowers_ece_on_another(calibrator):
    fit_scores, fit_target = _data(4000, 10)
    test_scores, test_target = _data(4000, 11)
    before = binary_calibration_error(test_scores, test_target, n_bins=10).item()
    calibrated = calibrator.fit(fit_scores, fit_target).predict_proba(test_scores)
    after = binary_calibration_error(calibrated, test_target, n_bins=10).item()
    assert before > 0.05
    assert after < before / 2


# ------------------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize("cls", [PlattScaler, IsotonicCalibrator])
def test_rejects(cls):
    with pytest.raises(RuntimeError, match=r"Expected `fit` to be called before `predict_proba`"):
        cls().predict_proba(torch.rand(3))
    with pytest.raises(ValueError, match=r"`scores` and `target` to have the same shape, got \(3,\) and \(2,\)"):
        cls().fit(torch.rand(3), torch.tensor([0, 1]))
    with pytest.raises(ValueError, match=r"`scores` to be 1-D, got shape \(3, 1\)"):
        cls().fit(torch.rand(3, 1), torch.rand(3, 1))
    with pytest.raises(ValueError, match=r"`scores` to hold at least one sample, got shape \(0,\)"):
        cls().fit(torch.empty(0), torch.empty(0))
    with pytest.raises(ValueError, match=r"`scores` to contain no NaN, got 1 NaN"):
        cls().fit(torch.tensor([0.1, float("nan")]), torch.tensor([0, 1]))
    fitted = cls().fit(torch.tensor([0.1, 0.9]), torch.tensor([0, 1]))
    with pytest.raises(ValueError, match=r"`scores` to be a real 1-D tensor, got shape \(2, 2\)"):
        fitted.predict_proba(torch.rand(2, 2))
    with pytest.raises(TypeError, match=r"`scores` to be a torch.Tensor, got list"):
        fitted.predict_proba([0.5])


def test_platt_rejects_targets_outside_unit_interval_and_isotonic_rejects_non_bool_flag():
    with pytest.raises(ValueError, match=r"`target` to lie in \[0.0, 1.0\], got values in \[0.0, 2.0\]"):
        PlattScaler().fit(torch.rand(3), torch.tensor([0, 1, 2]))
    with pytest.raises(TypeError, match=r"`increasing` to be a bool, got str"):
        IsotonicCalibrator(increasing="auto")


# ------------------------------------------------- isotonic on scores closer than float64's resolution
# pooled as scikit-learn's IsotonicRegression (``_make_unique``'s tolerance), so that no slope overflows, and clipped
# outside the fitted range (``out_of_bounds="clip"``, as scikit-learn's CalibratedClassifierCV)
CLOSE_STEPS = [0.0, 1e-308, 5e-324, 1e-16, 4e-16, 9e-16, 1e-15, 2e-15, 0.1]


def test_close_scores_pool_as_sklearn():
    rng = np.random.default_rng(35)
    for _ in range(120):
        n = int(rng.integers(2, 40))
        x = rng.choice([0.0, 0.3, 1.0, 1e-300]) + np.cumsum(rng.choice(CLOSE_STEPS, n))
        rng.shuffle(x)
        y = rng.random(n)
        want = IsotonicRegression(out_of_bounds="clip").fit(x, y)
        got = IsotonicCalibrator().fit(torch.from_numpy(x), torch.from_numpy(y))
        np.testing.assert_array_equal(got.X_thresholds_.numpy(), want.X_thresholds_)
        np.testing.assert_allclose(got.y_thresholds_.numpy(), want.y_thresholds_, rtol=0, atol=1e-12)
        q = np.concatenate([x, [x.min() - 1.0, x.min() - 1e-300, x.max() + 1.0], rng.uniform(x.min(), x.max(), 9)])
        pred = got.predict_proba(torch.from_numpy(q)).numpy()
        assert np.isfinite(pred).all()
        np.testing.assert_allclose(pred, want.predict(q), rtol=0, atol=1e-9)


def test_subnormal_gap_gives_no_inf():
    x = torch.tensor([0.0, 1e-308, 1.0], dtype=torch.float64)
    iso = IsotonicCalibrator().fit(x, torch.tensor([0.0, 1.0, 1.0], dtype=torch.float64))
    assert iso.X_thresholds_.tolist() == [0.0, 1.0]  # 0 and 1e-308 pooled at 0, target 0.5
    assert iso.y_thresholds_.tolist() == [0.5, 1.0]
    out = iso.predict_proba(torch.tensor([-1.0, 5e-309, 0.5, 2.0], dtype=torch.float64))
    assert out.tolist() == [0.5, 0.5 + 0.5 * 5e-309, 0.75, 1.0]
